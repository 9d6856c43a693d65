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
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter

from donecheck.parsers.base import MaterialBuilder, ParseContext, failure_reason, markdown_table
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
# Read directly with python-calamine (no LibreOffice): legacy and OpenDocument sheets.
CALAMINE = {
    "application/vnd.ms-excel": "Excel 97-2003 workbook",
    "application/vnd.oasis.opendocument.spreadsheet": "OpenDocument spreadsheet",
    "application/vnd.ms-excel.sheet.binary.macroenabled.12": "Excel binary workbook",
}
_ROWS_PER_BLOCK = 50
_SheetRows = tuple[str, Iterable[Sequence[Any]], int]
"""A sheet's name, its rows (cell values), and the number of its first row."""


def soffice() -> str | None:
    """Path of LibreOffice's ``soffice``, if installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def _reader_gave_up(exc: BaseException) -> bool:
    """An exception from a reader on a damaged file: any Exception, or the Rust
    panic python-calamine surfaces as pyo3's PanicException (a BaseException)."""
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def _xls_value(cell: Any, datemode: int) -> Any:
    import xlrd

    if cell.ctype == xlrd.XL_CELL_DATE:
        try:
            return xlrd.xldate.xldate_as_datetime(cell.value, datemode)
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return cell.value
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(cell.value, "#ERR")
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return bool(cell.value)
    return cell.value


