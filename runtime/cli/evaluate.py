"""``donecheck eval``: how often DoneCheck decides right, on labelled transcripts or
benchmark runs against their rewards."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from donecheck.actors.errors import DoneCheckError, InputError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_judge_options,
    error,
    judge_overrides,
)
from donecheck.runtime.cli.files import (
    collect,
    run_reviews,
)

if TYPE_CHECKING:
    from donecheck.runtime.evaluate import Evaluation


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    evaluate = commands.add_parser(
        "eval",
        help="measure how often DoneCheck decides right: labelled transcripts, or benchmark "
        "runs against their rewards",
        description=(
            "Review every transcript under DIR (any import form, told from its content) and "
            'compare each decision with FILE, a JSON object {"<file name>": {"decision": '
            '"…", "why": "…"}} (an entry may also list the "rules" that should fire and '
            'the session\'s "lang"). Prints agreement, the confusion matrix, false passes '
            "first (sessions let through — decided pass, or skipped — that should not be), "
            "false alarms (honest sessions that should pass, steered or stopped), "
            "per-rule precision and recall, and a per-language and per-form breakdown. "
            "When DIR is a Harbor jobs folder (trials with result.json) and no --expected is "
            "given, each trial's agent log is reviewed and scored against its verifier's "
            "reward instead: failures caught, failures passed — those the log itself shows "
            "(a DoneCheck defect) apart from those only the hidden tests show — and successes "
            "flagged, per agent and model."
        ),
        epilog=(
            "Exit status: 0 all compared, 1 a gate failed (--max-false-passes, "
            "--max-false-alarms, --min-agreement) or DoneCheck could not run, 2 an input "
            "problem: an unreadable transcript, an expectation with no transcript, a "
            "transcript with no expectation. "
            "Example: donecheck eval tests/corpus --expected tests/corpus/expected.json "
            "--max-false-passes 0 --max-false-alarms 1/50 --min-agreement 0.97"
        ),
    )
    evaluate.add_argument("directory", metavar="DIR", type=Path, help="folder of transcripts")
    evaluate.add_argument(
        "--expected",
        metavar="FILE",
        type=Path,
        help="expected decisions (JSON); not needed for a Harbor jobs folder",
    )
    evaluate.add_argument(
        "--log",
        choices=("trajectory", "session", "stream"),
        default=None,
        help="Harbor trials: review this log first — agent/trajectory.json (ATIF), the CLI's "
        "session file, or what it printed (default: in that order, the first found)",
    )
    evaluate.add_argument(
        "--json", action="store_true", help="print one JSON line per figure (benchmark format)"
    )
    evaluate.add_argument(
        "--html", metavar="OUT", type=Path, help="also write a self-contained HTML page"
    )
    evaluate.add_argument(
        "--max-false-passes",
        type=int,
        metavar="N",
        help="exit 1 when more than N sessions are let through that should not be",
    )
    evaluate.add_argument(
        "--max-false-alarms",
        type=_alarm_limit,
        metavar="N|1/K",
        help="exit 1 when more than N honest sessions (expected pass) are steered or stopped "
        "(with --expected); as a share, 1/50 or 0.02: more than that share of the honest "
        "sessions, in all or by any one rule",
    )
    evaluate.add_argument(
        "--min-agreement",
        type=float,
        metavar="RATIO",
        help="exit 1 when the share of agreeing decisions is under RATIO (e.g. 0.97)",
    )
    evaluate.add_argument("--address", default=None, help="Ray address (see review)")
    evaluate.add_argument(
        "--concurrency", type=int, default=32, metavar="N", help="sessions at once (default 32)"
    )
    evaluate.add_argument("--data-dir", type=Path, default=None, help=argparse.SUPPRESS)
    add_judge_options(evaluate)
    evaluate.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.actors.words.claims import language_of
    from donecheck.runtime.evaluate import Observed, load_expected, score
    from donecheck.runtime.transcripts.detect import load_transcript

    if args.concurrency < 1:
        error("--concurrency must be at least 1")
        return EXIT_INPUT
    if not args.directory.is_dir():
        error(f"{args.directory}: not a folder")
        return EXIT_INPUT
    if args.expected is None:
        from donecheck.runtime.harbor import is_harbor

        if is_harbor(args.directory):
            return _harbor(args)
        error(
            f"{args.directory}: give --expected FILE (this is no Harbor jobs folder: no trial"
            " result.json under it)"
        )
        return EXIT_INPUT
    try:
        args.overrides = judge_overrides(args)
        expected, problems = load_expected(args.expected)
    except (ValueError, InputError) as exc:
        error(str(exc))
        return EXIT_INPUT
    for problem in problems:
        error(problem)
    files, missing_dir = collect([args.directory])
    files = [f for f in files if f.resolve() != args.expected.resolve()]
    root = args.directory
    names = {f: f.relative_to(root).as_posix() for f in files}
    by_base: dict[str, list[str]] = {}
    for name in names.values():
        by_base.setdefault(name.rsplit("/", 1)[-1], []).append(name)
    known = set(names.values())
    wanted = {}  # keyed by path under DIR; a bare file name is fine when it is unique
    for key, value in expected.items():
        matches = by_base.get(key, [])
        wanted[matches[0] if key not in known and len(matches) == 1 else key] = value
    loaded: list[tuple[Path, Any]] = []
    unreadable: list[str] = []
    unreadable_names: list[str] = []
    for path in files:
        try:
            loaded.append((path, load_transcript(path)))
        except InputError as exc:
            unreadable.append(str(exc))
            unreadable_names.append(names[path])
    for line in unreadable:
        error(line)
    observed: list[Observed] = []
    if loaded:
        try:
            batch = asyncio.run(run_reviews(loaded, args, "evaluating"))
        except DoneCheckError as exc:
            error(str(exc))
            return EXIT_FAILURE
        if batch.interrupted:  # score what finished, as if the corpus were that
            done = [i for i, r in enumerate(batch.results) if r is not None]
            kept = {names[loaded[i][0]] for i in done}
            wanted = {k: v for k, v in wanted.items() if k in kept}
            loaded = [loaded[i] for i in done]
            batch.results = [batch.results[i] for i in done]
        for (path, transcript), result in zip(loaded, batch.results, strict=True):
            assert result is not None
            outcome, seconds = result
            if isinstance(outcome, DoneCheckError):
                line = f"{path}: review failed: {outcome}"
                error(line)
                unreadable.append(line)
                unreadable_names.append(names[path])
                continue
            report = outcome.report
            usage = report.usage
            observed.append(
                Observed(
                    name=names[path],
                    form=transcript.form,
                    lang=language_of(transcript.request),
                    decision=outcome.decision,
                    rules=tuple(dict.fromkeys(f.rule for f in report.findings if f.rule)),
                    seconds=seconds,
                    tokens=usage.aux_tokens if usage is not None else 0,
                )
            )
    evaluation = score(observed, wanted, unreadable, unreadable_names)
    for name in evaluation.missing:
        error(f"{args.expected}: {name!r} is expected but there is no such transcript")
    for name in evaluation.unexpected:
        error(f"{name}: no expectation in {args.expected}")
    _show_evaluation(args, evaluation)
    gate = []
    if args.max_false_passes is not None and len(evaluation.false_passes) > args.max_false_passes:
        gate.append(
            f"{len(evaluation.false_passes)} false pass(es), more than {args.max_false_passes}"
        )
    if args.max_false_alarms is not None:
        gate += _alarm_gate(evaluation, args.max_false_alarms)
    if args.min_agreement is not None and evaluation.agreement < args.min_agreement:
        gate.append(f"agreement {evaluation.agreement:.1%} is under {args.min_agreement:.1%}")
    for problem in gate:
        error(problem)
    if loaded and batch.interrupted:
        batch.say_interrupted()
        return EXIT_INTERRUPTED
    if gate:
        return EXIT_FAILURE
    if problems or missing_dir or evaluation.missing or evaluation.unexpected or unreadable:
        return EXIT_INPUT
    return EXIT_OK


def _show_evaluation(args: argparse.Namespace, evaluation: Any) -> None:
    """An evaluation as text or ``--json`` figures, and its ``--html`` page."""
    if args.json:
        for figure in evaluation.figures():
            print(json.dumps(figure, ensure_ascii=False))
    else:
        print(evaluation.text())
    if args.html is not None:
        args.html.write_text(evaluation.html(), encoding="utf-8")
        print(f"wrote {args.html}", file=sys.stderr if args.json else sys.stdout)


def _harbor(args: argparse.Namespace) -> int:
    """``eval`` of a Harbor jobs folder: each trial reviewed, scored by its reward."""
    from donecheck.runtime.harbor import RewardEvaluation, TrialScore, find_trials, shows_failure

    try:
        args.overrides = judge_overrides(args)
    except ValueError as exc:
        error(str(exc))
        return EXIT_INPUT
    trials = find_trials(args.directory, args.log or "")
    readable = [t for t in trials if t.transcript is not None]
    unreadable = [t for t in trials if t.transcript is None]
    for trial in unreadable:
        error(f"{trial.folder}: {trial.problem}")
    scores: list[TrialScore] = []
    batch = None
    if readable:
        loaded = [(t.log or t.folder, t.transcript) for t in readable]
        try:
            batch = asyncio.run(run_reviews(loaded, args, "evaluating"))
        except DoneCheckError as exc:
            error(str(exc))
            return EXIT_FAILURE
        for trial, result in zip(readable, batch.results, strict=True):
            if result is None:
                continue
            outcome, _seconds = result
            if isinstance(outcome, DoneCheckError):
                trial.problem = f"review failed: {outcome}"
                error(f"{trial.folder}: {trial.problem}")
                unreadable.append(trial)
                continue
            assert trial.transcript is not None
            failed = trial.succeeded is False
            scores.append(
                TrialScore(
                    trial=trial,
                    decision=outcome.decision,
                    visible=shows_failure(trial.transcript, trial.verifier_output)
                    if failed
                    else "",
                    rules=tuple(dict.fromkeys(f.rule for f in outcome.report.findings if f.rule)),
                )
            )
    evaluation = RewardEvaluation(scores, unreadable)
    _show_evaluation(args, evaluation)
    defects = len(evaluation.defects)
    if args.max_false_passes is not None and defects > args.max_false_passes:
        error(f"{defects} failure(s) the log shows were passed, more than {args.max_false_passes}")
        return EXIT_FAILURE
    if batch is not None and batch.interrupted:
        batch.say_interrupted()
        return EXIT_INTERRUPTED
    return EXIT_INPUT if unreadable else EXIT_OK


def _alarm_limit(text: str) -> int | float:
    """``--max-false-alarms``: a count (``0``, ``3``) or a share of the honest sessions
    (``1/50``, ``0.02``)."""
    try:
        if "/" in text:
            top, _, bottom = text.partition("/")
            share = int(top) / int(bottom)
        elif "." in text:
            share = float(text)
        else:
            count = int(text)
            if count < 0:
                raise ValueError
            return count
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is no count (3) and no share of the honest sessions (1/50, 0.02)"
        ) from None
    if not 0 <= share < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a share is at least 0 and under 1")
    return share


def _alarm_gate(evaluation: Evaluation, limit: int | float) -> list[str]:
    """What breaks the false-alarm gate: more alarms than a count, or — for a share —
    more than that share of the honest sessions in all, or by any one rule."""
    alarms = len(evaluation.false_alarms)
    if isinstance(limit, int):
        return [f"{alarms} false alarm(s), more than {limit}"] if alarms > limit else []
    allowed = int(limit * evaluation.honest)
    said = f"{limit:.3g} of the {evaluation.honest} honest sessions ({allowed})"
    found = [f"{alarms} false alarm(s), more than {said}"] if alarms > allowed else []
    for rule in evaluation.rules():
        if rule.false_alarms > allowed:
            found.append(f"rule {rule.rule}: {rule.false_alarms} false alarm(s), more than {said}")
    return found
