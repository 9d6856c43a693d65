"""The ``donecheck`` command.

Exit status: 0 when every input was handled, 2 for a usage or input error (a
malformed transcript, a missing file — the other inputs are still handled),
1 when DoneCheck itself could not run (Ray would not start, an actor died).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TextIO

import msgspec

from donecheck.actors.errors import AttachmentError, DoneCheckError, InputError
from donecheck.actors.messages import Material
from donecheck.runtime.progressbar import ProgressBar

__all__ = ["main"]

EXIT_OK, EXIT_FAILURE, EXIT_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130
TRANSCRIPT_SUFFIXES = (".json", ".jsonl")


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
            "Review recorded agent conversations. Each file's form is told from its content: "
            'OpenAI chat completions ({"messages": [...]} or a bare list), Anthropic Messages '
            "(tool_use / tool_result blocks), a Claude Code session (JSON Lines), or one chat "
            "message per line. The final assistant message is the answer under review; tool "
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
    _add_request_option(review)
    _add_judge_options(review)
    review.set_defaults(func=_cmd_review)

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
    _add_request_option(report)
    _add_judge_options(report)
    report.set_defaults(func=_cmd_report)

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
    demo.set_defaults(func=_cmd_demo)

    serve = commands.add_parser(
        "serve",
        help="run DoneCheck as an HTTP service (and for hooks) until stopped",
        description=(
            "Start DoneCheck (on a local Ray instance, an existing one with --address, or "
            "in this process with --in-process) and serve its HTTP API: sessions, events, "
            "stops, reports, statistics, and the Claude Code hook endpoint. The URL and "
            "token are written to a per-user runtime file that 'donecheck hook' reads. "
            "The OpenAPI document is at /openapi.json. Stop with Ctrl-C."
        ),
        epilog=(
            "Listens on 127.0.0.1 by default. Any other --host needs a bearer token: "
            "--token-env VAR, else one is generated into the runtime file (mode 0600)."
        ),
    )
    serve.add_argument("--address", default=None, help="Ray address (default: start one here)")
    serve.add_argument(
        "--in-process",
        action="store_true",
        help="run the actors in this process, without Ray (one host, no cluster)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument(
        "--port", type=int, default=8765, help="port to listen on (default 8765; 0: any free)"
    )
    serve.add_argument(
        "--token-env", metavar="VAR", help="environment variable holding the bearer token"
    )
    serve.add_argument(
        "--require-token",
        action="store_true",
        help="require the bearer token on loopback too (always required beyond it)",
    )
    serve.add_argument(
        "--runtime-file", type=Path, default=None, help="where to write the URL and token"
    )
    serve.add_argument(
        "--gate-workspace",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder (and everything under it) whose gates a stop may run, for a caller "
        "holding the service's token (repeatable; default: none — gates run commands as "
        "the service's user)",
    )
    _add_judge_options(serve)
    serve.set_defaults(func=_cmd_serve)

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
    hook.set_defaults(func=_cmd_hook)

    install = commands.add_parser(
        "install",
        help="wire DoneCheck's hooks into Claude Code or Codex",
        description=(
            "Merge DoneCheck's hooks into the settings of Claude Code (UserPromptSubmit, "
            "PostToolUse, PostToolUseFailure, Stop, SessionStart, SessionEnd) or Codex "
            "(UserPromptSubmit, PostToolUse, Stop, Interrupt, SessionEnd), keeping every hook "
            "and setting that is not DoneCheck's, and print what changed. Installing again "
            "changes nothing; --uninstall takes DoneCheck's hooks out again. Codex runs a hook "
            "only after the user trusted it: the installer records that trust for DoneCheck's "
            "own hooks through Codex's app server (as Codex's /hooks screen does) unless "
            "--no-trust is given."
        ),
        epilog=(
            "Examples: donecheck install claude-code (user settings, command hooks); "
            "donecheck install claude-code --scope project --form http; "
            "donecheck install codex; donecheck install codex --uninstall. "
            "Exit status: 0 done, 1 written but Codex would not record the trust, 2 a "
            "settings file that is not valid JSON (left as it is) or a bad option."
        ),
    )
    install.add_argument("client", choices=["claude-code", "codex"], help="which agent CLI")
    install.add_argument(
        "--scope",
        choices=["user", "project", "local"],
        default="user",
        help="user: ~/.claude/settings.json or $CODEX_HOME/hooks.json (default); project: "
        "the workspace's .claude/settings.json or .codex/hooks.json; local (Claude Code): "
        ".claude/settings.local.json, not committed",
    )
    install.add_argument(
        "--form",
        choices=["command", "http"],
        default="command",
        help="command: each hook runs 'donecheck hook' (default, both CLIs); http (Claude "
        "Code): hooks POST to the running service, ~10 ms instead of a process",
    )
    install.add_argument(
        "--workspace", type=Path, default=Path("."), help="the project folder (default: .)"
    )
    install.add_argument(
        "--url",
        default=None,
        help="the service's URL for http hooks (default: the running service's, else "
        "http://127.0.0.1:8765)",
    )
    install.add_argument("--uninstall", action="store_true", help="remove DoneCheck's hooks")
    install.add_argument(
        "--dry-run", action="store_true", help="print what would change; write nothing"
    )
    install.add_argument(
        "--no-trust",
        action="store_true",
        help="Codex: do not record trust; review the hooks in Codex's /hooks screen instead",
    )
    install.add_argument(
        "--codex", default=None, metavar="PATH", help="the codex executable (default: on PATH)"
    )
    install.add_argument(
        "--plugin",
        action="store_true",
        help="Claude Code: print the folder of DoneCheck's Claude Code plugin (load it with "
        "claude --plugin-dir) instead of writing settings",
    )
    install.add_argument("--runtime-file", type=Path, default=None, help=argparse.SUPPRESS)
    install.set_defaults(func=_cmd_install)

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
    sessions.set_defaults(func=_cmd_sessions)

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
            "per-rule precision and recall, and a per-language and per-form breakdown. "
            "When DIR is a Harbor jobs folder (trials with result.json) and no --expected is "
            "given, each trial's agent log is reviewed and scored against its verifier's "
            "reward instead: failures caught, failures passed — those the log itself shows "
            "(a DoneCheck defect) apart from those only the hidden tests show — and successes "
            "flagged, per agent and model."
        ),
        epilog=(
            "Exit status: 0 all compared, 1 a gate failed (--max-false-passes, "
            "--min-agreement) or DoneCheck could not run, 2 an input problem: an unreadable "
            "transcript, an expectation with no transcript, a transcript with no expectation. "
            "Example: donecheck eval tests/corpus --expected tests/corpus/expected.json "
            "--max-false-passes 0 --min-agreement 0.97"
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
    _add_judge_options(evaluate)
    evaluate.set_defaults(func=_cmd_eval)

    gates = commands.add_parser(
        "gates",
        help="list, or run, the checks the project requires",
        description=(
            "List the gates of a workspace (donecheck.toml, or [[tool.donecheck.gate]] in "
            "pyproject.toml) and, with --run, run the due ones: each in the workspace, in "
            "its own process group, within its timeout, with no secrets in its environment "
            "and its output capped. Only commands from that file are run."
        ),
        epilog="Exit status: 0 all passed (or listed), 1 a gate failed or timed out, 2 bad "
        "configuration.",
    )
    gates.add_argument(
        "--workspace", type=Path, default=Path("."), help="the project folder (default: .)"
    )
    gates.add_argument("--run", action="store_true", help="run the due gates")
    gates.add_argument(
        "--changed",
        nargs="*",
        metavar="PATH",
        default=None,
        help="changed paths: only gates whose paths match are due (default: all are)",
    )
    gates.add_argument("--json", action="store_true", help="one JSON object per gate")
    gates.set_defaults(func=_cmd_gates)

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
    junit.set_defaults(func=_cmd_record_junit)

    parse = commands.add_parser(
        "parse",
        help="show how attachments are read",
        description=(
            "Detect each file's type from its content and parse it as a session would: status "
            "(parsed, partial, unparsed, failed) and why, detected type, blocks and a preview "
            "of the text. Files are parsed in parallel in isolated worker processes, each with "
            "the configured time and memory limits."
        ),
        epilog=(
            "Exit status: 0 every file was handled, 1 a file failed to parse (corrupt, "
            "encrypted, over a limit, timed out), 2 usage error or a missing file."
        ),
    )
    parse.add_argument(
        "files", nargs="+", metavar="PATH", type=Path, help="files, or folders searched recursively"
    )
    output = parse.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="print one Material per line (preview images left out)"
    )
    output.add_argument(
        "--markdown",
        action="store_true",
        help="print the materials as a review model would see them",
    )
    parse.add_argument(
        "--with-previews", action="store_true", help="with --json: include preview images (base64)"
    )
    parse.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="parallel worker processes (default: one per CPU)",
    )
    parse.set_defaults(func=_cmd_parse)
    return parser


def _add_request_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--request",
        metavar="TEXT|@FILE",
        default=None,
        help="the user's request, for files that do not carry it (a `claude -p` stream-json "
        "or `codex exec --json` log: the prompt was the command's argument); @FILE reads it "
        "from FILE. A file's own request wins. Without it such a run is reviewed on what "
        "needs no request, and its card says the request was unknown",
    )


def _request_text(args: argparse.Namespace) -> str | None:
    """``--request`` as text (``@FILE`` read); :class:`InputError` when FILE is not
    readable."""
    given = getattr(args, "request", None)
    if given is None or not given.startswith("@"):
        return given
    path = Path(given[1:])
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"--request {given}: cannot read {path}: {exc.strerror}") from None


def _add_judge_options(command: argparse.ArgumentParser) -> None:
    judge = command.add_argument_group(
        "judge model",
        "Without these, review is rules-only (no model). With them, an OpenAI-compatible "
        "endpoint judges requirement coverage, and the rules still apply on top.",
    )
    judge.add_argument(
        "--judge-url",
        metavar="URL",
        help="base URL of the judge, e.g. http://127.0.0.1:8000/v1 (requests to hosts other "
        "than loopback also need --judge-remote)",
    )
    judge.add_argument("--judge-model", metavar="NAME", help="the judge model's name")
    judge.add_argument(
        "--judge-key-env",
        metavar="VAR",
        help="environment variable holding the judge's API key (the key is never printed)",
    )
    judge.add_argument(
        "--judge-remote",
        action="store_true",
        help="allow a judge on a host other than loopback (sends your transcripts there)",
    )
    judge.add_argument(
        "--judge-images",
        action="store_true",
        help="the judge model accepts images: send reference images and previews",
    )


def _judge_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Config overrides from the judge options; raises ValueError with the problem."""
    if getattr(args, "judge_url", None) is None and getattr(args, "judge_model", None) is None:
        if getattr(args, "judge_key_env", None):
            raise ValueError("--judge-key-env needs --judge-url and --judge-model")
        return {}
    if not args.judge_url or not args.judge_model:
        raise ValueError("--judge-url and --judge-model go together")
    overrides: dict[str, Any] = {
        "judge_base_url": args.judge_url,
        "judge_model": args.judge_model,
        "judge_remote": args.judge_remote,
    }
    if args.judge_images:
        overrides["judge_modalities"] = ("text", "image")
    if args.judge_key_env:
        key = os.environ.get(args.judge_key_env)
        if not key:
            raise ValueError(
                f"--judge-key-env: the environment variable {args.judge_key_env} is not set"
            )
        overrides["judge_api_key"] = key
    return overrides


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
                p
                for p in path.rglob("*")
                if p.suffix in TRANSCRIPT_SUFFIXES and p.is_file() and not _sub_agent_file(p)
            )
            if not found:
                problems.append(f"{path}: no transcripts (*.json, *.jsonl) in this folder")
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return list(dict.fromkeys(files)), problems


