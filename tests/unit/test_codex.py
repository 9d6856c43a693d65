"""Codex CLI rollouts as Codex writes them: both shell tools, apply_patch, the UI's
events beside the model's items (never counted twice), Codex's own injected context."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.errors import TranscriptError
from donecheck.runtime import DoneCheck
from donecheck.runtime.replay import review_transcript
from donecheck.runtime.transcripts.codex import parse_codex_lines
from donecheck.runtime.transcripts.detect import load_transcript

PATCH = (
    "*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a - b\n+    return a + b\n"
    "*** End Patch"
)


def rec(kind: str, payload: dict[str, Any]) -> str:
    return json.dumps({"timestamp": "2026-11-30T10:00:00.000Z", "type": kind, "payload": payload})


def message(role: str, text: str) -> str:
    part = "output_text" if role == "assistant" else "input_text"
    return rec(
        "response_item",
        {"type": "message", "role": role, "content": [{"type": part, "text": text}]},
    )


def shell_rollout(exit_code: int, answer: str) -> list[str]:
    output = json.dumps(
        {
            "output": "F..\n1 failed, 2 passed in 0.04s" if exit_code else "...\n3 passed in 0.03s",
            "metadata": {"exit_code": exit_code, "duration_seconds": 0.4},
        }
    )
    return [
        rec("session_meta", {"id": "0199", "cwd": "/repo", "cli_version": "0.46.0"}),
        message("developer", "<permissions instructions>sandboxed</permissions instructions>"),
        message("user", "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"),
        message("user", "Fix add() in calc.py and make sure `pytest -q` passes."),
        rec(
            "event_msg",
            {
                "type": "user_message",
                "message": "Fix add() in calc.py and make sure `pytest -q` passes.",
            },
        ),
        rec("turn_context", {"cwd": "/repo", "model": "gpt-5-codex"}),
        rec("response_item", {"type": "reasoning", "summary": []}),
        rec(
            "response_item",
            {
                "type": "custom_tool_call",
                "name": "apply_patch",
                "call_id": "call_p",
                "input": PATCH,
            },
        ),
        rec(
            "response_item",
            {
                "type": "custom_tool_call_output",
                "call_id": "call_p",
                "output": json.dumps(
                    {
                        "output": "Success. Updated the following files:\nM calc.py\n",
                        "metadata": {"exit_code": 0},
                    }
                ),
            },
        ),
        rec(
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "call_id": "call_t",
                "arguments": json.dumps(
                    {"command": ["bash", "-lc", "pytest -q"], "workdir": "/repo"}
                ),
            },
        ),
        rec(
            "response_item", {"type": "function_call_output", "call_id": "call_t", "output": output}
        ),
        rec("event_msg", {"type": "agent_message", "message": answer}),
        message("assistant", answer),
        rec("event_msg", {"type": "token_count", "info": None}),
    ]


def test_a_shell_rollout_reads_as_the_agent_worked() -> None:
    t = parse_codex_lines(shell_rollout(1, "Fixed add(); all tests pass."), "rollout.jsonl")
    assert t.form == "codex"
    assert t.request == "Fix add() in calc.py and make sure `pytest -q` passes."
    assert t.answer == "Fixed add(); all tests pass."
    assert [s.kind for s in t.steps] == ["call", "result", "call", "result"]  # events not twice
    patch, _, shell, result = t.steps
    assert patch.name == "apply_patch" and patch.arguments == {"input": PATCH}
    assert shell.arguments["command"] == "pytest -q"
    assert (result.exit_code, result.output) == (1, "F..\n1 failed, 2 passed in 0.04s")


def test_the_exec_command_tool_and_its_exit_line() -> None:
    lines = [
        message("user", "Run the linter and fix what it finds."),
        rec(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "call_id": "c1",
                "arguments": json.dumps({"cmd": "ruff check .", "yield_time_ms": 1000}),
            },
        ),
        rec(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": "Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 1\n"
                "Output:\na.py:1:8: F401 unused\nFound 1 error.",
            },
        ),
        message("assistant", "Lint is clean now."),
    ]
    t = parse_codex_lines(lines)
    (call, result) = t.steps
    assert call.arguments == {"cmd": "ruff check .", "yield_time_ms": 1000}
    assert result.exit_code == 1


def test_an_older_rollout_with_only_events() -> None:
    lines = [
        rec("event_msg", {"type": "user_message", "message": "Say hi."}),
        rec("event_msg", {"type": "agent_message", "message": "Hi."}),
    ]
    t = parse_codex_lines(lines)
    assert (t.request, t.answer) == ("Say hi.", "Hi.")


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        ([message("user", "<environment_context>x</environment_context>")], "no user prompt"),
    ],
)
def test_unusable_rollouts_say_why(lines: list[str], problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        parse_codex_lines(lines, "r.jsonl")


@pytest.fixture
def local(tmp_path: Path) -> Iterator[DoneCheck]:
    dc = DoneCheck.start_local(data_dir=tmp_path / "data", parser_actors=1)
    yield dc
    dc.shutdown()


def test_review_detects_the_form_and_decides(local: DoneCheck, tmp_path: Path) -> None:
    failing = tmp_path / "rollout-2026-11-30T10-00-00-0199.jsonl"
    failing.write_text(
        "\n".join(shell_rollout(1, "Fixed add() in calc.py; all tests pass.")) + "\n"
    )
    passing = tmp_path / "rollout-2026-11-30T11-00-00-0200.jsonl"
    passing.write_text(
        "\n".join(shell_rollout(0, "Fixed add() in calc.py; `pytest -q`: 3 passed.")) + "\n"
    )
    decided = {}
    for path in (failing, passing):
        transcript = load_transcript(path)
        assert transcript.form == "codex"
        decided[path.name] = asyncio.run(review_transcript(local, transcript)).decision
    assert decided == {failing.name: "need_fix", passing.name: "pass"}


def test_a_rollout_that_stops_after_the_request_is_a_run_without_an_answer() -> None:
    read = parse_codex_lines([message("user", "Do it.")], "r.jsonl")
    assert read.request == "Do it." and read.answer == "" and read.steps == []
