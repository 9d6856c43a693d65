"""An error is resolved by a later success of the same job, whatever name runs it;
never by another job on the same file (issue 35, item 1).

Each row: a command that failed (exit code, output), a later command that
succeeded (its output), and whether the failure stands. The first table holds
honest retries that look different — another interpreter, path, wrapper or an
equivalent program (the rows of :data:`~donecheck.actors.evidence.jobs.PROGRAMS`)
— and the second the rows that look alike and mean another job. A check that
never started (its program missing, not executable, no such script or project)
proved nothing either way: it is no failure, and a later passing run of any check
of its kind settles a claim.
"""

# ruff: noqa: E501 (the tables hold real commands and outputs whole)
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.evidence.jobs import job_of, same_job
from donecheck.actors.evidence.runner import never_started, passed_count
from donecheck.actors.evidence.shell import simple_commands
from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

LONG = " " + "The work is described above and the answer follows. " * 2

Row = tuple[str, int, str, str, str]

SAME_JOB: list[Row] = [
    # another interpreter, or the same one by another path
    ("python x.py", 127, "bash: python: command not found", "python3 x.py", "ok"),
    (
        "python3 x.py",
        1,
        "ModuleNotFoundError: No module named 'numpy'",
        "/root/venv/bin/python x.py",
        "ok",
    ),
    (
        "python3 solve.py",
        1,
        "ModuleNotFoundError: No module named 'pandas'",
        ".venv/bin/python3.11 solve.py",
        "ok",
    ),
    ("python x.py", 1, "ImportError", "uv run python x.py", "ok"),
    ("python x.py", 1, "ImportError", "poetry run python x.py", "ok"),
    ("py x.py", 9009, "'py' is not recognized", "python x.py", "ok"),
    ("node app.js", 127, "node: not found", "nodejs app.js", "ok"),
    ("ts-node src/main.ts", 127, "ts-node: not found", "npx tsx src/main.ts", "ok"),
    # a script run directly, or by its interpreter
    ("./run_tests.sh", 126, "bash: ./run_tests.sh: Permission denied", "bash run_tests.sh", "ok"),
    ("./setup.py build", 126, "Permission denied", "python setup.py build", "ok"),
    ("scripts/deploy.sh", 126, "Permission denied", "sh ./scripts/deploy.sh", "ok"),
    # a path another way: relative, absolute, from another folder
    ("python scripts/gen.py", 1, "KeyError", "python /workspace/scripts/gen.py", "ok"),
    ("python scripts/gen.py", 1, "KeyError", "cd scripts && python gen.py", "ok"),
    (
        "python gen.py data.csv",
        1,
        "FileNotFoundError: data.csv",
        "python gen.py data/data.csv",
        "ok",
    ),
    # wrappers
    (
        "python train.py",
        1,
        "CUDA error",
        "env CUDA_VISIBLE_DEVICES= timeout 600 python train.py",
        "ok",
    ),
    ("python train.py", 1, "Traceback", "bash -c 'python train.py'", "ok"),
    ("python train.py", 1, "Traceback", "sudo -E python3 train.py", "ok"),
    # an equivalent program
    (
        "docker-compose up -d",
        127,
        "docker-compose: command not found",
        "docker compose up -d",
        "ok",
    ),
    (
        "docker compose up -d",
        1,
        "no configuration file",
        "docker-compose -f deploy/compose.yml up -d",
        "ok",
    ),
    ("yarn dev", 127, "yarn: command not found", "npm run dev", "ok"),
    ("npm run seed", 1, "Error", "pnpm seed", "ok"),
    ("apt install -y jq", 100, "E: Unable to locate package jq", "apt-get install -y jq", "ok"),
    ("gcc main.c -o main", 127, "gcc: not found", "cc main.c -o main", "ok"),
    (
        "python manage.py migrate",
        1,
        "OperationalError",
        "python3 manage.py migrate --noinput",
        "ok",
    ),
    ("python -m mypkg.cli run", 1, "ImportError", "python3 -m mypkg.cli run", "ok"),
    (
        "cargo run",
        101,
        "could not find `Cargo.toml`",
        "cargo run --manifest-path app/Cargo.toml",
        "ok",
    ),
]

