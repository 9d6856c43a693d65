"""``donecheck review``: review recorded agent conversations."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError, InputError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_judge_options,
    add_request_option,
    error,
    judge_overrides,
    request_text,
)
from donecheck.runtime.cli.files import (
    collect,
    display_names,
    error_row,
    review_all,
)


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    review = commands.add_parser(
        "review",
        help="review recorded agent conversations",
        description=(
            "Review recorded agent conversations. Each file's form is told from its content: "
            'OpenAI chat completions ({"messages": [...]} or a bare list), Anthropic Messages '
            "(tool_use / tool_result blocks), a Claude Code session file or `claude -p` "
            "stream-json, a Codex rollout or `codex exec --json` events, a Gemini CLI chat log, "
            "a GitHub Copilot CLI events.jsonl, an `opencode export` or `opencode run --format "
            "json` output, a mini-SWE-agent trajectory, a Harbor ATIF trajectory, or one chat "
            "message per line (docs/cli.md lists them). The final assistant message is the answer "
            "under review; tool "
            "calls and results are the evidence. Prints one verdict per transcript: pass, "
            "need_evidence, need_fix, blocked, skipped or unverified."
        ),
        epilog=(
            "Exit status: 0 reviewed, 2 usage or input error (other files are still "
            "reviewed), 1 DoneCheck could not run. Example: donecheck review examples/"
        ),
    )
    review.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="transcript files, or folders searched recursively for *.json and *.jsonl",
    )
    review.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per transcript instead of text; an input that could not "
        'be reviewed gives {"session": …, "decision": null, "error": …}',
    )
    review.add_argument(
        "--address",
        default=None,
        help="Ray address: 'auto' for the cluster on this node, 'ray://host:port' for a "
        "remote one (default: run the actors in this process, without Ray)",
    )
    review.add_argument(
        "--concurrency",
        type=int,
        default=32,
        metavar="N",
        help="sessions reviewed at once (default: 32)",
    )
    review.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the ledger here (default: a temporary folder removed afterwards)",
    )
    add_request_option(review)
    add_judge_options(review)
    review.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.runtime.transcripts.detect import load_transcript
    from donecheck.runtime.transcripts.openai import Transcript

    if args.concurrency < 1:
        error("--concurrency must be at least 1")
        return EXIT_INPUT
    try:
        args.overrides = judge_overrides(args)
        args.request_text = request_text(args)
    except (ValueError, InputError) as exc:
        error(str(exc))
        return EXIT_INPUT
    files, problems = collect(args.paths)
    for problem in problems:
        error(problem)
        error_row(args, problem.rsplit(": ", 1)[0], problem)
    loaded: list[tuple[Path, Transcript]] = []
    for path in files:
        try:
            loaded.append((path, load_transcript(path)))
        except InputError as exc:
            error(str(exc))
            error_row(args, str(path), str(exc))
            problems.append(str(exc))
    if loaded:
        names = display_names([p for p, _ in loaded])
        try:
            failed, interrupted = asyncio.run(review_all(loaded, names, args))
        except DoneCheckError as exc:
            error(str(exc))
            return EXIT_FAILURE
        if interrupted:
            return EXIT_INTERRUPTED
        problems.extend(failed)
    if problems:
        return EXIT_INPUT
    # reviewed, but not as configured: the judge could not be used
    return EXIT_FAILURE if getattr(args, "judge_failed", False) else EXIT_OK
