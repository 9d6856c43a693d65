"""``donecheck hook``: the thin client an agent CLI's command hooks run.

It reads the hook payload on stdin, sends it to the running ``donecheck serve``
(found through its runtime file) and prints the service's answer for the client.
Claude Code and Codex start it for every tool call and every stop, so it imports
only the standard library and the few stdlib-only modules beside it: a round trip
costs Python's start-up and one loopback request (``benchmarks/hook_latency.py``).
``SessionStart`` needs no service: it names the DoneCheck session in the agent's
environment (``$CLAUDE_ENV_FILE``) for the pytest plugin.

Exit status: 0 handled; 1 DoneCheck is not running or the payload is unusable (one
line on stderr; the client warns and carries on — a turn is never blocked because
DoneCheck is down).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["add_arguments", "main"]

EXIT_OK, EXIT_FAILURE = 0, 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``donecheck hook`` (shared with the full CLI's ``--help``)."""
    parser.add_argument(
        "--runtime-file", type=Path, default=None, help="the service's runtime file"
    )
    parser.add_argument(
        "--namespace", default=None, help="the service's namespace (default: donecheck)"
    )
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds to wait for a review (600)"
    )
    from donecheck.runtime.clients import names

    parser.add_argument(
        "--agent",
        choices=names(),
        default="claude-code",
        help="whose hook payload it is (default: claude-code)",
    )


def _error(message: str) -> None:
    print(f"donecheck: error: {message}", file=sys.stderr)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="donecheck hook",
        description="Send one agent CLI's hook payload (JSON on stdin) to the "
        "running 'donecheck serve' and print its answer.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    from donecheck.actors.bounds import MAX_PAYLOAD_BYTES, check_payload
    from donecheck.runtime.endpoint import ServiceError, post_json, read_endpoint, runtime_file

    raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    try:
        check_payload(raw)  # size and nesting, before anything decodes it
        payload = json.loads(raw or b"{}")
        if not isinstance(payload, dict):
            raise ValueError("the payload is not a JSON object")
    except (ValueError, RecursionError) as exc:
        _error(f"hook payload: {exc}; this turn was not checked")
        return EXIT_FAILURE
    if payload.get("hook_event_name") == "SessionStart":
        return _session_start(payload, args.agent)
    namespace = args.namespace or os.environ.get("DONECHECK_NAMESPACE") or "donecheck"
    path = runtime_file(namespace, args.runtime_file)
    endpoint = read_endpoint(path)
    if endpoint is None:
        _error(
            f"DoneCheck is not running (no runtime file {path}; start 'donecheck serve'):"
            " this turn was not checked"
        )
        return EXIT_FAILURE
    try:
        body, _ = post_json(
            endpoint, f"/v1/hooks/{args.agent}", payload, args.timeout, connect_s=1.0
        )
    except ServiceError as exc:
        if exc.status is not None:
            _error(f"DoneCheck refused the hook ({exc.status}): {exc}; this turn was not checked")
        else:
            _error(
                f"DoneCheck is not reachable at {endpoint.url} ({exc}): this turn was not checked"
            )
        return EXIT_FAILURE
    output = json.loads(body or b"{}")
    if output:  # the note the user sees rides in it as systemMessage
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    return EXIT_OK


def _session_start(payload: dict[str, object], agent: str) -> int:
    """SessionStart: name the DoneCheck session in the environment of the agent's
    later shell commands (Claude Code's ``$CLAUDE_ENV_FILE``), so the pytest plugin
    and ``record-junit`` report to it. Needs no service."""
    import shlex

    from donecheck.actors.errors import DoneCheckError
    from donecheck.runtime.endpoint import session_id_for

    target = os.environ.get("CLAUDE_ENV_FILE")
    try:
        session = session_id_for(payload, agent)
    except DoneCheckError as exc:
        _error(f"hook payload: {exc}")
        return EXIT_FAILURE
    if not target:
        print(f"DoneCheck session {session} (no CLAUDE_ENV_FILE to name it in)", file=sys.stderr)
        return EXIT_OK
    line = f"export DONECHECK_SESSION={shlex.quote(session)}\n"
    try:
        with open(target, "a+", encoding="utf-8") as out:
            out.seek(0)
            if line not in out.read().splitlines(keepends=True):
                out.write(line)
    except OSError as exc:
        _error(f"CLAUDE_ENV_FILE {target}: cannot write it ({exc.strerror or exc})")
        return EXIT_FAILURE
    return EXIT_OK
