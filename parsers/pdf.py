"""PDF with PyMuPDF: text per page in reading order, headings, tables, page previews.

* An encrypted PDF that needs a password is ``failed`` with reason ``encrypted`` —
  never an empty "parsed" result.
* Headings come from the outline (table of contents) when the document has one,
  else from type size: lines clearly larger than the body text.
* Tables are looked for only on pages with enough vector drawings to draw a
  grid (the classic line-based finder, not PyMuPDF 2's layout model); each
  becomes rows plus Markdown,
  and its text is not repeated as a paragraph.
* A page with images but no text layer is flagged as scanned and read by OCR
  when Tesseract is installed.
* The first ``preview_pages`` pages are rendered (bounded DPI and longest side)
  for visual review.
"""

from __future__ import annotations

import inspect
import io
import statistics
import struct
import zlib
from collections.abc import Iterable
from typing import Any

from PIL import Image

from donecheck.parsers.base import MaterialBuilder, ParseContext, failure_reason, markdown_table
from donecheck.parsers.bounded import run_bounded
from donecheck.parsers.detect import Detection
from donecheck.parsers.material import Material
from donecheck.parsers.mupdf import plain_settings, pymupdf
from donecheck.parsers.ocr import OCR_MISSING, ocr_available, ocr_page

__all__ = ["PdfParser", "render_page"]

_GROUP_CHARS = 1_200
_MIN_TABLE_DRAWINGS = 4
# The line-based table finder grows faster than linearly in a page's vector
# segments (156k: ~60 s); a page with more is read as text only.
_MAX_TABLE_DRAWINGS = 5_000


# PyMuPDF >= 2 gates find_tables on an ONNX layout model (~0.2 s a page). Pages
# reach find_tables here only when their drawings can form a ruled grid, which
# the classic line-based finder reads as well, ~8x faster.
def _table_options() -> dict[str, Any]:
    try:
        from pymupdf import table
    except ImportError:
        return {}
    finder = getattr(table, "find_tables", None)
    if finder is not None and "use_layout" in inspect.signature(finder).parameters:
        return {"use_layout": False}
    return {}


_TABLE_OPTIONS = _table_options()

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


def _gap(left: dict[str, Any], right: dict[str, Any]) -> float:
    return float(right["bbox"][0]) - float(left["bbox"][2])


def _line_text(spans: list[dict[str, Any]]) -> str:
    """A line's spans joined as printed: a space where the page leaves one
    between two spans (separate text objects carry no space glyph)."""
    parts: list[str] = []
    previous: dict[str, Any] | None = None
    for span in spans:
        text = span["text"]
        if previous is not None and parts and text and not parts[-1][-1:].isspace():
            if not text[:1].isspace() and _gap(previous, span) > 0.15 * float(span["size"]):
                parts.append(" ")
        parts.append(text)
        previous = span
    return "".join(parts).strip()


