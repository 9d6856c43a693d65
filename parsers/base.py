"""The one interface every format parser implements, the bounds they obey, and
the builder that turns what they read into a :class:`Material`.

A parser gets the bytes and a :class:`ParseContext` (hash, detection, limits,
a soft deadline and a way to parse archive members) and returns a Material.
The :class:`MaterialBuilder` enforces the text budget and block sizes, numbers
blocks and gives them stable source ids, and decides ``parsed`` vs ``partial``:
a parser only says *what* it read and *why* it stopped early.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from donecheck.parsers.material import (
    Block,
    BlockKind,
    ImageRole,
    Material,
    Preview,
    ReadStatus,
)

if TYPE_CHECKING:
    from donecheck.parsers.detect import Detection

__all__ = [
    "BlockKind",
    "MaterialBuilder",
    "ParseContext",
    "ParseLimits",
    "Parser",
    "failure_reason",
    "markdown_table",
    "source_id",
]

MiB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """Every bound a parse obeys. Hitting one gives ``partial`` or ``failed``, never a hang."""

    text_chars: int = 400_000
    """Text budget per material (all blocks together)."""
    block_chars: int = 4_000
    """Longer text is split into several blocks."""
    lines_per_block: int = 80
    pages: int = 300
    """PDF pages, EPUB chapters."""
    sheets: int = 50
    rows_per_sheet: int = 5_000
    columns: int = 200
    slides: int = 500
    image_pixels: int = 80_000_000
    """Decompression-bomb limit for one image."""
    preview_long_side: int = 1568
    preview_pages: int = 2
    preview_dpi: int = 100
    archive_members: int = 1_000
    archive_total_bytes: int = 256 * MiB
    archive_ratio: float = 200.0
    archive_depth: int = 3
    member_bytes: int = 64 * MiB
    ocr: bool = True
    ocr_timeout_s: float = 30.0
    soft_deadline_s: float = 45.0
    """Parsers stop between pages/members after this and return what they have."""

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate (a library decoding bytes with
    ``surrogateescape``, a broken UTF-16 pair) as U+FFFD: such a string cannot be
    encoded, and would fail the whole material where it is stored or sent."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def source_id(sha256: str, index: int) -> str:
    """Stable id of block ``index`` of a material: ``<first 12 hex>#<index>``."""
    return f"{sha256.removeprefix('sha256:')[:12]}#{index}"


