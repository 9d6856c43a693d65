"""GitHub Copilot CLI 1.0.102: its hook payloads, its ``events.jsonl`` and ``donecheck
install copilot``, on what the real CLI sent and wrote (``tests/clients/recorded/copilot-*``,
made by ``python -m tests.clients.record --client copilot``; ``meta.json`` says how).

What each recorded run must come to without Ray: an honest run passes at its first
stop; a false claim is blocked (``{"decision": "block"}``), the checklist that comes
back as the next prompt is DoneCheck's own and not a new request, and the fix passes;
the shell tool's exit status is read from its ``<shellId: …>`` line; the stop payload
has no text, so the answer is read from the log. The log reads as the same run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.actions import read_action
from donecheck.runtime import DoneCheck
from donecheck.runtime.clients import adapter
from donecheck.runtime.clients.copilot import EVENTS, HOOKS_FILE, _millis, workspace_trusted
from donecheck.runtime.hooks import HookState, checklist_of, handle
from donecheck.runtime.install import backup_path, hooks_for, merge, unmerge
from donecheck.runtime.transcripts.copilot import parse_copilot_lines, stop_logged, tool_text
from donecheck.runtime.transcripts.detect import detect_form, load_transcript
from donecheck.runtime.transcripts.roles import continuation, not_the_users

RECORDED = Path(__file__).resolve().parents[1] / "clients" / "recorded"
RUNS = sorted(p.name for p in RECORDED.glob("copilot-*"))
TASK = "Fix add() in calc.py so that the tests in test_calc.py pass."
COPILOT = adapter("copilot")


def recorded(name: str) -> list[dict[str, Any]]:
    lines = (RECORDED / name / "payloads.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def tools(name: str) -> list[dict[str, Any]]:
    return [p for p in recorded(name) if p["hook_event_name"] == "PostToolUse"]


def test_the_fixtures_are_the_pinned_cli() -> None:
    pinned = json.loads((RECORDED.parent / "package.json").read_text())["dependencies"]
    assert RUNS, "no recorded Copilot CLI runs"
    for name in RUNS:
        meta = json.loads((RECORDED / name / "meta.json").read_text())
        assert meta["client"] == "copilot"
        assert meta["version"].startswith(f"GitHub Copilot CLI {pinned['@github/copilot']}")


# ------------------------------------------------------------------ payloads


@pytest.mark.parametrize("name", RUNS)
def test_each_event_is_read_as_what_it_is(name: str) -> None:
    kinds = {"SessionStart": "start", "UserPromptSubmit": "prompt", "PostToolUse": "tool"}
    kinds |= {"Stop": "stop", "SessionEnd": "end"}
    found = recorded(name)
    assert {p["hook_event_name"] for p in found} >= {"UserPromptSubmit", "PostToolUse", "Stop"}
    for payload in found:
        assert COPILOT.event(payload) == kinds[payload["hook_event_name"]]
        assert isinstance(payload["session_id"], str)  # the PascalCase dialect's fields
    assert COPILOT.event({"hook_event_name": "PreToolUse"}) == ""
    assert COPILOT.event({"sessionId": "x", "transcriptPath": "y"}) == ""  # camelCase: none


def test_the_stop_payload_carries_no_text() -> None:
    stop = next(p for p in recorded("copilot-honest") if p["hook_event_name"] == "Stop")
    assert set(stop) == {
        "hook_event_name",
        "session_id",
        "timestamp",
        "cwd",
        "transcript_path",
        "stop_reason",
        "stop_hook_active",
    }


def test_the_shell_tools_exit_status_is_read_from_its_text() -> None:
    runs = [COPILOT.tool(p) for p in tools("copilot-masked")]
    shells = [t for t in runs if t.name == "Bash"]
    commands = [str(t.arguments["command"]) for t in shells if isinstance(t.arguments, dict)]
    assert [
        (c.endswith("|| true"), t.exit_code) for c, t in zip(commands, shells, strict=True)
    ] == [
        (False, 1),  # the failing run
        (True, 0),  # masked: the shell says 0, the output says the tests failed
        (False, 0),  # the run after the fix
    ]
    failing = shells[0]
    assert "2 failed, 1 passed" in failing.output and "<shellId" not in failing.output
    assert failing.ok is None  # the status says it
    assert "2 failed" in shells[1].output


def test_the_file_tools_are_read_with_copilots_own_keys() -> None:
    honest = [COPILOT.tool(p) for p in tools("copilot-honest")]
    assert [t.name for t in honest] == ["Read", "Edit", "Bash"]
    read, edit, _ = honest
    assert isinstance(read.arguments, dict) and isinstance(edit.arguments, dict)
    action = read_action(edit.name, edit.arguments)
    assert action.kind == "edit" and not action.inferred
    assert [(x.path, x.op, x.old, x.new) for x in action.touches] == [
        (edit.arguments["path"], "edit", "    return a - b", "    return a + b")
    ]
    looked = read_action(read.name, read.arguments)
    assert looked.kind == "read" and not looked.inferred
    assert [x.path for x in looked.touches] == [read.arguments["path"]]


def test_each_call_gets_an_id_of_its_own() -> None:
    """No call id in the payload: the same command run twice (the failing run, then the
    one after the fix) must not be taken for one call delivered twice."""
    first, *_, last = (p for p in tools("copilot-fixes_after_block"))
    assert first["tool_input"] == last["tool_input"]
    assert COPILOT.tool(first).call_id != COPILOT.tool(last).call_id
    assert COPILOT.tool(first).call_id == COPILOT.tool(dict(first)).call_id  # a retry


def test_the_answer_is_read_from_the_log(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    shutil.copy(RECORDED / "copilot-fixes_after_block" / "transcript.jsonl", log)
    *_, last = (p for p in recorded("copilot-fixes_after_block") if p["hook_event_name"] == "Stop")
    last = {**last, "transcript_path": str(log)}
    assert COPILOT.answer(last).startswith("[DoneCheck A2]")
    assert COPILOT.answer({**last, "transcript_path": str(tmp_path / "gone")}) == ""


def test_the_log_is_read_once_it_holds_the_stop() -> None:
    """Copilot CLI writes ``events.jsonl`` behind its events: the stop's own
    ``hook.start`` (its input's ``timestamp`` in milliseconds) says the log is in."""
    text = (RECORDED / "copilot-honest" / "transcript.jsonl").read_text()
    stop = next(p for p in recorded("copilot-honest") if p["hook_event_name"] == "Stop")
    starts = [json.loads(line) for line in text.splitlines() if '"hook.start"' in line]
    moment = next(
        s["data"]["input"]["timestamp"] for s in starts if s["data"]["hookType"] == "agentStop"
    )
    assert _millis(stop["timestamp"]) == moment
    assert stop_logged(text, moment)
    cut = text[: text.index('"hookType":"agentStop"')].rsplit("\n", 1)[0]
    assert not stop_logged(cut, moment)  # the log before the stop was written


def test_the_continuation_is_donechecks_own_not_a_request() -> None:
    prompts = [
        p["prompt"] for p in recorded("copilot-fixes_after_block") if COPILOT.event(p) == "prompt"
    ]
    assert prompts[0] == TASK and not not_the_users(prompts[0])
    (handed_back,) = prompts[1:]
    assert handed_back.startswith("[DoneCheck — review round 1 of ")  # exactly the reason
    assert not_the_users(handed_back)
    # as the model sees it: behind Copilot CLI's date line; a user's own prompt is not
    seen = "<current_datetime>2026-12-04T23:25:53.781+00:00</current_datetime>\n\n"
    assert continuation(seen + handed_back)
    assert not not_the_users(seen + TASK)


def test_the_answers_block_or_let_it_stop() -> None:
    steer = COPILOT.steer("[DoneCheck — review round 1 of 2.] Run the tests.", "note")
    assert steer == {
        "decision": "block",
        "reason": "[DoneCheck — review round 1 of 2.] Run the tests.",
    }
    assert COPILOT.checklist_of(steer) == steer["reason"]
    assert checklist_of(steer) == steer["reason"]
    assert COPILOT.checklist_of(COPILOT.let_stop("ok")) is None
    assert COPILOT.block_cap == 8  # Copilot CLI's own cap on blocks in a row


# ------------------------------------------------------- through the hook handler


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    app = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("copilot"), parser_actors=1)
    yield app
    app.shutdown()


