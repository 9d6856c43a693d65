"""HTML and XHTML as readable blocks: headings, paragraphs, lists, links, tables, code.

Markup, scripts and styles are dropped; a link keeps its target (``text <url>``);
a table becomes rows (and a Markdown rendering). The same converter reads EPUB
chapters and HTML e-mail bodies.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from donecheck.parsers.base import BlockKind, MaterialBuilder, ParseContext, markdown_table
from donecheck.parsers.detect import Detection
from donecheck.parsers.encoding import decode_text
from donecheck.parsers.material import Material

__all__ = ["HtmlBlock", "HtmlParser", "html_blocks"]

_SKIP = {"script", "style", "noscript", "template", "svg", "iframe", "object"}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "nav",
    "blockquote",
    "figure",
    "figcaption",
    "dd",
    "dt",
    "address",
    "form",
    "fieldset",
    "details",
    "summary",
    "body",
    "html",
    "ul",
    "ol",
    "dl",
    "hr",
    "center",
}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_GROUP_CHARS = 1_200  # consecutive short paragraphs share one block (and one source id)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([\w-]+)""", re.I)


@dataclass
class HtmlBlock:
    kind: str  # text | heading | table | code
    text: str
    level: int | None = None
    rows: list[list[str]] | None = None


@dataclass
class _Table:
    rows: list[list[str]] = field(default_factory=list)
    row: list[str] | None = None
    cell: list[str] | None = None


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[HtmlBlock] = []
        self.title = ""
        self._text: list[str] = []
        self._skip = 0
        self._in_title = False
        self._pre = 0
        self._heading: int | None = None
        self._links: list[str | None] = []
        self._tables: list[_Table] = []
        self._list_depth = 0
        self._prefix = ""

    # ------------------------------------------------------------- helpers

    def _flush(self) -> None:
        text = "".join(self._text)
        self._text = []
        if self._pre:
            return
        text = " ".join(text.split())
        prefix, self._prefix = self._prefix, ""
        if not text:
            return
        text = prefix + text
        if self._heading is not None:
            self.blocks.append(HtmlBlock("heading", text, level=self._heading))
        else:
            self.blocks.append(HtmlBlock("text", text))

    def _sink(self) -> list[str]:
        table = self._tables[-1] if self._tables else None
        if table is not None and table.cell is not None:
            return table.cell
        return self._text

    # -------------------------------------------------------------- events

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
            return
        if self._skip:
            return
        if tag == "title":
            self._in_title = True
        elif tag in _HEADINGS:
            self._flush()
            self._heading = _HEADINGS[tag]
        elif tag in {"pre"}:
            self._flush()
            self._pre += 1
        elif tag == "br":
            self._sink().append("\n" if self._pre else " ")
        elif tag in {"ul", "ol"}:
            self._flush()
            self._list_depth += 1
        elif tag == "li":
            self._flush()
            self._prefix = "  " * max(0, self._list_depth - 1) + "- "
        elif tag in _BLOCK:
            self._flush()
        elif tag == "a":
            href = dict(attrs).get("href")
            self._links.append(href)
        elif tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self._sink().append(f"[image: {alt}]")
        elif tag == "table":
            self._flush()
            self._tables.append(_Table())
        elif tag == "tr" and self._tables:
            self._tables[-1].row = []
        elif tag in {"td", "th"} and self._tables:
            table = self._tables[-1]
            if table.row is None:
                table.row = []
            table.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if self._skip:
            return
        if tag == "title":
            self._in_title = False
        elif tag in _HEADINGS:
            self._flush()
            self._heading = None
        elif tag == "pre" and self._pre:
            self._pre -= 1
            code = "".join(self._text).strip("\n")
            self._text = []
            if code.strip():
                self.blocks.append(HtmlBlock("code", code))
        elif tag in {"ul", "ol"}:
            self._flush()
            self._list_depth = max(0, self._list_depth - 1)
        elif tag == "li" or tag in _BLOCK:
            self._flush()
        elif tag == "a" and self._links:
            href = self._links.pop()
            if href and not href.startswith(("#", "javascript:")):
                self._sink().append(f" <{href}>")
        elif tag in {"td", "th"} and self._tables:
            table = self._tables[-1]
            if table.cell is not None and table.row is not None:
                table.row.append(" ".join("".join(table.cell).split()))
            table.cell = None
        elif tag == "tr" and self._tables:
            table = self._tables[-1]
            if table.row:
                table.rows.append(table.row)
            table.row = None
        elif tag == "table" and self._tables:
            table = self._tables.pop()
            if table.row:
                table.rows.append(table.row)
            if table.rows:
                self.blocks.append(HtmlBlock("table", markdown_table(table.rows), rows=table.rows))

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
            return
        self._sink().append(data)

    def close(self) -> None:
        super().close()
        # An unclosed <script> or <title> ends with the document: without this
        # the open tables below would never see their end tag.
        self._skip = 0
        self._in_title = False
        while self._tables:
            self.handle_endtag("table")
        self._flush()


def html_blocks(text: str) -> tuple[str, list[HtmlBlock]]:
    """(title, blocks) of an HTML document."""
    converter = _Converter()
    converter.feed(text)
    converter.close()
    return " ".join(html.unescape(converter.title).split()), converter.blocks


def add_html(out: MaterialBuilder, text: str, *, page: int | None = None) -> str:
    """Convert HTML and add its blocks (the title first); returns the title."""
    title, blocks = html_blocks(text)
    if title:
        out.add("meta", f"Title: {title}", page=page)
    paragraph: list[str] = []

    def flush() -> bool:
        text = "\n".join(paragraph)
        paragraph.clear()
        return out.add("text", text, page=page)

    for block in blocks:
        if block.kind == "text":
            if paragraph and sum(map(len, paragraph)) + len(block.text) > _GROUP_CHARS:
                if not flush():
                    return title
            paragraph.append(block.text)
            continue
        if paragraph and not flush():
            return title
        rows = tuple(tuple(r) for r in block.rows) if block.rows else None
        kind: BlockKind = (
            "heading" if block.kind == "heading" else "table" if block.kind == "table" else "code"
        )
        if not out.add(kind, block.text, level=block.level, rows=rows, page=page):
            return title
    if paragraph:
        flush()
    return title


def decode_html(data: bytes) -> str | None:
    """HTML bytes to text, honouring a ``<meta charset>`` when present."""
    declared = _CHARSET.search(data[:4096])
    if declared:
        try:
            return data.decode(declared.group(1).decode("ascii"))
        except (LookupError, UnicodeDecodeError):
            pass
    decoded = decode_text(data)
    return decoded.text if decoded else None


class HtmlParser:
    recipe = "html-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in {"text/html", "application/xhtml+xml"} or (
            detection.mime in {"text/xml", "application/xml"}
            and detection.extension in {".xhtml", ".html", ".htm"}
        )

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        text = decode_html(data)
        if text is None:
            return out.fail("not decodable as text")
        add_html(out, text)
        if not out.blocks:
            out.warn("the page has no readable text")
        return out.build()
