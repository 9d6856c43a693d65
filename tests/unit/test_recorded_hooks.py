"""Hook payloads the real Claude Code 2.1.332 and Codex 0.171.0 sent, replayed through
the hook handler (``tests/clients/recorded/``, made by ``python -m tests.clients.record``;
``meta.json`` in each folder says how).

What each recorded run must come to without Ray: an honest run passes at its first
stop; a false claim is steered with the client's own continuation form, and the fix
passes; a stop while a background sub-agent runs is not reviewed, its
``<task-notification>`` is not a new request; an interrupted turn is cancelled.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.actions import read_action
from donecheck.runtime import DoneCheck
from donecheck.runtime.clients import adapter
from donecheck.runtime.hooks import HookState, checklist_of, handle

RECORDED = Path(__file__).resolve().parents[1] / "clients" / "recorded"


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    app = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("recorded"), parser_actors=1)
    yield app
    app.shutdown()


def payloads(name: str, tmp_path: Path) -> tuple[list[dict[str, Any]], str]:
    """The run's payloads with a session id of this test's own and the transcript
    at a copy of the recorded one."""
    folder = RECORDED / name
    transcript = tmp_path / "transcript.jsonl"
    shutil.copy(folder / "transcript.jsonl", transcript)
    fresh = uuid.uuid4().hex
    found = []
    for line in (folder / "payloads.jsonl").read_text().splitlines():
        payload = json.loads(line)
        payload["session_id"] = fresh
        if "transcript_path" in payload:
            payload["transcript_path"] = str(transcript)
        payload["cwd"] = str(tmp_path)
        found.append(payload)
    return found, fresh


def replay(dc: DoneCheck, name: str, tmp_path: Path) -> list[tuple[dict[str, Any], Any]]:
    agent = "codex" if name.startswith("codex") else "claude-code"
    found, _ = payloads(name, tmp_path)
    state = HookState(dc.config.max_rounds + 1)
    return [(p, handle(dc, p, agent, state)) for p in found]  # type: ignore[arg-type]


def stops(replies: list[tuple[dict[str, Any], Any]]) -> list[Any]:
    return [reply for payload, reply in replies if payload["hook_event_name"] == "Stop"]


def card_of(dc: DoneCheck, replies: list[tuple[dict[str, Any], Any]], name: str) -> Any:
    prefix = "codex" if name.startswith("codex") else "claude"
    return dc.session(f"{prefix}-{replies[0][0]['session_id']}").report()


@pytest.mark.parametrize("name", ["claude-code-honest", "codex-honest"])
def test_an_honest_run_passes_at_its_first_stop(dc: DoneCheck, tmp_path: Path, name: str) -> None:
    replies = replay(dc, name, tmp_path)
    (only,) = stops(replies)
    assert checklist_of(only.output) is None
    assert only.output["systemMessage"].startswith("DoneCheck: pass")
    card = card_of(dc, replies, name)
    assert [f"{c.label} {c.decision}" for c in card.chain] == ["A1 pass"]


@pytest.mark.parametrize("name", ["claude-code-fixes_after_block", "codex-fixes_after_block"])
def test_a_false_claim_is_steered_in_the_clients_own_form(
    dc: DoneCheck, tmp_path: Path, name: str
) -> None:
    replies = replay(dc, name, tmp_path)
    first, second = stops(replies)
    checklist = checklist_of(first.output) or ""
    assert "This message is from DoneCheck, not from the user" in checklist
    if name.startswith("codex"):
        assert first.output["decision"] == "block"  # Codex continues on a block only
    else:  # Claude Code shows a block as an error; additionalContext continues it quietly
        assert "decision" not in first.output
        assert first.output["hookSpecificOutput"]["hookEventName"] == "Stop"
    assert "round 1 of 2" in first.output["systemMessage"]
    assert checklist_of(second.output) is None
    card = card_of(dc, replies, name)
    assert [f"{c.label} {c.decision}" for c in card.chain] == ["A1 need_fix", "A2 pass"]


def test_a_background_sub_agent_is_waited_for(dc: DoneCheck, tmp_path: Path) -> None:
    name = "claude-code-delegates"
    replies = replay(dc, name, tmp_path)
    prompts = [r for p, r in replies if p["hook_event_name"] == "UserPromptSubmit"]
    assert [r.note for r in prompts] == ["task started", "not a user request: the task goes on"]
    waiting, final = stops(replies)
    assert "still running" in waiting.note and checklist_of(waiting.output) is None
    assert final.output["systemMessage"].startswith("DoneCheck: pass")
    card = card_of(dc, replies, name)
    assert [f"{c.label} {c.decision}" for c in card.chain] == ["A1 pass"]
    session = card_of(dc, replies, name).session_id
    (summary,) = [s for s in dc.sessions(10_000) if s.session_id == session]
    assert summary.request.startswith("Fix add()")  # the notification did not replace it
    sub = [p for p, _ in replies if p.get("agent_id") and p["hook_event_name"] == "PostToolUse"]
    assert sub, "the sub-agent's own tool calls arrive as PostToolUse with its agent_id"


@pytest.mark.parametrize("name", ["claude-code-slow", "codex-slow"])
def test_an_interrupted_turn_is_cancelled(dc: DoneCheck, tmp_path: Path, name: str) -> None:
    replies = replay(dc, name, tmp_path)
    assert stops(replies) == []
    card = card_of(dc, replies, name)
    assert card.end_reason == "cancelled"


def test_what_the_tools_sent_is_read_as_the_ledger_needs() -> None:
    codex = [
        json.loads(line)
        for line in (RECORDED / "codex-fixes_after_block" / "payloads.jsonl")
        .read_text()
        .split("\n")
        if line.strip()
    ]
    patch = next(p for p in codex if p.get("tool_name") == "apply_patch")
    assert "*** Begin Patch" in patch["tool_input"]["command"]  # as Codex sends it
    tool = adapter("codex").tool(patch)
    assert [(t.path, t.op) for t in read_action(tool.name, tool.arguments).touches] == [
        ("calc.py", "edit")
    ]
    shell = next(p for p in codex if p.get("tool_name") == "Bash")
    assert isinstance(shell["tool_response"], str)  # a plain string, no exit status
    claude = [
        json.loads(line)
        for line in (RECORDED / "claude-code-fixes_after_block" / "payloads.jsonl")
        .read_text()
        .splitlines()
    ]
    failure = next(p for p in claude if p["hook_event_name"] == "PostToolUseFailure")
    failed = adapter("claude-code").tool(failure)
    assert (failed.ok, failed.exit_code) == (False, 1) and "failed" in failed.output
    success = next(p for p in claude if p["hook_event_name"] == "PostToolUse")
    assert adapter("claude-code").tool(success).ok is None
