"""Gemini CLI 0.61.0: its hook payloads, its chat log and ``donecheck install gemini``,
on what the real CLI sent and wrote (``tests/clients/recorded/gemini-*``, made by
``python -m tests.clients.record --client gemini``; ``meta.json`` says how).

What each recorded run must come to without Ray: an honest run passes at its first
stop; a false claim is blocked (``{"decision": "block"}``), the checklist that comes
back as the next user turn is DoneCheck's own and not a new request, and the fix
passes; the shell tool's exit status is read from its text; a failed tool call is a
failure. The chat log reads as the same run, its upserts and ``$set`` lines once.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.actions import read_action
from donecheck.actors.config import Config
from donecheck.actors.errors import TranscriptError, UnknownSessionError
from donecheck.actors.messages import ReportCard, Steer
from donecheck.runtime import DoneCheck
from donecheck.runtime.clients import adapter
from donecheck.runtime.clients.gemini import EVENTS, backup_path, workspace_trusted
from donecheck.runtime.hooks import HookState, checklist_of, handle
from donecheck.runtime.install import hooks_for, merge, unmerge
from donecheck.runtime.transcripts.detect import detect_form, load_transcript
from donecheck.runtime.transcripts.gemini import parse_gemini_lines, tool_text
from donecheck.runtime.transcripts.roles import not_the_users

RECORDED = Path(__file__).resolve().parents[1] / "clients" / "recorded"
RUNS = sorted(p.name for p in RECORDED.glob("gemini-*"))
TASK = "Fix add() in calc.py so that the tests in test_calc.py pass."
GEMINI = adapter("gemini")


def recorded(name: str) -> list[dict[str, Any]]:
    lines = (RECORDED / name / "payloads.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def tools(name: str) -> list[dict[str, Any]]:
    return [p for p in recorded(name) if p["hook_event_name"] == "AfterTool"]


def test_the_fixtures_are_the_pinned_clis() -> None:
    pinned = json.loads((RECORDED.parent / "package.json").read_text())["dependencies"]
    assert RUNS, "no recorded Gemini CLI runs"
    for name in RUNS:
        meta = json.loads((RECORDED / name / "meta.json").read_text())
        assert meta["client"] == "gemini" and meta["version"] == pinned["@google/gemini-cli"]


# ------------------------------------------------------------------ payloads


@pytest.mark.parametrize("name", RUNS)
def test_each_event_is_read_as_what_it_is(name: str) -> None:
    kinds = {"SessionStart": "start", "BeforeAgent": "prompt", "AfterTool": "tool"}
    kinds |= {"AfterAgent": "stop", "SessionEnd": "end"}
    found = recorded(name)
    assert {p["hook_event_name"] for p in found} >= {"BeforeAgent", "AfterTool", "AfterAgent"}
    for payload in found:
        assert GEMINI.event(payload) == kinds[payload["hook_event_name"]]
    assert GEMINI.event({"hook_event_name": "BeforeModel"}) == ""


def test_the_shell_tools_exit_status_is_read_from_its_text() -> None:
    runs = [GEMINI.tool(p) for p in tools("gemini-masked")]
    shells = [t for t in runs if t.name == "run_shell_command"]
    commands = [str(t.arguments["command"]) for t in shells if isinstance(t.arguments, dict)]
    assert [
        (c.endswith("|| true"), t.exit_code) for c, t in zip(commands, shells, strict=True)
    ] == [
        (False, 1),  # the failing run: "Exit Code: 1" after its output
        (True, 0),  # masked: Gemini CLI leaves the line out for 0
        (False, 0),  # the run after the fix
    ]
    failing = shells[0]
    assert "2 failed, 1 passed" in failing.output
    for text in ("Output:", "Exit Code", "Process Group PGID", "untrusted_context"):
        assert text not in failing.output  # the command's own output, not Gemini's frame
    assert failing.ok is None  # the status says it
    edit = next(t for t in runs if t.name == "replace")
    assert isinstance(edit.arguments, dict)
    assert [(x.path, x.op) for x in read_action(edit.name, edit.arguments).touches] == [
        (edit.arguments["file_path"], "edit")
    ]


def test_a_failed_tool_call_is_a_failure() -> None:
    failed, fixed, ran = (GEMINI.tool(p) for p in tools("gemini-fails_an_edit"))
    assert failed.ok is False and "File not found" in failed.output
    assert fixed.ok is None and "Successfully modified file" in fixed.output
    assert ran.exit_code == 0 and "3 passed" in ran.output


def test_each_call_gets_an_id_of_its_own() -> None:
    """No call id in the payload: the same command run twice (the failing run, then the
    one after the fix) must not be taken for one call delivered twice."""
    first, *_, last = (p for p in tools("gemini-fixes_after_block"))
    assert first["tool_input"] == last["tool_input"]
    assert GEMINI.tool(first).call_id != GEMINI.tool(last).call_id
    assert GEMINI.tool(first).call_id == GEMINI.tool(dict(first)).call_id  # a retry


def test_the_answer_under_review_is_the_last_one(tmp_path: Path) -> None:
    """``prompt_response`` joins every answer of the turn; the chat log ends with the
    one under review."""
    log = tmp_path / "chat.jsonl"
    shutil.copy(RECORDED / "gemini-fixes_after_block" / "transcript.jsonl", log)
    first, second = (
        {**p, "transcript_path": str(log)}
        for p in recorded("gemini-fixes_after_block")
        if p["hook_event_name"] == "AfterAgent"
    )
    assert second["prompt_response"].startswith(first["prompt_response"] + "\n")
    assert GEMINI.answer(first) == first["prompt_response"]  # the log has moved on
    assert GEMINI.answer(second) == second["prompt_response"].split("\n", 1)[1]
    assert (
        GEMINI.answer({**second, "transcript_path": str(tmp_path / "gone")})
        == (second["prompt_response"])
    )
    assert GEMINI.answer({**second, "prompt_response": "[no response text]"}) == ""


def test_the_continuation_is_donechecks_own_not_a_request() -> None:
    prompts = [
        p["prompt"] for p in recorded("gemini-fixes_after_block") if GEMINI.event(p) == "prompt"
    ]
    assert prompts[0] == TASK and not not_the_users(prompts[0])
    (continuation,) = prompts[1:]
    assert continuation.startswith("[DoneCheck — review round 1 of ")  # exactly the reason
    assert not_the_users(continuation)


def test_the_answers_block_or_let_it_stop() -> None:
    steer = GEMINI.steer("[DoneCheck — review round 1 of 2.] Run the tests.", "note")
    assert steer == {
        "decision": "block",
        "reason": "[DoneCheck — review round 1 of 2.] Run the tests.",
        "systemMessage": "note",
    }
    assert GEMINI.checklist_of(steer) == steer["reason"]
    assert checklist_of(steer) == steer["reason"]
    assert GEMINI.checklist_of(GEMINI.let_stop("ok")) is None
    assert GEMINI.block_cap is None  # Gemini CLI has none: DoneCheck's BlockCap is the cap


# ------------------------------------------------------- through the hook handler


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    app = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("gemini"), parser_actors=1)
    yield app
    app.shutdown()


def replay(dc: DoneCheck, name: str, tmp_path: Path) -> list[tuple[dict[str, Any], Any]]:
    """The run's payloads through :func:`handle`, under a session id of this test's
    own, the chat log at a copy of the recorded one."""
    log = tmp_path / "chat.jsonl"
    shutil.copy(RECORDED / name / "transcript.jsonl", log)
    fresh = uuid.uuid4().hex
    state = HookState(dc.config.max_rounds + 1)
    replies = []
    for payload in recorded(name):
        payload = {**payload, "session_id": fresh, "transcript_path": str(log)}
        payload["cwd"] = str(tmp_path)
        replies.append((payload, handle(dc, payload, "gemini", state)))
    return replies


def chain(dc: DoneCheck, replies: list[tuple[dict[str, Any], Any]]) -> list[str]:
    card = dc.session(f"gemini-{replies[0][0]['session_id']}").report()
    return [f"{c.label} {c.decision}" for c in card.chain]


def stops(replies: list[tuple[dict[str, Any], Any]]) -> list[Any]:
    return [r for p, r in replies if p["hook_event_name"] == "AfterAgent"]


def test_an_honest_run_passes_at_its_first_stop(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "gemini-honest", tmp_path)
    (only,) = stops(replies)
    assert "decision" not in only.output
    assert only.output["systemMessage"].startswith("DoneCheck: pass")
    assert chain(dc, replies) == ["A1 pass"]


def test_a_false_claim_is_blocked_and_the_fix_passes(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "gemini-fixes_after_block", tmp_path)
    notes = [r.note for p, r in replies if p["hook_event_name"] == "BeforeAgent"]
    assert notes == ["task started", "not a user request: the task goes on"]
    first, second = stops(replies)
    assert first.output["decision"] == "block"
    assert "failed" in first.output["reason"] and "round 1 of 2" in first.output["systemMessage"]
    # the reason the real CLI handed back as the next user turn is this one's form
    continuation = next(
        p["prompt"] for p, _ in replies[2:] if p["hook_event_name"] == "BeforeAgent"
    )
    assert continuation.split("\n", 1)[0] == first.output["reason"].split("\n", 1)[0]
    assert checklist_of(second.output) is None
    assert chain(dc, replies) == ["A1 need_fix", "A2 pass"]


def test_an_announced_run_never_made_is_asked_for(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "gemini-stops_mid_work", tmp_path)
    first, _ = stops(replies)
    assert first.output["decision"] == "block" and "Finish the work" in first.output["reason"]
    assert chain(dc, replies) == ["A1 need_evidence", "A2 pass"]


@dataclass(eq=False)  # a deployment is itself, not a value: hashable by identity
class _AlwaysSteers:
    """A deployment whose loop never lets a stop through (as if its state were lost)."""

    config: Config = field(default_factory=lambda: Config(max_rounds=2))
    opened: list[str] = field(default_factory=list)
    session_id = "gemini-loop"

    def session(self, session_id: str) -> Any:
        if session_id not in self.opened:
            raise UnknownSessionError(session_id)
        return self

    def open_session(self, request: str, *, session_id: str) -> Any:
        self.opened.append(session_id)
        return self

    def new_user_input(self, text: str) -> str:
        return "r2"

    def turn_stopping(self, answer: str, *, event_id: str) -> Steer:
        card = ReportCard(session_id=self.session_id, request_id="r", decision="need_fix")
        return Steer(session_id=self.session_id, request_id="r", round=1, message="on", report=card)


def test_donechecks_cap_holds_though_gemini_sends_each_continuation_as_a_prompt() -> None:
    """Gemini CLI has no cap on consecutive blocks and runs ``BeforeAgent`` for each
    continuation: were that taken for a new prompt, the cap would start again at every
    block and a loop that never lets go would never end."""
    found = [  # the fake deployment keeps no ledger to replay a log into
        {**{k: v for k, v in p.items() if k != "transcript_path"}, "session_id": "loop"}
        for p in recorded("gemini-fixes_after_block")
    ]
    prompt, continuation = (p for p in found if p["hook_event_name"] == "BeforeAgent")
    stop = next(p for p in found if p["hook_event_name"] == "AfterAgent")
    dc = _AlwaysSteers()
    state = HookState(dc.config.max_rounds + 1)
    handle(dc, prompt, "gemini", state)
    blocked = []
    for _ in range(5):
        reply = handle(dc, stop, "gemini", state)
        blocked.append(reply.output.get("decision") == "block")
        note = handle(dc, continuation, "gemini", state).note  # as Gemini CLI sends it
        assert note == "not a user request: the task goes on"
    assert blocked == [True, True, True, False, False]  # max_rounds + 1 blocks, then through
    handle(dc, prompt, "gemini", state)  # the user's own prompt: the count starts again
    assert handle(dc, stop, "gemini", state).output["decision"] == "block"


def test_a_masked_rerun_is_not_a_pass(dc: DoneCheck, tmp_path: Path) -> None:
    """``pytest -q || true`` after a failing run, and "clean, exit 0": the status
    Gemini CLI leaves out is 0, the output still says the tests failed."""
    replies = replay(dc, "gemini-masked", tmp_path)
    first, second = stops(replies)
    assert first.output["decision"] == "block"
    assert checklist_of(second.output) is None
    assert chain(dc, replies) == ["A1 need_fix", "A2 pass"]


# ---------------------------------------------------------------- the chat log


@pytest.mark.parametrize("name", RUNS)
def test_the_chat_log_reads_as_the_run(name: str) -> None:
    path = RECORDED / name / "transcript.jsonl"
    lines = path.read_text().splitlines()
    ids = [json.loads(line).get("id") for line in lines]
    assert len([i for i in ids if i]) > len({i for i in ids if i})  # upserts are in it
    assert any(line.startswith('{"$set"') for line in lines)
    assert detect_form(path.read_text())[0] == "gemini"
    transcript = load_transcript(path)
    assert transcript.form == "gemini"
    assert transcript.request.startswith(TASK[:20]) or "welcome" in transcript.request
    assert "<session_context>" not in transcript.request
    calls = [s for s in transcript.steps if s.kind == "call"]
    results = [s for s in transcript.steps if s.kind == "result"]
    sent = tools(name)
    assert [(c.name, c.arguments) for c in calls] == [
        (p["tool_name"], p["tool_input"]) for p in sent
    ]  # each call once, in order, as the hooks saw it
    assert [r.exit_code for r in results] == [GEMINI.tool(p).exit_code for p in sent]
    assert not [s for s in transcript.steps if s.kind == "user"]  # no continuation
    final = next(
        p["prompt_response"]
        for p in reversed(recorded(name))
        if p["hook_event_name"] == "AfterAgent"
    )
    assert final.endswith(transcript.answer) and transcript.answer


def test_a_failed_call_in_the_log_is_a_failure() -> None:
    transcript = load_transcript(RECORDED / "gemini-fails_an_edit" / "transcript.jsonl")
    first = next(s for s in transcript.steps if s.kind == "result")
    assert first.ok is False and "File not found" in first.output


def test_a_rewind_takes_back_what_followed(tmp_path: Path) -> None:
    """``{"$rewindTo": id}`` (Gemini CLI's ``/rewind``; ``loadConversationRecord`` drops
    that message and every later one) appended to a recorded log."""
    lines = (RECORDED / "gemini-masked" / "transcript.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    continuation = next(
        r for r in records if r.get("type") == "user" and "[DoneCheck" in json.dumps(r)
    )
    whole = parse_gemini_lines(lines)
    cut = parse_gemini_lines([*lines, json.dumps({"$rewindTo": continuation["id"]})])
    assert len(cut.steps) < len(whole.steps)
    assert cut.answer == "The test run is clean now (exit status 0), so the tests pass."
    with pytest.raises(TranscriptError, match="no user prompt"):
        parse_gemini_lines([*lines, json.dumps({"$rewindTo": "not-an-id"})])


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
_KEYS = st.sampled_from(
    [
        "id",
        "type",
        "content",
        "toolCalls",
        "$set",
        "$rewindTo",
        "messages",
        "sessionId",
        "projectHash",
        "result",
        "args",
        "name",
        "status",
        "kind",
    ]
)
_RECORD = st.dictionaries(_KEYS, _JSON | st.sampled_from(["user", "gemini", "m1"]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(_RECORD, max_size=8), st.integers(0, 24))
def test_any_log_reads_or_is_refused_by_name(records: list[dict[str, Any]], at: int) -> None:
    """Whatever the lines hold — mixed into a real log or alone — the reader gives a
    transcript or a :class:`TranscriptError`, never another error."""
    real = (RECORDED / "gemini-honest" / "transcript.jsonl").read_text().splitlines()
    for lines in ([json.dumps(r) for r in records], [*real[:at], *map(json.dumps, records)]):
        try:
            parse_gemini_lines(lines)
        except TranscriptError:
            pass


@pytest.mark.parametrize(
    ("raw", "text", "code"),
    [
        ("Output: ok\nProcess Group PGID: 7", "ok", 0),
        ("<untrusted_context>\nOutput: x\nExit Code: 2\nProcess Group PGID: 7\n"
         "</untrusted_context>", "x", 2),
        ("Output: (empty)\nExit Code: 1", "", 1),
        ("Output: says\nExit Code: 0 in its output\nExit Code: 3",
         "says\nExit Code: 0 in its output", 3),
        ("Output: killed\nSignal: 9", "killed", None),
        ("Command was cancelled by user before it could complete.", None, None),
        ("Command moved to background (PID: 12). Output hidden.", None, None),
    ],
)  # fmt: skip
def test_the_shell_tools_frame(raw: str, text: str | None, code: int | None) -> None:
    """The lines Gemini CLI 0.61.0's shell tool writes (``shell.ts``: ``Output:``, then
    ``Error:``, ``Exit Code:`` when not 0, ``Signal:``, ``Background PIDs:``,
    ``Process Group PGID:``)."""
    found = tool_text("run_shell_command", raw)
    assert found == ((raw if text is None else text), code)
    assert tool_text("read_file", raw)[1] is None  # a status only the shell tool has


# -------------------------------------------------------------------- install


def _install(
    tmp_path: Path, *args: str, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    cli = Path(sys.executable).with_name("donecheck")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GEMINI_CLI_HOME": str(home or tmp_path)}
    return subprocess.run(
        [str(cli), "install", "gemini", "--workspace", str(tmp_path / "ws"), *args],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_gemini_gets_command_hooks_for_its_own_events() -> None:
    ours = hooks_for("gemini", "command", "donecheck hook", "")
    assert list(ours) == list(EVENTS)
    handlers = [h for groups in ours.values() for g in groups for h in g["hooks"]]
    assert {h["command"] for h in handlers} == {"donecheck hook --agent gemini"}
    assert ours["AfterTool"][0]["matcher"] == "*"
    assert ours["AfterAgent"][0]["hooks"][0]["timeout"] == 600_000  # milliseconds
    settings, _ = merge({"hooks": {"AfterAgent": [{"hooks": [{"command": "mine"}]}]}}, ours, Path())
    assert settings["hooks"]["AfterAgent"][0] == {"hooks": [{"command": "mine"}]}
    assert unmerge(settings, Path())[0] == {
        "hooks": {"AfterAgent": [{"hooks": [{"command": "mine"}]}]}
    }


def test_install_dry_run_reinstall_and_uninstall_byte_for_byte(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    settings = tmp_path / ".gemini" / "settings.json"
    settings.parent.mkdir()
    original = (
        b'{\n    "theme": "GitHub",\n    "security": {"auth": {"selectedType": "gemini-api-key"}}'
        b"\n}"
    )
    settings.write_bytes(original)
    dry = _install(tmp_path, "--dry-run")
    assert dry.returncode == 0 and "would change" in dry.stdout
    assert settings.read_bytes() == original and not backup_path(settings).exists()
    done = _install(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "added     AfterAgent" in done.stdout and "trusted folder" in done.stdout
    installed = settings.read_bytes()
    assert json.loads(installed)["theme"] == "GitHub"
    assert json.loads(installed)["hooks"]["AfterAgent"][0]["hooks"][0]["command"].endswith(
        "hook --agent gemini"
    )
    kept = backup_path(settings).read_bytes()
    again = _install(tmp_path)
    assert "installed already" in again.stdout and settings.read_bytes() == installed
    assert backup_path(settings).read_bytes() == kept  # nothing written at all
    gone = _install(tmp_path, "--uninstall")
    assert gone.returncode == 0 and "restored" in gone.stdout
    assert settings.read_bytes() == original  # byte for byte, its own layout
    assert not backup_path(settings).exists()


def test_uninstall_removes_a_file_it_created_and_keeps_later_changes(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    settings = tmp_path / ".gemini" / "settings.json"
    assert _install(tmp_path).returncode == 0 and settings.exists()
    gone = _install(tmp_path, "--uninstall")
    assert gone.returncode == 0 and "removed" in gone.stdout and not settings.exists()
    assert _install(tmp_path).returncode == 0
    edited = json.loads(settings.read_text())
    settings.write_text(json.dumps({**edited, "theme": "Dracula"}))  # the user's change since
    gone = _install(tmp_path, "--uninstall")
    assert "only they were taken out" in gone.stdout
    assert json.loads(settings.read_text()) == {"theme": "Dracula"}
    assert "no DoneCheck hooks to remove" in _install(tmp_path, "--uninstall").stdout


def test_a_project_install_and_the_folders_trust(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    done = _install(tmp_path, "--scope", "project", home=tmp_path / "home")
    assert done.returncode == 0 and (workspace / ".gemini" / "settings.json").exists()
    assert "is not trusted yet" in done.stdout and "GEMINI_CLI_TRUST_WORKSPACE=true" in done.stdout
    trusted = tmp_path / "home" / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir(parents=True)
    trusted.write_text(json.dumps({str(tmp_path): "TRUST_FOLDER"}))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", raising=False)
    assert workspace_trusted(workspace) is True
    rules = {str(tmp_path): "TRUST_FOLDER", str(workspace): "DO_NOT_TRUST"}
    trusted.write_text(json.dumps(rules))
    assert workspace_trusted(workspace) is False  # the longest rule wins
    trusted.write_text(json.dumps({str(workspace / "x"): "TRUST_PARENT"}))
    assert workspace_trusted(workspace) is True
    assert (
        "trusted folder"
        not in _install(tmp_path, "--scope", "project", home=tmp_path / "home").stdout
    )
    assert _install(tmp_path, "--form", "http").returncode == 2  # command hooks only


def test_hooks_turned_off_in_the_settings_are_named(tmp_path: Path) -> None:
    """``hooksConfig`` (Gemini CLI 0.61.0's settings schema): ``enabled`` false runs no
    hook at all; ``disabled`` lists hooks by their command."""
    (tmp_path / "ws" / ".gemini").mkdir(parents=True)
    project = tmp_path / "ws" / ".gemini" / "settings.json"
    project.write_text(json.dumps({"hooksConfig": {"enabled": False}}))
    said = _install(tmp_path).stdout
    assert f"{project}: hooksConfig.enabled is false" in said
    project.write_text(json.dumps({"hooksConfig": {"disabled": ["donecheck hook --agent gemini"]}}))
    assert "hooksConfig.disabled names 'donecheck hook --agent gemini'" in _install(tmp_path).stdout
    project.write_text(json.dumps({"hooksConfig": {"disabled": ["my-linter"]}}))
    assert "hooksConfig" not in _install(tmp_path).stdout


def test_the_backup_is_not_replaced_by_a_reinstall(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    settings = tmp_path / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b"{}")
    assert _install(tmp_path).returncode == 0
    kept = json.loads(backup_path(settings).read_text())
    assert kept == {"existed": True, "bytes": base64.b64encode(b"{}").decode()}
    assert _install(tmp_path, "--url", "http://127.0.0.1:9999").returncode == 0
    assert json.loads(backup_path(settings).read_text()) == kept
