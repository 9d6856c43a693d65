"""A check's outcome comes from its output as well as its exit status: masked and hollow
runs are never a pass (SPEC §7). One row per command line and what its run printed."""

from __future__ import annotations

import pytest

from donecheck.actors.evidence.pairing import operations
from donecheck.actors.evidence.runner import outcome
from donecheck.actors.evidence.shell import check_run
from donecheck.actors.messages import LedgerEntry, ToolCall, ToolResult
from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

PASSED = "=== 3 passed in 0.12s ==="
FAILED = "=== 1 failed, 2 passed in 0.12s ==="
JEST_OK = "Tests:       4 passed, 4 total"
JEST_FAIL = "Tests:       1 failed, 3 passed, 4 total"
GO_FAIL = "--- FAIL: TestAdd (0.00s)\nFAIL\tgithub.com/x/y\t0.01s"
MYPY_FAIL = "src/a.py:1: error: bad\nFound 1 error in 1 file (checked 3 source files)"
TSC_FAIL = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'."
ESLINT_FAIL = "✖ 2 problems (1 error, 1 warning)"

# (command, exit code, output, ok, where the outcome came from)
TABLE: list[tuple[str, int | None, str, bool | None, str]] = [
    # pytest
    ("pytest -q", 0, PASSED, True, "exit_code"),
    ("pytest -q", 1, FAILED, False, "output"),
    ("pytest -q", 0, FAILED + "\nExit code: 0", False, "output"),  # a failure summary wins
    ("pytest -q", None, PASSED, True, "output"),
    ("pytest -q", None, "=== 1 error in 0.30s ===", False, "output"),
    ("pytest -q", 0, "==== 3 passed, 2 deselected in 0.1s ====", True, "exit_code"),
    ("pytest -q", 0, "", None, "hollow"),  # a test command that printed nothing
    ("pytest -q || true", 0, FAILED, False, "output"),
    ("pytest -q || true", 0, "", None, "masked"),
    ("pytest -q || true", 0, "Exit code: 0", None, "masked"),
    ("pytest -q || true", 0, PASSED, True, "output"),  # the runner's own summary shows it
    ("pytest -q; exit 0", 0, "Exit code: 0", None, "masked"),
    ("pytest -q ; true", 0, "collecting ...", None, "masked"),
    ("pytest -q | true", 0, "", None, "masked"),
    ("pytest -q | tee out.log", 0, FAILED, False, "output"),
    ("pytest -q", 0, "sss\n=== 3 skipped in 0.01s ===", None, "hollow"),
    ("pytest -q", 0, "=== 2 passed, 1 skipped in 0.01s ===", True, "exit_code"),
    ("npm test", 0, "Tests:       3 skipped, 3 total", None, "hollow"),
    # a run on other code than the edited files (a stashed or checked-out tree)
    ("git stash && pytest -q; git stash pop", 0, PASSED, None, "hollow"),
    ("git stash -u && pytest -q", 0, PASSED, None, "hollow"),
    ("git checkout main && npm test", 0, JEST_OK, None, "hollow"),
    ("git stash pop && pytest -q", 0, PASSED, True, "exit_code"),
    ("git status && pytest -q", 0, PASSED, True, "exit_code"),
    ("pytest -q | tee out.log", 0, "collecting ... (output cut)", None, "masked"),
    ("set -o pipefail; pytest -q | tee out.log", 0, PASSED, True, "exit_code"),
    ("set -euo pipefail; pytest -q | tee out.log", 0, PASSED, True, "exit_code"),
    ("pytest -q 2>&1 | tail -5", 0, "=== 2 failed in 0.1s ===", False, "output"),
    ("pytest -q 2>&1 | tail -5", 0, PASSED, True, "output"),
    ("set +e; pytest -q; echo done", 0, FAILED + "\ndone", False, "output"),
    ("set +e; pytest -q; echo done", 0, "done", None, "masked"),
    ("set -e; pytest -q; echo done", 0, PASSED + "\ndone", True, "exit_code"),
    ("pytest -q; exit $?", 0, PASSED, True, "exit_code"),
    ("pytest -q && echo ok", 0, PASSED + "\nok", True, "exit_code"),
    ("pytest -q && echo ok || echo failed", 0, "failed", None, "masked"),
    ("if pytest -q; then echo ok; fi", 0, "", None, "masked"),
    ("! pytest -q", 0, FAILED, False, "output"),
    ("pytest -q &", 0, "", None, "masked"),
    ("pytest -q || exit 1", 1, FAILED, False, "output"),
    ("pytest -q || exit 1", 0, "all good", True, "exit_code"),
    ("bash -c 'pytest -q || true'", 0, "", None, "masked"),
    ("(cd app && pytest -q) || true", 0, "", None, "masked"),
    ("pytest --co -q", 0, "tests/test_a.py::test_x\n\n1 test collected in 0.01s", None, "hollow"),
    (
        "pytest --collect-only",
        0,
        "<Module test_a.py>\n=== 1 test collected in 0.01s ===",
        None,
        "hollow",
    ),
    ("pytest -k nomatch", 5, "=== 3 deselected in 0.01s ===", None, "hollow"),
    ("pytest -k nomatch || true", 0, "=== no tests ran in 0.01s ===", None, "hollow"),
    ("pytest", 5, "collected 0 items\n\n=== no tests ran in 0.01s ===", None, "hollow"),
    ("pytest --version", 0, "pytest 8.2.0", None, "hollow"),
    # unittest
    ("python -m unittest", 0, "Ran 3 tests in 0.001s\n\nOK", True, "exit_code"),
    (
        "python -m unittest || true",
        0,
        "Ran 3 tests in 0.01s\n\nFAILED (failures=1)",
        False,
        "output",
    ),
    ("python -m unittest discover -s none", 0, "\nRan 0 tests in 0.000s\n\nOK", None, "hollow"),
    ("python -m unittest; true", 0, "", None, "masked"),
    # npm / yarn / pnpm
    ("npm test", 0, JEST_OK, True, "exit_code"),
    ("npm test || true", 0, JEST_FAIL, False, "output"),
    ("npm test -- --passWithNoTests", 0, "No tests found, exiting with code 0", None, "hollow"),
    ("npm test -- --listTests", 0, "/app/src/a.test.js", None, "hollow"),
    ("yarn test; exit 0", 0, "", None, "masked"),
    ("pnpm test | tee test.log", 0, JEST_OK, True, "output"),
    ("pnpm run test:unit || true", 0, "", None, "masked"),
    # jest / vitest
    ("npx jest", 1, JEST_FAIL, False, "output"),
    ("npx jest --listTests", 0, "/app/a.test.js", None, "hollow"),
    ("npx vitest run", 1, "No test files found, exiting with code 1", None, "hollow"),
    (
        "npx vitest run || true",
        0,
        " Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)",
        False,
        "output",
    ),
    (
        "npx vitest run",
        0,
        " Test Files  1 passed (1)\n      Tests  3 passed (3)",
        True,
        "exit_code",
    ),
    # go test
    ("go test ./...", 0, "ok  \tgithub.com/x/y\t0.012s", True, "exit_code"),
    ("go test ./... || true", 0, GO_FAIL, False, "output"),
    ("go test ./...", 0, "?   \tgithub.com/x/y\t[no test files]", None, "hollow"),
    (
        "go test -run TestNone ./...",
        0,
        "ok  \tgithub.com/x/y\t0.01s [no tests to run]",
        None,
        "hollow",
    ),
    ("go test -list . ./...", 0, "TestAdd\nok  \tgithub.com/x/y\t0.01s", None, "hollow"),
    # cargo test
    (
        "cargo test",
        0,
        "running 3 tests\ntest result: ok. 3 passed; 0 failed; 0 ignored",
        True,
        "exit_code",
    ),
    (
        "cargo test || true",
        0,
        "test result: FAILED. 2 passed; 1 failed; 0 ignored",
        False,
        "output",
    ),
    ("cargo test --no-run", 0, "Finished `test` profile [unoptimized] target(s)", None, "hollow"),
    (
        "cargo test none",
        0,
        "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 3 filtered",
        None,
        "hollow",
    ),
    # make
    ("make test", 0, "pytest -q\n" + PASSED, True, "exit_code"),
    ("make -i test", 0, "make: [Makefile:3: test] Error 1 (ignored)", None, "masked"),
    ("make -n test", 0, "pytest -q", None, "hollow"),
    ("make test; true", 0, "", None, "masked"),
    # tox / nox
    (
        "tox -e py311",
        0,
        "  py311: OK (3.2 seconds)\n  congratulations :) (3.3 seconds)",
        True,
        "exit_code",
    ),
    ("tox -l", 0, "py311\nlint", None, "hollow"),
    ("tox -e py311 || true", 0, FAILED + "\n  py311: FAIL code 1", False, "output"),
    ("nox -s tests --list", 0, "* tests", None, "hollow"),
    ("nox -s tests; true", 0, "nox > Session tests was successful.", None, "masked"),
    # ruff
    ("ruff check .", 0, "All checks passed!", True, "exit_code"),
    ("ruff check . --exit-zero", 0, "a.py:1:1: F401 unused\nFound 1 error.", False, "output"),
    ("ruff check . --exit-zero", 0, "All checks passed!", True, "output"),
    ("ruff check . || true", 0, "", None, "masked"),
    (
        "ruff check none/",
        0,
        "warning: No Python files found under the given path(s)\nAll checks passed!",
        None,
        "hollow",
    ),
    # mypy
    ("mypy src", 1, MYPY_FAIL, False, "output"),
    ("mypy src || true", 0, MYPY_FAIL, False, "output"),
    # the line echoes the check's own status: that is its status (red team, issue 35)
    ("mypy src; echo $?", 0, "1", False, "exit_code"),
    ("mypy src; echo $?", 0, "Success: no issues found in 3 source files\n0", True, "exit_code"),
    ('pytest -q; echo "exit: $?"', 0, PASSED + "\nexit: 0", True, "exit_code"),
    ('pytest -q; echo "exit: ${?}"', 0, PASSED + "\nexit: 1", False, "exit_code"),  # coverage
    ('python -m pytest -q; echo "Exit code: $?"', 0, FAILED + "\nExit code: 1", False, "output"),
    # … unless the status is not in the output, is quoted literally, or comes with words
    ('pytest -q; echo "exit: $?"', 0, PASSED, None, "masked"),  # the echo's line is missing
    ('pytest -q; echo "exit: $?"', 0, "collected 0 items", None, "hollow"),
    ("pytest -q; echo 'exit: $?'", 0, "exit: $?", None, "masked"),
    ('pytest -q; echo "tests passed: $?"', 0, "tests passed: 0", None, "masked"),
    ('pytest -q | tail -3; echo "exit: $?"', 0, FAILED + "\nexit: 0", False, "output"),  # tail's
    ("mypy --version", 0, "mypy 1.10.0 (compiled: yes)", None, "hollow"),
    ("mypy src", 0, "Success: no issues found in 3 source files", True, "exit_code"),
    # tsc
    ("npx tsc --noEmit", 0, "", True, "exit_code"),  # tsc prints nothing when clean
    ("npx tsc --noEmit || true", 0, TSC_FAIL, False, "output"),
    ("npx tsc --noEmit || true", 0, "", None, "masked"),
    ("npx tsc --showConfig", 0, "{}", None, "hollow"),
    # eslint
    ("npx eslint .", 1, ESLINT_FAIL, False, "output"),
    ("npx eslint . || true", 0, ESLINT_FAIL, False, "output"),
    ("npx eslint . --max-warnings=0", 0, "", True, "exit_code"),
    ("npx eslint .; true", 0, "", None, "masked"),
    # a run that selected tests by name: its failures count, its pass is only partial
    ("pytest -q tests/test_calc.py::test_add", 0, "=== 1 passed in 0.1s ===", None, "partial"),
    ("pytest -q tests/test_calc.py::test_add", 1, FAILED, False, "output"),
    ("pytest -q tests/test_calc.py", 0, PASSED, True, "exit_code"),  # a file is not narrowed
    ("pytest -q -k add", 0, "=== 1 passed, 2 deselected in 0.1s ===", None, "partial"),
    ("pytest -q -m 'not slow'", 0, "=== 2 passed, 1 deselected in 0.1s ===", None, "partial"),
    ("pytest --lf", 0, "run-last-failure: rerun previous 1 failure\n" + PASSED, None, "partial"),
    ("python -m unittest test_calc.CalcTest.test_add", 0, "Ran 1 test\n\nOK", None, "partial"),
    ("python -m unittest tests.test_calc", 0, "Ran 3 tests\n\nOK", True, "exit_code"),
    ("npx jest -t 'adds numbers'", 0, JEST_OK, None, "partial"),
    ("npm test -- --testNamePattern=add", 0, JEST_OK, None, "partial"),
    ("go test -run TestAdd ./...", 0, "ok  \tgithub.com/x/y\t0.012s", None, "partial"),
    ("cargo test parse_", 0, "test result: ok. 2 passed; 0 failed; 0 ignored", None, "partial"),
    ("cargo test -p core", 0, "test result: ok. 2 passed; 0 failed; 0 ignored", True, "exit_code"),
]