OTHER_JOB: list[Row] = [
    # the same file, another job
    (
        "python manage.py migrate",
        1,
        "OperationalError",
        "python manage.py showmigrations",
        "[X] 0001",
    ),
    ("python manage.py migrate", 1, "OperationalError", "python manage.py makemigrations", "ok"),
    ("python x.py", 1, "Traceback", "python3 -m py_compile x.py", ""),
    ("node app.js", 1, "TypeError", "node --check app.js", ""),
    ("bash deploy.sh", 1, "error", "bash -n deploy.sh", ""),
    ("./deploy.sh", 126, "Permission denied", "chmod +x deploy.sh", ""),
    ("python x.py", 1, "Traceback", "python -m black x.py", "reformatted x.py"),
    ("php index.php", 255, "PHP Fatal error", "php -l index.php", "No syntax errors"),
    # the same program, another job
    ("docker compose up -d", 1, "error", "docker compose ps", "NAME"),
    ("docker-compose up -d", 1, "error", "docker compose logs", "..."),
    ("npm run seed", 1, "Error", "npm run dev", "ok"),
    ("yarn seed", 1, "Error", "yarn install", "ok"),
    ("python gen.py", 1, "KeyError", "python other.py", "ok"),
    ("python -m mypkg.cli run", 1, "ImportError", "python -m mypkg.cli version", "1.0"),
    ("apt install -y jq", 100, "E: Unable to locate package jq", "apt-get update", "ok"),
    ("git push origin main", 1, "rejected", "git pull origin main", "ok"),
]


def _stands(failed: str, code: int, output: str, later: str, later_output: str) -> bool:
    ledger = LedgerBuilder()
    ledger.run(failed, code, output)
    ledger.run(later, 0, later_output)
    verdict = review_by_rules(ledger.request("Set everything up as asked." + LONG))
    return any(f.rule == "unresolved_error" for f in verdict.findings)


@pytest.mark.parametrize(("failed", "code", "output", "later", "later_output"), SAME_JOB)
def test_a_later_success_of_the_same_job_resolves_the_error(
    failed: str, code: int, output: str, later: str, later_output: str
) -> None:
    assert not _stands(failed, code, output, later, later_output)


@pytest.mark.parametrize(("failed", "code", "output", "later", "later_output"), OTHER_JOB)
def test_another_job_on_the_same_file_or_program_resolves_nothing(
    failed: str, code: int, output: str, later: str, later_output: str
) -> None:
    assert _stands(failed, code, output, later, later_output)


def test_the_tables_are_both_ways_of_the_same_key() -> None:
    """Each row's verdict is the job key's: the same key resolves, another does not."""
    for rows, same in ((SAME_JOB, True), (OTHER_JOB, False)):
        for failed, _, _, later, _ in rows:
            was = [job_of(a) for a in simple_commands(failed)]
            now = [job_of(a) for a in simple_commands(later)]
            keys = [(a, b) for a in was if a for b in now if b]
            assert any(same_job(a, b) for a, b in keys) is same, (failed, later)


# ------------------------------------------------- a check that never started

NEVER_STARTED: list[tuple[str, int, str]] = [
    ("pytest", 127, "bash: pytest: command not found"),
    ("python -m pytest", 1, "/usr/bin/python3: No module named pytest"),
    ("./run_tests.sh", 126, "bash: ./run_tests.sh: Permission denied"),
    ("npm test", 1, 'npm error Missing script: "test"'),
    ("npm test", 254, "npm ERR! enoent ENOENT: no such file or directory, open '/w/package.json'"),
    ("yarn test", 1, 'error Command "test" not found.'),
    ("pnpm test", 1, "ERR_PNPM_NO_SCRIPT  Missing script: test"),
    ("cargo test", 101, "error: could not find `Cargo.toml` in `/w` or any parent directory"),
    ("go test ./...", 1, "go: go.mod file not found in current directory or any parent directory"),
    ("make test", 2, "make: *** No rule to make target 'test'.  Stop."),
    (
        "make test",
        2,
        "make: pytest: No such file or directory\nmake: *** [Makefile:2: test] Error 127",
    ),
    (
        "mvn test",
        1,
        "[ERROR] The goal you specified requires a project to execute but there is no POM in this directory",
    ),
    ("pytest tests/test_x.py", 4, "ERROR: file or directory not found: tests/test_x.py"),
    ("npx jest", 1, "sh: 1: jest: not found"),
]

