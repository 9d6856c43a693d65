"""``donecheck gates``: list, or run, the checks the project requires."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    error,
)


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    gates = commands.add_parser(
        "gates",
        help="list, or run, the checks the project requires",
        description=(
            "List the gates of a workspace (donecheck.toml, or [[tool.donecheck.gate]] in "
            "pyproject.toml) and, with --run, run the due ones: each in the workspace, in "
            "its own process group, within its timeout, with no secrets in its environment "
            "and its output capped. Only commands from that file are run."
        ),
        epilog="Exit status: 0 all passed (or listed), 1 a gate failed or timed out, 2 bad "
        "configuration.",
    )
    gates.add_argument(
        "--workspace", type=Path, default=Path("."), help="the project folder (default: .)"
    )
    gates.add_argument("--run", action="store_true", help="run the due gates")
    gates.add_argument(
        "--changed",
        nargs="*",
        metavar="PATH",
        default=None,
        help="changed paths: only gates whose paths match are due (default: all are)",
    )
    gates.add_argument("--json", action="store_true", help="one JSON object per gate")
    gates.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from donecheck.actors.config import load_config
    from donecheck.runtime.gates import due_gates, find_gates, load_gates, run_gate

    workspace = args.workspace.resolve()
    if not workspace.is_dir():
        error(f"--workspace {args.workspace}: not a folder")
        return EXIT_INPUT
    source = find_gates(workspace)
    if source is None:
        error(
            f"{workspace}: no gates (no donecheck.toml, and no [tool.donecheck] in pyproject.toml)"
        )
        return EXIT_INPUT
    gates = load_gates(source)  # InputError → exit 2 with its message
    due = due_gates(gates, args.changed)
    if not args.run:
        for gate in gates:
            row = {
                "name": gate.name,
                "command": gate.shown,
                "paths": list(gate.paths),
                "timeout_s": gate.timeout_s,
                "due": gate in due,
                "source": gate.source,
            }
            if args.json:
                print(json.dumps(row))
            else:
                mark = "due" if row["due"] else "not due"
                print(f"{gate.name:<16} {mark:<8} {gate.shown}  ({gate.timeout_s:g} s)")
        return EXIT_OK
    config = load_config()
    key = config.judge_api_key.get_secret_value() if config.judge_api_key else ""
    failed = False
    for gate in due:
        result = run_gate(gate, workspace, secrets=[key])
        failed = failed or result.status != "passed"
        if args.json:
            print(json.dumps(asdict(result)), flush=True)
        else:
            print(
                f"{result.status:<8} {gate.name}  {result.detail}, {result.duration_s:.1f} s "
                f"in {result.workspace} on {result.host}",
                flush=True,
            )
            if result.status != "passed":
                print(result.output.rstrip()[-2_000:])
    return EXIT_FAILURE if failed else EXIT_OK
