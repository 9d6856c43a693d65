"""Record what the real CLIs send, as fixtures for the Ray-free unit tests.

Runs scenarios of ``tests/clients/scenarios.py`` with the pinned Claude Code, Codex,
Gemini CLI, Copilot CLI and OpenCode against a real ``donecheck serve``, with every hook's
payload copied on its way (``tee``), and writes, per run, under
``tests/clients/recorded/<client>-<scenario>/``:

* ``payloads.jsonl`` — each hook payload as the CLI sent it, in order;
* ``transcript.jsonl`` — the session file the CLI wrote (Claude Code's session JSONL,
  Codex's rollout, Gemini CLI's chat log, Copilot CLI's ``events.jsonl`` less its
  ``system.message``; for OpenCode ``transcript.json``, what ``opencode export`` printed
  right after the run), and beside it
  ``transcript/subagents/agent-<id>.jsonl``, each sub-agent's conversation, as Claude
  Code lays them out;
* ``stream.jsonl`` — what the CLI printed (``--output-format stream-json``,
  ``codex exec --json``, ``gemini -o stream-json``, ``copilot --output-format json``);
* ``meta.json`` — the CLI's version, the command line, the workspace and HOME the
  paths in the files refer to.

Run: ``python -m tests.clients.record`` (after ``npm install --prefix tests/clients``).
The hooks here are written by hand around ``tee`` and Codex runs with
``--dangerously-bypass-hook-trust``: the recorder must see the payloads; the tier
itself uses ``donecheck install``. Gemini CLI's hooks go in its user settings (every
event it has, to see them all), ``GEMINI_CLI_TRUST_WORKSPACE=true`` as in the tier.
Copilot CLI's go in its user hooks folder (``$COPILOT_HOME/hooks/``), the PascalCase
events DoneCheck installs and ``SessionStart``. OpenCode's plugin is DoneCheck's own,
its command wrapped the same way.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from tests.clients import scenarios
from tests.clients.harness import (
    DONECHECK,
    ClaudeCode,
    Codex,
    Copilot,
    Gemini,
    OpenCode,
    Service,
    installed_version,
    make_workspace,
)
from tests.support.agent_model import AgentModel

OUT = Path(__file__).resolve().parent / "recorded"
RUNS = {
    "claude-code": [
        "honest",
        "fixes_after_block",
        "delegates",
        "delegates_and_waits",
        "uses_skill",
        "stops_mid_work",
        "asks_for_token",
        "slow",
        "writes_with_a_script",
    ],
    "codex": [
        "honest",
        "fixes_after_block",
        "stops_mid_work",
        "asks_for_token",
        "slow",
        "writes_with_a_script",
    ],
    "gemini": [
        "honest",
        "fixes_after_block",
        "stops_mid_work",
        "masked",
        "writes_with_a_script",
        "fails_an_edit",
    ],
    "copilot": [
        "honest",
        "fixes_after_block",
        "stops_mid_work",
        "masked",
        "writes_with_a_script",
        "fails_an_edit",
        "repeats",
    ],
    "opencode": [
        "honest",
        "fixes_after_block",
        "stops_mid_work",
        "masked",
        "writes_with_a_script",
        "fails_an_edit",
        "repeats",
    ],
}
PROMPTS = {
    "slow": "Wait for the build.",
    "asks_for_token": scenarios.TOKEN_TASK,
    "writes_with_a_script": scenarios.SCRIPT_TASK,
}
CLAUDE_EVENTS = (
    "SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop",
    "SubagentStop", "SessionEnd",
)  # fmt: skip
GEMINI_EVENTS = ("SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd")
COPILOT_EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd")
CODEX_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "Stop",
    "Interrupt",
    "SessionEnd",
)


def _teed(log: Path, agent: str) -> str:
    """``donecheck hook`` for ``agent`` with each payload copied to ``log`` on its way."""
    flag = f" --agent {agent}" if agent != "claude-code" else ""
    return f'tee -a {log} | {DONECHECK} hook{flag}; printf "\\n" >> {log}'


def _hooks(log: Path, agent: str, events: tuple[str, ...]) -> dict[str, object]:
    command = f"sh -c '{_teed(log, agent)}'"
    groups = {}
    for event in events:
        handler: dict[str, object] = {"type": "command", "command": command}
        if event == "Stop":
            handler["timeout"] = 600
        if event == "AfterAgent":
            handler["timeout"] = 600_000  # milliseconds
        groups[event] = [{"matcher": "*", "hooks": [handler]}]
    return {"hooks": groups}


def record(
    client_name: str, scenario: str, service: Service, scratch: Path, *, output: str = ""
) -> Path:
    name = f"{client_name}-{scenario}" + (f"-{output}" if output else "")
    folder = scratch / name
    workspace = make_workspace(folder / "ws")
    log = folder / "payloads.raw"
    policy = getattr(scenarios, scenario)
    model = AgentModel(policy, workspace)
    client: ClaudeCode | Codex | Gemini | Copilot | OpenCode
    if client_name == "opencode":
        from donecheck.runtime.clients.opencode import plugin_text

        client = OpenCode(folder / "opencode", service)
        client.configure(model)
        plugin = client.config / "plugins" / "donecheck.js"
        plugin.parent.mkdir(parents=True)
        command = _teed(log, "opencode")
        text = plugin_text("@").replace(json.dumps("@ --agent opencode"), json.dumps(command))
        plugin.write_text(text)
    elif client_name == "copilot":
        client = Copilot(folder / "copilot", service, scratch / "copilot-cache")
        hooks = client.copilot_home / "hooks" / "record.json"
        hooks.parent.mkdir(parents=True)
        hooks.write_text(json.dumps(_hooks(log, "copilot", COPILOT_EVENTS), indent=2))
    elif client_name == "gemini":
        client = Gemini(folder / "gemini", service)
        client.configure(model)
        settings = json.loads(client.settings.read_text())
        client.settings.write_text(
            json.dumps({**settings, **_hooks(log, "gemini", GEMINI_EVENTS)}, indent=2)
        )
    elif client_name == "codex":
        client = Codex(folder / "codex", service)
        client.configure(model)
        (client.codex_home / "hooks.json").write_text(
            json.dumps(_hooks(log, "codex", CODEX_EVENTS))
        )
        client.argv = _with_bypass(client.argv)  # type: ignore[method-assign]
    else:
        client = ClaudeCode(folder / "claude", service, "command")
        (workspace / ".claude").mkdir()
        (workspace / ".claude" / "settings.json").write_text(
            json.dumps(_hooks(log, "claude-code", CLAUDE_EVENTS))
        )
        if output:  # another of `claude -p`'s outputs
            client.argv = _claude_output(client.argv, output)  # type: ignore[method-assign]
    if scenario == "uses_skill":
        skill = workspace / ".claude" / "skills" / scenarios.SKILL
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(scenarios.SKILL_MD)
    with model:
        interrupt = 1.5 if scenario == "slow" else None
        prompt = PROMPTS.get(scenario, scenarios.TASK)
        run = client.run(workspace, model, prompt, interrupt_after=interrupt)
    target = OUT / name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    payloads = _objects(log.read_text())
    with (target / "payloads.jsonl").open("w") as out:
        for payload in payloads:
            out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    transcript = next(
        (p.get("transcript_path") for p in payloads if p.get("transcript_path")), None
    )
    dropped: list[str] = []
    if transcript and Path(transcript).is_file():
        kept = []
        for line in Path(transcript).read_text().splitlines():
            kind = _client_internal(line)
            if kind:
                dropped.append(kind)
            else:
                kept.append(line + "\n")
        (target / "transcript.jsonl").write_text("".join(kept))
        # Claude Code keeps each sub-agent's conversation beside the session file:
        # <session>/subagents/agent-<id>.jsonl (the fixture keeps that layout)
        subagents = Path(transcript).with_suffix("") / "subagents"
        for found in sorted(subagents.glob("*.jsonl")) if subagents.is_dir() else []:
            copy = target / "transcript" / "subagents" / found.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(
                "".join(
                    line + "\n"
                    for line in found.read_text().splitlines()
                    if not _client_internal(line)
                )
            )
    if run.stored is not None:  # OpenCode: its session as ``opencode export`` printed it
        (target / "transcript.json").write_text(json.dumps(run.stored, indent=1) + "\n")
    if output == "json":  # one JSON array, kept as the CLI printed it
        (target / "output.json").write_text(run.stdout)
    else:
        (target / "stream.jsonl").write_text(
            "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in run.events)
        )
    (target / "meta.json").write_text(
        json.dumps(
            {
                "client": client_name,
                "version": installed_version(client.binary),
                "scenario": scenario,
                "argv": client.argv(prompt, None)[1:],
                "workspace": str(workspace),
                "home": str(client.home),
                "exit_status": run.returncode,
                "transcript_records_dropped": sorted(set(dropped)),
                "recorded_by": "python -m tests.clients.record",
            },
            indent=2,
        )
        + "\n"
    )
    return target


_INTERNAL = {"api-request-shape", "api-request-blob", "api-request", "system.message"}
"""… ``system.message``: Copilot CLI's system prompt, written into its events.jsonl."""
_INTERNAL_ATTACHMENTS = {"prompt_snapshot", "skill_listing"}