def markdown_table(rows: Sequence[Sequence[str]]) -> str:
    """Rows as a Markdown table; the first row is the header."""
    if not rows:
        return ""
    width = max(len(r) for r in rows)

    def cell(value: str) -> str:
        return " ".join(str(value).split()).replace("|", "\\|")

    lines = []
    for n, row in enumerate(rows):
        cells = [cell(v) for v in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if n == 0:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


@dataclass
class ParseContext:
    sha256: str
    detection: Detection
    limits: ParseLimits
    depth: int = 0
    started: float = field(default_factory=time.monotonic)
    parse_member: Callable[[bytes, str, int], Material] | None = None
    """Parse an archive member (bytes, name, depth) with the same limits."""
    role: ImageRole | None = None

    def out_of_time(self) -> bool:
        return time.monotonic() - self.started > self.limits.soft_deadline_s

    def builder(self, recipe: str) -> MaterialBuilder:
        return MaterialBuilder(self, recipe)


class MaterialBuilder:
    """Collects blocks within the text budget and builds the Material."""

    def __init__(self, ctx: ParseContext, recipe: str) -> None:
        self.ctx = ctx
        self.recipe = recipe
        self.blocks: list[Block] = []
        self.previews: list[Preview] = []
        self.warnings: list[str] = []
        self.stats: dict[str, float] = {}
        self._stops: list[str] = []
        self._chars = 0

    # ------------------------------------------------------------------ blocks

    @property
    def full(self) -> bool:
        """The text budget is used up (further blocks would be dropped)."""
        return self._chars >= self.ctx.limits.text_chars

    def stop(self, reason: str) -> None:
        """Record why reading stopped early: the material becomes ``partial``.

        A reason that extends an earlier one ("… reached" → "… reached at line 80")
        replaces it.
        """
        self._stops = [r for r in self._stops if not reason.startswith(r)]
        if not any(r.startswith(reason) for r in self._stops):
            self._stops.append(reason)

    def warn(self, warning: str) -> None:
        warning = clean_text(warning)
        if warning not in self.warnings:
            self.warnings.append(warning)

    def add(
        self,
        kind: BlockKind,
        text: str,
        *,
        page: int | None = None,
        sheet: str | None = None,
        slide: int | None = None,
        level: int | None = None,
        rows: tuple[tuple[str, ...], ...] | None = None,
    ) -> bool:
        """Add a block (split when long). Returns ``False`` once the budget is spent."""
        text = clean_text(str(text).strip("\n"))  # an exact str, no lone surrogates
        if not text.strip():
            return not self.full
        if sheet is not None:
            sheet = clean_text(sheet)
        if rows is not None:
            rows = tuple(tuple(clean_text(cell) for cell in row) for row in rows)
        limits = self.ctx.limits
        pieces = (
            [text]
            if len(text) <= limits.block_chars
            else _split(text, limits.block_chars, limits.text_chars - self._chars)
        )
        for piece in pieces:
            if self._chars + len(piece) > limits.text_chars:
                self.stop(f"text budget of {limits.text_chars} characters reached")
                self._chars = limits.text_chars
                return False
            self._chars += len(piece)
            index = len(self.blocks)
            self.blocks.append(
                Block(
                    source_id=source_id(self.ctx.sha256, index),
                    index=index,
                    kind=kind,
                    text=piece,
                    page=page,
                    sheet=sheet,
                    slide=slide,
                    level=level,
                    rows=rows if len(pieces) == 1 else None,
                )
            )
        return True

    def extend(self, material: Material, *, prefix: str) -> None:
        """Append another material's blocks (an archive member) under this material's ids."""
        for block in material.blocks:
            if self.full:
                self.stop(f"text budget of {self.ctx.limits.text_chars} characters reached")
                return
            self.add(
                block.kind,
                block.text,
                page=block.page,
                sheet=block.sheet,
                slide=block.slide,
                level=block.level,
                rows=block.rows,
            )
        for preview in material.previews[: max(0, 8 - len(self.previews))]:
            self.previews.append(
                Preview(
                    source_id=f"{prefix}:{preview.source_id}",
                    media_type=preview.media_type,
                    width=preview.width,
                    height=preview.height,
                    data=preview.data,
                    role=preview.role,
                    page=preview.page,
                )
            )

    def preview(
        self,
        data: bytes,
        media_type: str,
        width: int,
        height: int,
        *,
        role: ImageRole = "preview",
        page: int | None = None,
    ) -> None:
        label = f"p{page}" if page is not None else f"i{len(self.previews)}"
        self.previews.append(
            Preview(
                source_id=f"{self.ctx.sha256.removeprefix('sha256:')[:12]}@{label}",
                media_type=media_type,
                width=width,
                height=height,
                data=data,
                role=role,
                page=page,
            )
        )

    # ------------------------------------------------------------------ result

    def build(self, status: ReadStatus | None = None, reason: str = "") -> Material:
        """The Material: ``partial`` if reading stopped early, unless told otherwise."""
        if status is None:
            status = "partial" if self._stops else "parsed"
            reason = reason or "; ".join(self._stops)
        stats = dict(self.stats)
        stats.setdefault("blocks", float(len(self.blocks)))
        stats.setdefault("chars", float(sum(len(b.text) for b in self.blocks)))
        return Material(
            sha256=self.ctx.sha256,
            declared_name=clean_text(self.ctx.detection.declared_name),
            detected_type=self.ctx.detection.mime,
            status=status,
            reason=clean_text(reason),
            blocks=tuple(self.blocks),
            previews=tuple(self.previews),
            stats=stats,
            recipe_version=self.recipe,
            warnings=tuple(self.warnings),
        )

    def fail(self, reason: str) -> Material:
        """Nothing usable was read: ``failed`` with a reason (blocks dropped)."""
        self.blocks.clear()
        return self.build("failed", reason)

    def unparsed(self, reason: str) -> Material:
        self.blocks.clear()
        return self.build("unparsed", reason)


def _split(text: str, size: int, budget: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``size`` characters, at the last line
    break inside each piece where there is one; stops once ``budget`` characters
    are cut (the caller drops the rest). Linear: each piece costs its own length."""
    pieces: list[str] = []
    produced = 0
    start, end_of_text = 0, len(text)
    while start < end_of_text and produced <= budget:
        end = min(end_of_text, start + size)
        if end < end_of_text:
            cut = text.rfind("\n", start, end + 1)
            if cut > start:
                end = cut
        piece = text[start:end]
        if piece.strip():
            pieces.append(piece)
            produced += len(piece)
        start = end + 1 if end < end_of_text and text[end] == "\n" else end
    return pieces


_TRUNCATED = ("truncated", "unexpected end", "end of file", "premature end", "too short")
_UNSUPPORTED = (
    "not supported",
    "unsupported",
    "not implemented",
    "encrypt",
    "password",
    "cannot detect file format",
)
_DAMAGED_TYPES = {
    "BadZipFile": "the ZIP container is damaged",
    "LargeZipFile": "the ZIP container needs ZIP64 features it lacks",
    "error": "compressed data is corrupt",  # zlib.error, struct.error
    "ParseError": "malformed XML",
    "XMLSyntaxError": "malformed XML",
    "DocumentInvalid": "malformed XML",
    "UnidentifiedImageError": "not a readable image",
    "DecompressionBombError": "the image is too large when decoded",
    "FileDataError": "the PDF structure is damaged",
    "PackageNotFoundError": "not a valid Office package",
    "UnicodeDecodeError": "text that does not decode",
    "KeyError": "a part it refers to is missing",
    "IndexError": "a reference points outside the file",
    "InvalidFileException": "not a valid Office package",
}


_OBJECT_REPR = re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>")


def failure_reason(exc: BaseException) -> str:
    """A specific reason for an exception a format library raised on bad input:
    ``truncated``, ``unsupported feature`` or ``damaged``, with the library's words."""
    name = type(exc).__name__
    # "<_io.BytesIO object at 0x7f…>" says nothing to a reader: it is the file
    detail = _OBJECT_REPR.sub("the file", " ".join(str(exc).split()))[:200]
    said = f"{name}: {detail}" if detail else name
    lower = detail.lower()
    if isinstance(exc, EOFError) or any(word in lower for word in _TRUNCATED):
        return f"truncated: the file ends early ({said})"
    if isinstance(exc, NotImplementedError) or any(word in lower for word in _UNSUPPORTED):
        return f"unsupported feature: {said}"
    if "crc" in lower or "checksum" in lower:
        return f"damaged: a checksum does not match ({said})"
    what = _DAMAGED_TYPES.get(name, "its content is inconsistent")
    return f"damaged: {what} ({said})"


class Parser(Protocol):
    """Turns the bytes of one family of formats into a :class:`Material`."""

    recipe: str
    """Bumped whenever the output for the same bytes changes (invalidates caches)."""

    def accepts(self, detection: Detection) -> bool: ...

    def parse(self, data: bytes, ctx: ParseContext) -> Material: ...