def _zip_refusal(data: bytes, ctx: ParseContext) -> str | None:
    """Why a ZIP-based document must not be inflated (bomb, damage, size), if it must not."""
    archive, report = inspect_zip(data, ctx.limits)
    if archive is None:
        return report.fatal or "corrupt"
    archive.close()
    if report.total_size > ctx.limits.archive_total_bytes:
        return (
            f"too large when unpacked: {report.total_size} bytes "
            f"(limit {ctx.limits.archive_total_bytes})"
        )
    return None


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
        return detection.mime in OOXML or detection.mime in LEGACY or detection.mime in CALAMINE

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        mime = ctx.detection.mime
        if mime in CALAMINE:
            refused = _zip_refusal(data, ctx) if data.startswith(b"PK") else None
            if refused:
                return out.fail(refused)
            try:
                if mime == "application/vnd.ms-excel":
                    self._xls(data, ctx, out)
                else:
                    self._calamine(data, ctx, out)
            except BaseException as exc:  # damaged workbooks: name it, keep what was read
                if not _reader_gave_up(exc):
                    raise
                if not out.blocks:
                    return out.fail(failure_reason(exc))
                out.stop(f"stopped early: {failure_reason(exc)}")
            return out.build()
        if mime in LEGACY:
            converted = self._convert(data, ctx, out)
            if isinstance(converted, Material):
                return converted
            data, mime = converted
        refused = _zip_refusal(data, ctx)
        if refused:
            return out.fail(refused)
        try:
            if mime == DOCX:
                self._docx(data, ctx, out)
            elif mime == XLSX:
                self._xlsx(data, ctx, out)
            else:
                self._pptx(data, ctx, out)
        except Exception as exc:  # library errors on damaged files: name them, keep what was read
            if not out.blocks:
                return out.fail(failure_reason(exc))
            out.stop(f"stopped early: {failure_reason(exc)}")
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

    def _docx(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        """Walks the body's XML once (python-docx's per-paragraph style lookups
        are quadratic on long documents): paragraphs, tables, equations, alt text."""
        from docx import Document

        document = Document(io.BytesIO(data))
        styles = {
            style.get(_w("styleId")): style.find(_w("name")).get(_w("val"), "")
            for style in document.styles.element.iterchildren(_w("style"))
            if style.find(_w("name")) is not None
        }
        paragraph: list[str] = []
        held = 0  # characters in ``paragraph``
        counts = {"paragraphs": 0, "tables": 0, "equations": 0}

        def flush() -> bool:
            nonlocal held
            text = "\n".join(paragraph)
            paragraph.clear()
            held = 0
            return out.add("text", text)

        for element in _body_items(document.element.body):
            if counts["paragraphs"] % 256 == 0 and (out.full or ctx.out_of_time()):
                if ctx.out_of_time():
                    out.stop(f"time limit of {ctx.limits.soft_deadline_s:g} s reached")
                break
            if element.tag == _TBL:
                counts["tables"] += 1
                if paragraph and not flush():
                    return
                rows = _docx_rows(element, counts)
                if rows and not out.add(
                    "table", markdown_table(rows), rows=tuple(tuple(r) for r in rows)
                ):
                    return
                continue
            counts["paragraphs"] += 1
            text = _inline_text(element, counts).strip()
            if not text:
                continue
            props = element.find(_w("pPr"))
            style_ref = props.find(_w("pStyle")) if props is not None else None
            style = styles.get(style_ref.get(_w("val")) if style_ref is not None else None, "")
            level = _heading_level(style)
            if level is not None:
                if paragraph and not flush():
                    return
                if not out.add("heading", text, level=level):
                    return
                continue
            numbered = props is not None and props.find(_w("numPr")) is not None
            if style.lower().startswith("list") or numbered:
                text = "- " + text
            if paragraph and held + len(text) > 1_200 and not flush():
                return
            paragraph.append(text)
            held += len(text)
        if paragraph:
            flush()
        out.stats.update({k: float(v) for k, v in counts.items()})

    # -------------------------------------------------------------------- xlsx

    def _xlsx(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheets = book.worksheets

            def sheet(index: int) -> _SheetRows:
                rows = sheets[index].iter_rows(values_only=True, max_col=ctx.limits.columns)
                return sheets[index].title, rows, 1

            self._sheets(len(sheets), sheet, ctx, out)
        finally:
            book.close()

    def _xls(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        """Excel 97-2003 with xlrd: pure Python, so a damaged file raises (calamine,
        fuzzed, panicked or aborted the process on truncated .xls files)."""
        import xlrd

        book = xlrd.open_workbook(file_contents=data, on_demand=True, logfile=io.StringIO())
        names = book.sheet_names()

        def rows(index: int) -> Iterator[list[Any]]:
            sheet = book.sheet_by_index(index)
            width = min(sheet.ncols, ctx.limits.columns)
            for r in range(sheet.nrows):
                yield [_xls_value(cell, book.datemode) for cell in sheet.row_slice(r, 0, width)]
            book.unload_sheet(index)

        try:
            self._sheets(len(names), lambda index: (names[index], rows(index), 1), ctx, out)
        finally:
            book.release_resources()

    def _calamine(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> None:
        from python_calamine import CalamineWorkbook

        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = book.sheet_names

        def sheet(index: int) -> _SheetRows:
            found = book.get_sheet_by_name(names[index])
            rows = (row[: ctx.limits.columns] for row in found.iter_rows())
            first = (found.start or (0, 0))[0] + 1  # calamine skips leading empty rows
            return names[index], rows, first

        self._sheets(len(names), sheet, ctx, out)

    def _sheets(
        self,
        count: int,
        sheet: Callable[[int], _SheetRows],
        ctx: ParseContext,
        out: MaterialBuilder,
    ) -> None:
        """A workbook's first ``limits.sheets`` sheets, each as :meth:`_rows`, until
        the text budget or the time is spent."""
        limits = ctx.limits
        out.stats["sheets"] = float(count)
        for index in range(min(count, limits.sheets)):
            if out.full or ctx.out_of_time():
                break
            name, rows, first = sheet(index)
            self._rows(name, rows, ctx, out, first_row=first)
        if count > limits.sheets:
            out.stop(f"sheet limit: read {limits.sheets} of {count} sheets")

    def _rows(
        self,
        name: str,
        values: Iterable[Sequence[Any]],
        ctx: ParseContext,
        out: MaterialBuilder,
        *,
        first_row: int = 1,
    ) -> None:
        """One sheet's rows as bounded table blocks with their cell ranges."""
        limits = ctx.limits
        rows: list[tuple[int, list[str]]] = []
        width = 0
        truncated_rows = False
        for number, row in enumerate(values, start=first_row):
            if len(rows) >= limits.rows_per_sheet:
                truncated_rows = True
                break
            cells = [_cell(v) for v in row]
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
        charts = 0
        for number, slide in enumerate(slides[: ctx.limits.slides], start=1):
            if out.full or ctx.out_of_time():
                break
            title_shape = slide.shapes.title
            title = title_shape.text_frame.text.strip() if title_shape is not None else ""
            out.add("heading", title or f"Slide {number}", slide=number, level=2)
            title_id = title_shape.shape_id if title_shape is not None else None
            body: list[str] = []
            for shape in _shapes(slide.shapes):
                alt = _alt_text(shape)
                if alt:
                    body.append(f"[image: {alt}]" if _is_picture(shape) else f"[{alt}]")
                if getattr(shape, "has_table", False):
                    rows = [
                        [" ".join(c.text.split()) for c in row.cells] for row in shape.table.rows
                    ]
                    out.add(
                        "table",
                        markdown_table(rows),
                        slide=number,
                        rows=tuple(tuple(r) for r in rows),
                    )
                elif getattr(shape, "has_chart", False):
                    charts += 1
                    rows = _chart_rows(shape.chart)
                    if rows:
                        name = _chart_title(shape.chart) or shape.name
                        out.add(
                            "table",
                            f"Chart: {name}\n{markdown_table(rows)}",
                            slide=number,
                            rows=tuple(tuple(r) for r in rows),
                        )
                elif getattr(shape, "has_text_frame", False) and shape.shape_id != title_id:
                    text = shape.text_frame.text.strip()
                    if text:
                        body.append(text)
            if body:
                out.add("text", "\n".join(body), slide=number)
            if slide.has_notes_slide:
                notes = slide.notes_slide.notes_text_frame
                if notes is not None and notes.text.strip():
                    out.add("text", "Notes: " + notes.text.strip(), slide=number)
        out.stats["charts"] = float(charts)
        if len(slides) > ctx.limits.slides:
            out.stop(f"slide limit: read {ctx.limits.slides} of {len(slides)} slides")


def _shapes(shapes: Iterable[Any]) -> Iterator[Any]:
    from pptx.shapes.group import GroupShape

    for shape in shapes:
        if isinstance(shape, GroupShape):  # shape_type can raise on unknown shapes
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _alt_text(shape: Any) -> str:
    """A shape's description (its alt text), from its non-visual properties."""
    found = shape._element.xpath("./*[1]/*[local-name()='cNvPr']/@descr")
    return " ".join(str(found[0]).split()) if found else ""


def _is_picture(shape: Any) -> bool:
    return bool(shape._element.tag.endswith("}pic"))


def _chart_title(chart: Any) -> str:
    try:
        if chart.has_title and chart.chart_title.has_text_frame:
            return " ".join(chart.chart_title.text_frame.text.split())
    except (AttributeError, ValueError, KeyError):
        pass
    return ""


def _chart_rows(chart: Any) -> list[list[str]]:
    """A chart's data as a table: a header of categories, then one row per series."""
    rows: list[list[str]] = []
    for plot in chart.plots:
        categories = [_cell(c) for c in plot.categories]
        if not rows:
            rows.append(["Series", *categories])
        for series in plot.series:
            values = ["" if v is None else _cell(v) for v in series.values]
            rows.append([str(series.name or ""), *values])
    return rows


def _heading_level(style: str) -> int | None:
    lower = style.lower()
    if lower == "title":
        return 1
    if lower.startswith("heading"):
        digits = "".join(ch for ch in style if ch in "0123456789")
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


# ----------------------------------------------------------------- docx XML

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"


def _w(name: str) -> str:
    return _W + name


_T, _TAB, _BR, _CR, _P, _TBL = (_w(n) for n in ("t", "tab", "br", "cr", "p", "tbl"))
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_MATH = (_M + "oMath", _M + "oMathPara")
_DOC_PR = _WP + "docPr"


def _body_items(body: Any) -> Iterator[Any]:
    """The body's paragraphs and tables in order, through content controls."""
    for child in body.iterchildren():
        if child.tag == _P or child.tag == _TBL:
            yield child
        elif child.tag in (_w("sdt"), _w("customXml"), _w("sdtContent")):
            yield from _body_items(child)


def _inline_text(element: Any, counts: dict[str, int]) -> str:
    parts: list[str] = []
    _collect(element, parts, counts)
    return "".join(parts)


def _collect(element: Any, parts: list[str], counts: dict[str, int]) -> None:
    for child in element.iterchildren():
        tag = child.tag
        if tag == _T:
            parts.append(child.text or "")
        elif tag == _TAB:
            parts.append("\t")
        elif tag == _BR or tag == _CR:
            parts.append("\n")
        elif tag in _MATH:
            counts["equations"] += 1
            parts.append(" " + omml_text(child).strip() + " ")
        elif tag == _P:  # a text box's paragraph inside this one
            parts.append("\n")
            _collect(child, parts, counts)
            parts.append("\n")
        elif tag == _DOC_PR:
            alt = (child.get("descr") or "").strip()
            if alt:
                parts.append(f" [image: {alt}] ")
        elif tag == _MC + "AlternateContent":  # the same content twice: read one form
            choice = child.find(_MC + "Choice")
            chosen = choice if choice is not None else child.find(_MC + "Fallback")
            if chosen is not None:
                _collect(chosen, parts, counts)
        elif tag == _TBL:  # a table nested in a cell
            rows = _docx_rows(child, counts)
            parts.append("\n" + "\n".join(" | ".join(r) for r in rows) + "\n")
        elif isinstance(tag, str):  # not a comment or processing instruction
            _collect(child, parts, counts)


def _docx_rows(table: Any, counts: dict[str, int]) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.iterchildren(_w("tr")):
        cells = [
            " ".join(_inline_text(cell, counts).split())
            for cell in row.iter(_w("tc"))
            if cell.getparent() is row or cell.getparent().tag == _w("sdtContent")
        ]
        if any(cells):
            rows.append(cells)
    return rows


_NARY_DEFAULT = "∫"
# fractions and scripts: a template over the named children
_SCRIPTS = {
    "f": ("{num}/{den}", ("num", "den")),
    "sSup": ("{e}^{sup}", ("e", "sup")),
    "sSub": ("{e}_{sub}", ("e", "sub")),
    "sSubSup": ("{e}_{sub}^{sup}", ("e", "sub", "sup")),
    "sPre": ("_{sub}^{sup}{e}", ("e", "sub", "sup")),
}


def omml_text(element: Any) -> str:
    """An Office Math (OMML) equation as linear text: ``x=(-b±√(b^2-4ac))/(2a)``."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    name = tag.removeprefix(_M) if tag.startswith(_M) else None

    def part(child_name: str) -> str:
        child = element.find(_M + child_name)
        return omml_text(child) if child is not None else ""

    def group(text: str) -> str:
        text = text.strip()
        return text if len(text) <= 1 or text.isdigit() else f"({text})"

    def prop(props: str, key: str, default: str) -> str:
        found = element.find(f"{_M}{props}/{_M}{key}")
        return found.get(_M + "val", default) if found is not None else default

    if name == "t":
        return element.text or ""
    if name in _SCRIPTS:
        template, slots = _SCRIPTS[name]
        return template.format(**{slot: group(part(slot)) for slot in slots})
    if name == "rad":
        degree = part("deg").strip()
        return f"√{group(part('e'))}" if not degree else f"root({degree}, {part('e').strip()})"
    if name == "nary":
        sign = prop("naryPr", "chr", _NARY_DEFAULT)
        lower, upper = part("sub").strip(), part("sup").strip()
        limits = (f"_{group(lower)}" if lower else "") + (f"^{group(upper)}" if upper else "")
        return f"{sign}{limits} {part('e').strip()}"
    if name == "d":
        begin = prop("dPr", "begChr", "(")
        end = prop("dPr", "endChr", ")")
        separator = prop("dPr", "sepChr", ",")
        inner = f"{separator} ".join(omml_text(e).strip() for e in element.iterchildren(_M + "e"))
        return f"{begin}{inner}{end}"
    if name == "func":
        return f"{part('fName').strip()} {part('e').strip()}"
    if name in {"limLow", "limUpp"}:
        mark = "_" if name == "limLow" else "^"
        return f"{part('e').strip()}{mark}{group(part('lim'))}"
    if name == "acc":
        return f"{part('e')}{prop('accPr', 'chr', '̂')}"
    if name == "bar":
        return f"bar({part('e').strip()})"
    if name == "m":
        rows = [
            ", ".join(omml_text(e).strip() for e in row.iterchildren(_M + "e"))
            for row in element.iterchildren(_M + "mr")
        ]
        return "[" + "; ".join(rows) + "]"
    if name == "eqArr":
        return "\n".join(omml_text(e).strip() for e in element.iterchildren(_M + "e"))
    if name is not None and name.endswith("Pr"):  # properties carry no text
        return ""
    if tag == _w("t"):
        return element.text or ""
    return "".join(omml_text(child) for child in element.iterchildren())
