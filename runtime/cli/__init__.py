"""The ``donecheck`` command: one module per command (each registers itself with
:func:`add` and runs in :func:`run`); :mod:`.common` holds what they share.

Exit status: 0 when every input was handled, 2 for a usage or input error (a
malformed transcript, a missing file — the other inputs are still handled),
1 when DoneCheck itself could not run (Ray would not start, an actor died).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from donecheck.runtime.cli import (
    demo,
    evaluate,
    gates,
    hook,
    install,
    parse,
    record_junit,
    report,
    review,
    serve,
    sessions,
)
from donecheck.runtime.cli.common import EXIT_INTERRUPTED, error, version_text

__all__ = ["build_parser", "main"]

COMMANDS = (
    review,
    report,
    demo,
    serve,
    hook,
    install,
    sessions,
    evaluate,
    gates,
    record_junit,
    parse,
)
"""The commands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="donecheck",
        description=(
            "Check an LLM agent's 'done' against evidence: what it ran, what those runs "
            "returned, and what it claims."
        ),
        epilog="Run 'donecheck COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version_text()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(argv) if argv is not None else sys.argv[1:]  # as typed, for re-running
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        error("interrupted")
        return EXIT_INTERRUPTED
    return code
