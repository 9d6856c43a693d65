"""The parser registry: every format's parser in the order tried, the recipe
version caches key on, and :func:`parse_bytes`. Imported on first use of
``donecheck.parsers.parse_bytes`` (and friends), so code that only needs the
material types or :class:`~.base.ParseLimits` does not load every format library."""

from __future__ import annotations

import time

import msgspec

from donecheck.parsers.archive import ArchiveParser
from donecheck.parsers.base import ParseContext, ParseLimits, Parser, failure_reason
from donecheck.parsers.detect import detect
from donecheck.parsers.epub import EpubParser
from donecheck.parsers.html import HtmlParser
from donecheck.parsers.image import ImageParser, SvgParser
from donecheck.parsers.mail import MailParser
from donecheck.parsers.material import ImageRole, Material, sha256_ref
from donecheck.parsers.office import OfficeParser
from donecheck.parsers.pdf import PdfParser
from donecheck.parsers.structured import CsvParser, JsonParser, NotebookParser
from donecheck.parsers.text import TextParser

__all__ = ["PARSERS", "RECIPE_VERSION", "parse_bytes"]

PARSERS: tuple[Parser, ...] = (
    PdfParser(),
    OfficeParser(),
    EpubParser(),
    HtmlParser(),
    ImageParser(),
    SvgParser(),
    NotebookParser(),
    JsonParser(),
    CsvParser(),
    MailParser(),
    ArchiveParser(),
    TextParser(),
)
RECIPE_VERSION = "3:" + "+".join(p.recipe for p in PARSERS)
"""Changes whenever any parser's output for the same bytes changes; caches key on it."""


def parse_bytes(
    data: bytes,
    declared_name: str,
    *,
    sha256: str | None = None,
    limits: ParseLimits | None = None,
    role: ImageRole | None = None,
    depth: int = 0,
    started: float | None = None,
) -> Material:
    """Parse one attachment's bytes into a :class:`Material`. Never raises for bad input."""
    sha256 = sha256 or sha256_ref(data)
    limits = limits or ParseLimits()
    detection = detect(data, declared_name)
    started = started if started is not None else time.monotonic()

    def member(content: bytes, name: str, member_depth: int) -> Material:
        return parse_bytes(content, name, limits=limits, depth=member_depth, started=started)

    ctx = ParseContext(
        sha256=sha256,
        detection=detection,
        limits=limits,
        depth=depth,
        started=started,
        parse_member=member,
        role=role,
    )
    notes = list(detection.notes)
    if detection.mismatch:
        notes.insert(
            0,
            f"name/content mismatch: {declared_name!r} suggests {detection.declared_mime} but the"
            f" content is {detection.mime}",
        )
    builder = ctx.builder(RECIPE_VERSION)
    for note in notes:
        builder.warn(note)
    if not data:
        return builder.fail("empty: the file has no content (0 bytes)")
    parser = next((p for p in PARSERS if p.accepts(detection)), None)
    if parser is None:
        return builder.unparsed(f"no parser for {detection.mime} ({detection.description})")
    try:
        material = parser.parse(data, ctx)
    except MemoryError:
        return builder.fail("out of memory while parsing")
    except RecursionError:
        return builder.fail("nested too deeply to parse")
    except Exception as exc:  # a library's error on bad input (or a bug) must not lose the batch
        return builder.fail(failure_reason(exc))
    warnings = [*notes, *(w for w in material.warnings if w not in notes)]
    if material.status == "parsed" and not material.blocks:
        warnings.append("no text or other content was found in it")
    return msgspec.structs.replace(
        material, recipe_version=RECIPE_VERSION, warnings=tuple(warnings)
    )
