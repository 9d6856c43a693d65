"""What every command shares: exit statuses, errors, the request and judge options."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TextIO

from donecheck.actors.errors import InputError

EXIT_OK, EXIT_FAILURE, EXIT_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130
TRANSCRIPT_SUFFIXES = (".json", ".jsonl")


def version_text() -> str:
    try:
        return version("donecheck")
    except PackageNotFoundError:  # running from a checkout without install
        return "unknown"


def error(message: str, stream: TextIO | None = None) -> None:
    print(f"donecheck: error: {message}", file=stream or sys.stderr)


def add_request_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--request",
        metavar="TEXT|@FILE",
        default=None,
        help="the user's request, for files that do not carry it (a `claude -p` stream-json "
        "or `codex exec --json` log: the prompt was the command's argument); @FILE reads it "
        "from FILE. A file's own request wins. Without it such a run is reviewed on what "
        "needs no request, and its card says the request was unknown",
    )


def request_text(args: argparse.Namespace) -> str | None:
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


def add_judge_options(command: argparse.ArgumentParser) -> None:
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


def judge_overrides(args: argparse.Namespace) -> dict[str, Any]:
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