def _join_fragments(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Text blocks with line fragments put back into the line they belong to.

    A PDF may draw one printed line as several text objects in any order ("2"
    after ",100.00"); MuPDF then makes each its own line, and reading them in
    its order scrambles the printed line. A line on another's baseline that
    starts where that one ends joins it (within a block, or when one of the two
    blocks is a single line: two columns of paragraphs stay apart).
    """
    text = [b for b in blocks if b.get("type") == 0 and b.get("lines")]
    entries = [(b, line) for b in text for line in b["lines"] if line.get("spans")]
    if len(entries) > 20_000:  # pathological pages: read as MuPDF grouped them
        return text
    entries.sort(key=lambda e: (round(float(e[1]["bbox"][3])), float(e[1]["bbox"][0])))
    folded: set[int] = set()
    current: tuple[dict[str, Any], dict[str, Any]] | None = None
    for block, line in entries:
        if current is not None:
            home, left = current
            size = max(float(span["size"]) for span in left["spans"] + line["spans"])
            baseline = abs(float(left["bbox"][3]) - float(line["bbox"][3])) <= 0.25 * size
            gap = _gap(left, line)
            related = home is block or len(home["lines"]) == 1 or len(block["lines"]) == 1
            if baseline and related and -0.25 * size <= gap <= 0.6 * size:
                left["spans"] = left["spans"] + line["spans"]
                left["bbox"] = tuple(pymupdf.Rect(left["bbox"]) | line["bbox"])
                home["bbox"] = tuple(pymupdf.Rect(home["bbox"]) | line["bbox"])
                folded.add(id(line))
                continue
        current = (block, line)
    if not folded:
        return text
    kept = []
    for block in text:
        lines = [line for line in block["lines"] if id(line) not in folded]
        if lines:
            kept.append({**block, "lines": lines})
    return kept


RENDER_TIMEOUT_S = 5.0
"""Longest a page preview may take to draw (in the parse worker; see
:mod:`donecheck.parsers.bounded`)."""


def render_page(page: Any, dpi: int, long_side: int) -> tuple[bytes, int, int]:
    """A page as JPEG (quality 80), at ``dpi`` but no longer than ``long_side`` pixels.

    JPEG, not PNG: encoding a page is ~6x faster at about the same size, and text
    stays readable at preview resolution. Drawing is bounded by
    :data:`RENDER_TIMEOUT_S`; past it, :class:`TimeoutError`.
    """

    def draw() -> bytes:
        rect = page.rect
        zoom = min(dpi / 72, long_side / max(rect.width, rect.height, 1))
        pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=80)
        return struct.pack("<II", pix.width, pix.height) + buffer.getvalue()

    drawn = run_bounded(draw, RENDER_TIMEOUT_S)
    if drawn is None:
        raise TimeoutError(f"its preview took longer than {RENDER_TIMEOUT_S:g} s to draw")
    width, height = struct.unpack("<II", drawn[:8])
    return drawn[8:], width, height


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


_TEXT_ONLY = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES
"""Text blocks only: with image blocks, MuPDF decodes every image on the page (a
damaged JPEG 2000 in a scanned PDF held a fuzzed file for over 100 s); scanned pages
are found with ``get_images`` and read by OCR instead."""

PAGE_CONTENT_BYTES = 32 << 20
"""Decoded content a page may have (its content streams and forms): past it the page's
text is not read. A 1.6 MB file's one stream once inflated to 640 MB, 23 s and 1.8 GiB."""
FILE_CONTENT_BYTES = 256 << 20
"""Decoded page content a whole file may have."""


class _Inflation:
    """Decoded sizes of pages' Flate content streams, measured while inflating in
    1 MiB steps and stopped at the budget: a compression bomb costs at most the
    budget's worth of inflating, never its whole size in memory."""

    def __init__(self) -> None:
        self.total = 0
        self.seen: set[int] = set()

    def check(self, doc: Any, index: int) -> str:
        """Why page ``index`` is over a budget ("" when it is not)."""
        page_bytes = 0
        try:
            page = doc[index]
            xrefs = list(page.get_contents())
            xrefs += [x[0] for x in page.get_xobjects() if x[0] not in xrefs]
        except Exception:  # a damaged page is reported when it is read
            return ""
        for xref in xrefs:
            if xref in self.seen:  # a form shared by pages counts once
                continue
            self.seen.add(xref)
            room = min(PAGE_CONTENT_BYTES - page_bytes, FILE_CONTENT_BYTES - self.total)
            size = _inflated(doc, xref, room)
            page_bytes += size
            self.total += size
            if page_bytes > PAGE_CONTENT_BYTES:
                return f"its content streams decode to over {PAGE_CONTENT_BYTES >> 20} MiB"
            if self.total > FILE_CONTENT_BYTES:
                return f"the file's content decodes to over {FILE_CONTENT_BYTES >> 20} MiB"
        return ""


def _inflated(doc: Any, xref: int, room: int) -> int:
    """The decoded size of stream ``xref`` when it is Flate-encoded, up to ``room`` + 1
    bytes (then it stops); its raw size otherwise."""
    try:
        raw = doc.xref_stream_raw(xref) or b""
        filters = doc.xref_get_key(xref, "Filter")[1]
    except Exception:
        return 0
    if "FlateDecode" not in filters or "/" in filters.replace("/FlateDecode", "", 1):
        return len(raw)
    inflater = zlib.decompressobj()
    size, data = 0, raw
    try:
        while data and size <= room:
            size += len(inflater.decompress(data, 1 << 20))
            data = inflater.unconsumed_tail
    except zlib.error:  # damaged: MuPDF reads what it can, as before
        return size
    return size


class PdfParser:
    recipe = "pdf-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime == "application/pdf"

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        pymupdf.TOOLS.reset_mupdf_warnings()
        try:
            doc = pymupdf.open(stream=data, filetype="pdf")
        except Exception as exc:  # PyMuPDF raises FileDataError/RuntimeError on damage
            return out.fail(f"corrupt: cannot be opened ({exc})")
        with doc:
            if doc.needs_pass:
                return out.fail("encrypted: a password is needed to open it")
            if doc.is_encrypted:
                out.warn("encrypted without a user password: opened read-only")
            with plain_settings():
                return self._read(doc, ctx, out)

    def _read(self, doc: Any, ctx: ParseContext, out: MaterialBuilder) -> Material:
        limits = ctx.limits
        total = doc.page_count
        out.stats["pages"] = float(total)
        if total == 0:
            return out.fail("corrupt: the document has no pages")
        toc: dict[int, dict[str, int]] = {}
        try:
            for level, title, page_no in doc.get_toc(simple=True):
                toc.setdefault(page_no, {})[_norm(title)] = level
        except Exception:  # a broken outline is not a broken document
            out.warn("the outline (table of contents) could not be read")
        inflation = _Inflation()
        heavy: dict[int, str] = {}  # page index → why its content is not read
        for index in range(min(total, limits.pages)):
            if ctx.out_of_time():
                break
            why = inflation.check(doc, index)
            if why:
                heavy[index] = why
        sampled: dict[int, dict[str, Any]] = {}
        for index in range(min(total, 3)):  # also reused when the page is read below
            if index in heavy:
                continue
            try:
                sampled[index] = doc[index].get_text("dict", sort=True, flags=_TEXT_ONLY)
            except Exception:  # a damaged page is reported when it is read
                continue
        body_size = self._body_size(sampled.values())
        pages = min(total, limits.pages)
        failed: list[int] = []
        scanned: list[int] = []
        ocr_pages = 0
        read = 0
        for index in range(pages):
            number = index + 1
            if ctx.out_of_time() or out.full:
                break
            read += 1
            if index in heavy:
                out.warn(f"page {number} not read: {heavy[index]}")
                failed.append(number)
                continue
            try:
                page = doc[index]
                had_text = self._page(
                    page, number, toc.get(number, {}), body_size, out, sampled.pop(index, None)
                )
                if index < limits.preview_pages:
                    try:
                        jpeg, width, height = render_page(
                            page, limits.preview_dpi, limits.preview_long_side
                        )
                        out.preview(jpeg, "image/jpeg", width, height, page=number)
                    except TimeoutError as exc:  # its text is read; only the picture is not
                        out.warn(f"page {number} has no preview: {exc}")
            except Exception as exc:  # one damaged page does not lose the others
                out.warn(f"page {number} could not be read: {failure_reason(exc)}")
                failed.append(number)
                continue
            if had_text or not page.get_images(full=False):
                continue
            scanned.append(number)
            if limits.ocr and ocr_available():
                try:
                    text = ocr_page(page, dpi=200, timeout_s=limits.ocr_timeout_s)
                except (TimeoutError, RuntimeError) as exc:
                    out.warn(f"page {number}: {exc}")
                    continue
                if text.strip():
                    out.add("text", text.strip(), page=number)
                    ocr_pages += 1
        if ctx.out_of_time() and read < total:
            out.stop(f"time limit: read {read} of {total} pages")
        elif pages < total:
            out.stop(f"page limit: read {pages} of {total} pages")
        if heavy:
            first = next(iter(heavy.values()))
            out.stop(f"{len(heavy)} page(s) not read, their content too large ({first})")
            failed = [n for n in failed if n - 1 not in heavy]
        if failed:
            out.stop(f"{len(failed)} page(s) could not be read: {failed[:10]}")
        if scanned:
            out.stats["scanned_pages"] = float(len(scanned))
            if ocr_pages:
                out.warn(f"pages {scanned[:10]} have no text layer (scanned): read by OCR")
            elif not (limits.ocr and ocr_available()):
                out.warn(f"pages {scanned[:10]} have no text layer (scanned); {OCR_MISSING}")
                out.stop("scanned pages without a text layer were not read")
            else:
                out.warn(f"pages {scanned[:10]} have no text layer and OCR found no text")
        warnings = pymupdf.TOOLS.mupdf_warnings()
        if warnings:
            out.stop(
                "damaged: repaired while reading, so content may be missing ("
                + warnings.splitlines()[0][:160]
                + ")"
            )
        if not out.blocks and not scanned and not failed:
            out.warn("the document has no text")
        return out.build()

    @staticmethod
    def _body_size(pages: Iterable[dict[str, Any]]) -> float:
        """The median type size, weighted by characters, of the sampled pages."""
        sizes: list[float] = []
        for data in pages:
            for block in data["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        sizes.extend([round(span["size"], 1)] * len(span["text"].strip()))
        return statistics.median(sizes) if sizes else 11.0

    def _page(
        self,
        page: Any,
        number: int,
        toc: dict[str, int],
        body_size: float,
        out: MaterialBuilder,
        data: dict[str, Any] | None = None,
    ) -> bool:
        """Add one page's blocks. Returns whether the page had any text layer."""
        table_boxes: list[Any] = []
        # Line segments, not paths: a table is often drawn as one path.
        drawings = sum(len(path.get("items", ())) for path in page.get_cdrawings())
        if drawings > _MAX_TABLE_DRAWINGS:
            out.warn(
                f"page {number}: {drawings} vector segments (limit {_MAX_TABLE_DRAWINGS});"
                " tables on it were read as text"
            )
        elif drawings >= _MIN_TABLE_DRAWINGS:
            for table in page.find_tables(**_TABLE_OPTIONS).tables:
                rows = [[(c or "").strip() for c in row] for row in table.extract()]
                rows = [r for r in rows if any(r)]
                if len(rows) >= 2:
                    table_boxes.append(pymupdf.Rect(table.bbox))
                    rows_t = tuple(tuple(r) for r in rows)
                    out.add("table", markdown_table(rows), page=number, rows=rows_t)
        if data is None:
            data = page.get_text("dict", sort=True, flags=_TEXT_ONLY)
        paragraph: list[str] = []
        had_text = False

        def flush() -> None:
            if paragraph:
                out.add("text", "\n".join(paragraph), page=number)
                paragraph.clear()

        for block in _join_fragments(data["blocks"]):
            box = pymupdf.Rect(block["bbox"])
            if any(box.intersects(t) for t in table_boxes):
                had_text = True
                continue
            lines = []
            sizes = []
            bold = True
            for line in block.get("lines", []):
                text = _line_text(line["spans"])
                if text:
                    lines.append(text)
                    for span in line["spans"]:
                        if span["text"].strip():
                            sizes.append(span["size"])
                            bold = bold and bool(span["flags"] & 16)
            if not lines:
                continue
            had_text = True
            text = " ".join(lines) if len(lines) <= 3 else "\n".join(lines)
            level = toc.get(_norm(text))
            if level is None and len(text) <= 200 and len(lines) <= 3 and sizes:
                size = max(sizes)
                if size >= body_size * 1.25:
                    level = 1 if size >= body_size * 1.6 else 2
                elif bold and size >= body_size * 1.05:
                    level = 3
            if level is not None:
                flush()
                out.add("heading", text, page=number, level=level)
                continue
            if paragraph and sum(map(len, paragraph)) + len(text) > _GROUP_CHARS:
                flush()
            paragraph.append(text)
        flush()
        return had_text
