from __future__ import annotations

import pytest

from donecheck.actors.parser import AttachmentParser
from donecheck.parsers import ParseLimits, parse_bytes
from donecheck.runtime.messages import ParseRequest


def test_text_is_line_numbered_with_source_ids() -> None:
    material = parse_bytes(b"first line\nsecond line\n", "notes.txt")
    assert material.status == "parsed"
    assert material.detected_type == "text/plain"
    (block,) = material.blocks
    assert block.text == "    1 | first line\n    2 | second line"
    assert block.source_id == material.sha256.removeprefix("sha256:")[:12] + "#0"


@pytest.mark.parametrize(
    ("data", "status", "reason"),
    [
        (b"", "failed", "empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "unparsed", "no parser for"),
        (b"\xff\xfe" + "hé".encode("utf-16-le"), "parsed", ""),
    ],
)
def test_statuses(data: bytes, status: str, reason: str) -> None:
    material = parse_bytes(data, "file.bin")
    assert material.status == status
    assert reason in material.reason


def test_budget_gives_partial_never_silent() -> None:
    data = "\n".join(f"line {i}" for i in range(1_000)).encode()
    material = parse_bytes(
        data, "big.txt", limits=ParseLimits(text_chars=2_000, lines_per_block=50)
    )
    assert material.status == "partial"
    assert "text budget" in material.reason


def test_name_and_content_mismatch_is_flagged() -> None:
    material = parse_bytes(b"%PDF-1.4\n%...\n", "report.txt")
    assert any("suggests text/plain" in w for w in material.warnings)


def test_parser_actor_caches_by_content() -> None:
    parser = AttachmentParser()
    request = ParseRequest(sha256="sha256:" + "1" * 64, declared_name="a.txt", size=4)
    first = parser.parse(request, b"abc\n")
    renamed = ParseRequest(sha256=request.sha256, declared_name="b.txt", size=4)
    second = parser.parse(renamed, b"abc\n")
    assert second.declared_name == "b.txt" and second.blocks == first.blocks
    assert parser.statistics()["cache_hits"] == 1
