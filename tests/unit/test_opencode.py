"""OpenCode 1.18.33: DoneCheck's plugin's payloads, OpenCode's export and run output,
and ``donecheck install opencode``, on what the real CLI sent and wrote
(``tests/clients/recorded/opencode-*``, made by ``python -m tests.clients.record --client
opencode``; ``meta.json`` says how).

What each recorded run must come to without Ray: an honest run passes at its first
stop; a false claim is blocked (``{"decision": "block"}``), the checklist the plugin
hands back as the next user message is DoneCheck's own and not a new request, and the
fix passes; the shell's exit status is the number OpenCode gives (``metadata.exit``),
not text. The export and the printed events read as the same run.
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
from donecheck.runtime.clients.opencode import PLUGIN, plugin_text
from donecheck.runtime.hooks import HookState, checklist_of, handle
from donecheck.runtime.transcripts.detect import detect_form, load_transcript
from donecheck.runtime.transcripts.opencode import tool_result
from donecheck.runtime.transcripts.roles import not_the_users

RECORDED = Path(__file__).resolve().parents[1] / "clients" / "recorded"
RUNS = sorted(p.name for p in RECORDED.glob("opencode-*"))
TASK = "Fix add() in calc.py so that the tests in test_calc.py pass."
OPENCODE = adapter("opencode")


def recorded(name: str) -> list[dict[str, Any]]:
    lines = (RECORDED / name / "payloads.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def tools(name: str) -> list[dict[str, Any]]:
    return [p for p in recorded(name) if p["hook_event_name"] == "tool.execute.after"]


def test_the_fixtures_are_the_pinned_cli() -> None:
    pinned = json.loads((RECORDED.parent / "package.json").read_text())["dependencies"]
    assert len(RUNS) >= 6, RUNS
    for name in RUNS:
        meta = json.loads((RECORDED / name / "meta.json").read_text())
        assert meta["client"] == "opencode"
        assert meta["version"] == pinned["opencode-ai"]
        exported = json.loads((RECORDED / name / "transcript.json").read_text())
        assert exported["info"]["version"] == pinned["opencode-ai"]


# ------------------------------------------------------------------ payloads


@pytest.mark.parametrize("name", RUNS)
def test_each_event_is_read_as_what_it_is(name: str) -> None:
    kinds = {"chat.message": "prompt", "tool.execute.after": "tool", "text.complete": "stop"}
    found = recorded(name)
    assert {p["hook_event_name"] for p in found} >= {"chat.message", "text.complete"}
    for payload in found:
        assert OPENCODE.event(payload) == kinds[payload["hook_event_name"]]
        assert payload["session_id"].startswith("ses_") and Path(payload["cwd"]).is_absolute()
    assert OPENCODE.event({"hook_event_name": "session.error"}) == "interrupt"
    assert OPENCODE.event({"hook_event_name": "Stop"}) == ""


def test_the_shell_tools_exit_status_is_a_number_not_text() -> None:
    shells = [OPENCODE.tool(p) for p in tools("opencode-masked") if p["tool"] == "bash"]
    commands = [str(t.arguments["command"]) for t in shells if isinstance(t.arguments, dict)]
    read = [(c.endswith("|| true"), t.exit_code) for c, t in zip(commands, shells, strict=True)]
    assert read == [
        (False, 1),  # the failing run
        (True, 0),  # masked: the shell says 0, the output says the tests failed
        (False, 0),  # the run after the fix
    ]
    failing = shells[0]
    assert "2 failed, 1 passed" in failing.output and failing.ok is None  # the status says it
    assert "2 failed" in shells[1].output


def test_the_file_tools_are_read_with_opencodes_own_keys() -> None:
    honest = [OPENCODE.tool(p) for p in tools("opencode-honest")]
    assert [t.name for t in honest] == ["read", "edit", "bash"]
    read, edit, _ = honest
    assert isinstance(read.arguments, dict) and isinstance(edit.arguments, dict)
    action = read_action(edit.name, edit.arguments)
    assert action.kind == "edit" and not action.inferred
    assert [(x.path, x.op, x.old, x.new) for x in action.touches] == [
        (edit.arguments["filePath"], "edit", "    return a - b", "    return a + b")
    ]
    looked = read_action(read.name, read.arguments)
    assert looked.kind == "read" and not looked.inferred
    assert [x.path for x in looked.touches] == [read.arguments["filePath"]]


def test_each_call_keeps_opencodes_own_id() -> None:
    first, *_, last = tools("opencode-fixes_after_block")
    assert first["args"] == last["args"]  # the same command, run twice
    assert OPENCODE.tool(first).call_id == first["call_id"] != OPENCODE.tool(last).call_id


def test_the_stop_carries_the_answer_and_the_continuation_is_donechecks_own() -> None:
    found = recorded("opencode-fixes_after_block")
    prompts = [p["prompt"] for p in found if OPENCODE.event(p) == "prompt"]
    assert prompts[0] == TASK and not not_the_users(prompts[0])
    (handed_back,) = prompts[1:]
    assert handed_back.startswith("[DoneCheck — review round 1 of ")  # exactly the reason
    assert not_the_users(handed_back)
    answers = [OPENCODE.answer(p) for p in found if OPENCODE.event(p) == "stop"]
    assert answers[0] == "All tests pass now, so add() is fixed."
    assert answers[1].startswith("[DoneCheck A2]")


def test_the_answers_block_or_let_it_stop() -> None:
    steer = OPENCODE.steer("[DoneCheck — review round 1 of 2.] Run the tests.", "note")
    assert steer["decision"] == "block" and steer["reason"].startswith("[DoneCheck")
    assert OPENCODE.checklist_of(steer) == checklist_of(steer) == steer["reason"]
    assert OPENCODE.checklist_of(OPENCODE.let_stop("ok")) is None
    assert OPENCODE.block_cap is None  # OpenCode has none: DoneCheck's is the only one


@pytest.mark.parametrize(
    ("state", "read"),
    [
        ({"status": "completed", "output": "ok\n", "metadata": {"exit": 0}}, ("ok\n", None, 0)),
        ({"status": "completed", "output": "x", "metadata": {"exit": 2}}, ("x", None, 2)),
        ({"status": "completed", "output": "x", "metadata": {"exit": True}}, ("x", None, None)),
        ({"status": "completed", "output": "applied", "metadata": {}}, ("applied", None, None)),
        ({"status": "error", "error": "File a.py not found"}, ("File a.py not found", False, None)),
        ({"status": "completed", "output": None}, ("", None, None)),
    ],
)
def test_a_tool_parts_state(state: dict[str, Any], read: tuple[Any, ...]) -> None:
    assert tool_result(state) == read


# ------------------------------------------------------- through the hook handler


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    app = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("opencode"), parser_actors=1)
    yield app
    app.shutdown()


def stops(replies: list[tuple[dict[str, Any], Any]]) -> list[Any]:
    return [r for p, r in replies if p["hook_event_name"] == "text.complete"]


def _chain(dc: DoneCheck, session: str) -> list[str]:
    card = dc.session(f"opencode-{session}").report()
    return [f"{c.label} {c.decision}" for c in card.chain]


def _replayed(dc: DoneCheck, name: str, tmp_path: Path) -> tuple[list[Any], list[str], Any]:
    fresh = f"ses_{uuid.uuid4().hex}"
    state = HookState(dc.config.max_rounds + 1)
    replies = []
    for payload in recorded(name):
        payload = {**payload, "session_id": fresh, "cwd": str(tmp_path)}
        replies.append((payload, handle(dc, payload, "opencode", state)))
    card = dc.session(f"opencode-{fresh}").report()
    return stops(replies), _chain(dc, fresh), card


def test_an_honest_run_passes_at_its_first_stop(dc: DoneCheck, tmp_path: Path) -> None:
    (only,), found, _ = _replayed(dc, "opencode-honest", tmp_path)
    assert "decision" not in only.output and only.note.startswith("DoneCheck: pass")
    assert found == ["A1 pass"]


def test_a_false_claim_is_blocked_and_the_fix_passes(dc: DoneCheck, tmp_path: Path) -> None:
    (first, second), found, _ = _replayed(dc, "opencode-fixes_after_block", tmp_path)
    assert first.output["decision"] == "block" and "failed" in first.output["reason"]
    _, handed_back = [p["prompt"] for p in recorded("opencode-fixes_after_block") if "prompt" in p]
    assert handed_back.split("\n", 1)[0] == first.output["reason"].split("\n", 1)[0]
    assert checklist_of(second.output) is None
    assert found == ["A1 need_fix", "A2 pass"]


def test_an_announced_run_never_made_is_asked_for(dc: DoneCheck, tmp_path: Path) -> None:
    (first, _), found, _ = _replayed(dc, "opencode-stops_mid_work", tmp_path)
    assert first.output["decision"] == "block" and "Finish the work" in first.output["reason"]
    assert found == ["A1 need_evidence", "A2 pass"]


def test_a_masked_rerun_is_not_a_pass(dc: DoneCheck, tmp_path: Path) -> None:
    (first, second), found, _ = _replayed(dc, "opencode-masked", tmp_path)
    assert first.output["decision"] == "block"
    assert checklist_of(second.output) is None
    assert found == ["A1 need_fix", "A2 pass"]


def test_a_repeated_claim_ends_at_donechecks_limit(dc: DoneCheck, tmp_path: Path) -> None:
    (first, second), _, card = _replayed(dc, "opencode-repeats", tmp_path)
    assert first.output["decision"] == "block"
    assert checklist_of(second.output) is None  # let through: DoneCheck ended the task
    assert card.end_reason in {"no_progress", "round_limit"}


# ------------------------------------------------------------------- the log


@pytest.mark.parametrize("name", RUNS)
def test_the_export_reads_as_the_run(name: str) -> None:
    path = RECORDED / name / "transcript.json"
    assert detect_form(path.read_text())[0] == "opencode"
    transcript = load_transcript(path)
    assert transcript.form == "opencode" and transcript.request_known
    assert transcript.request.startswith(TASK[:20]) or "welcome" in transcript.request
    calls = [s for s in transcript.steps if s.kind == "call"]
    results = [s for s in transcript.steps if s.kind == "result"]
    hooked = [(p["args"], OPENCODE.tool(p).exit_code) for p in tools(name)]
    # every call the plugin saw is in the export, in order, with the same exit status
    logged = [
        (c.arguments, r.exit_code)
        for c, r in zip(calls, results, strict=True)
        if r.ok is not False  # a failed call fires no tool.execute.after
    ]
    assert logged == hooked
    assert not [s for s in transcript.steps if s.kind == "user"]  # the checklist is no request
    assert transcript.answer == OPENCODE.answer(
        [p for p in recorded(name) if p["hook_event_name"] == "text.complete"][-1]
    )


def test_the_printed_events_read_as_the_export() -> None:
    """``opencode run --format json`` prints the parts as they finish; read, the same
    steps and answer, but no prompt (it was the command line's)."""
    for name in RUNS:
        printed = load_transcript(RECORDED / name / "stream.jsonl")
        kept = load_transcript(RECORDED / name / "transcript.json")
        assert printed.form == "opencode" and not printed.request_known
        assert printed.answer == kept.answer
        assert [(s.kind, s.name, s.exit_code, s.ok) for s in printed.steps] == [
            (s.kind, s.name, s.exit_code, s.ok) for s in kept.steps
        ]


def test_a_failed_call_is_in_the_export_but_fires_no_hook() -> None:
    """The edit of a file that is not there: OpenCode runs no ``tool.execute.after``
    for a call that throws; its export has it, a failure."""
    transcript = load_transcript(RECORDED / "opencode-fails_an_edit" / "transcript.json")
    first = next(s for s in transcript.steps if s.kind == "result")
    assert first.ok is False and "not found" in first.output
    call = next(s for s in transcript.steps if s.kind == "call")
    assert isinstance(call.arguments, dict) and call.arguments["filePath"].endswith("calculator.py")
    assert all(
        not p["args"].get("filePath", "").endswith("calculator.py")
        for p in tools("opencode-fails_an_edit")
    )


def test_a_log_that_is_no_opencode_session_is_refused(tmp_path: Path) -> None:
    from donecheck.actors.errors import TranscriptError

    bad = tmp_path / "export.json"
    bad.write_text(json.dumps({"info": {"id": "ses_x"}, "messages": [{"info": {}, "parts": []}]}))
    with pytest.raises(TranscriptError, match="no user prompt in the OpenCode export"):
        load_transcript(bad)


# ---------------------------------------------------------------- the plugin


def test_the_plugin_runs_the_installers_command() -> None:
    text = plugin_text('"/opt/my venv/bin/donecheck" hook')
    line = next(x for x in text.splitlines() if x.startswith("const COMMAND"))
    assert json.loads(line.split("=", 1)[1].split(";", 1)[0]) == (
        '"/opt/my venv/bin/donecheck" hook --agent opencode'
    )
    assert text.replace(line, "") == PLUGIN.read_text().replace(
        next(x for x in PLUGIN.read_text().splitlines() if x.startswith("const COMMAND")), ""
    )
    for event in ("chat.message", "tool.execute.after", "text.complete", "session.error"):
        assert f'"{event}"' in text and OPENCODE.event({"hook_event_name": event})


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_plugin_is_a_module_node_can_load(tmp_path: Path) -> None:
    """The plugin as written, loaded by Node and called as OpenCode calls it: it names
    its hooks, and a text that a tool call follows in the same step is no stop."""
    plugin = tmp_path / "donecheck.mjs"
    log = tmp_path / "payloads.jsonl"
    plugin.write_text(plugin_text(f"(cat; echo) >> {log}; echo '{{}}' #"))
    script = tmp_path / "drive.mjs"
    script.write_text(
        f"import {{ DoneCheck }} from {json.dumps(str(plugin))};\n"
        "const parts = { m1: [{ type: 'text' }, { type: 'tool' }], m2: [{ type: 'text' }] };\n"
        "const client = {\n"
        "  app: { log: async () => {} },\n"
        "  session: {\n"
        "    get: async () => ({ data: { id: 's' } }),\n"
        "    message: async ({ path }) => ({ data: { info: {}, parts: parts[path.messageID] } }),\n"
        "    promptAsync: async () => { throw new Error('no block expected'); },\n"
        "  },\n"
        "};\n"
        "const hooks = await DoneCheck({ client, directory: '/ws' });\n"
        "console.log(JSON.stringify(Object.keys(hooks)));\n"
        "await hooks['chat.message']({ sessionID: 's' }, { parts: [{ type: 'text', text: 'Do it' },"
        " { type: 'text', text: 'file body', synthetic: true }] });\n"
        "await hooks['experimental.text.complete']({ sessionID: 's', messageID: 'm1' },"
        " { text: 'Let me run it.' });\n"
        "await hooks['experimental.text.complete']({ sessionID: 's', messageID: 'm2' },"
        " { text: 'Done.' });\n"
    )
    done = subprocess.run(
        ["node", str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout.splitlines()[0])) >= {
        "chat.message",
        "tool.execute.after",
        "experimental.text.complete",
        "experimental.chat.messages.transform",
        "event",
    }
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(p["hook_event_name"], p.get("prompt") or p.get("text")) for p in sent] == [
        ("chat.message", "Do it"),
        ("text.complete", "Done."),
    ]
    assert {p["session_id"] for p in sent} == {"s"} and {p["cwd"] for p in sent} == {"/ws"}