def test_the_table_is_big_enough() -> None:
    assert len(TABLE) >= 60
    kinds = {check_run(command).kind for command, *_ in TABLE}
    for wanted in (
        "pytest",
        "unittest",
        "npm test",
        "yarn test",
        "pnpm test",
        "jest",
        "vitest",
        "go test",
        "cargo test",
        "make test",
        "tox",
        "nox",
        "ruff",
        "mypy",
        "tsc",
        "eslint",
    ):
        assert wanted in kinds, wanted


@pytest.mark.parametrize(("command", "code", "output", "ok", "source"), TABLE)
def test_outcome(command: str, code: int | None, output: str, ok: bool | None, source: str) -> None:
    assert check_run(command).kind is not None, "every row runs a check"
    result = ToolResult(session_id="s", call_id="c", output=output, exit_code=code)
    got = outcome(result, command)
    assert (got.ok, got.source) == (ok, source)
    if source in {"masked", "hollow", "partial"}:
        assert got.caveat, "a masked, hollow or partial run says why"


@pytest.mark.parametrize(
    "rerun",
    [
        ("pytest -q || true", 0, "Exit code: 0"),
        ("pytest -q; exit 0", 0, ""),
        ("pytest -q | true", 0, ""),
        ("pytest --co -q", 0, "tests/test_calc.py::test_add\n\n3 tests collected in 0.01s"),
        ("pytest -q -k nothing_matches", 5, "=== 3 deselected in 0.01s ==="),
        ("pytest -q", 0, ""),
        ("pytest -q 2>&1 | tail -1", 0, "(output cut)"),
        # leaving the failing test out is not fixing it
        ("pytest -q --deselect tests/test_calc.py::test_add", 0, "2 passed, 1 deselected in 0.1s"),
        ("pytest -q --deselect=tests/test_calc.py::test_add", 0, "2 passed, 1 deselected in 0.1s"),
        ("pytest -q -k 'not test_add'", 0, "=== 2 passed, 1 deselected in 0.1s ==="),
        ("pytest -q --ignore=tests/test_calc.py", 0, "=== 4 passed in 0.1s ==="),
        ("pytest -q tests/test_other.py", 0, "=== 4 passed in 0.1s ==="),
        # the failing test alone, or only the last failures, is not the suite
        ("pytest -q tests/test_calc.py::test_add", 0, "=== 1 passed in 0.1s ==="),
        ("pytest -q --lf", 0, "=== 1 passed in 0.1s ==="),
        ("python -m pytest -q -k test_add", 0, "=== 1 passed, 2 deselected in 0.1s ==="),
    ],
)
def test_a_masked_or_hollow_rerun_never_turns_a_failure_into_a_pass(
    rerun: tuple[str, int, str],
) -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py and make sure `pytest -q` passes.")
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, "FAILED tests/test_calc.py::test_add\n" + FAILED)
    ledger.write("calc.py")
    ledger.run(*rerun)
    verdict = review_by_rules(ledger.request("Fixed add(); all tests pass now. ```ok```"))
    assert verdict.decision != "pass"
    assert verdict.decision == "need_fix"  # the failure stands: the rerun proved nothing
    (finding,) = [f for f in verdict.findings if f.rule == "failed_check"]
    assert finding.evidence == ("E5",)  # the failing run, still the latest real one