def _error_row(args: argparse.Namespace, session: str, error: str) -> None:
    """With ``--json``, an input that gave no card still gives its row (the error also
    goes to stderr), so a consumer of the lines loses no input."""
    if getattr(args, "json", False) and getattr(args, "output", None) is None:
        row = {"session": session, "decision": None, "error": error}
        print(json.dumps(row, ensure_ascii=False), flush=True)


def _sub_agent_file(path: Path) -> bool:
    """A Claude Code sub-agent's conversation beside its session file
    (``<session>/subagents/agent-*.jsonl``): read with that session, not on its own."""
    folder = path.parent
    return folder.name == "subagents" and folder.parent.with_suffix(".jsonl").is_file()


def _names(files: Sequence[Path]) -> dict[Path, str]:
    counts: dict[str, int] = {}
    for f in files:
        counts[f.name] = counts.get(f.name, 0) + 1
    return {f: (f.name if counts[f.name] == 1 else str(f)) for f in files}


def _cmd_review(args: argparse.Namespace) -> int:
    from donecheck.runtime.transcripts.detect import load_transcript
    from donecheck.runtime.transcripts.openai import Transcript

    if args.concurrency < 1:
        _error("--concurrency must be at least 1")
        return EXIT_INPUT
    try:
        args.overrides = _judge_overrides(args)
        args.request_text = _request_text(args)
    except (ValueError, InputError) as exc:
        _error(str(exc))
        return EXIT_INPUT
    files, problems = _collect(args.paths)
    for problem in problems:
        _error(problem)
        _error_row(args, problem.rsplit(": ", 1)[0], problem)
    loaded: list[tuple[Path, Transcript]] = []
    for path in files:
        try:
            loaded.append((path, load_transcript(path)))
        except InputError as exc:
            _error(str(exc))
            _error_row(args, str(path), str(exc))
            problems.append(str(exc))
    if loaded:
        names = _names([p for p, _ in loaded])
        try:
            failed, interrupted = asyncio.run(_review_all(loaded, names, args))
        except DoneCheckError as exc:
            _error(str(exc))
            return EXIT_FAILURE
        if interrupted:
            return EXIT_INTERRUPTED
        problems.extend(failed)
    if problems:
        return EXIT_INPUT
    # reviewed, but not as configured: the judge could not be used
    return EXIT_FAILURE if getattr(args, "judge_failed", False) else EXIT_OK


