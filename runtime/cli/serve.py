"""``donecheck serve``: DoneCheck as an HTTP service (and for hooks) until stopped."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    add_judge_options,
    error,
    judge_overrides,
)


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    serve = commands.add_parser(
        "serve",
        help="run DoneCheck as an HTTP service (and for hooks) until stopped",
        description=(
            "Start DoneCheck (on a local Ray instance, an existing one with --address, or "
            "in this process with --in-process) and serve its HTTP API: sessions, events, "
            "stops, reports, statistics, and the Claude Code hook endpoint. The URL and "
            "token are written to a per-user runtime file that 'donecheck hook' reads. "
            "The OpenAPI document is at /openapi.json. Stop with Ctrl-C, or --stop for a"
            " --daemon."
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
    kept = serve.add_argument_group(
        "keeping it running",
        "A hook needs the service running. --daemon starts it in the background and"
        " returns once it serves (its runtime file holds its pid); --stop stops it;"
        " --systemd-unit prints a systemd user unit that keeps it running across"
        " logins and reboots.",
    )
    kept.add_argument("--daemon", action="store_true", help="start in the background")
    kept.add_argument(
        "--log-file",
        default=None,
        help="where a --daemon service writes its log (default: beside the runtime file)",
    )
    kept.add_argument("--stop", action="store_true", help="stop the running service")
    kept.add_argument(
        "--systemd-unit",
        action="store_true",
        help="print a systemd user unit for these options, and exit",
    )
    add_judge_options(serve)
    serve.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.actors.judge import is_loopback
    from donecheck.actors.redact import redact_url
    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.endpoint import (
        Endpoint,
        new_token,
        remove_endpoint,
        runtime_file,
        write_endpoint,
    )

    try:
        overrides = judge_overrides(args)
    except ValueError as exc:
        error(str(exc))
        return EXIT_INPUT
    if args.stop or args.daemon or args.systemd_unit:
        from donecheck.runtime.cli import daemon

        argv = getattr(args, "argv", None) or ["serve"]
        if args.stop:
            return daemon.stop(args)
        if args.systemd_unit:
            print(daemon.systemd_unit(argv), end="")
            return EXIT_OK
        return daemon.daemon(args, argv)
    # There is always a token: gates run only for a caller that shows it (the runtime
    # file holds it, and donecheck hook sends it); every route needs it only beyond
    # loopback or with --require-token.
    if args.token_env:
        token = os.environ.get(args.token_env) or ""
        if not token:
            error(f"--token-env: the environment variable {args.token_env} is not set")
            return EXIT_INPUT
    else:
        token = new_token()
    required = bool(args.token_env) or args.require_token or not is_loopback(args.host)
    workspaces = [Path(w) for w in args.gate_workspace]
    for folder in workspaces:
        if not folder.is_dir():
            error(f"--gate-workspace {folder}: not a folder")
            return EXIT_INPUT
    if not 0 <= args.port <= 65535:
        error(f"--port must be from 0 to 65535, not {args.port}")
        return EXIT_INPUT
    if not os.environ.get("DONECHECK_DEPLOYMENT"):  # each service its own sessions
        overrides["deployment"] = f"serve-{args.port}"
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
        error(str(exc))
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
        error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
        return EXIT_FAILURE
    port = listener.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}"
    path = runtime_file(dc.config.namespace, args.runtime_file)
    write_endpoint(path, Endpoint(url, token, dc.config.namespace, os.getpid(), required))
    where = "in this process" if args.in_process else "on Ray"
    print(
        f"DoneCheck serves {url} (namespace {dc.config.namespace!r}, actors {where}, "
        f"ready in {time.monotonic() - began:.1f} s); sessions in"
        f" {redact_url(dc.config.effective_store_url)}; runtime file {path}"
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

    def stopped(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt  # so the runtime file is removed and the actors shut down

    # uvicorn shuts down on SIGTERM and then raises it again: without a handler that
    # would end the process before the cleanup below (`serve --stop`, systemd)
    signal.signal(signal.SIGTERM, stopped)
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn hands the Ctrl-C it handled back: a normal stop
        pass
    finally:
        remove_endpoint(path, os.getpid())
        dc.shutdown()
    return EXIT_OK
