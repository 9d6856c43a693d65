"""A tool whose result is a JSON object wrapping a command's run (an MCP server's
exec tool, a harness's) is read for that run's own text and exit status (red-team
leftover, issue 35: such runs were read as saying nothing). JSON a command merely
printed is read as text."""

from __future__ import annotations

import json

import pytest

from donecheck.actors.evidence.runner import outcome
from donecheck.actors.messages import ToolResult

PASSED = "...\n3 passed in 0.10s\n"
FAILED = "..F\n1 failed, 2 passed in 0.10s\n"


def _ok(output: str, command: str = "pytest -q", code: int | None = None) -> bool | None:
    result = ToolResult(session_id="s", call_id="c", output=output, exit_code=code)
    return outcome(result, command).ok


@pytest.mark.parametrize(
    ("wrapped", "ok"),
    [
        ({"stdout": PASSED, "stderr": "", "exit_code": 0}, True),
        ({"stdout": PASSED, "stderr": "coverage below 80%", "exit_code": 1}, False),
        ({"output": FAILED, "returncode": 1}, False),
        ({"result": {"exitCode": 0, "stdout": PASSED}}, True),
        ({"metadata": {"exit_code": 1}, "output": PASSED}, False),
        ({"content": PASSED, "return_code": 0}, True),
        ({"numFailedTests": 1, "numPassedTests": 4, "success": False, "testResults": []}, False),
        ({"numFailedTests": 0, "numPassedTests": 5, "success": True, "testResults": []}, True),
    ],
)
def test_a_wrapped_run_is_read_for_its_own_status(wrapped: dict[str, object], ok: bool) -> None:
    assert _ok(json.dumps(wrapped)) is ok
    assert _ok(json.dumps(wrapped, indent=2)) is ok  # pretty-printed alike


@pytest.mark.parametrize(
    ("output", "command", "code", "ok"),
    [
        # a file's JSON printed by a command with its own status: that status
        (json.dumps({"exit_code": 1, "output": "x"}), "cat last_run.json", 0, True),
        # a document with many keys is no wrapping, even with an exit code in it
        (json.dumps({"exit_code": 1, "stdout": "x", **{f"k{n}": n for n in range(9)}}),
         "cat result.json", None, None),
        # JSON with no run's status: read as text, as before
        (json.dumps({"name": "calc", "scripts": {"test": "jest"}}), "cat package.json", None,
         None),
    ],
)  # fmt: skip
def test_json_a_command_printed_is_text(
    output: str, command: str, code: int | None, ok: bool | None
) -> None:
    assert _ok(output, command, code) is ok
