"""Archives (ZIP, TAR, gzip/bzip2/xz): a listing, and members parsed within limits.

Nothing is extracted to disk: members are read into memory, capped, and parsed
recursively with the same parser registry. Limits: member count, total
unpacked bytes, compression ratio per member, nesting depth, and the shared
text budget. Member names that would escape an extraction folder (``../``,
absolute paths) and ZIP entries that overlap (a zip bomb) are flagged; links
and devices in a TAR are listed, never followed.
"""

from __future__ import annotations

import bz2
import io
import lzma
import posixpath
import tarfile
import zlib
from dataclasses import dataclass

from donecheck.parsers.base import MaterialBuilder, ParseContext, failure_reason, markdown_table
from donecheck.parsers.detect import ZIP, Detection
from donecheck.parsers.material import Material
from donecheck.parsers.zipcheck import inspect_zip, read_member, unsafe_name

__all__ = ["ArchiveParser", "inflate"]

COMPRESSED = {
    "application/gzip": "gzip",
    "application/x-gzip": "gzip",
    "application/x-bzip2": "bzip2",
    "application/x-xz": "xz",
}
TAR = {"application/x-tar", "application/x-gtar"}
_LISTED = 200  # rows of the listing table


@dataclass
class _Entry:
    name: str
    size: int
    note: str = ""
    data: bytes | None = None


def inflate(data: bytes, kind: str, cap: int) -> bytes | None:
    """Decompress a gzip/bzip2/xz stream, or ``None`` if it inflates past ``cap``.

    Raises ``ValueError`` for a damaged stream.
    """
    try:
        if kind == "gzip":
            chunks: list[bytes] = []
            rest, size = data, 0
            while rest:
                inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
                chunk = inflater.decompress(rest, cap + 1 - size)
                size += len(chunk)
                chunks.append(chunk)
                if size > cap or inflater.unconsumed_tail:
                    return None
                rest = inflater.unused_data  # concatenated gzip members
                if not inflater.eof:
                    raise ValueError("truncated gzip stream")
            return b"".join(chunks)
        decompressor: bz2.BZ2Decompressor | lzma.LZMADecompressor = (
            bz2.BZ2Decompressor() if kind == "bzip2" else lzma.LZMADecompressor()
        )
        out = decompressor.decompress(data, max_length=cap + 1)
        if len(out) > cap or (not decompressor.eof and decompressor.needs_input is False):
            return None
        return out
    except (zlib.error, OSError, lzma.LZMAError, EOFError) as exc:
        raise ValueError(str(exc)) from exc


