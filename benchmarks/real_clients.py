"""What DoneCheck's hooks cost in the real Claude Code and Codex CLIs.

The pinned CLIs (``tests/clients``; ``npm ci --prefix tests/clients``) run the honest
scenario of the real-client tier against the scripted model, wired by ``donecheck
install`` to a ``donecheck serve --in-process``: with no hooks, with ``command`` hooks,
and (Claude Code) with ``http`` hooks. Figures (JSON lines):

* ``real_clients`` ``run_wall`` — a whole ``claude -p`` / ``codex exec`` run, median of
  ``--runs``, per hook form: the peer is the same run with no hooks;
* ``real_clients`` ``per_hook`` — (wall with hooks − wall without) / hooks the run
  fired: what one hook adds to the agent's time as the user feels it;
* ``real_clients`` ``stop_hook_ms`` — Claude Code's own account of its Stop hook
  (``durationMs`` in the session file's ``stop_hook_summary``), median.

Run: ``python -m benchmarks.real_clients [--runs 7]``.
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
from tests.clients.harness import BIN, ClaudeCode, Codex, Service, make_workspace
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
    client: ClaudeCode | Codex
    if client_name == "codex":
        client = Codex(folder / "codex", service)
        client.configure(model)
    else:
        client = ClaudeCode(folder / "claude", service, form if form != "none" else "command")
    if form != "none":
        client.install(workspace)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    if run.returncode != 0:
        raise SystemExit(f"real_clients: {client_name} ({form}) failed:\n{run.explain()}")
    hooks = _hooks_fired(run) if client_name == "claude-code" else _codex_hooks(run, form)
    return run.seconds, hooks, _stop_ms(client.home)


def _codex_hooks(run: Any, form: str) -> int:
    """Hooks a Codex run fired (its ``exec --json`` does not list them): one
    UserPromptSubmit, a PostToolUse per tool call, a Stop per answer, one SessionEnd."""
    if form == "none":
        return 0
    answers = sum(1 for entry in run.model.log if isinstance(entry.get("action"), Answer))
    return 2 + (len(run.model.log) - answers) + answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per form (7)")
    args = parser.parse_args(argv)
    if not (BIN / "claude").exists() or not (BIN / "codex").exists():
        raise SystemExit("real_clients: run npm ci --prefix tests/clients first")
    scratch = Path(tempfile.mkdtemp(prefix="dc-bench-clients-"))
    service = Service(scratch / "serve")
    try:
        plans = [("claude-code", f) for f in ("none", "command", "http")]
        plans += [("codex", f) for f in ("none", "command")]
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
