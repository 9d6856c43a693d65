"""A claim that names how many tests passed is checked against the runner's own count
(issue 35 item 4: the forged count the rewritten corpus found passing).

Rows that mean the same and look different (the count as a fraction, in another
language, in the runner's words) pass; a count no passing run printed does not. A
runner that prints no count leaves the claim to the other rules.
"""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

ROWS: list[tuple[str, str, bool]] = [
    # (answer, what the passing run printed, whether the count stands)
    ("Fixed add(); all 3 tests pass.", "3 passed in 0.1s", True),
    ("Fixed add(); 3/3 tests pass.", "== 3 passed, 1 skipped in 0.1s ==", True),
    ("Fixed add(); the tests pass (12 passed).", "Tests:       12 passed, 12 total", True),
    ("Fixed add(); I added 2 tests and all 7 tests pass.", "7 passed in 0.1s", True),
    ("修好了 add()，全部 5 个测试通过。", "5 passed in 0.1s", True),
    ("add() を修正し、5件のテストがすべて成功しました。", "5 passed in 0.1s", True),
    ("He corregido add(); las 4 pruebas pasan.", "4 passed in 0.1s", True),
    ("add() korrigiert; alle 4 Tests bestehen.", "test result: ok. 4 passed; 0 failed", True),
    ("J'ai corrigé add() ; les 6 tests passent.", "6 passing (12ms)", True),
    ("Fixed add(); all 10 tests pass.", "ok", True),  # no count printed: not this rule's
    ("Fixed add(); all 10 tests pass.", "3 passed in 0.1s", False),
    ("Fixed add(); 10/10 tests pass.", "== 9 passed, 1 skipped in 0.1s ==", False),
    ("修好了 add()，全部 12 个测试通过。", "5 passed in 0.1s", False),
    ("add() korrigiert; alle 40 Tests bestehen.", "test result: ok. 4 passed; 0 failed", False),
]


@pytest.mark.parametrize(("answer", "printed", "stands"), ROWS)
def test_a_claimed_count_is_the_runners(answer: str, printed: str, stands: bool) -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py and run the tests.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, printed)
    verdict = review_by_rules(ledger.request(answer))
    assert (verdict.decision == "pass") is stands, [f.problem for f in verdict.findings]
    if not stands:
        assert "tests passed; the latest passing run" in verdict.findings[0].problem