def _client_internal(line: str) -> str:
    """The kind of a Claude Code transcript record that holds the client's own system
    prompt or request shapes rather than the session (left out: they are most of the
    file and none of the conversation), else ``""``."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return ""
    kind = str(record.get("type"))
    attachment = record.get("attachment") if isinstance(record.get("attachment"), dict) else {}
    if kind in _INTERNAL:
        return kind
    if kind == "attachment" and attachment.get("type") in _INTERNAL_ATTACHMENTS:
        return f"attachment:{attachment['type']}"
    return ""


def _objects(text: str) -> list[Any]:
    """The JSON objects ``tee`` wrote, in order — also two on one line: Copilot CLI
    runs ``SessionStart`` and ``UserPromptSubmit`` hooks at the same moment."""
    decoder = json.JSONDecoder()
    found: list[Any] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return found
        value, at = decoder.raw_decode(text, at)
        found.append(value)


def _with_bypass(argv: object) -> object:
    def wrapped(prompt: str, resume: str | None) -> list[str]:
        found: list[str] = argv(prompt, resume)  # type: ignore[operator]
        return [*found[:-1], "--dangerously-bypass-hook-trust", found[-1]]

    return wrapped


CLAUDE_OUTPUTS = {
    "partial": "stream-json with --include-partial-messages (stream_event lines)",
    "json": "--output-format json --verbose (one JSON array of the stream's messages)",
}


def _claude_output(argv: object, output: str) -> object:
    def wrapped(prompt: str, resume: str | None) -> list[str]:
        found: list[str] = argv(prompt, resume)  # type: ignore[operator]
        if output == "partial":
            return [*found, "--include-partial-messages"]
        at = found.index("--output-format")
        return [*found[: at + 1], "json", *found[at + 2 :]]

    return wrapped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", choices=sorted(RUNS), action="append")
    parser.add_argument(
        "--scenario", action="append", help="record only these scenarios (default: all)"
    )
    parser.add_argument(
        "--claude-output",
        choices=sorted(CLAUDE_OUTPUTS),
        help="Claude Code only, another output of `claude -p`: "
        + "; ".join(f"{k}: {v}" for k, v in CLAUDE_OUTPUTS.items()),
    )
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="dc-record-"))
    service = Service(scratch / "serve")
    try:
        for client_name in args.client or sorted(RUNS):
            for scenario in RUNS[client_name]:
                if args.scenario is None or scenario in args.scenario:
                    output = args.claude_output or ""
                    print(record(client_name, scenario, service, scratch, output=output))
    finally:
        service.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
