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


# ---- the agent CLI's own error in place of an answer (public Harbor runs of Claude
# Code 2.1.50, sourcegraph/CodeScaleBench: "You've hit your limit · resets 3am (UTC)")


@pytest.mark.parametrize(
    ("answer", "ended"),
    [
        ("You've hit your limit · resets 3am (UTC)", True),
        ("Claude AI usage limit reached|1767225600", True),
        ('API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}', True),
        ("API Error: Request timed out.", True),
        ("Credit balance is too low", True),
        ("Invalid API key · Please run /login", True),
        ("Prompt is too long", True),
        ("You've hit your usage limit. Upgrade to Pro or try again in 2 hours.", True),
        ("stream error: stream disconnected before completion", True),
        ("You've hit your session limit · resets 8:20pm (Asia/Singapore)", True),
        ("Claude usage limit reached. Your limit resets at 5:00pm.", True),
        ("Error: Not logged in. Please run claude login", True),
        ("■ You've hit your usage limit. Visit https://chatgpt.com/codex/settings/usage", True),
        # the same words in an answer that did its work
        ("I added a rate limit: clients that hit the limit get a 429.", False),
        ("Fixed the API error handling: a 529 now retries twice.", False),
        ("Done. The tests pass; note that you may hit your limit on the free tier.", False),
        ("The prompt is too long for the model, so I split it into chunks in split.py.", False),
    ],
)
def test_the_clients_own_error_is_no_answer(answer: str, ended: bool) -> None:
    from donecheck.actors.words.claims import unfinished

    assert bool(unfinished(answer)) is ended


def test_a_request_that_names_a_file_is_never_a_trivial_stop() -> None:
    request = (
        "# Task\n\nOptimize the K-Means loop.\n\n## Notes\n\nThe code is in"
        " sklearn/cluster/_k_means_elkan.pyx. Write your change as a patch to"
        " /workspace/solution.patch.\n\n- Keep the API stable"
    )
    ledger = ledger_for(request)
    view = view_of(ledger.entries, "r", request)
    assert not trivial_stop("Sure, looking.", request, view, 60)
    assert not trivial_stop("You've hit your limit · resets 3am (UTC)", CHAT, view, 60)
