"""Type detection from content (libmagic), never from the file name alone.

libmagic reads the leading bytes. On top of it:

* ZIP containers are told apart by their members: OOXML (``[Content_Types].xml``
  with ``word/``, ``xl/`` or ``ppt/``), EPUB (a ``mimetype`` member), OpenDocument;
  a ZIP that only *claims* to be a document is reported as a ZIP.
* JSON is checked for the shape of a Jupyter notebook.
* Text that libmagic calls plain is recognised as CSV/TSV only when its content
  parses as a consistent table (the name is a hint, never proof).
* A file that is also a valid ZIP archive while detected as something else is
  flagged as a polyglot.

The declared name's type (``mimetypes``) is recorded beside the detected one,
and :attr:`Detection.mismatch` says when they disagree.
"""

from __future__ import annotations

import csv
import io
import json
import mimetypes
import posixpath
import zipfile
from dataclasses import dataclass, field

import magic

__all__ = ["OOXML", "Detection", "detect"]

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
OOXML = {DOCX, XLSX, PPTX}
EPUB = "application/epub+zip"
IPYNB = "application/x-ipynb+json"
ZIP = "application/zip"

mimetypes.add_type(IPYNB, ".ipynb")
mimetypes.add_type("text/markdown", ".md")
mimetypes.add_type("message/rfc822", ".eml")
mimetypes.add_type("application/vnd.ms-outlook", ".msg")
mimetypes.add_type("image/webp", ".webp")

_ENCODED = {"gzip": "application/gzip", "bzip2": "application/x-bzip2", "xz": "application/x-xz"}

# Families that are one kind of thing for the user, whatever the exact label.
_FAMILIES = [
    {
        "text/plain",
        "text/x-python",
        "text/x-script.python",
        "text/x-c",
        "text/x-c++",
        "text/x-java",
        "text/x-shellscript",
        "text/markdown",
        "text/x-diff",
        "text/x-makefile",
        "application/javascript",
        "text/javascript",
        "application/x-sh",
        "application/toml",
        "application/x-yaml",
        "text/x-yaml",
        "text/x-tex",
        "text/x-ruby",
        "text/x-php",
    },
    {"application/json", "text/plain"},
    {"text/csv", "text/tab-separated-values", "text/plain"},
    {"application/xml", "text/xml", "image/svg+xml"},
    {"text/html", "application/xhtml+xml", "text/xml", "application/xml"},
    {"image/bmp", "image/x-ms-bmp"},
    {"application/gzip", "application/x-gzip"},
    {"application/x-tar", "application/x-gtar"},
    {"message/rfc822", "text/plain"},
    {IPYNB, "application/json"},
    {"application/vnd.ms-outlook", "application/x-ole-storage", "application/CDFV2"},
]


@dataclass(frozen=True, slots=True)
class Detection:
    mime: str
    """What the content is."""
    description: str
    declared_name: str
    declared_mime: str | None
    """What the name suggests (``None`` when the extension is unknown)."""
    notes: tuple[str, ...] = field(default=())
    """What detection noticed: a polyglot, a ZIP posing as a document, …"""

    @property
    def extension(self) -> str:
        return posixpath.splitext(self.declared_name)[1].lower()

    @property
    def mismatch(self) -> bool:
        """The name suggests a different kind of file than the content is."""
        if self.declared_mime is None or self.declared_mime == self.mime:
            return False
        if self.mime == "application/x-empty":
            return False  # an empty file is reported as empty, not as a mismatch
        return not any(self.mime in family and self.declared_mime in family for family in _FAMILIES)