@dataclass
class _Batch:
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
            _error(f"interrupted after {self.finished} of {len(self.results)}")


def _start_for_files(args: argparse.Namespace, data_dir: Path) -> Any:
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


async def _run_reviews(
    loaded: list[tuple[Path, Any]],
    args: argparse.Namespace,
    label: str = "reviewing",
    on_done: Callable[[int, Any, float], None] | None = None,
) -> _Batch:
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
    dc = _start_for_files(args, data_dir)
    wanted = args.overrides.get("judge_base_url"), args.overrides.get("judge_model")
    running = dc.config.judge_base_url, dc.config.judge_model
    if any(wanted) and wanted != running:
        _error(
            f"note: attached to a running DoneCheck in namespace {dc.config.namespace!r}; it"
            " keeps its own judge settings"
        )
    request = getattr(args, "request_text", None)
    progress = ProgressBar(len(loaded), label)
    limit = asyncio.Semaphore(args.concurrency)
    batch = _Batch([None] * len(loaded))

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
        _error(f"judge unavailable, reviewed by rules only: {problem}")
    args.judge_failed = bool(judge_problems)
    return batch


async def _review_all(
    loaded: list[tuple[Path, Any]], names: dict[Path, str], args: argparse.Namespace
) -> tuple[list[str], bool]:
    """Review and print each card as it is decided; (failed paths, interrupted)."""
    from donecheck.runtime.report import card_json, card_text

    failed: list[str] = []
    cards: list[tuple[str, Any, list[str]]] = []

    def show(index: int, outcome: Any, _seconds: float) -> None:
        path = loaded[index][0]
        name = names[path]
        if isinstance(outcome, DoneCheckError):
            _error(f"{path}: review failed: {outcome}")
            _error_row(args, name, f"review failed: {outcome}")
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

    batch = await _run_reviews(loaded, args, on_done=show)
    if cards:
        _write_html(args.output, cards)
    batch.say_interrupted()
    return failed, batch.interrupted


