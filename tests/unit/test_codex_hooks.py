"""Codex hooks (the same events and answers as Claude Code's, Codex's own tool shapes),
and DoneCheck's cap on consecutive blocked stops — Codex has none."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from donecheck.actors.config import Config
from donecheck.actors.errors import UnknownSessionError
from donecheck.actors.messages import ReportCard, Steer
from donecheck.runtime import DoneCheck
from donecheck.runtime.hooks import BlockCap, handle
from donecheck.runtime.service import create_app
from tests.unit.test_service import Server


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    dc = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("codex"), parser_actors=1)
    with Server(create_app(dc)) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        yield c
    dc.shutdown()


def test_a_codex_turn_through_the_hook_endpoint(api: httpx.Client) -> None:
    common = {
        "session_id": "0199a2b3-codex",
        "cwd": "/repo",
        "model": "gpt-5-codex",
        "turn_id": "turn-1",
    }
    hook = "/v1/hooks/codex"
    started = api.post(
        hook,
        json={**common, "hook_event_name": "UserPromptSubmit", "prompt": "Make `pytest -q` pass."},
    )
    assert started.headers["x-donecheck-note"] == "task started"
    post = {
        **common,
        "hook_event_name": "PostToolUse",
        "tool_name": "shell",
        "tool_use_id": "call_1",
        "tool_input": {"command": ["bash", "-lc", "pytest -q"], "workdir": "/repo"},
        "tool_response": "F..\n1 failed, 2 passed in 0.04s\nExit code: 1",
    }
    assert api.post(hook, json=post).headers["x-donecheck-note"] == "recorded"
    stop = {
        **common,
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "Fixed it; all tests pass.",
    }
    answer = api.post(hook, json=stop).json()
    assert answer["decision"] == "block"
    assert "`pytest -q`" in answer["reason"]  # the argv was read as the command it ran
    listed = api.get("/v1/sessions").json()["sessions"]
    assert "codex-0199a2b3-codex" in [s["session_id"] for s in listed]


def test_the_block_cap_counts_consecutive_blocks_and_resets() -> None:
    cap = BlockCap(2)
    assert cap.allow("s") and cap.allow("s")
    assert not cap.allow("s")
    assert cap.allow("t")  # per session
    cap.reset("s")
    assert cap.allow("s")


@dataclass(eq=False)  # a deployment is itself, not a value: hashable by identity
class _AlwaysSteers:
    """A deployment whose loop never lets a stop through (as if its state were lost)."""

    config: Config = field(default_factory=lambda: Config(max_rounds=2))
    opened: list[str] = field(default_factory=list)

    def session(self, session_id: str) -> Any:
        if session_id not in self.opened:
            raise UnknownSessionError(session_id)
        return self

    def open_session(self, request: str, *, session_id: str) -> Any:
        self.opened.append(session_id)
        return self

    session_id = "codex-loop"

    def new_user_input(self, text: str) -> str:
        return "r2"

    def note_workspace(self, workspace: str, moment: str) -> None:
        pass

    def turn_stopping(self, answer: str, *, event_id: str) -> Steer:
        card = ReportCard(session_id="codex-loop", request_id="r", decision="need_fix")
        return Steer(session_id="codex-loop", request_id="r", round=1, message="go on", report=card)


def test_a_loop_that_never_lets_go_is_let_through_after_the_cap(tmp_path: Path) -> None:
    dc = _AlwaysSteers()
    payload = {"session_id": "loop", "hook_event_name": "UserPromptSubmit", "prompt": "Do it."}
    handle(dc, payload, "codex")
    stop = {"session_id": "loop", "hook_event_name": "Stop", "last_assistant_message": "Done."}
    replies = [handle(dc, stop, "codex") for _ in range(5)]
    blocked = [r.output.get("decision") == "block" for r in replies]
    assert blocked == [True, True, True, False, False]  # max_rounds + 1 blocks, then through
    assert "not blocked: 3 stops in a row" in replies[3].note
    assert replies[3].output["systemMessage"] == replies[3].note  # the user sees why
    handle(dc, payload, "codex")  # a new prompt: the count starts again
    assert handle(dc, stop, "codex").output["decision"] == "block"


def test_a_hook_event_learns_its_task_without_a_report(tmp_path: Path) -> None:
    """Each hook event needs only its session's current request: it asks for that
    (a task query), never for the whole card and the budget's usage."""
    dc = DoneCheck.start_local(data_dir=tmp_path / "data", parser_actors=1)
    try:
        common = {"session_id": "hooked", "cwd": str(tmp_path), "turn_id": "t"}
        handle(dc, {**common, "hook_event_name": "UserPromptSubmit", "prompt": "Fix it."}, "codex")
        for n in range(3):
            handle(
                dc,
                {
                    **common,
                    "hook_event_name": "PostToolUse",
                    "tool_name": "Bash",
                    "tool_use_id": f"c{n}",
                    "tool_input": {"command": "pytest -q"},
                    "tool_response": "3 passed in 0.01s",
                },
                "codex",
            )
        reports = sum(
            v["reports"] for k, v in dc.statistics().items() if k.startswith("controller")
        )
        assert reports == 0
    finally:
        dc.shutdown()