def _zip_kind(data: bytes) -> tuple[str, str | None]:
    """(mime, note) for a ZIP container, judged by its members."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist()[:10_000])
            if "mimetype" in names:
                info = archive.getinfo("mimetype")
                if info.file_size < 200:
                    kind = archive.read("mimetype").decode("ascii", "replace").strip()
                    if kind == EPUB:
                        return EPUB, None
                    if kind.startswith("application/vnd.oasis.opendocument."):
                        return kind, None
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, NotImplementedError):
        return ZIP, None
    if "[Content_Types].xml" in names:
        if "word/document.xml" in names:
            return DOCX, None
        if "xl/workbook.xml" in names:
            return XLSX, None
        if "ppt/presentation.xml" in names:
            return PPTX, None
        return ZIP, "an Office container without a document, workbook or presentation part"
    return ZIP, None


def _is_notebook(data: bytes) -> bool:
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "nbformat" in doc and isinstance(doc.get("cells"), list)


def _looks_tabular(text: str) -> str | None:
    """``text/csv`` or ``text/tab-separated-values`` when the text is a consistent table."""
    lines = [line for line in text.splitlines()[:50] if line.strip()]
    if len(lines) < 2:
        return None
    try:
        dialect = csv.Sniffer().sniff("\n".join(lines[:20]), delimiters=",;\t|")
    except csv.Error:
        return None
    widths = {len(row) for row in csv.reader(lines, dialect)}
    if len(widths) == 1 and widths.pop() >= 2:
        return "text/tab-separated-values" if dialect.delimiter == "\t" else "text/csv"
    return None


_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_VAGUE = {"application/x-ole-storage", "application/CDFV2", "application/octet-stream"}
# A stream name (UTF-16LE in the compound file's directory) that says what it holds.
_OLE_STREAMS = (
    ("__substg1.0_", "application/vnd.ms-outlook"),
    ("Workbook", "application/vnd.ms-excel"),
    ("WordDocument", "application/msword"),
    ("PowerPoint Document", "application/vnd.ms-powerpoint"),
)


def _ole_kind(data: bytes, fallback: str) -> str:
    """What an OLE compound file holds when libmagic cannot tell (it gives up on
    some valid files: "Can't read SAT"), from its directory's stream names."""
    for name, mime in _OLE_STREAMS:
        if name.encode("utf-16-le") in data:
            return mime
    return fallback


def detect(data: bytes, declared_name: str) -> Detection:
    """Detect the type of ``data`` (reads at most 1 MiB for libmagic)."""
    head = data[: 1 << 20]
    notes: list[str] = []
    if not head:
        mime, description = "application/x-empty", "empty"
    else:
        mime = magic.from_buffer(head, mime=True) or "application/octet-stream"
        description = magic.from_buffer(head) or mime
    declared_mime, encoding = mimetypes.guess_type(posixpath.basename(declared_name), strict=False)
    if encoding in _ENCODED:  # "x.tar.gz" is a gzip stream (holding a tar)
        declared_mime = _ENCODED[encoding]
    if mime == "image/x-ms-bmp":
        mime = "image/bmp"
    if data[:4] == b"PK\x03\x04" or mime in {ZIP, "application/octet-stream"} | OOXML | {EPUB}:
        if data[:4] in {b"PK\x03\x04", b"PK\x05\x06"}:
            zipped, note = _zip_kind(data)
            if mime in OOXML | {EPUB} and zipped != mime:
                notes.append(f"libmagic said {mime}, but the ZIP's members say {zipped}")
            mime = zipped
            if note:
                notes.append(note)
    elif data[:8] == _OLE and mime in _OLE_VAGUE:
        mime = _ole_kind(data, mime)
    elif mime == "application/json" or (mime == "text/plain" and data.lstrip()[:1] == b"{"):
        if _is_notebook(data):
            mime = IPYNB
    if (
        mime == "text/plain"
        and declared_mime in {"application/json", IPYNB}
        and data.lstrip()[:1] in {b"{", b"["}
    ):
        mime = IPYNB if _is_notebook(data) else "application/json"  # shaped like JSON: judge it
    if mime == "text/plain" and data:
        try:
            kind = _looks_tabular(data[:65_536].decode("utf-8", "ignore"))
        except Exception:  # the sniffer is heuristic: a failure means "not a table"
            kind = None
        if kind and (
            declared_mime in {"text/csv", "text/tab-separated-values"}
            or posixpath.splitext(declared_name)[1].lower() in {".csv", ".tsv", ".tab"}
        ):
            mime = kind
    if mime not in {ZIP} | OOXML | {EPUB} and not mime.startswith("application/vnd.oasis"):
        tail = data[-65_600:]
        if b"PK\x05\x06" in tail and b"PK\x01\x02" in data:
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as archive:
                    count = len(archive.infolist())
                notes.append(
                    f"polyglot: the file is also a ZIP archive ({count} members) that was not read"
                )
            except (zipfile.BadZipFile, OSError, ValueError):
                pass
    return Detection(
        mime=mime,
        description=description,
        declared_name=declared_name,
        declared_mime=declared_mime,
        notes=tuple(notes),
    )
