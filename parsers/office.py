"""Word, Excel and PowerPoint files.

* DOCX (python-docx): paragraphs in document order with heading levels from
  their styles, list items, and tables as rows.
* XLSX (openpyxl, read-only): each sheet by name, rows in blocks of up to 50
  with their cell bounds (``Budget!A1:F50``), cached formula values.
* PPTX (python-pptx): per slide its title, body text, tables and speaker notes.
* Legacy DOC/XLS/PPT/RTF and OpenDocument files are converted with LibreOffice
  (``soffice --headless``) when it is installed, then read as above; without
  it they are ``unparsed`` and the reason says so.

Every ZIP-based file passes :func:`~donecheck.parsers.zipcheck.inspect_zip`
first, so a bomb inside a document is refused before a library inflates it.
"""

from __future__ import annotations

import datetime as dt
import io
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter

from donecheck.parsers.base import MaterialBuilder, ParseContext, markdown_table
from donecheck.parsers.detect import DOCX, OOXML, PPTX, XLSX, Detection
from donecheck.parsers.material import Material
from donecheck.parsers.zipcheck import inspect_zip

__all__ = ["LEGACY", "OfficeParser", "soffice"]

LEGACY = {
    "application/msword": ("docx", "Word 97-2003 document"),
    "application/vnd.ms-word": ("docx", "Word 97-2003 document"),
    "text/rtf": ("docx", "RTF document"),
    "application/rtf": ("docx", "RTF document"),
    "application/vnd.ms-excel": ("xlsx", "Excel 97-2003 workbook"),
    "application/vnd.ms-powerpoint": ("pptx", "PowerPoint 97-2003 presentation"),
    "application/vnd.oasis.opendocument.text": ("docx", "OpenDocument text"),
    "application/vnd.oasis.opendocument.spreadsheet": ("xlsx", "OpenDocument spreadsheet"),
    "application/vnd.oasis.opendocument.presentation": ("pptx", "OpenDocument presentation"),
}
_CONVERTED = {"docx": DOCX, "xlsx": XLSX, "pptx": PPTX}
_ROWS_PER_BLOCK = 50


