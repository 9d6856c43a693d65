"""The real-world corpus (tests/realworld, files from other projects' test suites and
documentation, with their licences): every file is read, and the phrases each holds
(chosen by tests/realworld/make_expected.py with other libraries) are found."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from donecheck.parsers import parse_bytes
from donecheck.parsers.material import Material
from donecheck.parsers.ocr import OCR_MISSING, ocr_available
from tests.realworld import EXPECTED, FILES, HERE, missing


def _parse(path: Path) -> Material:
    return parse_bytes(path.read_bytes(), path.name)


def test_every_file_has_a_source_and_expected_phrases() -> None:
    sources = (HERE / "SOURCES.md").read_text()
    for path in FILES:
        assert path.name in sources, f"{path.name} has no source in SOURCES.md"
        assert path.name in EXPECTED


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_is_read_and_its_phrases_found(path: Path) -> None:
    material = _parse(path)
    assert material.status in {"parsed", "partial"}, material.reason
    if path.suffix == ".png" and not ocr_available():  # the text is in the picture
        assert OCR_MISSING in material.warnings, material.warnings
        pytest.skip("Tesseract is not installed here (.ci/run installs it)")
    not_found = missing(EXPECTED[path.name], "\n".join(block.text for block in material.blocks))
    allowed = 1 if path.suffix == ".png" else 0  # OCR of a poster's stylised lettering
    assert len(not_found) <= allowed, (not_found, material.status, material.reason)


def _text(name: str) -> str:
    return "\n".join(block.text for block in _parse(HERE / "files" / name).blocks)


def test_xls_and_ods_are_read_without_libreoffice() -> None:
    assert "Zażółć gęślą jaźń" in _text("less_simple.xls")
    assert "工作表1" in _text("chinese_spreadsheet.ods")


def test_outlook_messages_with_attached_messages() -> None:
    text = _text("other.msg")
    assert "Subject: 投递状态通知 (Failure Notice)" in text
    assert "Attached message:" in text


def test_pptx_charts_and_grouped_shapes() -> None:
    charts = _parse(HERE / "files" / "cht-charts.pptx")
    assert charts.stats["charts"] >= 1
    assert any(b.text.startswith("Chart:") and "Category 1" in b.text for b in charts.blocks)


def test_epub_metadata_is_read() -> None:
    text = _text("ubuntu-packaging-guide.epub")
    assert re.search(r"^Title: .*Ubuntu", text, re.M)
    assert re.search(r"^Language: ", text, re.M)