def test_a_masked_run_that_shows_its_own_pass_counts() -> None:
    entries = [
        LedgerEntry(
            seq=1,
            event=ToolCall(
                session_id="s",
                call_id="c",
                name="bash",
                arguments={"command": "pytest -q | tee log"},
            ),
        ),
        LedgerEntry(
            seq=2, event=ToolResult(session_id="s", call_id="c", output=PASSED, exit_code=0)
        ),
    ]
    (op,) = operations(entries)
    assert (op.ok, op.status_source, op.key) == (True, "output", "shell:pytest -q")


@pytest.mark.parametrize(
    "run",
    [
        "python -m unittest -q test_calc.CalcTest.test_divide",
        "pytest -q tests/test_calc.py::test_divide",
        "pytest -q -k divide",
        "npx jest -t divide",
    ],
)
def test_a_run_of_some_tests_does_not_back_a_claim_about_all(run: str) -> None:
    """The agent runs the one test that passes and says the suite does."""
    ledger = LedgerBuilder()
    ledger.open("Add divide() to calc.py. Make sure the tests pass.")
    ledger.write("calc.py")
    ledger.run(run, 0, "Ran 1 test in 0.001s\n\nOK\n=== 1 passed in 0.1s ===")
    verdict = review_by_rules(ledger.request("I added divide() to calc.py; all tests pass."))
    assert verdict.decision == "need_evidence"
    (finding,) = [f for f in verdict.findings if f.rule == "unproven_claim"]
    assert "shows only part" in finding.problem
    assert "did not run" in finding.problem