# --------------------------------------------------------------------- eval


def _cmd_eval(args: argparse.Namespace) -> int:
    from donecheck.actors.review.claims import language_of
    from donecheck.runtime.evaluate import Observed, load_expected, score
    from donecheck.runtime.transcripts.detect import load_transcript

    if args.concurrency < 1:
        _error("--concurrency must be at least 1")
        return EXIT_INPUT
    if not args.directory.is_dir():
        _error(f"{args.directory}: not a folder")
        return EXIT_INPUT
    if args.expected is None:
        from donecheck.runtime.harbor import is_harbor

        if is_harbor(args.directory):
            return _cmd_eval_harbor(args)
        _error(
            f"{args.directory}: give --expected FILE (this is no Harbor jobs folder: no trial"
            " result.json under it)"
        )
        return EXIT_INPUT
    try:
        args.overrides = _judge_overrides(args)
        expected, problems = load_expected(args.expected)
    except (ValueError, InputError) as exc:
        _error(str(exc))
        return EXIT_INPUT
    for problem in problems:
        _error(problem)
    files, missing_dir = _collect([args.directory])
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
        _error(line)
    observed: list[Observed] = []
    if loaded:
        try:
            batch = asyncio.run(_run_reviews(loaded, args, "evaluating"))
        except DoneCheckError as exc:
            _error(str(exc))
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
                _error(line)
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
        _error(f"{args.expected}: {name!r} is expected but there is no such transcript")
    for name in evaluation.unexpected:
        _error(f"{name}: no expectation in {args.expected}")
    _show_evaluation(args, evaluation)
    gate = []
    if args.max_false_passes is not None and len(evaluation.false_passes) > args.max_false_passes:
        gate.append(
            f"{len(evaluation.false_passes)} false pass(es), more than {args.max_false_passes}"
        )
    if args.min_agreement is not None and evaluation.agreement < args.min_agreement:
        gate.append(f"agreement {evaluation.agreement:.1%} is under {args.min_agreement:.1%}")
    for problem in gate:
        _error(problem)
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


