"""A first stop is skipped only where it is safe: judged by content, not a character count."""

from __future__ import annotations

import pytest

from donecheck.actors.review.trivial import meaning_chars, trivial_stop
from tests.unit.helpers import LedgerBuilder, view_of

CHAT = "Say hello to the team."


def ledger_for(request: str, *, ran: bool = False) -> LedgerBuilder:
    ledger = LedgerBuilder()
    ledger.open(request)
    if ran:
        ledger.run("pytest -q", 1, "=== 1 failed in 0.1s ===")
    return ledger


@pytest.mark.parametrize(
    ("request_text", "answer", "ran", "skipped"),
    [
        (CHAT, "Hello, team!", False, True),
        (CHAT, "你好，团队！", False, True),
        (CHAT, "x" * 59, False, True),
        (CHAT, "x" * 60, False, False),  # long enough to be worth a look
        (CHAT, "你好" * 10, False, False),  # 20 CJK characters carry as much as 60 letters
        (CHAT, "Hello `team`", False, False),  # code is never skipped
        (CHAT, "```\nx=1\n```", False, False),  # in any fence
        (CHAT, "~~~\nx=1\n~~~", False, False),
        (CHAT, "Here:\n\n    x = 1\n", False, False),  # or a Markdown indented block
        (CHAT, "Hi!\n  - a\n  - b", False, True),  # an indented list is no code
        (CHAT, "Hi team,\n\n    see you", False, True),  # nor indented words
        (CHAT, "Done.", False, False),  # a completion claim
        (CHAT, "已完成。", False, False),
        (CHAT, "All tests pass.", False, False),  # a check claim
        (CHAT, "Updated notes.md.", False, False),  # a file claim
        (CHAT, "The budget was approved.", False, False),  # an approval claim
        (CHAT, "Hello, team!", True, False),  # tool activity in this request
        ("Fix add() in calc.py.", "On it.", False, False),  # names a file
        ("Make sure the tests pass.", "Sure.", False, False),  # names a check
        ("Fixed. All tests pass.", "Fixed. All tests pass.", True, False),
        ("Run the linter.", "Ok.", False, False),
    ],
)
def test_trivial_stop(request_text: str, answer: str, ran: bool, skipped: bool) -> None:
    ledger = ledger_for(request_text, ran=ran)
    view = view_of(ledger.entries, "r", request_text)
    assert trivial_stop(answer, request_text, view, 60) is skipped


def test_an_attachment_the_request_depends_on_is_never_trivial() -> None:
    from donecheck.actors.messages import Material

    spec = Material(
        sha256="sha256:" + "d" * 64, declared_name="spec.pdf", detected_type="x", status="parsed"
    )
    ledger = LedgerBuilder()
    ledger.open("Have a look.", spec)
    view = view_of(ledger.entries, "r", "Have a look.")
    assert trivial_stop("Looks fine.", "Have a look.", view, 60) is False


def test_tool_activity_of_an_earlier_request_does_not_count() -> None:
    ledger = ledger_for("Fix add() in calc.py.", ran=True)
    ledger.user(CHAT, "r2")
    assert trivial_stop("Hello, team!", CHAT, view_of(ledger.entries, "r2", CHAT), 60) is True


def test_meaning_chars_counts_cjk_as_three() -> None:
    assert meaning_chars("ab, c!") == 3
    assert meaning_chars("你好") == 6
    assert meaning_chars("テスト") == 9


@pytest.mark.parametrize(
    ("answer", "unfinished_"),
    [
        ("```python\ndef add(a, b):\n    return a + b\n```", False),  # only code: an answer
        ("~~~\nSELECT 1;\n~~~", False),
        ("    def add(a, b):\n        return a + b", False),
        ("", True),
        ("   \n ", True),
        ("Now let me run the tests.", True),
        ("Here it is:\n```\nx = 1\n```\nNow let me run the tests.", True),
    ],
)
def test_an_answer_of_code_alone_is_an_answer(answer: str, unfinished_: bool) -> None:
    from donecheck.actors.words.claims import unfinished

    assert bool(unfinished(answer)) is unfinished_
