"""Type detection from content (libmagic), never from the file name alone."""

from __future__ import annotations

import mimetypes
import posixpath
from dataclasses import dataclass

import magic

__all__ = ["Detection", "detect"]

# libmagic names some text types in ways that differ from what a name implies;
# these are the same family, not a mismatch.
_EQUIVALENT = {
    "text/x-python": {"text/plain", "text/x-script.python"},
    "text/plain": {
        "text/x-python",
        "text/x-c",
        "text/x-shellscript",
        "text/markdown",
        "text/csv",
        "application/json",
        "text/x-script.python",
    },
}


@dataclass(frozen=True, slots=True)
class Detection:
    mime: str
    """What the content is, per libmagic."""
    description: str
    declared_name: str
    declared_mime: str | None
    """What the name suggests (``None`` when the extension is unknown)."""

    @property
    def mismatch(self) -> bool:
        """The name suggests a different family of type than the content has."""
        if self.declared_mime is None or self.declared_mime == self.mime:
            return False
        if self.mime.startswith("text/") and self.declared_mime.startswith("text/"):
            return False
        if self.declared_mime in _EQUIVALENT.get(self.mime, set()):
            return False
        return not (self.mime.startswith("text/") and self.declared_mime == "application/json")


def detect(data: bytes, declared_name: str) -> Detection:
    """Detect the type of ``data``. Reads at most the first 1 MiB."""
    head = data[: 1 << 20]
    if not head:
        mime, description = "application/x-empty", "empty"
    else:
        mime = magic.from_buffer(head, mime=True) or "application/octet-stream"
        description = magic.from_buffer(head) or mime
    declared_mime, _ = mimetypes.guess_type(posixpath.basename(declared_name), strict=False)
    return Detection(
        mime=mime,
        description=description,
        declared_name=declared_name,
        declared_mime=declared_mime,
    )