def soffice() -> str | None:
    """Path of LibreOffice's ``soffice``, if installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.10g}"
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return str(value)


class OfficeParser:
    recipe = "office-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in OOXML or detection.mime in LEGACY

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        mime = ctx.detection.mime
        if mime in LEGACY:
            converted = self._convert(data, ctx, out)
            if isinstance(converted, Material):
                return converted
            data, mime = converted
        archive, report = inspect_zip(data, ctx.limits)
        if archive is None:
            return out.fail(report.fatal or "corrupt")
        archive.close()
        if report.total_size > ctx.limits.archive_total_bytes:
            return out.fail(
                f"too large when unpacked: {report.total_size} bytes "
                f"(limit {ctx.limits.archive_total_bytes})"
            )
        try:
            if mime == DOCX:
                self._docx(data, out)
            elif mime == XLSX:
                self._xlsx(data, ctx, out)
            else:
                self._pptx(data, ctx, out)
        except Exception as exc:  # library errors on damaged files: name them, keep what was read
            if not out.blocks:
                return out.fail(f"corrupt: {type(exc).__name__}: {exc}")
            out.stop(f"stopped on damaged content: {type(exc).__name__}: {exc}")
        return out.build()

    # ------------------------------------------------------------------ legacy

    def _convert(
        self, data: bytes, ctx: ParseContext, out: MaterialBuilder
    ) -> Material | tuple[bytes, str]:
        target, label = LEGACY[ctx.detection.mime]
        tool = soffice()
        if tool is None:
            return out.unparsed(
                f"{label}: converting it needs LibreOffice (soffice), which is not installed"
            )
        suffix = Path(ctx.detection.declared_name).suffix or ".bin"
        with tempfile.TemporaryDirectory(prefix="donecheck-convert-") as tmp:
            source = Path(tmp) / f"input{suffix}"
            source.write_bytes(data)
            try:
                subprocess.run(
                    [
                        tool,
                        "--headless",
                        "--norestore",
                        f"-env:UserInstallation=file://{tmp}/u",
                        "--convert-to",
                        target,
                        "--outdir",
                        tmp,
                        str(source),
                    ],
                    capture_output=True,
                    timeout=max(10.0, ctx.limits.soft_deadline_s * 0.8),
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return out.fail(f"{label}: LibreOffice conversion timed out")
            result = Path(tmp) / f"input.{target}"
            if not result.exists():
                return out.fail(f"{label}: LibreOffice could not convert it (damaged?)")
            out.warn(f"{label}: converted to {target.upper()} with LibreOffice before reading")
            return result.read_bytes(), _CONVERTED[target]

    # -------------------------------------------------------------------- docx

    def _docx(self, data: bytes, out: MaterialBuilder) -> None:
        from docx import Document
        from docx.table import Table

        document = Document(io.BytesIO(data))
        paragraph: list[str] = []

        def flush() -> bool:
            text = "\n".join(paragraph)
            paragraph.clear()
            return out.add("text", text)

        for item in document.iter_inner_content():
            if isinstance(item, Table):
                if paragraph and not flush():
                    return
                rows = [_row_text(row.cells) for row in item.rows]
                rows = [r for r in rows if any(r)]
                if rows and not out.add(
                    "table", markdown_table(rows), rows=tuple(tuple(r) for r in rows)
                ):
                    return
                continue
            text = item.text.strip()
            if not text:
                continue
            style = (item.style.name if item.style is not None else "") or ""
            level = _heading_level(style)
            if level is not None:
                if paragraph and not flush():
                    return
                if not out.add("heading", text, level=level):
                    return
                continue
            if style.lower().startswith("list") or (
                item._p.pPr is not None and item._p.pPr.numPr is not None
            ):
                text = "- " + text
            if paragraph and sum(map(len, paragraph)) + len(text) > 1_200 and not flush():
                return
            paragraph.append(text)
        if paragraph:
            flush()
        out.stats["paragraphs"] = float(len(document.paragraphs))
        out.stats["tables"] = float(len(document.tables))

    # -------------------------------------------------------------------- xlsx

    def _xlsx(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        from openpyxl import load_workbook

        limits = ctx.limits
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheets = book.worksheets
            out.stats["sheets"] = float(len(sheets))
            for sheet in sheets[: limits.sheets]:
                if out.full or ctx.out_of_time():
                    break
                self._sheet(sheet, ctx, out)
            if len(sheets) > limits.sheets:
                out.stop(f"sheet limit: read {limits.sheets} of {len(sheets)} sheets")
        finally:
            book.close()

    def _sheet(self, sheet: Any, ctx: ParseContext, out: MaterialBuilder) -> None:
        limits = ctx.limits
        name = sheet.title
        rows: list[tuple[int, list[str]]] = []
        width = 0
        truncated_rows = False
        for number, values in enumerate(
            sheet.iter_rows(values_only=True, max_col=limits.columns), start=1
        ):
            if len(rows) >= limits.rows_per_sheet:
                truncated_rows = True
                break
            cells = [_cell(v) for v in values]
            while cells and not cells[-1]:
                cells.pop()
            if cells:
                rows.append((number, cells))
                width = max(width, len(cells))
        if not rows:
            out.add("meta", f"Sheet {name!r} is empty", sheet=name)
            return
        last_col = get_column_letter(max(width, 1))
        out.add(
            "meta",
            f"Sheet {name!r}: cells A{rows[0][0]}:{last_col}{rows[-1][0]},"
            f" {len(rows)} non-empty rows",
            sheet=name,
        )
        header = rows[0][1]
        for start in range(0, len(rows), _ROWS_PER_BLOCK):
            chunk = rows[start : start + _ROWS_PER_BLOCK]
            bounds = f"{name}!A{chunk[0][0]}:{last_col}{chunk[-1][0]}"
            table = [r for _, r in chunk]
            shown = table if start == 0 else [header, *table]
            text = f"{bounds}\n{markdown_table(shown)}"
            if not out.add("table", text, sheet=name, rows=tuple(tuple(r) for r in table)):
                return
        if truncated_rows:
            out.stop(f"row limit: read {limits.rows_per_sheet} rows of sheet {name!r}")

    # -------------------------------------------------------------------- pptx

    def _pptx(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        from pptx import Presentation

        presentation = Presentation(io.BytesIO(data))
        slides = list(presentation.slides)
        out.stats["slides"] = float(len(slides))
        for number, slide in enumerate(slides[: ctx.limits.slides], start=1):
            if out.full or ctx.out_of_time():
                break
            title_shape = slide.shapes.title
            title = title_shape.text_frame.text.strip() if title_shape is not None else ""
            out.add("heading", title or f"Slide {number}", slide=number, level=2)
            body: list[str] = []
            for shape in _shapes(slide.shapes):
                if title_shape is not None and shape.shape_id == title_shape.shape_id:
                    continue
                if getattr(shape, "has_table", False) and shape.has_table:
                    rows = [
                        [" ".join(c.text.split()) for c in row.cells] for row in shape.table.rows
                    ]
                    out.add(
                        "table",
                        markdown_table(rows),
                        slide=number,
                        rows=tuple(tuple(r) for r in rows),
                    )
                elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                    text = shape.text_frame.text.strip()
                    if text:
                        body.append(text)
            if body:
                out.add("text", "\n".join(body), slide=number)
            if slide.has_notes_slide:
                notes = slide.notes_slide.notes_text_frame
                if notes is not None and notes.text.strip():
                    out.add("text", "Notes: " + notes.text.strip(), slide=number)
        if len(slides) > ctx.limits.slides:
            out.stop(f"slide limit: read {ctx.limits.slides} of {len(slides)} slides")


def _shapes(shapes: Iterable[Any]) -> Iterator[Any]:
    for shape in shapes:
        if shape.shape_type is not None and int(shape.shape_type) == 6:  # a group
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _heading_level(style: str) -> int | None:
    lower = style.lower()
    if lower == "title":
        return 1
    if lower.startswith("heading"):
        digits = "".join(ch for ch in style if ch.isdigit())
        return int(digits) if digits else 1
    return None


def _row_text(cells: Iterable[Any]) -> list[str]:
    """Cell texts of a row; python-docx repeats a merged cell once per grid
    column (the same ``<w:tc>``), which is kept once."""
    out: list[str] = []
    previous = None
    for cell in cells:
        if cell._tc is previous:
            continue
        previous = cell._tc
        out.append(" ".join(cell.text.split()))
    return out
