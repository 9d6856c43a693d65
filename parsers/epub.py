"""EPUB e-books: chapters in spine order through the HTML converter.

The container is checked like any ZIP first; the reading order comes from the
OPF package's spine. Each chapter's blocks carry its position as ``page``.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from urllib.parse import unquote

from donecheck.parsers.base import ParseContext
from donecheck.parsers.detect import EPUB, Detection
from donecheck.parsers.html import add_html, decode_html
from donecheck.parsers.material import Material
from donecheck.parsers.zipcheck import inspect_zip, read_member

__all__ = ["EpubParser"]

_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
}


class EpubParser:
    recipe = "epub-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime == EPUB

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        archive, report = inspect_zip(data, ctx.limits)
        if archive is None:
            return out.fail(report.fatal or "corrupt")
        limit = ctx.limits.member_bytes
        with archive:
            try:
                container = ET.fromstring(archive.read("META-INF/container.xml"))
                rootfile = container.find(".//c:rootfile", _NS)
                if rootfile is None:
                    raise KeyError("no rootfile")
                opf_path = rootfile.attrib["full-path"]
                info = archive.getinfo(opf_path)
                package = ET.fromstring(read_member(archive, info, limit) or b"")
            except (KeyError, ET.ParseError) as exc:
                return out.fail(f"corrupt EPUB: no readable package document ({exc})")
            meta = _metadata(package)
            if meta:
                out.add("meta", "\n".join(f"{label}: {value}" for label, value in meta))
            base = posixpath.dirname(opf_path)
            manifest = {
                item.attrib.get("id"): item.attrib.get("href", "")
                for item in package.iterfind(".//opf:manifest/opf:item", _NS)
            }
            spine = [
                ref.attrib.get("idref") for ref in package.iterfind(".//opf:spine/opf:itemref", _NS)
            ]
            out.stats["chapters"] = float(len(spine))
            for number, idref in enumerate(spine[: ctx.limits.pages], start=1):
                if out.full or ctx.out_of_time():
                    break
                href = manifest.get(idref)
                if not href:
                    continue
                path = posixpath.normpath(posixpath.join(base, unquote(href)))
                try:
                    chapter = read_member(archive, archive.getinfo(path), limit)
                except KeyError:
                    out.warn(f"chapter {number}: {path} is missing")
                    continue
                if chapter is None:
                    out.warn(f"chapter {number}: {path} is larger than {limit} bytes; skipped")
                    continue
                text = decode_html(chapter)
                if text is not None:
                    add_html(out, text, page=number)
            if len(spine) > ctx.limits.pages:
                out.stop(f"chapter limit: read {ctx.limits.pages} of {len(spine)} chapters")
        return out.build()


_FIELDS = (
    ("title", "Title", False),
    ("creator", "Authors", True),
    ("contributor", "Contributors", True),
    ("language", "Language", False),
    ("publisher", "Publisher", False),
    ("date", "Date", False),
    ("identifier", "Identifier", False),
    ("subject", "Subjects", True),
    ("description", "Description", False),
    ("rights", "Rights", False),
)


def _metadata(package: ET.Element) -> list[tuple[str, str]]:
    """The package's Dublin Core metadata: title, authors, language, publisher, …"""
    found: list[tuple[str, str]] = []
    for element, label, many in _FIELDS:
        values = [
            " ".join((node.text or "").split())
            for node in package.iterfind(f".//dc:{element}", _NS)
        ]
        values = [v for v in values if v][: 20 if many else 1]
        if values:
            found.append((label, "; ".join(values)))
    return found
