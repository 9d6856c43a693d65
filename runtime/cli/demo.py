"""``donecheck demo``: the review→fix loop on a sample task, no network."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    error,
)


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    demo = commands.add_parser(
        "demo",
        help="watch the review→fix loop on a sample task (no network)",
        description=(
            "Run a small tool-using agent on a sample task in a fresh workspace. Its model is "
            "the scripted provider on 127.0.0.1, playing an agent that stops early: it claims "
            "the tests pass while one fails. DoneCheck finds the failing run and steers; the "
            "agent fixes the real file, reruns the real tests, and the turn ends with a pass. "
            "Prints each step and the report card."
        ),
        epilog=(
            "To run the same agent against a real model: python examples/agent_loop.py "
            "--base-url URL --model NAME --workspace DIR 'task'"
        ),
    )
    demo.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="keep the agent's files here (default: a temporary folder)",
    )
    demo.add_argument("--json", action="store_true", help="print the report card as JSON")
    demo.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.actors.messages import Deliver
    from donecheck.runtime.demo import TASK, run_demo
    from donecheck.runtime.report import card_json, card_text

    print(f"task     {TASK}")
    try:
        result = run_demo(args.workspace, on_step=print)
    except DoneCheckError as exc:
        error(str(exc))
        return EXIT_FAILURE
    print()
    if args.json:
        print(json.dumps(card_json(result.report, session="demo"), ensure_ascii=False))
    else:
        print(card_text(result.report, session="demo"))
    return EXIT_OK if isinstance(result.action, Deliver) else EXIT_FAILURE
