"""Keeping ``donecheck serve`` running across terminals: ``--daemon`` (started in the
background, its log in a file, its runtime file its pid file), ``--stop``, and
``--systemd-unit`` (a user service unit for systemd, which also keeps it across
reboots)."""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from donecheck.runtime.cli.common import EXIT_FAILURE, EXIT_OK, error

__all__ = ["START_S", "alive", "child_argv", "daemon", "stop", "systemd_unit", "where"]

START_S = 120.0
"""How long ``--daemon`` waits for the service to announce itself (Ray starts in ~10 s)."""
STOP_S = 30.0
_ONLY_HERE = {"--daemon", "--stop", "--systemd-unit"}


def where(args: argparse.Namespace) -> Path:
    """The runtime file this service writes (and ``--stop`` reads)."""
    from donecheck.runtime.endpoint import runtime_file

    namespace = os.environ.get("DONECHECK_NAMESPACE") or "donecheck"
    return runtime_file(namespace, args.runtime_file)


def child_argv(argv: Sequence[str]) -> list[str]:
    """The ``serve`` command line for the background or the unit: this Python, the
    same options, without the ones that only ask for a daemon, a stop or a unit."""
    kept = [a for a in argv if a not in _ONLY_HERE]
    if kept[:1] == ["serve"]:
        kept = kept[1:]
    return [sys.executable, "-m", "donecheck.runtime.cli", "serve", *kept]


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def daemon(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """Start the service in the background and return once it serves: its URL, its
    pid, its log file and how to stop it are printed."""
    from donecheck.runtime.endpoint import read_endpoint

    path = where(args)
    running = read_endpoint(path)
    if running is not None and alive(running.pid):
        print(
            f"DoneCheck already serves {running.url} (pid {running.pid}); stop it with"
            " 'donecheck serve --stop'."
        )
        return EXIT_OK
    log = Path(args.log_file) if args.log_file else path.with_suffix(".log")
    log.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(log, "ab") as out:
        child = subprocess.Popen(
            child_argv(argv),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,  # its own session: closing this terminal leaves it
            close_fds=True,
        )
    print(
        f"donecheck serve: starting in the background (pid {child.pid}, log {log})…",
        file=sys.stderr,
        flush=True,
    )
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        found = read_endpoint(path)
        if found is not None and found.pid == child.pid:
            print(
                f"DoneCheck serves {found.url} (pid {child.pid}); log {log}; runtime file"
                f" {path}. Stop it with 'donecheck serve --stop'."
            )
            return EXIT_OK
        if child.poll() is not None:
            error(f"the service exited with status {child.returncode} before serving; see {log}")
            return EXIT_FAILURE
        time.sleep(0.2)
    error(f"the service did not serve within {START_S:.0f} s (pid {child.pid}); see {log}")
    return EXIT_FAILURE


def stop(args: argparse.Namespace) -> int:
    """Stop the service the runtime file names (SIGTERM, then wait for it to go)."""
    from donecheck.runtime.endpoint import read_endpoint

    path = where(args)
    found = read_endpoint(path)
    if found is None:
        print(f"DoneCheck is not running (no runtime file {path}).")
        return EXIT_OK
    if not alive(found.pid):
        path.unlink(missing_ok=True)
        print(f"DoneCheck was not running (pid {found.pid} is gone); removed {path}.")
        return EXIT_OK
    try:
        os.kill(found.pid, signal.SIGTERM)
    except PermissionError:
        error(f"pid {found.pid} belongs to another user: not stopped")
        return EXIT_FAILURE
    deadline = time.monotonic() + STOP_S
    while time.monotonic() < deadline:
        if not alive(found.pid) or read_endpoint(path) is None:
            print(f"DoneCheck at {found.url} (pid {found.pid}) stopped.")
            return EXIT_OK
        time.sleep(0.2)
    error(f"pid {found.pid} did not stop within {STOP_S:.0f} s")
    return EXIT_FAILURE


def systemd_unit(argv: Sequence[str]) -> str:
    """A systemd user unit that runs this service with the same options."""
    command = " ".join(shlex.quote(part) for part in child_argv(argv))
    return (
        "# ~/.config/systemd/user/donecheck.service — then:\n"
        "#   systemctl --user daemon-reload && systemctl --user enable --now donecheck\n"
        '#   loginctl enable-linger "$USER"   # keep it running while you are logged out\n'
        "[Unit]\n"
        "Description=DoneCheck review service (donecheck serve)\n"
        "After=network.target\n\n"
        "[Service]\n"
        f"ExecStart={command}\n"
        "Restart=on-failure\n"
        "RestartSec=5\n\n"
        "[Install]\n"
        "WantedBy=default.target\n"
    )
