"""Who wrote a user message (:mod:`donecheck.runtime.transcripts.roles`), checklists
within the clients' limits, and a Stop that meets a lagging transcript."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.runtime import DoneCheck
from donecheck.runtime.hooks import HookState, bounded, checklist_of, handle
from donecheck.runtime.transcripts.codex import parse_codex_lines
from donecheck.runtime.transcripts.roles import continuation, injected, not_the_users

CHECKLIST = (
    "[DoneCheck — review round 1 of 2. This message is from DoneCheck, not from the user.]\n"
    "Your answer A1 is not finished yet."
)


@pytest.mark.parametrize(
    ("text", "is_continuation", "is_injected"),
    [
        (f'<hook_prompt hook_run_id="stop:3:/h/hooks.json">{CHECKLIST}</hook_prompt>', True, False),
        (f"Stop hook feedback:\n{CHECKLIST}", True, False),
        ("<system-reminder>\nStop hook additional context: go on\n</system-reminder>", True, False),
        (CHECKLIST, True, False),
        ("<task-notification>\n<task-id>a1</task-id>\n</task-notification>", False, True),
        ("<environment_context>\n<cwd>/repo</cwd>\n</environment_context>", False, True),
        ("# AGENTS.md instructions for /repo\n\nUse pytest.", False, True),
        ("<turn_aborted>", False, True),
        # the user's own words, even when they talk about these things
        ("Fix the stop hook feedback loop in hooks.py", False, False),
        ("Why does DoneCheck say review round 1 of 2?", False, False),
        ("Add a <task-notification> parser to notify.py", False, False),
    ],
)
def test_who_wrote_a_user_message(text: str, is_continuation: bool, is_injected: bool) -> None:
    assert continuation(text) is is_continuation
    assert injected(text) is is_injected
    assert not_the_users(text) is (is_continuation or is_injected)


def test_a_codex_rollout_continued_by_a_stop_hook_is_one_request() -> None:
    def line(kind: str, payload: dict[str, object]) -> str:
        return json.dumps({"type": kind, "payload": payload})

    def message(role: str, text: str) -> str:
        part = "input_text" if role == "user" else "output_text"
        return line(
            "response_item",
            {"type": "message", "role": role, "content": [{"type": part, "text": text}]},
        )

    lines = [
        message("user", "Make the tests pass."),
        message("assistant", "All tests pass."),
        message("user", f'<hook_prompt hook_run_id="stop:1">{CHECKLIST}</hook_prompt>'),
        message("assistant", "[DoneCheck A2] Ran them: 3 passed."),
    ]
    transcript = parse_codex_lines(lines)
    assert transcript.request == "Make the tests pass."
    assert [s.kind for s in transcript.steps] == []  # no new task
    assert transcript.answer.startswith("[DoneCheck A2]")


def test_a_long_checklist_keeps_its_head_and_its_rules() -> None:
    message = "HEAD\n" + "x" * 30_000 + "\nRules for this round: label with [DoneCheck A2]."
    cut = bounded(message, "claude-s1")
    assert len(cut) <= 9_000
    assert cut.startswith("HEAD") and cut.endswith("[DoneCheck A2].")
    assert "characters cut here" in cut and "donecheck report --session claude-s1" in cut
    assert bounded("short", "s") == "short"


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    app = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("roles"), parser_actors=1)
    yield app
    app.shutdown()


def _claude(kind: str, content: object) -> str:
    return json.dumps({"type": kind, "message": {"role": kind, "content": content}}) + "\n"


def test_a_stop_only_configuration_waits_for_the_transcript_to_hold_the_answer(
    dc: DoneCheck, tmp_path: Path
) -> None:
    """No PostToolUse hook: the transcript is the evidence, and Claude Code writes it
    after the Stop hook starts — the failing run and the final answer arrive late."""
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        _claude("user", "Make `pytest -q` pass.")
        + _claude("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                 "input": {"command": "pytest -q"}}])
    )  # fmt: skip
    late = _claude(
        "user",
        [
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": "F..\n1 failed, 2 passed in 0.04s",
            }
        ],
    ) + _claude("assistant", [{"type": "text", "text": "All tests pass."}])

    def write_late() -> None:
        time.sleep(0.3)
        with transcript.open("a") as out:
            out.write(late)

    writer = threading.Thread(target=write_late)
    writer.start()
    stop = {
        "session_id": uuid.uuid4().hex,
        "transcript_path": str(transcript),
        "hook_event_name": "Stop",
        "last_assistant_message": "All tests pass.",
    }
    reply = handle(dc, stop, "claude-code", HookState(3))
    writer.join()
    checklist = checklist_of(reply.output) or ""
    assert "1 failed, 2 passed" in checklist  # reviewed on the failing run: need_fix
    assert reply.output["systemMessage"].startswith("DoneCheck: need_fix")


_STARTED = {  # a background Bash's structured result (tests/corpus/real/spotter-8463c716.jsonl)
    "stdout": "", "stderr": "", "interrupted": False, "isImage": False,
    "noOutputExpected": False, "backgroundTaskId": "be613ab",
}  # fmt: skip


def _notice(code: int) -> str:
    """Claude Code's notice of the run's end, as that public session's line 1588 has it."""
    verb = "completed (exit code 0)" if code == 0 else f"failed with exit code {code}"
    return (
        "<task-notification>\n<task-id>be613ab</task-id>\n"
        "<output-file>/tmp/claude-1000/tasks/be613ab.output</output-file>\n"
        f"<status>{'completed' if code == 0 else 'failed'}</status>\n"
        f'<summary>Background command "Run tests" {verb}</summary>\n</task-notification>\n'
        "Read the output file to retrieve the result: /tmp/claude-1000/tasks/be613ab.output"
    )