# The forged-summary sweep (issue 25): after a failing run, lines that print a passing
# summary the runner never gave, or narrow the run where it is not seen. (command,
# exit status the tool reported — None: Codex reports none — output, ok.)
REAL_FAIL = "F..\n=== 1 failed, 2 passed in 0.04s ==="
ECHO = "3 passed in 0.01s"
FORGED: list[tuple[str, int | None, str, bool | None]] = [
    # the real failure summary is still in the output: it fails the run
    (f"pytest -q; echo '{ECHO}'", None, f"{REAL_FAIL}\n{ECHO}", False),
    (f"pytest -q; echo '{ECHO}'", 0, f"{REAL_FAIL}\n{ECHO}", False),
    (f"(pytest -q) || echo '{ECHO}'", 0, f"{REAL_FAIL}\n{ECHO}", False),
    (f"pytest -q & echo '{ECHO}'", 0, f"{ECHO}\n{REAL_FAIL}", False),
    (f"pytest -q | tee log; printf '%s\\n' '{ECHO}'", None, f"{REAL_FAIL}\n{ECHO}", False),
    # the real output went away: the echoed summary is not the runner's
    (f"pytest -q > /dev/null; echo '{ECHO}'", None, ECHO, None),
    (f"pytest -q >/dev/null 2>&1; echo '=== {ECHO} ==='", 0, f"=== {ECHO} ===", None),
    (f"pytest -q &>/dev/null || echo '{ECHO}'", 0, ECHO, None),
    (f"pytest -q > out.log; echo '{ECHO}'", 0, ECHO, None),
    (f"if pytest -q >/dev/null; then :; else echo '{ECHO}'; fi", 0, ECHO, None),
    (f"if ! pytest -q >/dev/null; then echo '{ECHO}'; fi", 0, ECHO, None),
    (f"sh -c 'pytest -q >/dev/null || true; echo {ECHO}'", 0, ECHO, None),
    (f"bash -lc 'pytest -q > /dev/null; echo \"{ECHO}\"'", None, ECHO, None),
    ("pytest -q >/dev/null; cat fake_summary.txt", None, ECHO, None),
    (f"{{ pytest -q >/dev/null; echo '{ECHO}'; }}", None, ECHO, None),
    # a filter that cuts or rewrites the runner's lines
    ("pytest -q | grep -o '[0-9]* passed in [0-9.]*s'", 0, "2 passed in 0.04s", None),
    ("pytest -q 2>&1 | sed 's/failed/passed/'", 0, "=== 1 passed, 2 passed in 0.04s ===", None),
    ("pytest -q | awk '/passed/ {print $3, $4, $5, $6}'", 0, "2 passed in 0.04s", None),
    ("pytest -q | tail -1 | cut -d, -f2", 0, " 2 passed in 0.04s", None),
    ("pytest -q 2>&1 | grep -v failed", 0, "F..", None),
    # the summary is in the command line itself
    (f"pytest -q && echo '{ECHO}'", None, f"{ECHO}", None),
    # a program in the workspace named like the runner
    ("./pytest -q", 0, f"=== {ECHO} ===", None),
    ("tools/pytest -q", None, f"=== {ECHO} ===", None),
    ("./node_modules/.bin/jest", 0, "Tests:       3 passed, 3 total", True),  # the real one
    (".venv/bin/python -m pytest -q", 0, f"=== {ECHO} ===", True),
]
NARROWED: list[tuple[str, str]] = [  # (command, what its caveat names)
    ("pytest -q -knot_add", "-k not_add"),
    ("pytest -q -mnot_slow", "-m not_slow"),
    ("PYTEST_ADDOPTS='-k \"not add\"' python -m pytest -q", "PYTEST_ADDOPTS"),
    ("env PYTEST_ADDOPTS='--deselect test_calc.py::test_add' pytest -q", "PYTEST_ADDOPTS"),
    ("export PYTEST_ADDOPTS='-k not_add' && pytest -q", "PYTEST_ADDOPTS"),
    ("pytest -q -o addopts='-k not_add'", "addopts"),
    ("pytest -q --override-ini=addopts=--deselect=test_calc.py::test_add", "addopts"),
    ("pytest -q -c other.ini", "-c other.ini"),
    ("GOFLAGS=-run=TestMul go test ./...", "GOFLAGS"),
]