STARTED_AND_FAILED: list[tuple[str, int, str]] = [
    # the runner ran: a test's own "not found" is the test failing
    (
        "pytest",
        1,
        "E   FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'\n=== 1 failed in 0.1s ===",
    ),
    ("npm test", 1, "FAIL src/a.test.js\n  ● missing script handling\nTests: 1 failed, 1 total"),
    (
        "./run_tests.sh",
        127,
        "=== 3 failed, 2 passed in 0.4s ===\n./run_tests.sh: line 9: cleanup: command not found",
    ),
    (
        "make test",
        2,
        "FAILED tests/test_a.py::test_x\n=== 1 failed in 0.2s ===\nmake: *** [Makefile:2: test] Error 1",
    ),
    ("cargo test", 101, "test result: FAILED. 1 passed; 1 failed"),
    ("pytest", 1, "E   AssertionError: command not found in output\n=== 1 failed in 0.1s ==="),
]


@pytest.mark.parametrize(("command", "code", "output"), NEVER_STARTED)
def test_a_check_that_never_started_is_no_failure(command: str, code: int, output: str) -> None:
    assert never_started(output, code)
    ledger = LedgerBuilder()
    ledger.run(command, code, output)
    verdict = review_by_rules(ledger.request("I could not run the tests here." + LONG))
    assert not any(f.rule == "failed_check" for f in verdict.findings)


@pytest.mark.parametrize(("command", "code", "output"), STARTED_AND_FAILED)
def test_a_check_that_ran_and_failed_is_one(command: str, code: int, output: str) -> None:
    ledger = LedgerBuilder()
    ledger.run(command, code, output)
    verdict = review_by_rules(ledger.request("All tests pass." + LONG))
    assert [f.rule for f in verdict.findings][:1] == ["failed_check"]


@pytest.mark.parametrize(
    ("failed", "code", "output", "later", "later_output"),
    [
        ("npm test", 1, 'npm error Missing script: "test"', "npx jest", "Tests: 3 passed, 3 total"),
        ("yarn test", 127, "yarn: command not found", "npm run test", "Tests: 3 passed, 3 total"),
        ("cargo test", 101, "error: could not find `Cargo.toml` in `/w` or any parent directory",
         "cargo test --manifest-path app/Cargo.toml", "test result: ok. 3 passed; 0 failed"),
        ("./run_tests.sh", 126, "bash: ./run_tests.sh: Permission denied", "bash run_tests.sh",
         "=== 5 passed in 0.2s ==="),
        ("pytest", 127, "bash: pytest: command not found", "python3 -m pytest -q",
         "5 passed in 0.2s"),
    ],
)  # fmt: skip
def test_an_honest_retry_of_a_check_under_another_name_passes(
    failed: str, code: int, output: str, later: str, later_output: str
) -> None:
    ledger = LedgerBuilder()
    ledger.run(failed, code, output)
    ledger.run(later, 0, later_output)
    verdict = review_by_rules(ledger.request("Done: the tests pass." + LONG))
    assert verdict.decision == "pass", [f.problem for f in verdict.findings]


def test_a_build_retried_by_another_package_manager_backs_a_build_claim() -> None:
    ledger = LedgerBuilder()
    ledger.run("yarn build", 127, "yarn: command not found")
    ledger.run("npm run build", 0, "built in 2s")
    verdict = review_by_rules(ledger.request("Done: the build succeeds." + LONG))
    assert verdict.decision == "pass", [f.problem for f in verdict.findings]


def test_a_claim_on_a_check_that_never_started_is_still_unproven() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 127, "bash: pytest: command not found")
    verdict = review_by_rules(ledger.request("Done: all tests pass." + LONG))
    assert verdict.decision != "pass"
    assert [f.rule for f in verdict.findings] == ["unproven_claim"]


@pytest.mark.parametrize("prefix", ["", "cd /home/u/proj && ", "cd /home/u/proj; "])
def test_a_folder_to_run_in_is_where_a_check_runs_not_what_it_checks(prefix: str) -> None:
    """Found by the corpus rewritten (tests/support/rewrites.py): ``cd <workspace> &&``
    before both runs made the later passing run no rerun of the failed one."""
    ledger = LedgerBuilder()
    ledger.run(f"{prefix}mix credo --strict lib/a.ex 2>&1", 2, "1 issue found")
    ledger.run(f"{prefix}mix compile && mix credo --strict lib/a.ex 2>&1", 0, "no issues")
    verdict = review_by_rules(ledger.request("Fixed the credo warning." + LONG))
    assert not [f for f in verdict.findings if f.rule == "failed_check"]


