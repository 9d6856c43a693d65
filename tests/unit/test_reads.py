"""Read evidence as a table: which actions show an attachment's content, which do not."""

from __future__ import annotations

from typing import Any

import pytest

from donecheck.actors.evidence.reads import read_evidence
from donecheck.actors.messages import (
    AttachmentRef,
    LedgerEntry,
    MaterialRecorded,
    SessionOpened,
    ToolCall,
    ToolResult,
)
from donecheck.parsers import ParseLimits, parse_bytes
from tests.support import samples as s

SPEC_TEXT = (
    b"Invoices older than thirty days must be escalated to the finance lead.\n"
    b"Every escalation needs the customer id, the amount and the due date.\n"
)
SPEC = parse_bytes(SPEC_TEXT, "spec.txt")
PDF_SAMPLE = s.pdf(seed=3, pages=1, table=False)
PDF = parse_bytes(PDF_SAMPLE.data, "report.pdf", limits=ParseLimits(preview_pages=0))
IMAGE = parse_bytes(s.image(seed=3, text=False).data, "shot.png", limits=ParseLimits(ocr=False))


def _encrypted_pdf() -> bytes:
    from donecheck.parsers.mupdf import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The deadline is March 3.")
    return bytes(doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o"))


LOCKED_BYTES = _encrypted_pdf()
LOCKED = parse_bytes(LOCKED_BYTES, "locked.pdf")
DAMAGED = parse_bytes(b"%PDF-1.7\n1 0 obj << /Length 99 >> stream\nxx\x00\x01", "damaged.pdf")


def ledger(material, *steps: tuple[str, Any, str, int]) -> list[LedgerEntry]:
    """steps: (tool name, arguments, output, exit code)."""
    events: list = [
        SessionOpened(
            session_id="s",
            request_id="r",
            request="do",
            attachments=(
                AttachmentRef(sha256=material.sha256, name=material.declared_name, size=1),
            ),
        ),
        MaterialRecorded(session_id="s", material=material),
    ]
    for n, (name, args, output, code) in enumerate(steps):
        events.append(ToolCall(session_id="s", call_id=f"c{n}", name=name, arguments=args))
        events.append(ToolResult(session_id="s", call_id=f"c{n}", output=output, exit_code=code))
    return [LedgerEntry(seq=i + 1, event=e) for i, e in enumerate(events)]


def status(material, *steps) -> str:
    (evidence,) = read_evidence(ledger(material, *steps))
    return evidence.status


@pytest.mark.parametrize(
    ("material", "steps", "expected"),
    [
        (SPEC, [("read_file", {"path": "docs/spec.txt"}, SPEC_TEXT.decode(), 0)], "read"),
        (SPEC, [("Read", {"file_path": "/work/spec.txt"}, "1\tInvoices older", 0)], "read"),
        (
            SPEC,
            [("str_replace_editor", {"command": "view", "path": "spec.txt"}, "Invoices", 0)],
            "read",
        ),
        (SPEC, [("bash", {"command": "cat spec.txt"}, SPEC_TEXT.decode(), 0)], "read"),
        (
            SPEC,
            [("powershell", {"command": "Get-Content spec.txt"}, SPEC_TEXT.decode(), 0)],
            "read",
        ),
        (SPEC, [("bash", {"command": "head -n 1 spec.txt"}, "Invoices older", 0)], "partial"),
        (SPEC, [("bash", {"command": "wc -l spec.txt"}, "2 spec.txt", 0)], "metadata_only"),
        (
            SPEC,
            [("bash", {"command": "ls -la spec.txt"}, "-rw-r--r-- 1 u u 140 spec.txt", 0)],
            "metadata_only",
        ),
        (SPEC, [("bash", {"command": "sha256sum spec.txt"}, "abc  spec.txt", 0)], "metadata_only"),
        (
            SPEC,
            [("bash", {"command": "cat spec.txt"}, "cat: spec.txt: No such file", 1)],
            "not_read",
        ),
        (SPEC, [("bash", {"command": "cat other.txt"}, "unrelated", 0)], "not_read"),
        (SPEC, [], "not_read"),
        # any output that contains its text, whoever printed it
        (
            SPEC,
            [("python", {"code": "print(open('spec.txt').read())"}, SPEC_TEXT.decode(), 0)],
            "read",
        ),
        # a PDF: page count and cat of its bytes show nothing of its text
        (PDF, [("bash", {"command": "pdfinfo report.pdf"}, "Pages: 1", 0)], "metadata_only"),
        (PDF, [("bash", {"command": "cat report.pdf"}, "%PDF-1.7 %\x00 stream...", 0)], "not_read"),
        # writing a parsed copy shows nothing; reading the copy does
        (PDF, [("bash", {"command": "pdftotext report.pdf out.txt"}, "", 0)], "not_read"),
        (
            PDF,
            [
                ("bash", {"command": "pdftotext report.pdf out.txt"}, "", 0),
                ("bash", {"command": "cat out.txt"}, "\n".join(PDF_SAMPLE.phrases), 0),
            ],
            "read",
        ),
        (PDF, [("Read", {"file_path": "report.pdf"}, "\n".join(PDF_SAMPLE.phrases), 0)], "read"),
        # an image: an image tool or a read tool on it views it; cat does not
        (IMAGE, [("view_image", {"path": "shot.png"}, "[image]", 0)], "read"),
        (IMAGE, [("Read", {"file_path": "shot.png"}, "", 0)], "read"),
        (IMAGE, [("bash", {"command": "cat shot.png"}, "\x89PNG...", 0)], "not_read"),
        (IMAGE, [("bash", {"command": "identify shot.png"}, "PNG 900x300", 0)], "metadata_only"),
        # a file nobody can read as it is: opening it shows raw bytes, not its content
        (
            LOCKED,
            [("Read", {"file_path": "locked.pdf"}, LOCKED_BYTES[:300].decode("latin-1"), 0)],
            "metadata_only",
        ),
        (
            LOCKED,
            [("Read", {"file_path": "locked.pdf"}, "The deadline is March 3.", 0)],
            "metadata_only",
        ),
        (
            DAMAGED,
            [("Read", {"file_path": "damaged.pdf"}, "%PDF-1.7\n1 0 obj << /Length 99 >>", 0)],
            "metadata_only",
        ),
        # a damaged file another tool could still read: its text shown counts
        (
            DAMAGED,
            [("Read", {"file_path": "damaged.pdf"}, "Quarterly figures: 12 rows", 0)],
            "read",
        ),
    ],
)
def test_read_status(material, steps, expected: str) -> None:
    assert status(material, *steps) == expected


def test_evidence_ids_and_how() -> None:
    entries = ledger(
        SPEC,
        ("bash", {"command": "wc -l spec.txt"}, "2", 0),
        ("bash", {"command": "cat spec.txt"}, SPEC_TEXT.decode(), 0),
    )
    (evidence,) = read_evidence(entries)
    assert evidence.status == "read"
    assert evidence.evidence == ("E6",)
    assert evidence.how == ("printed with `cat`",)


def test_attachment_without_material_yet_is_judged_by_name() -> None:
    entries = [
        LedgerEntry(
            seq=1,
            event=SessionOpened(
                session_id="s",
                request_id="r",
                request="do",
                attachments=(AttachmentRef(sha256="sha256:9", name="notes.md", size=3),),
            ),
        ),
        LedgerEntry(
            seq=2,
            event=ToolCall(
                session_id="s", call_id="c", name="read_file", arguments={"path": "notes.md"}
            ),
        ),
        LedgerEntry(
            seq=3, event=ToolResult(session_id="s", call_id="c", output="# notes", exit_code=0)
        ),
    ]
    assert read_evidence(entries)[0].status == "read"
