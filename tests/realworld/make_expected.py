"""Write expected.json: for each real-world file, up to five phrases its content
holds, read with a library neither DoneCheck nor MarkItDown uses for that format
where one exists (pypdf, xlrd, odfpy, the standard library), else the format's
reference library. Run once when the corpus changes; the file is committed.

    python tests/realworld/make_expected.py
"""

from __future__ import annotations

import csv
import email
import html.parser
import json
import re
import tarfile
import zipfile
from email import policy
from pathlib import Path

HERE = Path(__file__).parent
FILES = HERE / "files"
PER_FILE = 5
HAND = {  # what a person reads in the picture (no library reads an image's text)
    "monty-truth.png": ["MONTY PYTHON", "THE TRUTH"],
}


class _Text(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.skip += tag in {"script", "style"}
        if tag in {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "td", "th", "pre"}:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in {"script", "style"} and self.skip > 0
        if tag in {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "td", "th", "title"}:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def _html(text: str) -> str:
    parser = _Text()
    parser.feed(text)
    return "".join(parser.parts)


def _pdf(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def _docx(path: Path) -> str:
    from docx import Document

    document = Document(str(path))
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        lines.extend(" ".join(c.text for c in row.cells) for row in table.rows)
    return "\n".join(lines)


def _pptx(path: Path) -> str:
    from pptx import Presentation
    from pptx.shapes.group import GroupShape

    def flat(shapes: object) -> list[object]:
        out: list[object] = []
        for shape in shapes:  # type: ignore[attr-defined]
            out.extend(flat(shape.shapes) if isinstance(shape, GroupShape) else [shape])
        return out

    lines: list[str] = []
    for slide in Presentation(str(path)).slides:
        for shape in flat(slide.shapes):
            if shape.has_text_frame:
                lines.extend(p.text for p in shape.text_frame.paragraphs)
            if getattr(shape, "has_table", False) and shape.has_table:
                lines.extend(c.text for row in shape.table.rows for c in row.cells)
            if getattr(shape, "has_chart", False) and shape.has_chart:
                lines.extend(str(c) for c in shape.chart.plots[0].categories)
        if slide.has_notes_slide:
            lines.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(lines)


def _xls(path: Path) -> str:
    import xlrd

    book = xlrd.open_workbook(str(path))
    return "\n".join(
        " ".join(str(v) for v in sheet.row_values(r) if str(v).strip())
        for sheet in book.sheets()
        for r in range(sheet.nrows)
    )


def _xlsx(path: Path) -> str:
    from openpyxl import load_workbook

    book = load_workbook(str(path), read_only=True, data_only=True)
    return "\n".join(
        " ".join(str(v) for v in row if v is not None)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
    )


def _ods(path: Path) -> str:
    from odf import teletype
    from odf.opendocument import load
    from odf.table import TableCell

    document = load(str(path))
    return "\n".join(teletype.extractText(c) for c in document.getElementsByType(TableCell))


def _msg(path: Path) -> str:
    import olefile

    with olefile.OleFileIO(str(path)) as ole:
        parts = []
        for tag in ("0037001F", "1000001F", "0E04001F"):
            name = f"__substg1.0_{tag}"
            if ole.exists(name):
                parts.append(ole.openstream(name).read().decode("utf-16-le", "replace"))
        return "\n".join(parts)


def _eml(path: Path) -> str:
    message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    body = message.get_body(preferencelist=("plain", "html"))
    return "\n".join(
        [str(message["Subject"] or ""), body.get_content() if body is not None else ""]
    )


def _epub(path: Path) -> str:
    with zipfile.ZipFile(path) as archive:
        names = sorted(n for n in archive.namelist() if n.endswith((".html", ".xhtml")))
        return "\n".join(_html(archive.read(n).decode("utf-8", "replace")) for n in names[:6])


def _csv(path: Path) -> str:
    with path.open(newline="") as handle:
        return "\n".join(" ".join(row) for row in csv.reader(handle))


def _tar(path: Path) -> str:
    with tarfile.open(path) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("README.rst"))
        handle = archive.extractfile(member)
        return handle.read().decode() if handle is not None else ""


def _json(path: Path) -> str:
    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return []

    return "\n".join(strings(json.loads(path.read_text())))


READERS = {
    ".pdf": _pdf,
    ".docx": _docx,
    ".pptx": _pptx,
    ".xls": _xls,
    ".xlsx": _xlsx,
    ".ods": _ods,
    ".msg": _msg,
    ".eml": _eml,
    ".epub": _epub,
    ".html": lambda p: _html(p.read_text("utf-8", "replace")),
    ".csv": _csv,
    ".gz": _tar,
    ".json": _json,
}


def phrases(text: str) -> list[str]:
    """Up to PER_FILE phrases spread over the text: its lines of 2-8 words with
    letters (a longer line gives its first six words), else single words."""
    seen: set[str] = set()
    lines: list[str] = []
    words_alone: list[str] = []
    for line in text.splitlines():
        words = line.split()
        if len(words) > 8:
            words = words[:6]
        line = " ".join(words)
        if not re.search(r"[A-Za-z\u4e00-\u9fff]{3}", line) or line in seen or len(line) > 80:
            continue
        seen.add(line)
        (lines if len(words) >= 2 else words_alone).append(line)
    lines = lines or words_alone
    if len(lines) <= PER_FILE:
        return lines
    step = len(lines) / PER_FILE
    return [lines[int(i * step)] for i in range(PER_FILE)]


def main() -> None:
    expected: dict[str, list[str]] = {}
    for path in sorted(FILES.iterdir()):
        if path.name in HAND:
            expected[path.name] = HAND[path.name]
            continue
        reader = READERS[path.suffix.lower()]
        expected[path.name] = phrases(reader(path))
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
    total = sum(map(len, expected.values()))
    print(f"{len(expected)} files, {total} phrases -> {HERE / 'expected.json'}")


if __name__ == "__main__":
    main()
