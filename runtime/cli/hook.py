"""``donecheck hook``: one Claude Code or Codex hook payload (JSON on stdin)."""

from __future__ import annotations

import argparse
from typing import Any


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    hook = commands.add_parser(
        "hook",
        help="handle one Claude Code or Codex hook payload (JSON on stdin)",
        description=(
            "For Claude Code's and Codex's command hooks: sends the payload on stdin to the "
            "running 'donecheck serve' (found through its runtime file) and prints its answer — at "
            'Stop, {"decision": "block", "reason": <checklist>} when the agent must go on. '
            "A thin client: it starts no Ray and imports no actor."
        ),
        epilog=(
            "Exit status: 0 handled; 1 DoneCheck is not running or the payload is unusable "
            "(one line on stderr; Claude Code shows it and carries on: DoneCheck never "
            "blocks an agent because it is down). Gives up connecting after 1 s."
        ),
    )
    from donecheck.runtime.hookclient import add_arguments

    add_arguments(hook)
    hook.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.runtime.hookclient import run

    return run(args)
