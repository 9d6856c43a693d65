"""Reviewing files in this process (or on Ray with ``--address``): what ``review``,
``report`` and ``eval`` share."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.attachments import file_kind, why_missing
from donecheck.runtime.cli.common import (
    TRANSCRIPT_SUFFIXES,
    error,
)
from donecheck.runtime.progressbar import ProgressBar


def transcript_file(path: Path, folder: Path) -> bool:
    """A transcript in a folder given to review: ``*.json``, ``*.jsonl``, not a
    sub-agent's file (read with its session)."""
    return path.suffix in TRANSCRIPT_SUFFIXES and not sub_agent_file(path)


def collect(
    paths: Sequence[Path],
    *,
    wanted: Callable[[Path, Path], bool] = transcript_file,
    empty: str = "no transcripts (*.json, *.jsonl) in this folder",
    missing: str = "no such file or folder",
    regular: bool = False,
) -> tuple[list[Path], list[str]]:
    """The files ``paths`` name — a folder's ``wanted`` files, sorted, or a file as
    given (only a regular one with ``regular``) — each once, and what is wrong with
    the others."""
    files: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and wanted(p, path))
            if not found:
                problems.append(f"{path}: {empty}")
            files.extend(found)
        elif path.is_file() or (path.exists() and not regular):
            files.append(path)
        elif path.exists():
            problems.append(f"{path}: not a regular file ({file_kind(path.stat().st_mode)})")
        else:
            problems.append(f"{path}: {why_missing(path, missing)}")
    return list(dict.fromkeys(files)), problems


def error_row(args: argparse.Namespace, session: str, error: str) -> None:
    """With ``--json``, an input that gave no card still gives its row (the error also
    goes to stderr), so a consumer of the lines loses no input."""
    if getattr(args, "json", False) and getattr(args, "output", None) is None:
        row = {"session": session, "decision": None, "error": error}
        print(json.dumps(row, ensure_ascii=False), flush=True)


def sub_agent_file(path: Path) -> bool:
    """A Claude Code sub-agent's conversation beside its session file
    (``<session>/subagents/agent-*.jsonl``): read with that session, not on its own."""
    folder = path.parent
    if folder.name != "subagents" or not folder.parent.name:
        return False
    session = folder.parent.with_name(folder.parent.name + ".jsonl")  # "a.b/" → "a.b.jsonl"
    return session.is_file()


def display_names(files: Sequence[Path]) -> dict[Path, str]:
    counts: dict[str, int] = {}
    for f in files:
        counts[f.name] = counts.get(f.name, 0) + 1
    return {f: (f.name if counts[f.name] == 1 else str(f)) for f in files}


@dataclass
class Batch:
    """What a batch of reviews came to: per transcript ``(ReviewOutcome or
    DoneCheckError, seconds)`` (``None`` when not reached), and whether Ctrl-C
    stopped it."""

    results: list[tuple[Any, float] | None]
    interrupted: bool = False

    @property
    def finished(self) -> int:
        return sum(1 for r in self.results if r is not None)

    def say_interrupted(self) -> None:
        if self.interrupted:
            error(f"interrupted after {self.finished} of {len(self.results)}")


def start_for_files(args: argparse.Namespace, data_dir: Path) -> Any:
    """DoneCheck for reviewing files: in this process (no Ray) unless ``--address``."""
    from donecheck.runtime.api import DoneCheck

    if args.address is None:
        one: dict[str, Any] = {
            "ledger_shards": 1,
            "controller_shards": 1,
            "reviewer_actors": 1,
            "budget_shards": 1,
        }
        return DoneCheck.start_local(data_dir=data_dir, **one, **args.overrides)
    return DoneCheck.start(args.address, data_dir=data_dir, **args.overrides)