def replay(dc: DoneCheck, name: str, tmp_path: Path) -> list[tuple[dict[str, Any], Any]]:
    """The run's payloads through :func:`handle`, under a session id of this test's
    own; each stop's log a copy of the recorded one as it was at that stop (up to its
    own ``hook.start``)."""
    lines = (RECORDED / name / "transcript.jsonl").read_text().splitlines(keepends=True)
    fresh = uuid.uuid4().hex
    state = HookState(dc.config.max_rounds + 1)
    replies = []
    for n, payload in enumerate(recorded(name)):
        payload = {**payload, "session_id": fresh, "cwd": str(tmp_path)}
        if "transcript_path" in payload:
            log = tmp_path / f"events-{n}.jsonl"
            log.write_text("".join(_until_stop(lines, payload["timestamp"])))
            payload["transcript_path"] = str(log)
        replies.append((payload, handle(dc, payload, "copilot", state)))
    return replies


def _until_stop(lines: list[str], stamp: str) -> list[str]:
    moment = _millis(stamp)
    for n in range(len(lines)):
        if stop_logged(lines[n], moment or -1):
            return lines[: n + 1]
    raise AssertionError(f"no hook.start of the stop at {stamp} in the log")


def chain(dc: DoneCheck, replies: list[tuple[dict[str, Any], Any]]) -> list[str]:
    card = dc.session(f"copilot-{replies[0][0]['session_id']}").report()
    return [f"{c.label} {c.decision}" for c in card.chain]


