"""``donecheck record-junit``: a test runner's JUnit XML report sent to a session."""

from __future__ import annotations

import argparse
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
    junit = commands.add_parser(
        "record-junit",
        help="send a test runner's JUnit XML report to a session",
        description=(
            "Read a JUnit XML file (Jest's jest-junit, Vitest's junit reporter, "
            "go-junit-report or gotestsum, cargo nextest, Maven Surefire, pytest --junitxml) "
            "and send its counts and failing tests to a session of the running 'donecheck "
            "serve' as a runner report: it outranks what the agent's tool printed for the "
            "same run. (pytest needs no file: its DoneCheck plugin reports by itself.)"
        ),
        epilog="Exit status: 0 recorded; 1 DoneCheck is not running or refused it; 2 the file "
        "is not a readable JUnit report.",
    )
    junit.add_argument("file", type=Path, help="the JUnit XML file")
    junit.add_argument(
        "--session",
        default=None,
        help="the DoneCheck session (default: $DONECHECK_SESSION)",
    )
    junit.add_argument(
        "--command",
        dest="run_command",
        default=None,
        help="the command that ran the tests, e.g. 'npm test' (matches the report to the "
        "agent's tool call; default: the runner the file names)",
    )
    junit.add_argument("--runtime-file", default=None, help="the service's runtime file")
    junit.add_argument(
        "--namespace", default=None, help="the service's namespace (default: donecheck)"
    )
    junit.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.runtime.reporters import (
        ReportError,
        junit_report,
        send_report,
        session_from_env,
    )

    session = args.session or session_from_env()
    if not session:
        error("record-junit: name the session with --session or $DONECHECK_SESSION")
        return EXIT_INPUT
    try:
        report = junit_report(args.file, command=args.run_command)
    except ReportError as exc:
        error(str(exc))
        return EXIT_INPUT
    try:
        send_report(session, report, namespace=args.namespace, given_file=args.runtime_file)
    except ReportError as exc:
        error(f"{args.file}: not recorded: {exc}")
        return EXIT_FAILURE
    counts = ", ".join(
        f"{report[k]} {k}" for k in ("failed", "errors", "passed", "skipped") if report[k]
    )
    print(f"recorded {args.file} in {session}: {counts or 'no test case'}")
    return EXIT_OK