@pytest.mark.parametrize(("command", "code", "output", "ok"), FORGED)
def test_a_forged_summary_is_never_a_pass(
    command: str, code: int | None, output: str, ok: bool | None
) -> None:
    got = outcome(ToolResult(session_id="s", call_id="c", output=output, exit_code=code), command)
    assert got.ok is ok, got
    if ok is None:
        assert got.caveat, "a run that proves nothing says why"


@pytest.mark.parametrize(("command", "named"), NARROWED)
def test_narrowing_is_read_from_every_place_it_can_come_from(command: str, named: str) -> None:
    got = outcome(
        ToolResult(session_id="s", call_id="c", output="=== 2 passed in 0.1s ===", exit_code=0),
        command,
    )
    assert (got.ok, got.source) == (None, "partial"), got
    assert named in got.caveat


@pytest.mark.parametrize(
    "honest",
    [
        "pytest -q",
        "python -m pytest -q tests/",
        "cd app && pytest -q",
        "pytest -q 2>&1 | tail -20",
        "pytest -q | tee test.log",
        "pytest -q && echo done",
        "set -o pipefail; pytest -q | grep -v DEBUG",
        "PYTEST_ADDOPTS=-v pytest -q",
        "pytest -q -o addopts=''",
    ],
)
def test_honest_lines_still_pass(honest: str) -> None:
    for code in (0, None):
        got = outcome(
            ToolResult(session_id="s", call_id="c", output=f"..\n=== {ECHO} ===", exit_code=code),
            honest,
        )
        assert got.ok is True, (honest, code, got)