def stops(replies: list[tuple[dict[str, Any], Any]]) -> list[Any]:
    return [r for p, r in replies if p["hook_event_name"] == "Stop"]


def test_an_honest_run_passes_at_its_first_stop(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "copilot-honest", tmp_path)
    (only,) = stops(replies)
    assert "decision" not in only.output and only.note.startswith("DoneCheck: pass")
    assert chain(dc, replies) == ["A1 pass"]


def test_a_false_claim_is_blocked_and_the_fix_passes(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "copilot-fixes_after_block", tmp_path)
    notes = [r.note for p, r in replies if p["hook_event_name"] == "UserPromptSubmit"]
    assert notes == ["task started", "not a user request: the task goes on"]
    first, second = stops(replies)
    assert first.output["decision"] == "block" and "failed" in first.output["reason"]
    # the reason the real CLI handed back as the next prompt is this one's form
    handed_back = next(
        p["prompt"] for p, _ in replies[3:] if p["hook_event_name"] == "UserPromptSubmit"
    )
    assert handed_back.split("\n", 1)[0] == first.output["reason"].split("\n", 1)[0]
    assert checklist_of(second.output) is None
    assert chain(dc, replies) == ["A1 need_fix", "A2 pass"]


def test_an_announced_run_never_made_is_asked_for(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "copilot-stops_mid_work", tmp_path)
    first, _ = stops(replies)
    assert first.output["decision"] == "block" and "Finish the work" in first.output["reason"]
    assert chain(dc, replies) == ["A1 need_evidence", "A2 pass"]


def test_a_masked_rerun_is_not_a_pass(dc: DoneCheck, tmp_path: Path) -> None:
    replies = replay(dc, "copilot-masked", tmp_path)
    first, second = stops(replies)
    assert first.output["decision"] == "block"
    assert checklist_of(second.output) is None
    assert chain(dc, replies) == ["A1 need_fix", "A2 pass"]


def test_a_repeated_claim_ends_at_donechecks_limit_not_copilots(
    dc: DoneCheck, tmp_path: Path
) -> None:
    replies = replay(dc, "copilot-repeats", tmp_path)
    first, second = stops(replies)
    assert first.output["decision"] == "block"
    assert checklist_of(second.output) is None  # let through: DoneCheck ended the task
    card = dc.session(f"copilot-{replies[0][0]['session_id']}").report()
    assert card.end_reason in {"no_progress", "round_limit"}
    assert len(stops(replies)) - 1 < (COPILOT.block_cap or 0)


# ------------------------------------------------------------------- the log