def _cmd_eval_harbor(args: argparse.Namespace) -> int:
    """``eval`` of a Harbor jobs folder: each trial reviewed, scored by its reward."""
    from donecheck.runtime.harbor import RewardEvaluation, TrialScore, find_trials, shows_failure

    try:
        args.overrides = _judge_overrides(args)
    except ValueError as exc:
        _error(str(exc))
        return EXIT_INPUT
    trials = find_trials(args.directory, args.log or "")
    readable = [t for t in trials if t.transcript is not None]
    unreadable = [t for t in trials if t.transcript is None]
    for trial in unreadable:
        _error(f"{trial.folder}: {trial.problem}")
    scores: list[TrialScore] = []
    batch = None
    if readable:
        loaded = [(t.log or t.folder, t.transcript) for t in readable]
        try:
            batch = asyncio.run(_run_reviews(loaded, args, "evaluating"))
        except DoneCheckError as exc:
            _error(str(exc))
            return EXIT_FAILURE
        for trial, result in zip(readable, batch.results, strict=True):
            if result is None:
                continue
            outcome, _seconds = result
            if isinstance(outcome, DoneCheckError):
                trial.problem = f"review failed: {outcome}"
                _error(f"{trial.folder}: {trial.problem}")
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
        _error(f"{defects} failure(s) the log shows were passed, more than {args.max_false_passes}")
        return EXIT_FAILURE
    if batch is not None and batch.interrupted:
        batch.say_interrupted()
        return EXIT_INTERRUPTED
    return EXIT_INPUT if unreadable else EXIT_OK


def _write_html(path: Path, cards: list[tuple[str, Any, list[str]]]) -> None:
    from donecheck.runtime.report import card_html

    path.write_text(card_html(cards), encoding="utf-8")
    print(f"wrote {path} ({len(cards)} report card(s))")


def _cmd_demo(args: argparse.Namespace) -> int:
    from donecheck.actors.messages import Deliver
    from donecheck.runtime.demo import TASK, run_demo
    from donecheck.runtime.report import card_json, card_text

    print(f"task     {TASK}")
    try:
        result = run_demo(args.workspace, on_step=print)
    except DoneCheckError as exc:
        _error(str(exc))
        return EXIT_FAILURE
    print()
    if args.json:
        print(json.dumps(card_json(result.report, session="demo"), ensure_ascii=False))
    else:
        print(card_text(result.report, session="demo"))
    return EXIT_OK if isinstance(result.action, Deliver) else EXIT_FAILURE


def _cmd_report(args: argparse.Namespace) -> int:
    if not args.paths and not args.session:
        _error("give transcript files to review, or --session ID of a running DoneCheck")
        return EXIT_INPUT
    if args.paths:
        return _cmd_review(args)
    cards: list[tuple[str, Any, list[str]]] = []
    problems = 0
    if args.address is None:  # the running service, through its API
        import urllib.parse

        from donecheck.actors.messages import ReportCard

        for session_id in args.session:
            path = f"/v1/sessions/{urllib.parse.quote(session_id, safe='')}/report?format=card"
            try:
                raw = _service_get(args, path, decode=False)
            except DoneCheckError as exc:
                if "HTTP 404" not in str(exc):
                    _error(str(exc))
                    return EXIT_FAILURE
                _error(f"{session_id}: the running DoneCheck has no such session")
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
            _error(str(exc))
            return EXIT_FAILURE
        try:
            for session_id in args.session:
                try:
                    card = dc.session(session_id).report()
                except DoneCheckError as exc:
                    _error(f"{session_id}: {exc}")
                    problems += 1
                    continue
                cards.append((session_id, card, []))
                print(f"{card.decision or 'unverified':<13} {session_id}")
        finally:
            dc.shutdown()
    if cards:
        _write_html(args.output, cards)
    return EXIT_INPUT if problems else EXIT_OK


# ------------------------------------------------------------- serve / hook


