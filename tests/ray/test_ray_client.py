"""DoneCheck.start("ray://host:port") against a separate Ray cluster started for this test."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray


def _clean_env() -> dict[str, str]:
    """This process's environment without what its own ray.init() added
    (RAY_CLIENT_MODE, RAY_ADDRESS, PYTHONBREAKPOINT …): a separate cluster and its
    client must not inherit the test session's Ray settings."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("RAY_") and k != "PYTHONBREAKPOINT"
    }
    # The test session's token (tests/conftest.py) stays, so no Ray writes one to $HOME.
    env["RAY_AUTH_TOKEN"] = os.environ["RAY_AUTH_TOKEN"]
    return env


_LOGS: list[Path] = []
"""The head's temporary folder, whose client-server logs a failure shows."""


def _client_logs() -> str:
    """The end of the Ray Client servers' error logs of the head this test started."""
    said = []
    for folder in _LOGS[-1:]:
        for log in sorted(folder.glob("session_*/logs/ray_client_server*.err"))[-3:]:
            said.append(f"--- {log.name}\n{log.read_text(errors='replace')[-1500:]}")
    return "\n".join(said)


_SPECIFIC_SERVER_PORT = 23000  # hard-coded in ray/util/client/server/proxier.py


def _wait_until_bindable(port: int, timeout_s: float) -> None:
    """Ray Client serves each client from a "specific server" on port 23000 and up.
    A head stopped moments before can leave it held for a few seconds, and a new
    specific server then dies at start; wait for the port to be free."""
    deadline = time.monotonic() + timeout_s
    while True:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("0.0.0.0", port))
                return
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"port {port} stayed busy for {timeout_s:g} s")
        time.sleep(0.5)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def client_address() -> Iterator[str]:
    ray_cli = Path(sys.executable).with_name("ray")
    gcs, client = _free_port(), _free_port()
    # Every port the head opens is named: Ray's defaults (e.g. the dashboard agent's
    # 52365) are already taken by the test session's own Ray or another on the host.
    named = {
        option: _free_port()
        for option in (
            "node-manager-port",
            "object-manager-port",
            "dashboard-agent-listen-port",
            "dashboard-agent-grpc-port",
            "metrics-export-port",
            "runtime-env-agent-port",
        )
    }
    workers = 40_000 + (os.getpid() % 200) * 100
    temp_dir = tempfile.mkdtemp(prefix="dcray-", dir="/tmp")  # unix socket paths stay short
    _wait_until_bindable(_SPECIFIC_SERVER_PORT, 60)
    log = open(os.path.join(temp_dir, "ray-start.log"), "wb")
    head = subprocess.Popen(
        [
            str(ray_cli),
            "start",
            "--head",
            "--block",
            f"--port={gcs}",
            f"--ray-client-server-port={client}",
            f"--min-worker-port={workers}",
            f"--max-worker-port={workers + 99}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={temp_dir}",
            *(f"--{option}={port}" for option, port in named.items()),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=_clean_env(),
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", client)) == 0:
                    break
            if head.poll() is not None:
                log.flush()
                said = Path(log.name).read_text(errors="replace")[-3000:]
                pytest.fail(f"ray start exited with {head.returncode}:\n{said}")
            time.sleep(0.5)
        else:
            pytest.fail("the Ray client server did not come up in 60 s")
        _LOGS.append(Path(temp_dir))
        yield f"ray://127.0.0.1:{client}"
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
        log.close()
        shutil.rmtree(temp_dir, ignore_errors=True)


def test_start_through_ray_client(client_address: str) -> None:
    script = textwrap.dedent(f"""
        from donecheck.runtime import DoneCheck
        dc = DoneCheck.start({client_address!r})
        s = dc.open_session("fix it", attachments=[("notes.txt", b"run pytest\\n")])
        c = s.tool_call("bash", {{"command": "pytest -q"}})
        s.tool_result(c, output="1 failed, 2 passed in 0.1s", exit_code=1)
        answer = "I fixed add() in calc.py and all tests pass now; nothing else changed."
        action = s.turn_stopping(answer)
        print(type(action).__name__, s.close().decision, flush=True)
        dc.shutdown(stop_deployment=True)
    """)
    env = _clean_env()
    env["RAY_AUTH_MODE"] = "token"  # Ray >= 2.59 enables token auth on local clusters
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:] + "\n" + _client_logs()
    assert done.stdout.split() == ["Steer", "need_fix"]