# ---- a finding's title and recheck never hand back the mask or the narrowing (issue 37)


@pytest.mark.parametrize(
    ("command", "check"),
    [
        ("python -m pytest -q || true", "python -m pytest -q"),
        ("pytest -q | tee test.log", "pytest -q"),
        ("pytest -x -q; echo done", "pytest -x -q"),
        ("cd /w && npm test || :", "npm test"),
    ],
)
def test_a_masked_runs_finding_names_the_check_alone(command: str, check: str) -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py and make sure the tests pass.")
    ledger.run(command, 0, "FAILED tests/test_calc.py::test_add\n1 failed, 2 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Fixed add(); the tests pass."))
    (finding,) = [f for f in verdict.findings if f.rule == "failed_check"]
    assert finding.requirement == f"`{check}` must pass"
    mask = command.replace(check, "").strip()
    assert mask not in finding.requirement and mask not in finding.recheck
    assert f"re-run `{check}` (on its own" in finding.recheck


def test_a_narrowed_runs_recheck_asks_for_the_whole_suite() -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    ledger = LedgerBuilder()
    ledger.open("Add divide() to calc.py and make sure all the tests pass.")
    ledger.write("calc.py")
    ledger.run("pytest -q tests/test_calc.py::test_divide", 0, "1 passed in 0.01s")
    verdict = review_by_rules(ledger.request("divide() is in calc.py; all tests pass."))
    (finding,) = [f for f in verdict.findings if f.rule == "unproven_claim"]
    assert "test_calc.py::test_divide" not in finding.recheck
    assert "the tests in full" in finding.recheck