def _cmd_serve(args: argparse.Namespace) -> int:
    from donecheck.actors.judge import is_loopback
    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.endpoint import (
        Endpoint,
        new_token,
        remove_endpoint,
        runtime_file,
        write_endpoint,
    )

    try:
        overrides = _judge_overrides(args)
    except ValueError as exc:
        _error(str(exc))
        return EXIT_INPUT
    # There is always a token: gates run only for a caller that shows it (the runtime
    # file holds it, and donecheck hook sends it); every route needs it only beyond
    # loopback or with --require-token.
    if args.token_env:
        token = os.environ.get(args.token_env) or ""
        if not token:
            _error(f"--token-env: the environment variable {args.token_env} is not set")
            return EXIT_INPUT
    else:
        token = new_token()
    required = bool(args.token_env) or args.require_token or not is_loopback(args.host)
    workspaces = [Path(w) for w in args.gate_workspace]
    for folder in workspaces:
        if not folder.is_dir():
            _error(f"--gate-workspace {folder}: not a folder")
            return EXIT_INPUT
    if not 0 <= args.port <= 65535:
        _error(f"--port must be from 0 to 65535, not {args.port}")
        return EXIT_INPUT
    began = time.monotonic()

    def say(step: str) -> None:
        print(f"donecheck serve: {step}…", file=sys.stderr, flush=True)

    try:
        if args.in_process:
            say("starting the actors in this process")
            dc = DoneCheck.start_local(**overrides)
        else:
            dc = DoneCheck.start(args.address, progress=say, **overrides)
    except DoneCheckError as exc:
        _error(str(exc))
        return EXIT_FAILURE
    import socket

    import uvicorn

    from donecheck.runtime.service import create_app

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP named, so that asyncio turns Nagle off on each accepted connection
    # (it does so only for sockets that say they are TCP): with it on, every answer on
    # a kept-alive connection waited out the client's delayed ACK, ~44 ms
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        listener.bind((args.host, args.port))
        # Listening before the URL is announced: a hook that reads the runtime
        # file at once waits in the backlog instead of being refused.
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        dc.shutdown()
        _error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
        return EXIT_FAILURE
    port = listener.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}"
    path = runtime_file(dc.config.namespace, args.runtime_file)
    write_endpoint(path, Endpoint(url, token, dc.config.namespace, os.getpid(), required))
    where = "in this process" if args.in_process else "on Ray"
    print(
        f"DoneCheck serves {url} (namespace {dc.config.namespace!r}, actors {where}, "
        f"ready in {time.monotonic() - began:.1f} s); runtime file {path}"
        + ("; bearer token required" if required else "")
        + (
            f"; gates run in {', '.join(str(w) for w in workspaces)}"
            if workspaces
            else "; no gates run for callers (--gate-workspace DIR)"
        )
        + ". Ctrl-C stops it.",
        file=sys.stderr,
        flush=True,
    )
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(
                dc,
                token=token if required else None,
                gate_token=token,
                gate_workspaces=workspaces,
            ),
            log_level="warning",
            timeout_keep_alive=30,
            limit_concurrency=4096,
            lifespan="off",
        )
    )
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn hands the Ctrl-C it handled back: a normal stop
        pass
    finally:
        remove_endpoint(path, os.getpid())
        dc.shutdown()
    return EXIT_OK


def _cmd_hook(args: argparse.Namespace) -> int:
    from donecheck.runtime.hookclient import run

    return run(args)


def _service_get(args: argparse.Namespace, path: str, *, decode: bool = True) -> Any:
    """GET ``path`` of the running service (its JSON, or with ``decode=False`` its
    bytes); raises ``DoneCheckError`` saying why not."""
    import urllib.error
    import urllib.request

    from donecheck.runtime.endpoint import read_endpoint, runtime_file

    namespace = (
        getattr(args, "namespace", None) or os.environ.get("DONECHECK_NAMESPACE") or "donecheck"
    )
    where = runtime_file(namespace, getattr(args, "runtime_file", None))
    endpoint = read_endpoint(where)
    if endpoint is None:
        raise DoneCheckError(f"DoneCheck is not running (no runtime file {where})")
    headers = {"authorization": f"Bearer {endpoint.token}"} if endpoint.token else {}
    request = urllib.request.Request(endpoint.url + path, headers=headers)
    try:
        _listening(endpoint.url, 1.0)
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
            return json.loads(raw) if decode else raw
    except urllib.error.HTTPError as exc:
        raise DoneCheckError(f"{endpoint.url}{path}: HTTP {exc.code}") from None
    except OSError as exc:
        raise DoneCheckError(f"DoneCheck is not reachable at {endpoint.url}: {exc}") from None


