"""What the seeds ask for, through the public session API (issue 29 item 1): each test
is a story a user could run, and fails without the change it names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.actors.messages import Deliver, Report, Steer
from donecheck.runtime import DoneCheck
from donecheck.runtime.report import card_text


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    with DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("seeds")) as app:
        yield app


def _locked_pdf(folder: Path) -> Path:
    from donecheck.parsers.mupdf import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The deadline for the migration is March 3.")
    path = folder / "spec.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    return path


def test_an_encrypted_pdf_opened_as_raw_bytes_is_never_read(dc: DoneCheck, tmp_path: Path) -> None:
    pdf = _locked_pdf(tmp_path)
    request = "Summarise the attached spec: what is the deadline?"
    with dc.open_session(request, attachments=[pdf]) as session:
        call = session.tool_call("Read", {"file_path": str(pdf)})
        session.tool_result(call, output=pdf.read_bytes()[:400].decode("latin-1"), exit_code=0)
        first = session.turn_stopping("I read spec.pdf. The deadline for the migration is March 3.")
        assert isinstance(first, Steer), first
        assert "cannot have read its content" in first.message
        assert "ask the user for a readable copy (or its password)" in first.message
        # the honest answer that follows ends the loop, reported, not passed
        last = session.turn_stopping(
            "[DoneCheck A2] I could not read spec.pdf: it is encrypted and needs a password,"
            " so I cannot say what the deadline is. Please send the password."
        )
        assert isinstance(last, Report) and not isinstance(last, Deliver)
        card = session.report()
    assert card.decision == "blocked"
    assert "encrypted" in card_text(card, session="s")