def _install(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cli = Path(sys.executable).with_name("donecheck")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c")}
    return subprocess.run(
        [str(cli), "install", "opencode", "--workspace", str(tmp_path / "ws"), *args],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("scope", ["user", "project"])
def test_install_dry_run_reinstall_and_uninstall(scope: str, tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    folder = tmp_path / "c" / "opencode" if scope == "user" else tmp_path / "ws" / ".opencode"
    plugin = folder / "plugins" / "donecheck.js"
    dry = _install(tmp_path, "--scope", scope, "--dry-run")
    assert dry.returncode == 0 and "would be added" in dry.stdout and not plugin.exists()
    done = _install(tmp_path, "--scope", scope)
    assert done.returncode == 0, done.stderr
    assert "added" in done.stdout and "@opencode-ai/plugin" in done.stdout
    installed = plugin.read_bytes()
    assert b"hook --agent opencode" in installed and installed.startswith(b"// DoneCheck")
    again = _install(tmp_path, "--scope", scope)
    assert "installed already" in again.stdout and plugin.read_bytes() == installed
    gone = _install(tmp_path, "--scope", scope, "--uninstall")
    assert gone.returncode == 0 and "removed" in gone.stdout and not plugin.exists()
    nothing = _install(tmp_path, "--scope", scope, "--uninstall")
    assert nothing.returncode == 0 and "no DoneCheck plugin" in nothing.stdout


def test_a_plugin_file_of_the_users_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    theirs = tmp_path / "c" / "opencode" / "plugins" / "donecheck.js"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("export const Mine = async () => ({});\n")
    for args in ((), ("--uninstall",)):
        done = _install(tmp_path, *args)
        assert done.returncode == 2 and "is not DoneCheck's plugin" in done.stderr
        assert theirs.read_text() == "export const Mine = async () => ({});\n"
    local = _install(tmp_path, "--scope", "local")
    assert local.returncode == 2 and "no local scope" in local.stderr
