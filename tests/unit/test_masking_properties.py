"""Masked and wrapped check commands, generated the way an agent could write them.

Whatever wrappers a line puts before the check (``env -u X``, ``timeout -s KILL 60``,
``nice -n 5``, ``FOO=1``, ``uv run``, ``python -m`` …) the check is still seen, and
whatever mask it puts after (``|| true``, ``; exit 0``, ``| tail``, ``&``) its run,
exit status 0 and no summary, is never a pass (issue 17's "masked or fabricated run").
"""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.evidence.runner import outcome
from donecheck.actors.evidence.shell import check_run
from donecheck.actors.messages import ToolResult

WRAPPERS = [
    "",
    "FOO=1 ",
    "env -u DONECHECK_SESSION ",
    "env -i PATH=$PATH ",
    "env -C sub ",
    "timeout 60 ",
    "timeout -s KILL -k 5 120 ",
    "nice -n 10 ",
    "nice ",
    "time ",
    "time -p ",
    "stdbuf -oL ",
    "stdbuf -o L ",
    "sudo -u ci ",
    "sudo -E ",
    "nohup ",
    "command ",
    "exec ",
    "taskset -c 0 ",
    "ionice -c 3 ",
    "uv run ",
    "poetry run ",
]
CHECKS = {
    "pytest -q": "pytest",
    "python -m pytest -q": "pytest",
    "python3 -m pytest tests": "pytest",
    "npx jest --ci": "jest",
    "go test ./...": "go test",
    "cargo test": "cargo test",
    "npm test": "npm test",
}
MASKS = [
    " || true",
    " || :",
    " || echo done",
    " ; true",
    " ; exit 0",
    " | tail -5",
    " | tee log.txt",
    " 2>&1 | grep -v FAIL",
    " &",
    " ; echo exit=$?",
    " || exit 0",
    " && echo ok || echo fail",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(WRAPPERS), max_size=3),
    st.sampled_from(sorted(CHECKS)),
    st.sampled_from(MASKS),
    st.booleans(),
)
def test_a_wrapped_and_masked_check_is_seen_and_never_a_pass(
    wrappers: list[str], check: str, mask: str, in_cd: bool
) -> None:
    line = "".join(wrappers) + check + mask
    if in_cd:
        line = f"cd repo && {line}"
    run = check_run(line)
    assert run.kind is not None and CHECKS[check] in run.kind.split("+"), line
    assert run.masked or run.hollow, line
    silent = ToolResult(session_id="s", call_id="c", output="", exit_code=0)
    assert outcome(silent, line).ok is not True, line
    # a failing summary in the output is a failure, masked or not
    failing = ToolResult(
        session_id="s",
        call_id="c",
        output="FAILED t.py::x\n1 failed, 2 passed in 0.1s",
        exit_code=0,
    )
    if CHECKS[check] == "pytest":
        assert outcome(failing, line).ok is False, line


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WRAPPERS), max_size=3), st.sampled_from(sorted(CHECKS)))
def test_a_wrapped_check_that_exits_0_with_its_summary_passes(
    wrappers: list[str], check: str
) -> None:
    """The other side: wrappers alone hide nothing, so an honest run still passes."""
    line = "".join(wrappers) + check
    summary = {
        "pytest": "3 passed in 0.1s",
        "jest": "Tests:       3 passed, 3 total",
        "go test": "ok  \texample.com/x\t0.01s",
        "cargo test": "test result: ok. 3 passed; 0 failed",
        "npm test": "Tests:       3 passed, 3 total",
    }[CHECKS[check]]
    result = ToolResult(session_id="s", call_id="c", output=summary, exit_code=0)
    assert outcome(result, line).ok is True, line


HIDE = ["", " >/dev/null", " > out.log", " &>/dev/null", " >/dev/null 2>&1"]
JOIN = [" ; ", " || ", " & ", " | tee x; "]
PRINTERS = ["echo '{s}'", "printf '%s\\n' '{s}'", "cat summary.txt", "python -c \"print('{s}')\""]
FAKE = ["3 passed in 0.01s", "=== 3 passed in 0.01s ===", "Tests:       3 passed, 3 total"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["pytest -q", "python -m pytest -q", "npx jest", "npm test"]),
    st.sampled_from(HIDE),
    st.sampled_from(JOIN),
    st.sampled_from(PRINTERS),
    st.sampled_from(FAKE),
    st.sampled_from([0, None]),
    st.booleans(),
)
def test_a_summary_printed_beside_the_runner_is_never_its_pass(
    check: str, hide: str, join: str, printer: str, fake: str, code: int | None, nested: bool
) -> None:
    """Issue 25's forged summaries, generated: the runner's output sent away (or
    kept, failing), then something else prints a passing summary whatever the runner
    did. The tool shows only what the line printed; it is never a pass."""
    line = check + hide + join + printer.format(s=fake)
    if nested:
        line = "sh -c " + shlex.quote(line)
    real = "F..\n=== 1 failed, 2 passed in 0.04s ===\n" if not hide else ""
    printed = real + fake
    got = outcome(ToolResult(session_id="s", call_id="c", output=printed, exit_code=code), line)
    assert got.ok is not True, (line, got)
