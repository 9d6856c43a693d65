from __future__ import annotations

import pytest

from donecheck.actors.rules import RULES_NOTE, output_summary, review_by_rules
from tests.unit.helpers import LedgerBuilder

LONG = " The change is small and self-contained, nothing else was touched."


def test_pass_when_nothing_fires() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Fixed add(); all tests pass." + LONG))
    assert verdict.decision == "pass"
    assert verdict.findings == ()
    assert RULES_NOTE in verdict.notes


def test_failed_check_is_need_fix_citing_the_failing_result() -> None:
    ledger = LedgerBuilder()
    seq = ledger.run(
        "pytest -q", 1, "FAILED tests/t.py::test_add - assert 1 == 2\n1 failed in 0.1s"
    )
    verdict = review_by_rules(ledger.request("All tests pass now." + LONG))
    assert verdict.decision == "need_fix"
    (finding,) = verdict.findings
    assert finding.rule == "failed_check"
    assert finding.evidence == (f"E{seq}",)
    assert "All tests pass now." in finding.problem
    assert "FAILED tests/t.py::test_add" in verdict.cited[f"E{seq}"]
    assert "pytest -q" in finding.recheck


def test_failed_check_without_a_claim_is_still_need_fix() -> None:
    ledger = LedgerBuilder()
    ledger.run("ruff check .", 1, "a.py:1:1: F401 unused\nFound 1 error.")
    verdict = review_by_rules(ledger.request("I cleaned up the imports in a.py." + LONG))
    assert verdict.decision == "need_fix"
    assert "Yet the answer says" not in verdict.findings[0].problem


def test_failed_then_passed_is_pass() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 1, "1 failed in 0.1s")
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    assert review_by_rules(ledger.request("Fixed it; tests pass." + LONG)).decision == "pass"


def test_passed_then_failed_is_need_fix() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 0, "3 passed in 0.1s")
    ledger.write("calc.py")
    ledger.run("pytest", 1, "1 failed in 0.1s")
    assert review_by_rules(ledger.request("Done." + LONG)).decision == "need_fix"


@pytest.mark.parametrize(
    "answer",
    [
        "I added the function and all tests pass.",
        "Added divide(); the build succeeds.",
        "已添加 divide 函数，测试全部通过。",
    ],
)
def test_claim_without_any_run_is_need_evidence(answer: str) -> None:
    ledger = LedgerBuilder()
    seq = ledger.write("calc.py")
    verdict = review_by_rules(ledger.request(answer + LONG))
    assert verdict.decision == "need_evidence"
    (finding,) = verdict.findings
    assert finding.rule == "unproven_claim"
    assert finding.evidence == (f"E{seq}",)
    assert "calc.py" in verdict.cited[f"E{seq}"]


def test_claim_with_run_only_before_the_last_edit_is_need_evidence() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    ledger.write("calc.py")
    verdict = review_by_rules(ledger.request("All tests pass." + LONG))
    assert verdict.decision == "need_evidence"
    assert "`pytest -q`" in verdict.findings[0].recheck


def test_claim_of_another_category_needs_its_own_run() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Tests pass and mypy is clean." + LONG))
    assert verdict.decision == "need_evidence"
    assert "type checker" in verdict.findings[0].problem


def test_claim_without_edits_or_runs() -> None:
    verdict = review_by_rules(LedgerBuilder().request("Everything is green!" + LONG))
    assert verdict.decision == "need_evidence"
    assert verdict.findings[0].evidence == ()


def test_failed_write_does_not_count_as_the_last_edit() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    ledger.write("calc.py", ok=False)
    assert review_by_rules(ledger.request("All tests pass." + LONG)).decision == "pass"


def test_same_request_same_verdict() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 1, "1 failed in 0.1s")
    request = ledger.request("All tests pass." + LONG)
    assert review_by_rules(request) == review_by_rules(request)


@pytest.mark.parametrize(
    ("output", "summary"),
    [
        (
            "E  assert 1\nFAILED t.py::x - assert 1\n=== 1 failed in 0.1s ===\nExit code: 1",
            "FAILED t.py::x - assert 1 … 1 failed in 0.1s",
        ),
        ("a.py:1:1: F401 unused\nFound 1 error.", "a.py:1:1: F401 unused … Found 1 error"),
        ("3 passed in 0.1s\nExit code: 0", "3 passed in 0.1s"),
        ("", "(no output)"),
    ],
)
def test_output_summary(output: str, summary: str) -> None:
    assert output_summary(output) == summary