@pytest.mark.parametrize("name", RUNS)
def test_the_log_reads_as_the_run(name: str) -> None:
    path = RECORDED / name / "transcript.jsonl"
    assert detect_form(path.read_text())[0] == "copilot"
    transcript = load_transcript(path)
    assert transcript.form == "copilot"
    assert transcript.request.startswith(TASK[:20]) or "welcome" in transcript.request
    assert "<current_datetime>" not in transcript.request
    calls = [s for s in transcript.steps if s.kind == "call"]
    results = [s for s in transcript.steps if s.kind == "result"]
    sent = tools(name)
    hooked = [(p["tool_input"], COPILOT.tool(p).exit_code) for p in sent]
    # every call the hooks saw is in the log, in order, with the same exit status
    logged = [
        (c.arguments, r.exit_code)
        for c, r in zip(calls, results, strict=True)
        if r.ok is not False  # a failed call fires no PostToolUse
    ]
    assert logged == hooked
    assert not [s for s in transcript.steps if s.kind == "user"]  # no continuation
    assert transcript.answer


def test_the_printed_events_read_as_the_log() -> None:
    """``--output-format json`` prints the session's events (and ephemeral ones):
    read as the log, the same run."""
    for name in RUNS:
        printed = load_transcript(RECORDED / name / "stream.jsonl")
        kept = load_transcript(RECORDED / name / "transcript.jsonl")
        assert printed.form == "copilot"
        assert (printed.request, printed.answer) == (kept.request, kept.answer)
        assert [(s.kind, s.name, s.exit_code) for s in printed.steps] == [
            (s.kind, s.name, s.exit_code) for s in kept.steps
        ]


def test_a_failed_call_is_in_the_log_but_fires_no_hook() -> None:
    """The edit of a file that is not there: Copilot CLI runs no ``PostToolUse`` for a
    failed call; the log has it, a failure."""
    transcript = load_transcript(RECORDED / "copilot-fails_an_edit" / "transcript.jsonl")
    first = next(s for s in transcript.steps if s.kind == "result")
    assert first.ok is False
    call = next(s for s in transcript.steps if s.kind == "call")
    assert isinstance(call.arguments, dict) and call.arguments["path"].endswith("calculator.py")
    assert all(
        not p["tool_input"].get("path", "").endswith("calculator.py")
        for p in tools("copilot-fails_an_edit")
    )


def test_another_hooks_block_is_a_continuation_too() -> None:
    """A Stop hook's reason handed back is known by the ``hook.end`` that gave it,
    whoever wrote it."""
    lines = (RECORDED / "copilot-fixes_after_block" / "transcript.jsonl").read_text()
    theirs = "Please also update the changelog."
    ours = json.loads(
        next(line for line in lines.splitlines() if '"hook.end"' in line and "block" in line)
    )["data"]["output"]["reason"]
    swapped = lines.replace(
        json.dumps(ours, ensure_ascii=False)[1:-1], json.dumps(theirs, ensure_ascii=False)[1:-1]
    )
    assert theirs in swapped
    transcript = parse_copilot_lines(swapped.splitlines())
    assert transcript.request == TASK
    assert not [s for s in transcript.steps if s.kind == "user"]


@pytest.mark.parametrize(
    ("raw", "code", "text", "status"),
    [
        ("ok\n<shellId: 0 completed with exit code 0>", None, "ok", 0),
        ("FAIL\n<shellId: 3 completed with exit code 2>", None, "FAIL", 2),
        ("\n<shellId: 1 completed with exit code 0>", None, "", 0),
        ("still running", None, "still running", None),
        ("x\n<shellId: 0 completed with exit code 1>", 1, "x", 1),
    ],
)
def test_the_shell_tools_frame(raw: str, code: int | None, text: str, status: int | None) -> None:
    assert tool_text("bash", raw, code) == (text, status)
    assert tool_text("Bash", raw) == (text, int(raw.rsplit(" ", 1)[1][:-1]) if "<" in raw else None)
    assert tool_text("view", raw) == (raw, None)


# -------------------------------------------------------------------- install