class ArchiveParser:
    recipe = "archive-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in {ZIP} | TAR | set(COMPRESSED)

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        mime = ctx.detection.mime
        limits = ctx.limits
        if mime in COMPRESSED:
            try:
                inner = inflate(data, COMPRESSED[mime], limits.archive_total_bytes)
            except ValueError as exc:
                return out.fail(f"corrupt: damaged {COMPRESSED[mime]} stream ({exc})")
            if inner is None:
                return out.fail(
                    f"decompression bomb: unpacks to more than {limits.archive_total_bytes}"
                    f" bytes from {len(data)}; not read"
                )
            out.stats["unpacked_bytes"] = float(len(inner))
            if _is_tar(inner):
                return self._tar(inner, ctx, out)
            stem, ext = posixpath.splitext(ctx.detection.declared_name)
            name = stem if ext.lower() in {".gz", ".bz2", ".xz", ".tgz"} else stem or "member"
            return self._members([_Entry(name, len(inner), data=inner)], ctx, out)
        if mime in TAR:
            return self._tar(data, ctx, out)
        return self._zip(data, ctx, out)

    # ------------------------------------------------------------------- zip

    def _zip(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> Material:
        limits = ctx.limits
        archive, report = inspect_zip(data, limits)
        if archive is None:
            return out.fail(report.fatal or "corrupt")
        entries: list[_Entry] = []
        budget = limits.archive_total_bytes
        risky = dict(report.high_ratio)
        with archive:
            for info in report.members:
                entry = _Entry(info.filename, info.file_size)
                why = unsafe_name(info.filename)
                if why:
                    entry.note = f"flagged: {why}"
                    out.warn(f"member name {info.filename!r}: {why} (nothing is extracted)")
                entries.append(entry)
                if len(entries) > limits.archive_members:
                    entry.note = "not read: member limit"
                    continue
                if info.filename in risky:
                    entry.note = (
                        f"not read: compression ratio {risky[info.filename]:.0f}:1 over the limit"
                        f" of {limits.archive_ratio:.0f}:1"
                    )
                    continue
                if info.file_size > min(limits.member_bytes, budget):
                    entry.note = "not read: too large"
                    continue
                try:
                    content = read_member(archive, info, min(limits.member_bytes, budget))
                except Exception as exc:  # a damaged member (CRC, encryption) is named, not fatal
                    entry.note = f"not read: {failure_reason(exc)}"
                    continue
                if content is None:
                    entry.note = "not read: inflates past its declared size (zip bomb?)"
                    continue
                budget -= len(content)
                entry.data = content
        if len(entries) > limits.archive_members:
            out.stop(f"member limit: {len(entries)} members, read at most {limits.archive_members}")
        return self._members(entries, ctx, out)

    # ------------------------------------------------------------------- tar

    def _tar(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> Material:
        limits = ctx.limits
        entries: list[_Entry] = []
        budget = limits.archive_total_bytes
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
                for member in archive:
                    if member.isdir():
                        continue
                    entry = _Entry(member.name, member.size)
                    entries.append(entry)
                    why = unsafe_name(member.name)
                    if why:
                        entry.note = f"flagged: {why}"
                        out.warn(f"member name {member.name!r}: {why} (nothing is extracted)")
                    if member.issym() or member.islnk():
                        entry.note = f"link to {member.linkname!r}: not followed"
                        continue
                    if not member.isfile():
                        entry.note = "special file: not read"
                        continue
                    if len(entries) > limits.archive_members:
                        entry.note = "not read: member limit"
                        break
                    if member.size > min(limits.member_bytes, budget):
                        entry.note = "not read: too large"
                        continue
                    handle = archive.extractfile(member)
                    if handle is not None:
                        entry.data = handle.read(member.size)
                        budget -= len(entry.data)
        except (tarfile.TarError, OSError, EOFError) as exc:
            if not entries:
                return out.fail(f"corrupt: not a readable TAR ({exc})")
            out.stop(f"damaged after {len(entries)} members: {exc}")
        if len(entries) > limits.archive_members:
            out.stop(f"member limit: read at most {limits.archive_members} members")
        return self._members(entries, ctx, out)

    # --------------------------------------------------------------- members

    def _members(self, entries: list[_Entry], ctx: ParseContext, out: MaterialBuilder) -> Material:
        limits = ctx.limits
        out.stats["members"] = float(len(entries))
        out.stats["unpacked_bytes"] = out.stats.get(
            "unpacked_bytes", float(sum(e.size for e in entries))
        )
        deeper = ctx.depth + 1 <= limits.archive_depth and ctx.parse_member is not None
        if not deeper:
            for entry in entries:
                if entry.data is not None:
                    entry.note = entry.note or "not parsed: nesting depth limit"
                    entry.data = None
            if any(e.size for e in entries):
                out.stop(f"nesting depth limit of {limits.archive_depth} reached")
        rows = [["member", "bytes", "note"]]
        rows += [[e.name, str(e.size), e.note] for e in entries[:_LISTED]]
        listing = f"Archive with {len(entries)} member(s)\n{markdown_table(rows)}"
        if len(entries) > _LISTED:
            listing += f"\n… and {len(entries) - _LISTED} more"
        out.add("table", listing, rows=tuple(map(tuple, rows)))
        skipped = [e for e in entries if e.note.startswith("not read")]
        if skipped:
            out.stop(f"{len(skipped)} member(s) not read: {skipped[0].name} ({skipped[0].note})")
        for entry in entries:
            if entry.data is None:
                continue
            if out.full or ctx.out_of_time():
                out.stop("stopped before the last members: text budget or time limit")
                break
            assert ctx.parse_member is not None
            member = ctx.parse_member(
                entry.data, posixpath.basename(entry.name) or entry.name, ctx.depth + 1
            )
            status = member.status + (f": {member.reason}" if member.reason else "")
            out.add("heading", f"{entry.name} ({member.detected_type}, {status})", level=2)
            out.extend(member, prefix=entry.name)
            if member.status in {"failed", "partial"}:
                out.stop(f"member {entry.name} {status}")
        return out.build()


def _is_tar(data: bytes) -> bool:
    return (len(data) >= 512 and data[257:262] == b"ustar") or _plain_tar(data)


def _plain_tar(data: bytes) -> bool:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            return archive.next() is not None
    except (tarfile.TarError, OSError, EOFError):
        return False
