"""What a user may pass as an attachment or image, turned into content-addressed refs."""

from __future__ import annotations

import errno
import hashlib
import mimetypes
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from donecheck.actors import calls
from donecheck.actors.deployment import Deployment
from donecheck.actors.errors import AttachmentError
from donecheck.actors.messages import ImageRole, ParseRequest
from donecheck.parsers.material import Material, sha256_ref

__all__ = [
    "AttachmentInput",
    "Loaded",
    "load_attachment",
    "submit_parse",
    "too_large_material",
    "unreadable_material",
]

AttachmentInput: TypeAlias = "str | os.PathLike[str] | bytes | tuple[str, bytes]"
"""A path, raw bytes (named ``attachment-<n>``), or ``(name, bytes)``."""


@dataclass(frozen=True, slots=True)
class Loaded:
    name: str
    data: bytes
    sha256: str
    media_type: str | None
    too_large: bool = False


def load_attachment(item: object, index: int, max_bytes: int) -> Loaded:
    """Read one attachment input. A file over ``max_bytes`` is not read: it is
    marked ``too_large`` so the session records it as a failed material."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes | bytearray):
        name, data = str(item[0]), bytes(item[1])
    elif isinstance(item, bytes | bytearray):
        name, data = f"attachment-{index + 1}", bytes(item)
    elif isinstance(item, str | os.PathLike):
        path = Path(item)
        try:
            info = path.stat()
            mode = info.st_mode
            if not stat.S_ISREG(mode):
                raise AttachmentError(str(path), f"not a regular file ({file_kind(mode)})")
            if info.st_size > max_bytes:  # refused by its size, before any read
                return Loaded(path.name, b"", sized_ref(path, info.st_size), None, too_large=True)
            # Read at most one byte past the limit: a file that grows (or a
            # /proc file that says 0) cannot make this read unbounded.
            with path.open("rb") as handle:
                data = handle.read(max_bytes + 1)
            if len(data) > max_bytes:
                return Loaded(path.name, b"", sized_ref(path, len(data)), None, too_large=True)
        except FileNotFoundError:
            raise AttachmentError(str(path), "no such file") from None
        except PermissionError:
            raise AttachmentError(str(path), "permission denied") from None
        except OSError as exc:
            raise AttachmentError(str(path), exc.strerror or str(exc)) from None
        name = path.name
    else:
        raise AttachmentError(repr(item)[:60], "expected a path, bytes, or a (name, bytes) pair")
    if len(data) > max_bytes:
        return Loaded(name, b"", sha256_ref(data), None, too_large=True)
    media_type, _ = mimetypes.guess_type(name, strict=False)
    return Loaded(name, data, sha256_ref(data), media_type)


def sized_ref(path: Path, size: int) -> str:
    """The identity of a file too large to read: a SHA-256 of its size and its first
    and last MiB (at most 2 MiB read, however large it is). Not the content's hash,
    which would mean reading it all; the same file always gets the same one."""
    digest = hashlib.sha256(f"donecheck-too-large:{size}:".encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        if size > 2 << 20:
            handle.seek(size - (1 << 20))
            digest.update(handle.read(1 << 20))
    return "sha256:" + digest.hexdigest()


def why_missing(path: Path, missing: str = "no such file or folder") -> str:
    """Why a path cannot be opened: a loop of symbolic links, a link to nothing,
    permission, or ``missing`` (nothing there at all)."""
    try:
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a loop of symbolic links (it never reaches a file)"
        if exc.errno == errno.EACCES:
            return "permission denied"
    if path.is_symlink():
        return f"a symbolic link to {os.readlink(path)!r}, which does not exist"
    return missing


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, by its mode (``a FIFO`` …)."""
    for test, what in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return what
    return "not a file"


def unreadable_material(error: AttachmentError) -> Material:
    """The Material of an input that could not be read at all: ``failed``, saying why."""
    name = Path(error.name).name or error.name
    return Material(
        sha256=sha256_ref(error.name.encode()),
        declared_name=name,
        detected_type="unknown",
        status="failed",
        reason=f"not read: {error.problem}",
    )


def too_large_material(item: Loaded, limit: int) -> Material:
    """The Material of an attachment over the size limit: ``failed``, nothing read."""
    return Material(
        sha256=item.sha256,
        declared_name=item.name,
        detected_type="unknown",
        status="failed",
        reason=f"larger than the {limit} byte attachment limit; not read",
    )


def submit_parse(deployment: Deployment, item: Loaded, role: ImageRole | None) -> Any:
    """Submit one loaded attachment to its parser (by content hash, for the cache);
    the ref of the parser's :class:`Material`."""
    request = ParseRequest(
        sha256=item.sha256, declared_name=item.name, size=len(item.data), role=role
    )
    return calls.parse(deployment.parser_for(item.sha256), request, item.data)
