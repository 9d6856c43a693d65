"""``donecheck sessions``: the sessions of the running service."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    error,
)
from donecheck.runtime.cli.service import service_get


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    sessions = commands.add_parser(
        "sessions",
        help="list the sessions of the running service",
        description=(
            "List the sessions of the running 'donecheck serve' (found through its runtime "
            "file), most recently updated first: decision, rounds, end reason, age."
        ),
    )
    sessions.add_argument("--limit", type=int, default=50, help="at most this many (50)")
    sessions.add_argument("--json", action="store_true", help="one JSON object per line")
    sessions.add_argument(
        "--runtime-file", type=Path, default=None, help="the service's runtime file"
    )
    sessions.add_argument("--namespace", default=None, help=argparse.SUPPRESS)
    sessions.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= 10_000:
        error("--limit must be from 1 to 10000")
        return EXIT_INPUT
    try:
        found = service_get(args, f"/v1/sessions?limit={args.limit}")["sessions"]
    except DoneCheckError as exc:
        error(str(exc))
        return EXIT_FAILURE
    now = time.time()
    if args.json:
        for item in found:
            print(json.dumps(item, ensure_ascii=False))
        return EXIT_OK
    for line in table(found, now):
        print(line)
    return EXIT_OK


def table(found: list[dict[str, Any]], now: float) -> list[str]:
    """The sessions as aligned columns, each as wide as its longest cell; an empty
    list says so (and what makes a session) instead of a bare header."""
    if not found:
        return [
            "No sessions yet: a session appears when an agent's hook or an API client"
            " posts its first event to this service."
        ]
    rows = [
        (
            str(item["session_id"]),
            str(item["decision"] or "-"),
            str(item["rounds_used"]),
            str(item["end_reason"] or "-"),
            _age(now - item["updated_at"]) if item["updated_at"] else "?",
            " ".join(str(item["request"]).split())[:60],
        )
        for item in found
    ]
    head = ("SESSION", "DECISION", "ROUNDS", "END", "AGE", "REQUEST")
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(5)]
    right = {2, 4}
    return [
        "  ".join(
            [
                *(
                    cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
                    for i, cell in enumerate(row[:5])
                ),
                row[5],
            ]
        ).rstrip()
        for row in (head, *rows)
    ]


def _age(seconds: float) -> str:
    for unit, size in (("d", 86_400), ("h", 3_600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{max(0.0, seconds):.0f}s"
