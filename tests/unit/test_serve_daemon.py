"""``donecheck serve --daemon`` / ``--stop`` / ``--systemd-unit`` (issue 37 item 1): a
service that outlives its terminal, found and stopped through its runtime file. The
service runs its actors in process (no Ray), on a free port, with its runtime file,
log and store in a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "donecheck.runtime.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DONECHECK_DATA_DIR": str(tmp_path / "data"),
        "DONECHECK_RUNTIME_FILE": str(tmp_path / "run" / "donecheck.json"),
    }


def test_a_daemon_serves_after_its_starter_exits_and_stops_on_request(
    tmp_path: Path, env: dict[str, str]
) -> None:
    from donecheck.runtime.endpoint import read_endpoint

    runtime = tmp_path / "run" / "donecheck.json"
    started = _cli("serve", "--daemon", "--in-process", "--port", "0", env=env)
    assert started.returncode == 0, started.stderr
    endpoint = read_endpoint(runtime)
    assert endpoint is not None and endpoint.url in started.stdout
    assert f"(pid {endpoint.pid})" in started.stdout and "serve --stop" in started.stdout
    try:
        # the starter is gone; the service answers
        listed = _cli("sessions", env=env)
        assert listed.returncode == 0 and "No sessions yet" in listed.stdout, listed.stderr
        again = _cli("serve", "--daemon", "--in-process", "--port", "0", env=env)
        assert again.returncode == 0 and "already serves" in again.stdout
    finally:
        stopped = _cli("serve", "--stop", env=env)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout, stopped.stderr
    assert not runtime.exists()  # removed by the service itself on SIGTERM
    log = runtime.with_suffix(".log").read_text(encoding="utf-8")
    assert "DoneCheck serves" in log and str(tmp_path / "data").lstrip("/") in log
    nothing = _cli("serve", "--stop", env=env)
    assert nothing.returncode == 0 and "not running" in nothing.stdout


def test_a_systemd_unit_runs_the_same_service(env: dict[str, str]) -> None:
    unit = _cli("serve", "--systemd-unit", "--port", "8899", "--in-process", env=env)
    assert unit.returncode == 0, unit.stderr
    (exec_line,) = [line for line in unit.stdout.splitlines() if line.startswith("ExecStart=")]
    assert exec_line.startswith(f"ExecStart={sys.executable} -m donecheck.runtime.cli serve")
    assert exec_line.endswith("--port 8899 --in-process") and "--systemd-unit" not in exec_line
    assert "WantedBy=default.target" in unit.stdout and "Restart=on-failure" in unit.stdout


def test_install_says_the_hooks_need_the_service() -> None:
    from donecheck.runtime.cli.install import service_note
    from donecheck.runtime.endpoint import Endpoint

    down = service_note(None)
    assert "not running" in down and "donecheck serve --daemon" in down
    assert "--systemd-unit" in down
    up = service_note(Endpoint("http://127.0.0.1:9", None, "donecheck", os.getpid()))
    assert "http://127.0.0.1:9" in up and "must keep running" in up
    gone = service_note(Endpoint("http://127.0.0.1:9", None, "donecheck", 2**22 + 12345))
    assert "not running" in gone
