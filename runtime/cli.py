"""The ``donecheck`` command.

Exit status: 0 when every input was handled, 2 for a usage or input error (a
malformed transcript, a missing file — the other inputs are still handled),
1 when DoneCheck itself could not run (Ray would not start, an actor died).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TextIO

import msgspec

from donecheck.runtime.errors import DoneCheckError, InputError
from donecheck.runtime.progress import Progress

__all__ = ["main"]

EXIT_OK, EXIT_FAILURE, EXIT_INPUT = 0, 1, 2
TRANSCRIPT_SUFFIXES = (".json",)


def _version() -> str:
    try:
        return version("donecheck")
    except PackageNotFoundError:  # running from a checkout without install
        return "unknown"


def _error(message: str, stream: TextIO | None = None) -> None:
    print(f"donecheck: error: {message}", file=stream or sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="donecheck",
        description=(
            "Check an LLM agent's 'done' against evidence: what it ran, what those runs "
            "returned, and what it claims."
        ),
        epilog="Run 'donecheck COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    review = commands.add_parser(
        "review",
        help="review recorded agent conversations",
        description=(
            "Review agent conversations in OpenAI chat-completions form (a JSON file with "
            '{"messages": [...]} or a bare list). The final assistant message is the answer '
            "under review; tool calls and results are the evidence. Prints one verdict per "
            "transcript: pass, need_evidence, need_fix, blocked, skipped or unverified."
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
        help="transcript files, or folders searched recursively for *.json",
    )
    review.add_argument(
        "--json", action="store_true", help="print one JSON object per transcript instead of text"
    )
    review.add_argument(
        "--address",
        default=None,
        help="Ray address: 'auto' for the cluster on this node, 'ray://host:port' for a "
        "remote one (default: start an embedded local instance)",
    )
    review.add_argument(
        "--concurrency",
        type=int,
        default=32,
        metavar="N",
        help="sessions reviewed at once (default: 32)",
    )
    review.set_defaults(func=_cmd_review)

    parse = commands.add_parser(
        "parse",
        help="show how attachments are read",
        description="Detect each file's type from its content and parse it as a session would.",
        epilog="Exit status: 0 all files read, 2 a file is missing or could not be parsed.",
    )
    parse.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parse.add_argument("--json", action="store_true", help="print one Material per line")
    parse.set_defaults(func=_cmd_parse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    return code


# ------------------------------------------------------------------- review


def _collect(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    files: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.suffix in TRANSCRIPT_SUFFIXES and p.is_file()
            )
            if not found:
                problems.append(f"{path}: no transcripts (*.json) in this folder")
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return list(dict.fromkeys(files)), problems


def _names(files: Sequence[Path]) -> dict[Path, str]:
    counts: dict[str, int] = {}
    for f in files:
        counts[f.name] = counts.get(f.name, 0) + 1
    return {f: (f.name if counts[f.name] == 1 else str(f)) for f in files}


def _cmd_review(args: argparse.Namespace) -> int:
    from donecheck.runtime.transcripts.openai import Transcript, load_openai

    if args.concurrency < 1:
        _error("--concurrency must be at least 1")
        return EXIT_INPUT
    files, problems = _collect(args.paths)
    for problem in problems:
        _error(problem)
    loaded: list[tuple[Path, Transcript]] = []
    for path in files:
        try:
            loaded.append((path, load_openai(path)))
        except InputError as exc:
            _error(str(exc))
            problems.append(str(exc))
    if loaded:
        names = _names([p for p, _ in loaded])
        try:
            failed = asyncio.run(_review_all(loaded, names, args))
        except DoneCheckError as exc:
            _error(str(exc))
            return EXIT_FAILURE
        problems.extend(failed)
    return EXIT_INPUT if problems else EXIT_OK


async def _review_all(
    loaded: list[tuple[Path, Any]], names: dict[Path, str], args: argparse.Namespace
) -> list[str]:
    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.report import card_json, card_text
    from donecheck.runtime.review import ReviewOutcome, review_transcript

    dc = DoneCheck.start(args.address)
    progress = Progress(len(loaded), "reviewing")
    limit = asyncio.Semaphore(args.concurrency)

    async def one(transcript: Any) -> ReviewOutcome | DoneCheckError:
        async with limit:
            try:
                return await review_transcript(dc, transcript)
            except DoneCheckError as exc:
                return exc
            finally:
                progress.advance()

    try:
        outcomes = await asyncio.gather(*(one(t) for _, t in loaded))
    finally:
        progress.close()
        dc.shutdown()
    failed: list[str] = []
    for (path, _), outcome in zip(loaded, outcomes, strict=True):
        name = names[path]
        if isinstance(outcome, DoneCheckError):
            _error(f"{path}: review failed: {outcome}")
            failed.append(str(path))
        elif args.json:
            print(
                json.dumps(
                    card_json(outcome.report, session=name, warnings=outcome.warnings),
                    ensure_ascii=False,
                )
            )
        else:
            print(card_text(outcome.report, session=name, warnings=outcome.warnings))
    return failed


# -------------------------------------------------------------------- parse


def _cmd_parse(args: argparse.Namespace) -> int:
    from donecheck.parsers import parse_bytes
    from donecheck.runtime.config import load_config

    limit = load_config().max_attachment_bytes
    status = EXIT_OK
    progress = Progress(len(args.files), "parsing")
    for path in args.files:
        progress.advance()
        try:
            size = path.stat().st_size
            if not path.is_file():
                raise IsADirectoryError
            if size > limit:
                _error(f"{path}: {size} bytes, over the {limit} byte attachment limit")
                status = EXIT_INPUT
                continue
            data = path.read_bytes()
        except FileNotFoundError:
            _error(f"{path}: no such file")
            status = EXIT_INPUT
            continue
        except (IsADirectoryError, PermissionError) as exc:
            _error(f"{path}: cannot read ({type(exc).__name__})")
            status = EXIT_INPUT
            continue
        material = parse_bytes(data, path.name)
        if material.status == "failed":
            status = EXIT_INPUT
        if args.json:
            print(msgspec.json.encode(material).decode())
            continue
        preview = " ".join(" ".join(b.text.split()) for b in material.blocks[:2])[:100]
        reason = f" — {material.reason}" if material.reason else ""
        print(
            f"{material.status:<9} {material.detected_type:<28} {path.name}"
            f"  ({len(material.blocks)} blocks){reason}"
        )
        if preview:
            print(f"          {preview}")
        for warning in material.warnings:
            print(f"          warning: {warning}")
    progress.close()
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
