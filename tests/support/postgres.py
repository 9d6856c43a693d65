"""A throwaway PostgreSQL server from the machine's own packages, for the store tests.

    python -m tests.support.postgres start /tmp/pg   # prints the URL; server keeps running
    python -m tests.support.postgres stop /tmp/pg

``initdb`` runs in a fresh folder with trust authentication on loopback only,
on a free port, with its Unix socket in that folder. When run as root it runs
as the ``postgres`` system user (PostgreSQL refuses root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["find_bin", "start", "stop"]


def find_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    return candidates[0] if candidates else None


def _as_owner(cmd: list[str], folder: Path) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError(
            "running as root and there is no 'postgres' user to run initdb"
        ) from None
    shutil.chown(folder, "postgres")
    return ["runuser", "-u", "postgres", "--", *cmd]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(folder: Path) -> str:
    """Start a server with its data under ``folder``; returns its URL."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("PostgreSQL is not installed (no initdb/pg_ctl)")
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    port = _free_port()
    subprocess.run(
        _as_owner(
            [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"],
            folder,
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on"
    subprocess.run(
        _as_owner(
            [
                pg_ctl,
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "server.log"),
                "-w",
                "start",
            ],
            folder,
        ),
        check=True,
        capture_output=True,
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    (folder / "url").write_text(url)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return url
        time.sleep(0.2)
    raise RuntimeError("PostgreSQL did not start listening within 30 s")


def stop(folder: Path) -> None:
    pg_ctl = find_bin("pg_ctl")
    if pg_ctl is not None and (folder / "data").exists():
        subprocess.run(
            _as_owner([pg_ctl, "-D", str(folder / "data"), "-m", "fast", "-w", "stop"], folder),
            capture_output=True,
        )
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    action, where = sys.argv[1], Path(sys.argv[2])
    if action == "start":
        print(start(where))
    elif action == "stop":
        stop(where)
    else:
        sys.exit(f"usage: {sys.argv[0]} start|stop FOLDER")
