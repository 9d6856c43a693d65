"""Every false claim of an answer reaches the card, not only the first (issue 37 item 3):
a sentence that claims two checks, one failed and one never run, is quoted for both."""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

FAILED = "FAILED tests/test_calc.py::test_add\n1 failed, 2 passed in 0.1s"


@pytest.mark.parametrize(
    ("answer", "rules"),
    [
        ("All tests pass and ruff reports no errors.", {"failed_check", "unproven_claim"}),
        ("The type checker is clean and all 12 tests pass.", {"failed_check", "unproven_claim"}),
        ("All tests pass. The build succeeds too.", {"failed_check", "unproven_claim"}),
        ("All tests pass. I updated README.md.", {"failed_check", "unwritten_file"}),
        # one claim, one finding
        ("All tests pass.", {"failed_check"}),
    ],
)
def test_each_false_claim_has_its_finding(answer: str, rules: set[str]) -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py; tests, lint, types and build must pass.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, FAILED)
    verdict = review_by_rules(ledger.request(answer))
    claimed = {f.rule for f in verdict.findings if f.rule != "uncovered_item"}
    assert claimed == rules, verdict.findings


def test_both_claims_backed_is_a_pass() -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py; make sure the tests pass and ruff is clean.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    ledger.run("ruff check .", 0, "All checks passed!")
    verdict = review_by_rules(ledger.request("All tests pass and ruff reports no errors."))
    assert verdict.decision == "pass", verdict.findings
