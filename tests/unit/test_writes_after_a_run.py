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


# --------------------------------- a script the agent wrote, cleaned up after the run
# (a solved SWE-bench run of mini-SWE-agent: `rm reproduce_issue.py test_edge_cases.py`
# after `runtests.py pagination` passed was read as an edit after the last passing run)


def _cleanup(steps: list[tuple[str, object]], answer: str = "Fixed; the tests pass.") -> str:
    ledger = LedgerBuilder()
    ledger.open(REQUEST)
    for kind, what in steps:
        if kind == "run":
            ledger.run(str(what), 0, PASSED if "pytest" in str(what) else "")
        else:
            ledger.result(ledger.call(str(kind), what), "ok", 0)  # a file tool: name, arguments
    return review_by_rules(ledger.request(answer)).decision


REPRO = "cat > reproduce_issue.py <<'EOF'\nfrom calc import add\nprint(add(2, 3))\nEOF"
FIX = ("Edit", {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"})


@pytest.mark.parametrize(
    "steps",
    [
        # the same clean-up, in the forms agents write it
        [("run", REPRO), ("run", "python reproduce_issue.py"), FIX, ("run", "pytest -q"),
         ("run", "rm reproduce_issue.py")],
        [("run", REPRO), FIX, ("run", "python3 -m pytest -q"),
         ("run", "rm -f reproduce_issue.py && git status")],
        [("Write", {"file_path": "/testbed/reproduce_issue.py", "content": "print(1)\n"}), FIX,
         ("run", "pytest -q"), ("run", "rm reproduce_issue.py")],
        [("write_file", {"file_path": "repro.py", "content": "print(1)\n"}),
         ("write_file", {"file_path": "edge_cases.py", "content": "print(add(0, 4))\n"}), FIX,
         ("run", "pytest -q"), ("run", "rm repro.py edge_cases.py")],
        [("run", REPRO), FIX, ("run", "pytest -q"),
         ("Bash", {"command": "rm ./reproduce_issue.py"})],
    ],
)  # fmt: skip
def test_removing_a_script_it_wrote_itself_leaves_the_run_standing(
    steps: list[tuple[str, object]],
) -> None:
    assert _cleanup(steps) == "pass"


@pytest.mark.parametrize(
    "steps",
    [
        # a file the runner loads unnamed
        [("run", "cat > conftest.py <<'EOF'\nimport sys\nEOF"), FIX, ("run", "pytest -q"),
         ("run", "rm conftest.py")],
        [("run", "cat > pytest.ini <<'EOF'\n[pytest]\nEOF"), FIX, ("run", "pytest -q"),
         ("run", "rm pytest.ini")],
        # a module another file imports
        [("run", "cat > helpers.py <<'EOF'\ndef plus(a, b):\n    return a + b\nEOF"),
         ("Edit", {"file_path": "calc.py", "old_string": "return a - b",
                   "new_string": "from helpers import plus\n    return plus(a, b)"}),
         ("run", "pytest -q"), ("run", "rm helpers.py")],
        # a file that was there before the agent (never written by it)
        [FIX, ("run", "pytest -q"), ("run", "rm tests/test_calc.py")],
        [("run", "cat tests/helper.py"), FIX, ("run", "pytest -q"), ("run", "rm tests/helper.py")],
        # edited, not only removed
        [("run", REPRO), FIX, ("run", "pytest -q"),
         ("run", "echo x >> calc.py; rm reproduce_issue.py")],
    ],
)  # fmt: skip
def test_a_removal_that_can_change_the_run_still_makes_it_stale(
    steps: list[tuple[str, object]],
) -> None:
    assert _cleanup(steps) != "pass"
