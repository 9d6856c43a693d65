"""Claude Code hooks end to end on the shared deployment."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import ray

from donecheck.actors.messages import ViewRequest, WorkspaceState
from donecheck.runtime import DoneCheck
from donecheck.runtime.hooks import checklist_of, handle
from tests.ray.conftest import NAMESPACE

pytestmark = pytest.mark.ray

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "transcripts" / "claude_code_need_fix.jsonl"
)


def entries(dc: DoneCheck, session_id: str, *, workspace: bool = False) -> int:
    """How many entries the session's ledger holds: the agent's and the session's
    events (or, with ``workspace``, the workspace states each stop recorded)."""
    view = ray.get(
        dc.deployment.ledger_for(session_id).view.remote(ViewRequest(session_id=session_id))
    )
    return sum(isinstance(e.event, WorkspaceState) is workspace for e in view.entries)


def test_post_tool_use_is_recorded_once_and_the_stop_reviews_what_hooks_recorded(
    dc: DoneCheck, tmp_path: Path
) -> None:
    claude_id = uuid.uuid4().hex
    transcript = tmp_path / "session.jsonl"
    shutil.copy(EXAMPLE, transcript)  # holds a failing run the hooks never reported
    common = {"session_id": claude_id, "transcript_path": str(transcript), "cwd": str(tmp_path)}
    (tmp_path / "notes.md").write_text("written by the agent\n")
    post = {
        **common,
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_use_id": "toolu_w",
        "tool_input": {"file_path": "notes.md", "content": "x"},
        "tool_response": {"type": "create", "filePath": "notes.md"},
    }
    assert handle(dc, post).note == "recorded"
    assert handle(dc, post).note == "recorded"  # the same hook twice adds nothing
    session_id = f"claude-{claude_id}"
    assert entries(dc, session_id) == 4  # opened, call, result, snapshot
    stop = {**common, "hook_event_name": "Stop", "last_assistant_message": "Wrote notes.md."}
    handle(dc, stop)
    # the hooks record this session: its transcript (which may lag) is not replayed
    assert entries(dc, session_id) == 4


def test_a_stop_only_configuration_reviews_the_transcript_in_order(
    dc: DoneCheck, tmp_path: Path
) -> None:
    claude_id = uuid.uuid4().hex
    transcript = tmp_path / "session.jsonl"
    shutil.copy(EXAMPLE, transcript)
    common = {"session_id": claude_id, "transcript_path": str(transcript), "cwd": str(tmp_path)}
    session_id = f"claude-{claude_id}"
    stop = {**common, "hook_event_name": "Stop", "stop_hook_active": False}
    reply = handle(dc, stop)
    checklist = checklist_of(reply.output) or ""
    assert "from DoneCheck, not from the user" in checklist
    assert "tests/test_dates.py" in checklist
    after_first = entries(dc, session_id)
    assert after_first == 1 + 6  # opened; the transcript's 3 calls and 3 results, once
    assert entries(dc, session_id, workspace=True) == 1  # the tests as the stop found them

    # the agent re-runs the tests and they pass: the next stop goes through
    with transcript.open("a") as out:
        for record in (
            {
                "type": "assistant",
                "message": {
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "toolu_04",
                            "name": "Bash",
                            "input": {"command": "python -m pytest -q tests/test_dates.py"},
                        }
                    ]
                },
            },
            {
                "type": "user",
                "message": {
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_04",
                            "content": "..\n=== 2 passed in 0.04s ===",
                        }
                    ]
                },
            },
            {
                "type": "assistant",
                "message": {
                    "content": [
                        {
                            "type": "text",
                            "text": "[DoneCheck A2] I re-ran tests/test_dates.py: "
                            "2 passed. The offset timestamps parse now.",
                        }
                    ]
                },
            },
        ):
            out.write(json.dumps(record) + "\n")
    reply = handle(dc, {**stop, "stop_hook_active": True})
    assert checklist_of(reply.output) is None
    assert reply.note.startswith("DoneCheck: pass (A1 need_fix → A2 pass)")
    assert entries(dc, session_id) == after_first + 2  # only what is new, after the rest
    assert entries(dc, session_id, workspace=True) == 2


def test_a_read_of_an_image_is_recorded_as_the_tools_material(
    dc: DoneCheck, tmp_path: Path
) -> None:
    import base64

    from donecheck.actors.messages import MaterialRecorded, ToolResult
    from tests.support import samples

    png = samples.image(seed=6, text=False).data
    claude_id = uuid.uuid4().hex
    post = {
        "session_id": claude_id,
        "transcript_path": str(tmp_path / "none.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_use_id": "toolu_img",
        "tool_input": {"file_path": "shot.png"},
        "tool_response": {
            "type": "image",
            "file": {"base64": base64.b64encode(png).decode(), "type": "image/png"},
        },
    }
    handle(dc, {**post, "hook_event_name": "UserPromptSubmit", "prompt": "Look at shot.png."})
    assert handle(dc, post).note == "recorded"
    session = dc.session(f"claude-{claude_id}")
    session.turn_stopping("I looked at shot.png: it shows the login page.")  # waits for parses
    view = ray.get(
        dc.deployment.ledger_for(session.session_id).view.remote(
            ViewRequest(session_id=session.session_id)
        )
    )
    (result,) = [e.event for e in view.entries if isinstance(e.event, ToolResult)]
    assert [i.name for i in result.images] == ["toolu_img-image-1.png"]
    (recorded,) = [e.event for e in view.entries if isinstance(e.event, MaterialRecorded)]
    assert (recorded.material.origin, recorded.material.call_id) == ("tool", "toolu_img")
    assert recorded.material.previews and recorded.material.previews[0].role == "reference"


def test_serve_on_ray_and_the_hook_command(dc: DoneCheck, ray_address: str, tmp_path: Path) -> None:
    """``donecheck serve`` attached to the shared Ray deployment, ``donecheck hook``
    reaching it through the runtime file: the session lands in that deployment."""
    runtime = tmp_path / "run" / "serve.json"
    env = {
        **os.environ,
        "RAY_ADDRESS": ray_address,
        "DONECHECK_NAMESPACE": NAMESPACE,
        "DONECHECK_RUNTIME_FILE": str(runtime),
    }
    cli = Path(sys.executable).with_name("donecheck")
    with subprocess.Popen(
        [str(cli), "serve", "--address", ray_address, "--port", "0"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    ) as serve:
        try:
            assert serve.stderr is not None
            said = [serve.stderr.readline() for _ in range(3)]  # progress while it starts
            assert said[0].startswith("donecheck serve: connecting to the Ray cluster"), said
            assert said[1].startswith("donecheck serve: Ray is up"), said
            assert "actors on Ray" in said[2], said
            payload = {
                "session_id": uuid.uuid4().hex,
                "hook_event_name": "UserPromptSubmit",
                "prompt": "Rename the config flag",
                "cwd": str(tmp_path),
            }
            done = subprocess.run(
                [str(cli), "hook"],
                input=json.dumps(payload),
                text=True,
                capture_output=True,
                env=env,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr[-2000:]
            assert done.stdout == "" and done.stderr == ""  # nothing for the user to see
            assert dc.session(f"claude-{payload['session_id']}").report().request_id
            broken = subprocess.run(
                [str(cli), "hook"],
                input="{not json",
                text=True,
                capture_output=True,
                env=env,
                timeout=60,
            )
            assert broken.returncode == 1 and "hook payload" in broken.stderr
        finally:
            serve.send_signal(signal.SIGINT)
            serve.communicate(timeout=60)
    assert serve.returncode == 0
