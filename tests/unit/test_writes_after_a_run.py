"""A write after a passing run makes it stale only when it can change what the run
checked (red team, issue 35 follow-up): the run's own log (`pytest | tee test.log`), a
CHANGELOG, a plan file outside the workspace, a patch of the change — none of them —
whereas source, tests, their configuration and their data do."""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

REQUEST = "Fix add() in calc.py and make sure the tests pass."
PASSED = "3 passed in 0.02s"


def _decide(after: list[tuple[str, str]], run: str = "pytest -q") -> str:
    ledger = LedgerBuilder()
    ledger.open(REQUEST)
    ledger.write("calc.py")
    ledger.run(run, 0, PASSED)
    for kind, what in after:
        if kind == "write":
            ledger.write(what)
        else:
            ledger.run(what, 0, "")
    return review_by_rules(ledger.request("Fixed add() in calc.py; all tests pass.")).decision


@pytest.mark.parametrize(
    "after",
    [
        [("write", "CHANGELOG.md")],
        [("write", "README.md")],
        [("write", "docs/api.md")],
        [("write", "/tmp/notes.txt")],
        [("write", "/root/.claude/plans/plan.md")],
        [("write", "fix.patch")],
        [("run", "git diff > fix.patch")],
        [("run", "echo 'Fixed add()' > SUMMARY.md")],
        [("run", "rm -rf .pytest_cache __pycache__")],
    ],
)
def test_a_write_that_cannot_change_the_run_leaves_it_standing(
    after: list[tuple[str, str]],
) -> None:
    assert _decide(after) == "pass"


@pytest.mark.parametrize(
    "run",
    [
        "pytest -q 2>&1 | tee test.log",
        "set -o pipefail; pytest -q | tee /tmp/t.log",
        "pytest -q > test.log 2>&1; cat test.log",
        "pytest -q --junitxml=report.xml",
    ],
)
def test_the_runs_own_log_is_no_edit_after_it(run: str) -> None:
    decision = _decide([], run)
    assert decision in {"pass", "need_evidence"}
    ledger = LedgerBuilder()
    ledger.open(REQUEST)
    ledger.write("calc.py")
    ledger.run(run, 0, PASSED)
    verdict = review_by_rules(ledger.request("Fixed add() in calc.py; all tests pass."))
    # (whether the line's status stands is the masking rule's to say, not this one's)
    assert not any(
        "wrote test.log" in f.problem or "wrote /tmp/t.log" in f.problem for f in verdict.findings
    )


@pytest.mark.parametrize(
    ("after", "run"),
    [
        ([("write", "calc.py")], "pytest -q"),
        ([("write", "tests/test_calc.py")], "pytest -q"),
        ([("write", "conftest.py")], "pytest -q"),
        ([("write", "pyproject.toml")], "pytest -q"),
        ([("write", "tests/fixtures/expected.txt")], "pytest -q"),
        ([("write", "tests/data/input.json")], "pytest -q"),
        ([("run", "sed -i 's/a - b/a + b/' calc.py")], "pytest -q"),
        # docs the run itself checks
        ([("write", "README.md")], "pytest -q --doctest-glob='*.md'"),
        ([("write", "docs/usage.rst")], "pytest --doctest-glob=*.rst docs"),
    ],
)
def test_a_write_that_can_change_what_ran_makes_it_stale(
    after: list[tuple[str, str]], run: str
) -> None:
    assert _decide(after, run) == "need_evidence"