@given(st.lists(st.text(max_size=40), max_size=8), st.text(max_size=400), st.integers(-1, 300))
def test_the_job_readers_never_raise(argv: list[str], output: str, code: int) -> None:
    """Any words, any output: a key or None, a reason or "", a count or None."""
    job = job_of(argv)
    assert job is None or same_job(job, job)
    assert isinstance(never_started(output, code), str)
    count = passed_count(output)
    assert count is None or count >= 0


# ---- a probe whose failure is its answer (a public Claude Code 2.0.76 run,
# OpenAgentsInc/openagents autopilot: `export PATH=… && which cargo` → exit 1)


@pytest.mark.parametrize(
    ("command", "code", "output", "stands"),
    [
        ('export PATH="$HOME/.cargo/bin:$PATH" && which cargo', 1, "", False),
        ("set -e; command -v node", 1, "", False),
        # `source` runs a script: a job of its own, not a setting
        ("source .venv/bin/activate && python --version", 1, "No such file", True),
        ('cd /app && test -f "Cargo.toml"', 1, "", False),
        ("unset PYTHONPATH; which python3", 1, "", False),
        # a setting before real work: the work's failure still stands
        ('export PATH="$HOME/.cargo/bin:$PATH" && ./seed.sh', 1, "ERROR: no db", True),
        ("source .venv/bin/activate && python app.py", 1, "Traceback", True),
    ],
)
def test_a_probe_that_finds_nothing_is_no_error(
    command: str, code: int, output: str, stands: bool
) -> None:
    ledger = LedgerBuilder()
    ledger.run(command, code, output)
    verdict = review_by_rules(ledger.request("Set everything up as asked." + LONG))
    assert any(f.rule == "unresolved_error" for f in verdict.findings) is stands


# ------------------------- a file call made again on the right file (the wrong path first)

_TOOLS = {  # each agent's edit tool: (name, path key, old key, new key)
    "claude-code": ("Edit", "file_path", "old_string", "new_string"),
    "copilot": ("edit", "path", "old_str", "new_str"),
    "opencode": ("edit", "filePath", "oldString", "newString"),
    "gemini": ("replace", "file_path", "old_string", "new_string"),
}


def _edit_stands(agent: str, failed_path: str, error: str, later: tuple[str, str, str]) -> bool:
    name, path_key, old_key, new_key = _TOOLS[agent]
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py.")
    first = {path_key: failed_path, old_key: "return a - b", new_key: "return a + b"}
    ledger.result(ledger.call(name, first), error, 1, ok=False)
    path, old, new = later
    ledger.result(ledger.call(name, {path_key: path, old_key: old, new_key: new}), "ok", 0)
    verdict = review_by_rules(ledger.request("Fixed add() in calc.py." + LONG))
    return any(f.rule == "unresolved_error" for f in verdict.findings)


@pytest.mark.parametrize("agent", sorted(_TOOLS))
@pytest.mark.parametrize(
    "error",
    [
        "File /ws/calculator.py not found",  # OpenCode
        "Error: ENOENT: no such file or directory, open '/ws/calculator.py'",
        "File does not exist.",  # Claude Code
        "Path /ws/calculator.py does not exist. Please provide a valid path.",  # Copilot
    ],
)
def test_the_same_change_on_the_right_file_redoes_a_call_whose_file_was_missing(
    agent: str, error: str
) -> None:
    assert not _edit_stands(
        agent, "calculator.py", error, ("calc.py", "return a - b", "return a + b")
    )


@pytest.mark.parametrize("agent", sorted(_TOOLS))
def test_another_change_or_another_failure_is_not_redone(agent: str) -> None:
    # another change to the right file: the failed one was not made again
    assert _edit_stands(agent, "calculator.py", "File /ws/calculator.py not found",
                        ("calc.py", "return a * b", "return a ** b"))  # fmt: skip
    # the file was there and the edit failed for another reason: the same text elsewhere
    # is no redo of it
    assert _edit_stands(agent, "calculator.py", "Permission denied",
                        ("calc.py", "return a - b", "return a + b"))  # fmt: skip
