"""``donecheck report``: report cards as one self-contained HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import msgspec

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.cli import review
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    add_judge_options,
    add_request_option,
    error,
)
from donecheck.runtime.cli.files import (
    write_html,
)
from donecheck.runtime.cli.service import service_get


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    report = commands.add_parser(
        "report",
        help="write report cards as one self-contained HTML page",
        description=(
            "Review transcripts (as 'review' does) and write their report cards to one HTML "
            "page: verdict chain, rounds, end reason, findings with evidence, what the "
            "materials literally say, acceptance items, what stayed unverified, usage. Or "
            "fetch the cards of sessions from a running DoneCheck with --session."
        ),
        epilog="Example: donecheck report examples/ -o report.html",
    )
    report.add_argument(
        "paths", nargs="*", metavar="PATH", type=Path, help="transcript files or folders"
    )
    report.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("donecheck-report.html"),
        help="the HTML file to write (default: donecheck-report.html)",
    )
    report.add_argument(
        "--session",
        action="append",
        default=[],
        metavar="ID",
        help="a session of the running 'donecheck serve' (repeatable), read through its API; "
        "with --address, from that Ray deployment instead",
    )
    report.add_argument(
        "--address",
        default=None,
        help="with --session: read the cards from this Ray deployment ('auto', 'ray://…') "
        "instead of the running service; with files: see review",
    )
    report.add_argument(
        "--runtime-file", type=Path, default=None, help="the service's runtime file"
    )
    report.add_argument("--concurrency", type=int, default=32, metavar="N", help=argparse.SUPPRESS)
    report.add_argument("--data-dir", type=Path, default=None, help=argparse.SUPPRESS)
    report.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    add_request_option(report)
    add_judge_options(report)
    report.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.paths and not args.session:
        error("give transcript files to review, or --session ID of a running DoneCheck")
        return EXIT_INPUT
    if args.paths:
        return review.run(args)  # the cards of files: review writes them
    cards: list[tuple[str, Any, list[str]]] = []
    problems = 0
    if args.address is None:  # the running service, through its API
        import urllib.parse

        from donecheck.actors.messages import ReportCard

        for session_id in args.session:
            path = f"/v1/sessions/{urllib.parse.quote(session_id, safe='')}/report?format=card"
            try:
                raw = service_get(args, path, decode=False)
            except DoneCheckError as exc:
                if "HTTP 404" not in str(exc):
                    error(str(exc))
                    return EXIT_FAILURE
                error(f"{session_id}: the running DoneCheck has no such session")
                problems += 1
                continue
            card = msgspec.json.decode(raw, type=ReportCard)
            cards.append((session_id, card, []))
            print(f"{card.decision or 'unverified':<13} {session_id}")
    else:
        from donecheck.runtime.api import DoneCheck

        try:
            dc = DoneCheck.start(args.address)
        except DoneCheckError as exc:
            error(str(exc))
            return EXIT_FAILURE
        try:
            for session_id in args.session:
                try:
                    card = dc.session(session_id).report()
                except DoneCheckError as exc:
                    error(f"{session_id}: {exc}")
                    problems += 1
                    continue
                cards.append((session_id, card, []))
                print(f"{card.decision or 'unverified':<13} {session_id}")
        finally:
            dc.shutdown()
    if cards:
        write_html(args.output, cards)
    return EXIT_INPUT if problems else EXIT_OK
