"""Inspect a ZIP's central directory before anything reads its members.

Used for archives and for every ZIP-based document (DOCX, XLSX, PPTX, EPUB), so
a zip bomb dressed as a spreadsheet is caught before a library inflates it.
Nothing is extracted here; only the directory and local headers are read.
"""

from __future__ import annotations

import io
import itertools
import posixpath
import re
import struct
import zipfile
from dataclasses import dataclass, field

from donecheck.parsers.base import ParseLimits

__all__ = ["ZipReport", "inspect_zip", "read_member", "unsafe_name"]

_DRIVE = re.compile(r"^[A-Za-z]:")
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")


def unsafe_name(name: str) -> str | None:
    """Why a member name would escape an extraction folder, if it would."""
    if not name.strip():
        return "empty name"
    normal = name.replace("\\", "/")
    if normal.startswith("/") or _DRIVE.match(normal):
        return "absolute path"
    if ".." in posixpath.normpath(normal).split("/") or ".." in normal.split("/"):
        return "path traversal (..)"
    return None


@dataclass
class ZipReport:
    members: list[zipfile.ZipInfo] = field(default_factory=list)
    total_size: int = 0
    overlapping: list[str] = field(default_factory=list)
    traversal: list[tuple[str, str]] = field(default_factory=list)
    high_ratio: list[tuple[str, float]] = field(default_factory=list)
    fatal: str | None = None
    """A reason not to read the archive at all (bomb, corrupt directory)."""


def _data_end(data: bytes, info: zipfile.ZipInfo) -> int:
    """Where a member's compressed data ends, from its local header."""
    offset = info.header_offset
    header = data[offset : offset + _LOCAL_HEADER.size]
    if len(header) < _LOCAL_HEADER.size:
        return offset
    fields = _LOCAL_HEADER.unpack(header)
    name_len, extra_len = int(fields[-2]), int(fields[-1])
    return offset + _LOCAL_HEADER.size + name_len + extra_len + info.compress_size


def inspect_zip(data: bytes, limits: ParseLimits) -> tuple[zipfile.ZipFile | None, ZipReport]:
    """Open a ZIP and check it against the limits. Returns ``(None, report)`` when
    ``report.fatal`` says it must not be read."""
    report = ZipReport()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, NotImplementedError) as exc:
        report.fatal = f"corrupt: not a readable ZIP ({exc})"
        return None, report
    files = [i for i in infos if not i.filename.endswith("/")]  # is_dir() fails on ""
    report.members = files
    if len(files) > limits.archive_members * 10:
        report.fatal = f"too many members: {len(files)} (limit {limits.archive_members}); not read"
        return None, report
    spans = sorted((i.header_offset, _data_end(data, i), i.filename) for i in files)
    for (start_a, end_a, name_a), (start_b, _, name_b) in itertools.pairwise(spans):
        if start_b < end_a and start_b >= start_a:
            report.overlapping.append(f"{name_a} / {name_b}")
    if report.overlapping:
        report.fatal = (
            "zip bomb: overlapping entries share compressed data "
            f"({len(report.overlapping)} pairs, e.g. {report.overlapping[0]}); not read"
        )
        return None, report
    report.total_size = sum(i.file_size for i in files)
    for info in files:
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > limits.archive_ratio and info.file_size > 1024 * 1024:
            report.high_ratio.append((info.filename, ratio))
        why = unsafe_name(info.filename)
        if why:
            report.traversal.append((info.filename, why))
    whole = report.total_size / max(len(data), 1)
    if whole > limits.archive_ratio and report.total_size > limits.archive_total_bytes:
        report.fatal = (
            f"zip bomb: {report.total_size} bytes unpacked from {len(data)} "
            f"(ratio {whole:.0f}:1, limit {limits.archive_ratio:.0f}:1); not read"
        )
        return None, report
    return archive, report


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    """A member's bytes, or ``None`` if it inflates past ``limit`` (whatever its header says)."""
    with archive.open(info) as handle:
        data = handle.read(limit + 1)
    return None if len(data) > limit else data