def _age(seconds: float) -> str:
    for unit, size in (("d", 86_400), ("h", 3_600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{max(0.0, seconds):.0f}s"


def _cmd_sessions(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= 10_000:
        _error("--limit must be from 1 to 10000")
        return EXIT_INPUT
    try:
        found = _service_get(args, f"/v1/sessions?limit={args.limit}")["sessions"]
    except DoneCheckError as exc:
        _error(str(exc))
        return EXIT_FAILURE
    now = time.time()
    if args.json:
        for item in found:
            print(json.dumps(item, ensure_ascii=False))
        return EXIT_OK
    print(f"{'SESSION':<40} {'DECISION':<14} {'ROUNDS':>6} {'END':<12} {'AGE':>5}  REQUEST")
    for item in found:
        age = _age(now - item["updated_at"]) if item["updated_at"] else "?"
        print(
            f"{item['session_id']:<40} {item['decision'] or '-':<14} {item['rounds_used']:>6} "
            f"{item['end_reason'] or '-':<12} {age:>5}  {item['request'][:60]}"
        )
    return EXIT_OK


def _listening(url: str, within_s: float) -> None:
    """Raise ``OSError`` unless something accepts connections at ``url`` within
    ``within_s``: a hook never waits on a dead service."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    with socket.create_connection(
        (parts.hostname or "127.0.0.1", parts.port or 80), timeout=within_s
    ):
        pass


# -------------------------------------------------------------------- gates


def _cmd_gates(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from donecheck.actors.config import load_config
    from donecheck.runtime.gates import due_gates, find_gates, load_gates, run_gate

    workspace = args.workspace.resolve()
    if not workspace.is_dir():
        _error(f"--workspace {args.workspace}: not a folder")
        return EXIT_INPUT
    source = find_gates(workspace)
    if source is None:
        _error(
            f"{workspace}: no gates (no donecheck.toml, and no [tool.donecheck] in pyproject.toml)"
        )
        return EXIT_INPUT
    gates = load_gates(source)  # InputError → exit 2 with its message
    due = due_gates(gates, args.changed)
    if not args.run:
        for gate in gates:
            row = {
                "name": gate.name,
                "command": gate.shown,
                "paths": list(gate.paths),
                "timeout_s": gate.timeout_s,
                "due": gate in due,
                "source": gate.source,
            }
            if args.json:
                print(json.dumps(row))
            else:
                mark = "due" if row["due"] else "not due"
                print(f"{gate.name:<16} {mark:<8} {gate.shown}  ({gate.timeout_s:g} s)")
        return EXIT_OK
    config = load_config()
    key = config.judge_api_key.get_secret_value() if config.judge_api_key else ""
    failed = False
    for gate in due:
        result = run_gate(gate, workspace, secrets=[key])
        failed = failed or result.status != "passed"
        if args.json:
            print(json.dumps(asdict(result)), flush=True)
        else:
            print(
                f"{result.status:<8} {gate.name}  {result.detail}, {result.duration_s:.1f} s "
                f"in {result.workspace} on {result.host}",
                flush=True,
            )
            if result.status != "passed":
                print(result.output.rstrip()[-2_000:])
    return EXIT_FAILURE if failed else EXIT_OK


def _cmd_install(args: argparse.Namespace) -> int:
    from donecheck.runtime import install as inst
    from donecheck.runtime.endpoint import read_endpoint, runtime_file

    if args.plugin:
        if args.client != "claude-code":
            _error("--plugin: only Claude Code loads DoneCheck as a plugin")
            return EXIT_INPUT
        print(inst.PLUGIN)
        print(
            f"Load it with: claude --plugin-dir {inst.PLUGIN} (its hooks run 'donecheck hook' "
            "from PATH; 'donecheck serve' must be running)",
            file=sys.stderr,
        )
        return EXIT_OK
    workspace = args.workspace.resolve()
    if args.scope != "user" and not workspace.is_dir():
        _error(f"--workspace {args.workspace}: not a folder")
        return EXIT_INPUT
    try:
        path = inst.settings_path(args.client, args.scope, workspace)
        settings = inst.read_settings(path)
        if args.uninstall:
            updated, changes = inst.unmerge(settings, path)
        else:
            url = args.url
            found = read_endpoint(runtime_file("donecheck", args.runtime_file))
            if url is None:
                url = found.url if found is not None else "http://127.0.0.1:8765"
            if args.form == "http" and found is not None and found.required and found.url == url:
                _error(
                    "the running service requires a bearer token, which http hooks would "
                    "have to carry in the settings file: use --form command (it reads the "
                    "token from the service's runtime file)"
                )
                return EXIT_INPUT
            ours = inst.hooks_for(args.client, args.form, inst.hook_command(), url)
            updated, changes = inst.merge(settings, ours, path)
    except InputError as exc:
        _error(str(exc))
        return EXIT_INPUT
    verb = "would change" if args.dry_run else "changed"
    if not changes:
        print(f"{path}: no DoneCheck hooks to remove")
    elif all(c.action == "unchanged" for c in changes):
        print(f"{path}: DoneCheck's hooks are installed already; nothing {verb}")
    else:
        print(f"{path}: {verb}:")
        print("\n".join(inst.summarise(c for c in changes if c.action != "unchanged")))
    if args.dry_run:
        return EXIT_OK
    if args.client == "codex" and args.uninstall:  # forget the trust while Codex lists them
        code = _codex_trust(args, path, workspace)
        inst.write_settings(path, updated)
        return code
    inst.write_settings(path, updated)
    if args.client == "claude-code":
        if not args.uninstall and args.form == "http":
            print(
                "http hooks reach DoneCheck only while 'donecheck serve' runs; a turn is "
                "never blocked because it is down."
            )
        return EXIT_OK
    return _codex_trust(args, path, workspace)


def _codex_trust(args: argparse.Namespace, path: Path, workspace: Path) -> int:
    import shutil

    from donecheck.runtime import install as inst

    if args.scope == "project" and not args.uninstall:
        print(
            f"Codex loads {path} only in a trusted project: trust {workspace} when Codex asks, "
            f"or run 'codex exec --trust' there once."
        )
    if args.no_trust and not args.uninstall:
        print(
            "Codex runs a hook only after you trust it: open /hooks in Codex and trust "
            "DoneCheck's hooks (untrusted hooks are skipped without a word)."
        )
        return EXIT_OK
    codex = args.codex or shutil.which("codex")
    if codex is None:
        _error(
            "codex is not on PATH (--codex PATH names it): the hooks are written but not "
            "trusted; open /hooks in Codex to trust them, or Codex skips them"
        )
        return EXIT_FAILURE
    try:
        keys, written = inst.codex_trust(codex, path, workspace, untrust=args.uninstall)
    except inst.TrustError as exc:
        _error(
            f"the hooks are written but not trusted ({exc}); open /hooks in Codex to trust "
            "them, or Codex skips them"
        )
        return EXIT_FAILURE
    if args.uninstall:
        print(f"forgot Codex's trust in {written} DoneCheck hook(s)")
    elif not written:
        print(f"Codex trusts DoneCheck's {len(keys)} hook(s) already")
    else:
        print(
            f"trusted {written} DoneCheck hook(s) in Codex's config.toml (hooks.state), "
            "as its /hooks screen would; 'donecheck install codex --uninstall' takes them out"
        )
    return EXIT_OK


def _cmd_record_junit(args: argparse.Namespace) -> int:
    from donecheck.runtime.reporters import (
        ReportError,
        junit_report,
        send_report,
        session_from_env,
    )

    session = args.session or session_from_env()
    if not session:
        _error("record-junit: name the session with --session or $DONECHECK_SESSION")
        return EXIT_INPUT
    try:
        report = junit_report(args.file, command=args.run_command)
    except ReportError as exc:
        _error(str(exc))
        return EXIT_INPUT
    try:
        send_report(session, report, namespace=args.namespace, given_file=args.runtime_file)
    except ReportError as exc:
        _error(f"{args.file}: not recorded: {exc}")
        return EXIT_FAILURE
    counts = ", ".join(
        f"{report[k]} {k}" for k in ("failed", "errors", "passed", "skipped") if report[k]
    )
    print(f"recorded {args.file} in {session}: {counts or 'no test case'}")
    return EXIT_OK


# -------------------------------------------------------------------- parse


def _parse_targets(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    files: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not found:
                problems.append(f"{path}: the folder has no files")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        elif path.exists():
            problems.append(f"{path}: not a regular file")
        else:
            problems.append(f"{path}: no such file")
    return files, problems


def _summary_line(path: Path, material: Material) -> list[str]:
    reason = f" — {material.reason}" if material.reason else ""
    lines = [
        f"{material.status:<9} {material.detected_type:<34} {path}"
        f"  ({len(material.blocks)} blocks, {len(material.previews)} previews){reason}"
    ]
    preview = " ".join(" ".join(b.text.split()) for b in material.blocks[:3])
    if preview:
        lines.append(f"          {preview[:160]}")
    lines.extend(f"          warning: {w}" for w in material.warnings)
    return lines


def _cmd_parse(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from donecheck.actors.config import load_config
    from donecheck.parsers.render import render_materials
    from donecheck.parsers.worker import WorkerPool
    from donecheck.runtime.attachments import (
        load_attachment,
        too_large_material,
        unreadable_material,
    )

    if args.workers < 1:
        _error("--workers must be at least 1")
        return EXIT_INPUT
    config = load_config()
    files, problems = _parse_targets(args.files)
    for problem in problems:
        _error(problem)
    limits = config.parse_limits()
    progress = ProgressBar(len(files), "parsing")

    def one(path: Path) -> Material:
        try:
            loaded = load_attachment(path, 0, config.max_attachment_bytes)
            if loaded.too_large:
                return too_large_material(loaded, config.max_attachment_bytes)
            return pool.parse(loaded.data, loaded.name, sha256=loaded.sha256, limits=limits)
        except AttachmentError as exc:  # gone or changed since it was listed
            return unreadable_material(exc)
        finally:
            progress.advance()

    with WorkerPool(
        min(args.workers, max(1, len(files))),
        timeout_s=config.parse_timeout_s,
        memory_bytes=config.parse_memory_bytes,
    ) as pool:
        with ThreadPoolExecutor(max_workers=args.workers) as executor:
            materials = list(executor.map(one, files))
    progress.close()
    if args.markdown:
        print(render_materials(materials, budget_chars=config.material_excerpt_chars).text)
    for path, material in zip(files, materials, strict=True):
        if args.json:
            if not args.with_previews:
                material = msgspec.structs.replace(
                    material,
                    previews=tuple(msgspec.structs.replace(p, data=b"") for p in material.previews),
                )
            print(msgspec.json.encode(material).decode())
        elif not args.markdown:
            print("\n".join(_summary_line(path, material)))
    if problems:
        return EXIT_INPUT
    return EXIT_FAILURE if any(m.status == "failed" for m in materials) else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