async def run_reviews(
    loaded: list[tuple[Path, Any]],
    args: argparse.Namespace,
    label: str = "reviewing",
    on_done: Callable[[int, Any, float], None] | None = None,
) -> Batch:
    """Review each transcript on one DoneCheck (in this process unless ``--address``),
    at most ``--concurrency`` at once, calling ``on_done(index, outcome, seconds)`` as
    each finishes. Ctrl-C stops the batch and keeps what finished. Names each judge
    problem once on stderr."""
    from donecheck.runtime.replay import ReviewOutcome, review_transcript

    if args.data_dir is None:
        scratch = tempfile.TemporaryDirectory(prefix="donecheck-review-")
        data_dir = Path(scratch.name)
    else:
        scratch, data_dir = None, args.data_dir
    dc = start_for_files(args, data_dir)
    wanted = args.overrides.get("judge_base_url"), args.overrides.get("judge_model")
    running = dc.config.judge_base_url, dc.config.judge_model
    if any(wanted) and wanted != running:
        error(
            f"note: attached to a running DoneCheck in namespace {dc.config.namespace!r}; it"
            " keeps its own judge settings"
        )
    request = getattr(args, "request_text", None)
    progress = ProgressBar(len(loaded), label)
    limit = asyncio.Semaphore(args.concurrency)
    batch = Batch([None] * len(loaded))

    async def one(index: int, transcript: Any) -> None:
        async with limit:
            started = time.perf_counter()
            outcome: ReviewOutcome | DoneCheckError
            try:
                outcome = await review_transcript(dc, transcript, request=request)
            except DoneCheckError as exc:
                outcome = exc
            seconds = time.perf_counter() - started
            batch.results[index] = (outcome, seconds)
            progress.advance()
            if on_done is not None:
                on_done(index, outcome, seconds)

    tasks = [asyncio.ensure_future(one(i, t)) for i, (_, t) in enumerate(loaded)]

    def interrupt() -> None:  # Ctrl-C: keep what finished, stop the rest
        batch.interrupted = True
        for task in tasks:
            task.cancel()

    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, interrupt)
    except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
        pass
    try:
        await asyncio.gather(*tasks, return_exceptions=True)
    except asyncio.CancelledError:
        interrupt()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError):
            pass
        progress.close()
        dc.shutdown()
        if scratch is not None:
            scratch.cleanup()
    judge_problems = dict.fromkeys(
        problem
        for result in batch.results
        if result is not None and not isinstance(result[0], DoneCheckError)
        for problem in result[0].report.judge_errors
    )
    for problem in judge_problems:  # named once, not once per transcript
        error(
            f"the judge could not review: {problem}. What only it could judge is"
            " 'unverified'; the rules' findings stand."
        )
    args.judge_failed = bool(judge_problems)
    return batch


async def review_all(
    loaded: list[tuple[Path, Any]], names: dict[Path, str], args: argparse.Namespace
) -> tuple[list[str], bool]:
    """Review and print each card as it is decided; (failed paths, interrupted)."""
    from donecheck.runtime.report import card_json, card_text

    failed: list[str] = []
    cards: list[tuple[str, Any, list[str]]] = []
    decided: Counter[str] = Counter()

    def show(index: int, outcome: Any, _seconds: float) -> None:
        path = loaded[index][0]
        name = names[path]
        if not isinstance(outcome, DoneCheckError):
            decided[outcome.decision or "unverified"] += 1
        if isinstance(outcome, DoneCheckError):
            error(f"{path}: review failed: {outcome}")
            error_row(args, name, f"review failed: {outcome}")
            failed.append(str(path))
        elif getattr(args, "output", None) is not None:
            cards.append((name, outcome.report, outcome.warnings))
            print(f"{outcome.decision:<13} {name}", flush=True)
        elif args.json:
            card = card_json(outcome.report, session=name, warnings=outcome.warnings)
            card["form"] = loaded[index][1].form
            print(json.dumps(card, ensure_ascii=False), flush=True)
        else:
            print(card_text(outcome.report, session=name, warnings=outcome.warnings), flush=True)

    batch = await run_reviews(loaded, args, on_done=show)
    if cards:
        write_html(args.output, cards)
    batch.say_interrupted()
    if not args.json and len(loaded) > 1:
        print(summary_line(decided, len(failed), len(loaded)), flush=True)
    return failed, batch.interrupted


_ORDER = ("pass", "skipped", "need_evidence", "need_fix", "blocked", "unverified")


def summary_line(decided: Counter[str], failed: int, total: int) -> str:
    """The last line of a review of several transcripts: how many got each decision."""
    parts = [f"{decided[d]} {d}" for d in _ORDER if decided[d]]
    parts += [f"{n} {d}" for d, n in sorted(decided.items()) if d not in _ORDER]
    if failed:
        parts.append(f"{failed} could not be reviewed")
    let_through = decided["pass"] + decided["skipped"]
    return (
        f"{total} transcripts: " + ", ".join(parts) + f" — {let_through} may stop,"
        f" {total - let_through - failed} would be sent back or reported"
    )


def write_html(path: Path, cards: list[tuple[str, Any, list[str]]]) -> None:
    from donecheck.runtime.report import card_html

    path.write_text(card_html(cards), encoding="utf-8")
    print(f"wrote {path} ({len(cards)} report card(s))")
