"""A request is reviewed on its own ledger, plus earlier work only when it depends on it."""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

FAILED = "FAILED tests/test_calc.py::test_add\n=== 1 failed, 2 passed in 0.1s ==="


def first_task_left_failing() -> LedgerBuilder:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, FAILED)
    return ledger


def test_a_new_task_is_not_steered_by_the_last_tasks_failure() -> None:
    ledger = first_task_left_failing()
    ledger.user("Write CHANGELOG.md with a line for this release.", "r2")
    ledger.write("CHANGELOG.md")
    verdict = review_by_rules(
        ledger.request(
            "I wrote CHANGELOG.md with a line for this release.",
            "Write CHANGELOG.md with a line for this release.",
            request_id="r2",
        )
    )
    assert verdict.decision == "pass", verdict.findings
    assert any("R2's own ledger" in note for note in verdict.notes)


@pytest.mark.parametrize(
    "follow_up",
    [
        "Now make the tests pass.",
        "The tests still fail, fix them.",
        "Continue.",
        "Try again, please.",
        "Fix that failing test.",
        "继续修复。",
        "测试还是失败，请处理。",
        "Make sure pytest passes this time.",  # names the check that failed earlier
    ],
)
def test_a_follow_up_inherits_the_earlier_failure(follow_up: str) -> None:
    ledger = first_task_left_failing()
    ledger.user(follow_up, "r2")
    ledger.write("calc.py")
    verdict = review_by_rules(
        ledger.request(
            "Done: add() is fixed and every test passes now.", follow_up, request_id="r2"
        )
    )
    assert verdict.decision == "need_fix", follow_up
    (finding,) = [f for f in verdict.findings if f.rule == "failed_check"]
    assert finding.evidence == ("E5",)
    assert verdict.cited["E5"].startswith("[R1] ")  # the card says whose entry it is
    assert any("depends on earlier work" in note for note in verdict.notes)


def test_a_new_tasks_own_failure_counts() -> None:
    ledger = first_task_left_failing()
    ledger.user("Write CHANGELOG.md and run the linter.", "r2")
    ledger.write("CHANGELOG.md")
    ledger.run("ruff check .", 1, "a.py:1:1: F401 unused\nFound 1 error.")
    verdict = review_by_rules(
        ledger.request(
            "CHANGELOG.md is written.", "Write CHANGELOG.md and run the linter.", request_id="r2"
        )
    )
    assert verdict.decision == "need_fix"
    assert [f.evidence for f in verdict.findings if f.rule == "failed_check"] == [("E10",)]
    assert verdict.cited["E10"].startswith("[R2] ")


def test_a_claim_in_a_new_task_needs_its_own_run() -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "=== 3 passed in 0.1s ===")
    ledger.user("Rename add() to plus() everywhere.", "r2")
    ledger.write("calc.py")
    verdict = review_by_rules(
        ledger.request(
            "Renamed add() to plus() in calc.py; all tests pass.",
            "Rename add() to plus() everywhere.",
            request_id="r2",
        )
    )
    assert verdict.decision == "need_evidence"  # R1's run predates R2's edit
    assert [f.rule for f in verdict.findings] == ["unproven_claim"]


def test_a_single_request_session_is_unlabelled() -> None:
    verdict = review_by_rules(first_task_left_failing().request("Fixed; tests pass."))
    assert not verdict.cited["E5"].startswith("[R")


@pytest.mark.parametrize(
    "aside",
    [
        "Forget the test for now. Write CHANGELOG.md with a line for this release.",
        "Ignore the failing test and write CHANGELOG.md with a line for this release.",
        "Leave the tests for now; write CHANGELOG.md with a line for this release.",
        "先不管测试，写 CHANGELOG.md，加一行这次发布的说明。",
    ],
)
def test_a_request_that_sets_the_failing_work_aside_is_reviewed_on_its_own(aside: str) -> None:
    """It names the test only to set it aside: the old failure is not its to fix."""
    ledger = first_task_left_failing()
    ledger.user(aside, "r2")
    ledger.write("CHANGELOG.md")
    verdict = review_by_rules(
        ledger.request("I wrote CHANGELOG.md with a line for this release.", aside, "r2")
    )
    assert verdict.decision == "pass", (aside, verdict.findings)


def test_setting_one_thing_aside_keeps_a_continuation_of_another() -> None:
    """ "Forget the docs; fix the failing test again" still continues the failing work."""
    ledger = first_task_left_failing()
    follow_up = "Forget the docs; fix the failing test again."
    ledger.user(follow_up, "r2")
    ledger.write("calc.py")
    verdict = review_by_rules(
        ledger.request("Done: add() is fixed and every test passes now.", follow_up, "r2")
    )
    assert verdict.decision == "need_fix"