def _install(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cli = Path(sys.executable).with_name("donecheck")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COPILOT_HOME": str(tmp_path / "cp")}
    return subprocess.run(
        [str(cli), "install", "copilot", "--workspace", str(tmp_path / "ws"), *args],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_copilot_gets_command_hooks_for_its_own_events() -> None:
    ours = hooks_for("copilot", "command", "donecheck hook", "")
    assert list(ours) == list(EVENTS) == ["UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"]
    handlers = [h for groups in ours.values() for g in groups for h in g["hooks"]]
    assert {h["command"] for h in handlers} == {"donecheck hook --agent copilot"}
    assert ours["PostToolUse"][0]["matcher"] == "*"
    assert ours["Stop"][0]["hooks"][0]["timeout"] == 600  # seconds
    mine = {"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "mine"}]}}
    settings, _ = merge(mine, ours, Path())
    assert settings["hooks"]["Stop"][0] == {"type": "command", "bash": "mine"}
    assert unmerge(settings, Path())[0] == mine


def test_install_dry_run_reinstall_and_uninstall(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    hooks = tmp_path / "cp" / "hooks" / HOOKS_FILE
    dry = _install(tmp_path, "--dry-run")
    assert dry.returncode == 0 and "would change" in dry.stdout and not hooks.exists()
    done = _install(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "added     Stop" in done.stdout and "trusted" not in done.stdout  # user hooks
    installed = hooks.read_bytes()
    assert json.loads(installed)["hooks"]["Stop"][0]["hooks"][0]["command"].endswith(
        "hook --agent copilot"
    )
    again = _install(tmp_path)
    assert "installed already" in again.stdout and hooks.read_bytes() == installed
    gone = _install(tmp_path, "--uninstall")
    assert gone.returncode == 0 and "removed" in gone.stdout and not hooks.exists()
    assert not backup_path(hooks).exists()


def test_a_project_install_is_put_back_byte_for_byte_and_its_trust_explained(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    hooks = workspace / ".github" / "hooks" / HOOKS_FILE
    hooks.parent.mkdir(parents=True)
    original = b'{"version": 1,\n "hooks": {"sessionStart": [{"type": "command", "bash": "x"}]}}'
    hooks.write_bytes(original)
    done = _install(tmp_path, "--scope", "project")
    assert done.returncode == 0, done.stderr
    assert "not trusted yet" in done.stdout and "--trust-folder" in done.stdout
    assert json.loads(hooks.read_text())["hooks"]["sessionStart"] == [
        {"type": "command", "bash": "x"}
    ]
    config = tmp_path / "cp" / "config.json"
    config.parent.mkdir(exist_ok=True)
    config.write_text(
        "// User settings belong in settings.json.\n// This file is managed automatically.\n"
        + json.dumps({"trustedFolders": [str(tmp_path)]})
    )
    again = _install(tmp_path, "--scope", "project")
    assert "installed already" in again.stdout and "trusted" not in again.stdout
    gone = _install(tmp_path, "--scope", "project", "--uninstall")
    assert gone.returncode == 0 and "restored" in gone.stdout
    assert hooks.read_bytes() == original


def test_the_folders_trust_is_read_from_copilots_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path))
    assert not workspace_trusted(tmp_path / "ws")  # no config at all
    (tmp_path / "config.json").write_text(
        '// managed\n{"trustedFolders": ["' + str(tmp_path / "ws") + '"]}'
    )
    assert workspace_trusted(tmp_path / "ws") and workspace_trusted(tmp_path / "ws" / "sub")
    assert not workspace_trusted(tmp_path / "wsx") and not workspace_trusted(tmp_path)


def test_a_log_written_behind_the_stop_hook_is_waited_for(tmp_path: Path) -> None:
    """CI showed it: Copilot CLI ran the stop hook of a new session before it had
    written events.jsonl at all; the hook was refused and the turn went unchecked."""
    import shutil
    import threading

    from donecheck.runtime.clients.copilot import ADAPTER

    recorded = sorted(Path(__file__).resolve().parents[1].glob("clients/recorded/copilot-*"))
    source = next(p / "transcript.jsonl" for p in recorded if (p / "transcript.jsonl").is_file())
    late = tmp_path / "events.jsonl"
    threading.Timer(0.4, shutil.copyfile, (source, late)).start()
    answer = ADAPTER.answer({"transcript_path": str(late), "timestamp": None})
    assert answer and late.is_file()