@pytest.mark.parametrize(("code", "decision"), [(1, "need_fix"), (0, "need_evidence")])
def test_a_notice_that_a_background_run_ended_reaches_the_ledger_through_the_hook(
    dc: DoneCheck, tmp_path: Path, code: int, decision: str
) -> None:
    common = {"session_id": uuid.uuid4().hex, "cwd": str(tmp_path), "transcript_path": ""}
    handle(dc, {**common, "hook_event_name": "UserPromptSubmit",
                "prompt": "Fix add() in calc.py so that `pytest -q` passes."}, "claude-code",
           HookState(3))  # fmt: skip
    for n, (name, args, response) in enumerate([
        ("Edit", {"file_path": str(tmp_path / "calc.py"), "old_string": "-",
                  "new_string": "+"}, "ok"),
        ("Bash", {"command": "pytest -q", "run_in_background": True}, _STARTED),
    ]):  # fmt: skip
        handle(dc, {**common, "hook_event_name": "PostToolUse", "tool_name": name,
                    "tool_input": args, "tool_use_id": f"t{n}", "tool_response": response},
               "claude-code", HookState(3))  # fmt: skip
    told = handle(
        dc, {**common, "hook_event_name": "UserPromptSubmit", "prompt": _notice(code)},
        "claude-code", HookState(3),
    )  # fmt: skip
    assert "not a user request" in (told.note or "")
    reply = handle(
        dc, {**common, "hook_event_name": "Stop", "last_assistant_message": "All tests pass."},
        "claude-code", HookState(3),
    )  # fmt: skip
    assert reply.output["systemMessage"].startswith(f"DoneCheck: {decision}"), reply.output


@pytest.mark.parametrize(("code", "decision"), [(1, "need_fix"), (0, "need_evidence")])
def test_a_notice_in_the_transcript_is_the_background_runs_result(
    dc: DoneCheck, tmp_path: Path, code: int, decision: str
) -> None:
    transcript = tmp_path / "t.jsonl"
    started = {"type": "tool_result", "tool_use_id": "t1",
               "content": "Command running in background with ID: be613ab. Output is being"
                          " written to: /tmp/claude-1000/tasks/be613ab.output"}  # fmt: skip
    transcript.write_text(
        _claude("user", "Fix add() in calc.py so that `pytest -q` passes.")
        + _claude("assistant", [{"type": "tool_use", "id": "t0", "name": "Edit", "input": {
            "file_path": "calc.py", "old_string": "-", "new_string": "+"}}])
        + _claude("user", [{"type": "tool_result", "tool_use_id": "t0", "content": "ok"}])
        + _claude("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {
            "command": "pytest -q", "run_in_background": True}}])
        + _claude("user", [started])
        + _claude("user", _notice(code))  # a string, as the public session has it
        + _claude("assistant", [{"type": "text", "text": "All tests pass."}])
    )  # fmt: skip
    stop = {"session_id": uuid.uuid4().hex, "transcript_path": str(transcript),
            "hook_event_name": "Stop", "last_assistant_message": "All tests pass."}  # fmt: skip
    reply = handle(dc, stop, "claude-code", HookState(3))
    assert reply.output["systemMessage"].startswith(f"DoneCheck: {decision}"), reply.output
