"""What DoneCheck's hooks cost in the real Claude Code, Codex, Gemini CLI, Copilot CLI and
OpenCode runs.

The pinned CLIs (``tests/clients``; ``npm install --prefix tests/clients``) run the honest
scenario of the real-client tier against the scripted model, wired by ``donecheck
install`` to a ``donecheck serve --in-process``: with no hooks, with ``command`` hooks
(OpenCode: DoneCheck's plugin), and (Claude Code) with ``http`` hooks. Figures (JSON
lines):

* ``real_clients`` ``run_wall`` — a whole headless run (``claude -p``, ``codex exec``,
  ``gemini -p``, ``copilot -p``, ``opencode run``), median of ``--runs``, per hook form:
  the peer is the same run with no hooks;
* ``real_clients`` ``per_hook`` — (wall with hooks − wall without) / hooks the run
  fired: what one hook adds to the agent's time as the user feels it;
* ``real_clients`` ``stop_hook_ms`` — Claude Code's own account of its Stop hook
  (``durationMs`` in the session file's ``stop_hook_summary``), median.

Run: ``python -m benchmarks.real_clients [--runs 7] [--client NAME …]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._common import emit, log
from tests.clients import scenarios
from tests.clients.harness import (
    BIN,
    ClaudeCode,
    Codex,
    Copilot,
    Gemini,
    OpenCode,
    Service,
    make_workspace,
)
from tests.support.agent_model import AgentModel, Answer


def _hooks_fired(run: Any) -> int:
    return sum(1 for e in run.events if e.get("subtype") == "hook_response")


def _stop_ms(home: Path) -> list[float]:
    found = []
    for path in home.rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            if '"stop_hook_summary"' not in line:
                continue
            record = json.loads(line)
            found += [h["durationMs"] for h in record.get("hookInfos", []) if "durationMs" in h]
    return found


def one(
    client_name: str, form: str, service: Service, folder: Path
) -> tuple[float, int, list[float]]:
    workspace = make_workspace(folder / "ws")
    model = AgentModel(scenarios.honest, workspace)
    client: ClaudeCode | Codex | Gemini | Copilot | OpenCode
    if client_name == "codex":
        client = Codex(folder / "codex", service)
        client.configure(model)
    elif client_name == "gemini":
        client = Gemini(folder / "gemini", service)
        client.configure(model)
    elif client_name == "copilot":
        client = Copilot(folder / "copilot", service, folder.parent / "copilot-cache")
    elif client_name == "opencode":
        client = OpenCode(folder / "opencode", service)
        client.configure(model)
    else:
        client = ClaudeCode(folder / "claude", service, form if form != "none" else "command")
    if form != "none":
        client.install(workspace)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    if run.returncode != 0:
        raise SystemExit(f"real_clients: {client_name} ({form}) failed:\n{run.explain()}")
    hooks = _hooks_fired(run) if client_name == "claude-code" else _counted(run, client_name, form)
    return run.seconds, hooks, _stop_ms(client.home)


_ENDS = {"codex": 1, "gemini": 1, "copilot": 1, "opencode": 0}
"""A session-end hook each run fires (OpenCode's plugin has none)."""


def _counted(run: Any, client_name: str, form: str) -> int:
    """Hooks a run fired, where its output does not list them: one prompt, one per tool
    call, one stop per answer, and the session's end."""
    if form == "none":
        return 0
    answers = sum(1 for entry in run.model.log if isinstance(entry.get("action"), Answer))
    return 1 + (len(run.model.log) - answers) + answers + _ENDS[client_name]


_FORMS = {
    "claude-code": ("none", "command", "http"),
    "codex": ("none", "command"),
    "gemini": ("none", "command"),
    "copilot": ("none", "command"),
    "opencode": ("none", "plugin"),
}
_BINARIES = {
    "claude-code": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "copilot": "copilot",
    "opencode": "opencode",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per form (7)")
    parser.add_argument(
        "--client", action="append", choices=list(_FORMS), help="only these CLIs (default: all)"
    )
    args = parser.parse_args(argv)
    chosen = args.client or list(_FORMS)
    missing = [name for name in chosen if not (BIN / _BINARIES[name]).exists()]
    if missing:
        raise SystemExit(
            f"real_clients: {', '.join(missing)} not installed: run npm install --prefix "
            "tests/clients"
        )
    scratch = Path(tempfile.mkdtemp(prefix="dc-bench-clients-"))
    service = Service(scratch / "serve")
    try:
        plans = [(name, form) for name in chosen for form in _FORMS[name]]
        walls: dict[tuple[str, str], float] = {}
        for client_name, form in plans:
            samples, fired, stop_ms = [], 0, []
            for n in range(args.runs):
                seconds, fired, stops = one(
                    client_name, form, service, scratch / f"{client_name}-{form}-{n}"
                )
                samples.append(seconds * 1000)
                stop_ms += stops
            wall = statistics.median(samples)
            walls[(client_name, form)] = wall
            emit("real_clients", "run_wall", wall, "ms", client=client_name, hooks=form,
                 runs=args.runs)  # fmt: skip
            log(f"real_clients: {client_name} {form}: {wall:.0f} ms, {fired} hooks")
            if form != "none" and fired:
                extra = (wall - walls[(client_name, "none")]) / fired
                emit("real_clients", "per_hook", extra, "ms", client=client_name, hooks=form,
                     fired=fired)  # fmt: skip
            if stop_ms:
                emit("real_clients", "stop_hook_ms", statistics.median(stop_ms), "ms",
                     client=client_name, hooks=form, source="Claude Code's durationMs")  # fmt: skip
    finally:
        service.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
