"""Acceptance items from attachments: numbered, bulleted, checkbox and "must" items
in text, Markdown, DOCX and PDF files become items that cite their block."""

from __future__ import annotations

import io

import pymupdf
import pytest
from docx import Document

from donecheck.actors.review.preanalysis import extract_acceptance
from donecheck.parsers import parse_bytes
from donecheck.parsers.material import Material

EXPECTED = [
    "README must list the three commands",
    "The CLI prints its help with --help",
    "Lint is clean",
    "The installer must work on a fresh machine with only Python 3.11",
    "The report must cite evidence ids.",
]


def _txt() -> bytes:
    return (
        b"Acceptance checklist\n"
        b"1. README must list the three commands\n"
        b"2) The CLI prints its help with --help\n"
        b"- [ ] Lint is clean\n"
        b"3. The installer must work on a fresh machine with\n"
        b"   only Python 3.11\n"
        b"\n"
        b"Background: the team ships weekly. The report must cite evidence ids.\n"
        b"Do not change the public API.\n"
    )


def _md() -> bytes:
    return (
        b"# Acceptance\n\n"
        b"* README must list the three commands\n"
        b"* [x] The CLI prints its help with --help\n"
        b"- [ ] Lint is clean\n"
        b"1. The installer must work on a fresh machine with only Python 3.11\n\n"
        b"Some context first. The report must cite evidence ids.\n\n"
        b"Do not change the public API.\n"
    )


def _docx() -> bytes:
    document = Document()
    document.add_heading("Acceptance", level=1)
    document.add_paragraph("README must list the three commands", style="List Number")
    document.add_paragraph("The CLI prints its help with --help", style="List Number")
    document.add_paragraph("Lint is clean", style="List Bullet")
    document.add_paragraph(
        "The installer must work on a fresh machine with only Python 3.11", style="List Bullet"
    )
    document.add_paragraph("Some context first. The report must cite evidence ids.")
    document.add_paragraph("Do not change the public API.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        "Acceptance checklist",
        "1. README must list the three commands",
        "2. The CLI prints its help with --help",
        "\u2022 Lint is clean",
        "3. The installer must work on a fresh machine with",
        "only Python 3.11",
        "",
        "Some context first. The report must cite evidence ids.",
        "Do not change the public API.",
    ]
    y = 72
    for line in lines:
        if line:
            page.insert_text((72, y), line, fontsize=11)
        y += 16
    return doc.tobytes()


@pytest.mark.parametrize(
    ("name", "make"),
    [("checklist.txt", _txt), ("checklist.md", _md), ("checklist.docx", _docx), ("c.pdf", _pdf)],
)
def test_items_of_an_attachment_cite_their_block(name: str, make) -> None:
    material: Material = parse_bytes(make(), name)
    assert material.status == "parsed", material.reason
    acceptance = extract_acceptance("r", "Do what the attached checklist says.", [material])
    texts = [item.text for item in acceptance.items]
    assert texts == EXPECTED, texts
    blocks = {b.source_id for b in material.blocks}
    assert all(item.source in blocks for item in acceptance.items)
    assert "Do not change the public API." in acceptance.constraints


def test_an_unparsed_attachment_gives_no_items() -> None:
    material = parse_bytes(b"\x00\x01\x02binary", "x.txt")
    acceptance = extract_acceptance("r", "Fix it.", [material])
    assert [i.source for i in acceptance.items] == ["request"]


def test_a_number_in_running_text_is_not_an_item() -> None:
    material = parse_bytes(b"Latency\n1.5 seconds at p99\n-5 degrees outside\n", "n.txt")
    acceptance = extract_acceptance("r", "Fix it.", [material])
    assert [i.source for i in acceptance.items] == ["request"]


def test_an_attachment_item_naming_a_file_needs_that_file_written() -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    material = parse_bytes(b"Checklist\n1. README.md must list the three commands\n", "spec.txt")
    ledger = LedgerBuilder()
    ledger.open("Do what the attached spec.txt says.", material)
    ledger.result(ledger.call("read_file", {"path": "spec.txt"}), "1. README.md must list …", 0)
    verdict = review_by_rules(ledger.request("Done, README.md lists the three commands."))
    uncovered = [f for f in verdict.findings if f.rule == "uncovered_item"]
    assert verdict.decision == "need_evidence"
    assert any("README.md must list the three commands" in f.requirement for f in uncovered)
    ledger.write("README.md")
    verdict = review_by_rules(ledger.request("Done, README.md lists the three commands."))
    assert not [f for f in verdict.findings if f.rule == "uncovered_item"], verdict.findings
