"""What a Claude Code hook costs, through ``donecheck serve``, and the HTTP layer's peer.

Figures (JSON lines):

* ``http_layer`` — a JSON echo over loopback HTTP, sequential round trips:
  Starlette on uvicorn (what ``serve`` uses) beside Ray Serve (the alternative),
  measured in the same run: the case for the choice in the README;
* ``hook`` — round trip of a Claude Code hook against a warm ``donecheck serve``
  (actors on Ray, rules-only), for ``PostToolUse`` and ``Stop``, through the
  ``http`` hook type (a POST to ``/v1/hooks/claude-code``, what Claude Code sends)
  and the ``command`` type (a ``donecheck hook`` process, Python start-up included);
* ``api_load`` — 1,000 sessions through the API (open, one batch of events, stop):
  all at once (``burst``: the machine's saturation, queueing included), then 1,000
  open sessions whose stops arrive at ``--stop-rate`` per second; the stop call's
  latency is the decision overhead an agent waits.

Run: ``python -m benchmarks.hook_latency`` (``--sessions``, ``--skip-serve-peer``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import describe, emit, log

FAILING = {"stdout": "F..\n1 failed, 2 passed in 0.1s", "stderr": "", "exitCode": 1}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _timed(fn: Any, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _emit(bench: str, samples: list[float], **params: Any) -> None:
    stats = describe(samples)
    emit(bench, "latency_p50", stats["p50"], "ms", **params)
    emit(bench, "latency_p99", stats["p99"], "ms", **params)


# ------------------------------------------------------------- the HTTP layer


def bench_http_layer(n: int) -> None:
    import threading

    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def echo(request: Request) -> JSONResponse:
        return JSONResponse(await request.json())

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=[Route("/echo", echo, methods=["POST"])]),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="off",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    body = {"hook_event_name": "PostToolUse", "tool_response": FAILING}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        client.post("/echo", json=body)
        _emit(
            "http_layer",
            _timed(lambda: client.post("/echo", json=body), n),
            server="starlette+uvicorn",
        )
    server.should_exit = True
    thread.join(10)

    import ray
    from ray import serve

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        serve_port = _free_port()
        serve.start(http_options={"host": "127.0.0.1", "port": serve_port})

        @serve.deployment
        class Echo:
            async def __call__(self, request: Any) -> dict[str, Any]:
                return dict(await request.json())

        serve.run(Echo.bind(), route_prefix="/echo", name="echo")
        with httpx.Client(base_url=f"http://127.0.0.1:{serve_port}") as client:
            for _ in range(20):
                client.post("/echo", json=body)
            _emit(
                "http_layer", _timed(lambda: client.post("/echo", json=body), n), server="ray-serve"
            )
        serve.shutdown()
    finally:
        ray.shutdown()


# ------------------------------------------------------------------ the hooks


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("donecheck")
    return [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]


def start_service(
    scratch: Path, in_process: bool = False
) -> tuple[subprocess.Popen[str], dict[str, str], dict[str, Any]]:
    runtime = scratch / "run" / "serve.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DONECHECK_")}
    env |= {
        "DONECHECK_DATA_DIR": str(scratch / "data"),
        "DONECHECK_RUNTIME_FILE": str(runtime),
        "DONECHECK_NAMESPACE": "bench-hooks",
    }
    flags = ["--in-process"] if in_process else []
    child = subprocess.Popen(
        [*_cli(), "serve", "--port", "0", *flags], env=env, stderr=subprocess.PIPE, text=True
    )
    assert child.stderr is not None
    said = []
    for line in child.stderr:  # progress lines, then the one that says where it serves
        said.append(line)
        if "serves" in line:
            return child, env, json.loads(runtime.read_text())
    raise SystemExit(f"hook_latency: serve did not start: {''.join(said)[-2000:]}")


def bench_hooks(
    endpoint: dict[str, Any], env: dict[str, str], http_n: int, command_n: int, serve: str
) -> None:
    from donecheck.runtime.hooks import checklist_of

    url = endpoint["url"]

    def post(session: str, n: int) -> dict[str, Any]:
        return {
            "session_id": session,
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_use_id": f"t{n}",
            "tool_input": {"command": "pytest -q"},
            "tool_response": FAILING,
        }

    def prompt(session: str) -> dict[str, Any]:
        return {
            "session_id": session,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "Fix add() in calc.py and make sure pytest -q passes.",
        }

    def stop(session: str) -> dict[str, Any]:
        return {
            "session_id": session,
            "hook_event_name": "Stop",
            "last_assistant_message": "Fixed add() in calc.py; all tests pass.",
        }

    with _HookClient(url) as client:
        hook = "/v1/hooks/claude-code"
        client.post(hook, json=prompt("warm"))
        for i in range(20):
            client.post(hook, json=post("warm", i))
        counter = iter(range(10**9))
        client.post(hook, json=prompt("http-post"))
        samples = _timed(lambda: client.post(hook, json=post("http-post", next(counter))), http_n)
        _emit("hook", samples, type="http", event="PostToolUse", n=http_n, serve=serve)
        stops = []
        for i in range(http_n // 4):
            session = f"http-stop-{i}"
            client.post(hook, json=prompt(session))
            client.post(hook, json=post(session, 0))
            started = time.perf_counter()
            answer = client.post(hook, json=stop(session))
            stops.append((time.perf_counter() - started) * 1000)
            assert checklist_of(answer.json()), answer.text
        _emit("hook", stops, type="http", event="Stop", n=len(stops), serve=serve)

    def command(payload: dict[str, Any]) -> None:
        done = subprocess.run(
            [*_cli(), "hook"], input=json.dumps(payload), env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr

    command(prompt("cmd-post"))
    samples = _timed(lambda: command(post("cmd-post", next(counter))), command_n)
    _emit("hook", samples, type="command", event="PostToolUse", n=command_n, serve=serve)
    stops = []
    for i in range(command_n):
        session = f"cmd-stop-{i}"
        command(prompt(session))
        command(post(session, 0))
        started = time.perf_counter()
        command(stop(session))
        stops.append((time.perf_counter() - started) * 1000)
    _emit("hook", stops, type="command", event="Stop", n=command_n, serve=serve)


async def bench_api_load(endpoint: dict[str, Any], sessions: int, rate: float, serve: str) -> None:
    # aiohttp, not httpx, for the load: an httpx pool of 1,000 connections scans them
    # all per request (encode/httpx#3215) and caps the client near 45 requests/s —
    # the figure measured the client, not the service
    import aiohttp

    base = endpoint["url"].rstrip("/")
    timeout = aiohttp.ClientTimeout(total=300)
    connector = aiohttp.TCPConnector(limit=sessions)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as http:
        client = _Client(http, base)
        events = [
            {
                "type": "tool_call",
                "name": "bash",
                "arguments": {"command": "pytest -q"},
                "call_id": "t",
            },
            {"type": "tool_result", "call_id": "t", "output": "1 failed in 0.1s", "exit_code": 1},
        ]

        async def one(i: int) -> tuple[float, float]:
            started = time.perf_counter()
            opened = await client.post(
                "/v1/sessions", json={"request": f"[{i}] Make pytest -q pass."}
            )
            sid = opened.json()["session_id"]
            await client.post(f"/v1/sessions/{sid}/events", json={"events": events})
            before = time.perf_counter()
            answer = await client.post(
                f"/v1/sessions/{sid}/stop", json={"answer": "All tests pass."}
            )
            assert answer.json()["action"] == "steer", answer.text
            now = time.perf_counter()
            return (now - before) * 1000, (now - started) * 1000

        started = time.perf_counter()
        results = await asyncio.gather(*(one(i) for i in range(sessions)))
        wall = time.perf_counter() - started
        _emit(
            "api_load",
            [r[0] for r in results],
            call="stop",
            sessions=sessions,
            mode="burst",
            serve=serve,
        )
        _emit(
            "api_load",
            [r[1] for r in results],
            call="open+events+stop",
            sessions=sessions,
            mode="burst",
            serve=serve,
        )
        emit(
            "api_load", "throughput", sessions / wall, "sessions/s", sessions=sessions, serve=serve
        )

        # Agents stop now and then, not all in the same millisecond: the sessions stay
        # open, and their stops arrive at a steady rate below saturation.
        opened = []
        for i in range(sessions):
            answer = await client.post(
                "/v1/sessions", json={"request": f"[p{i}] Make pytest -q pass."}
            )
            sid = answer.json()["session_id"]
            await client.post(f"/v1/sessions/{sid}/events", json={"events": events})
            opened.append(sid)

        async def stop(sid: str) -> float:
            before = time.perf_counter()
            answer = await client.post(
                f"/v1/sessions/{sid}/stop", json={"answer": "All tests pass."}
            )
            assert answer.json()["action"] == "steer", answer.text
            return (time.perf_counter() - before) * 1000

        tasks = []
        for sid in opened:
            tasks.append(asyncio.ensure_future(stop(sid)))
            await asyncio.sleep(1 / rate)
        paced = await asyncio.gather(*tasks)
        _emit(
            "api_load",
            list(paced),
            call="stop",
            sessions=sessions,
            mode=f"{rate:g} stops/s",
            serve=serve,
        )

        # The stops alone, all at once: sessions opened and recorded beforehand, then
        # every one of them stops in the same instant — the stop path's throughput.
        ready = []
        for i in range(sessions):
            answer = await client.post(
                "/v1/sessions", json={"request": f"[s{i}] Make pytest -q pass."}
            )
            sid = answer.json()["session_id"]
            await client.post(f"/v1/sessions/{sid}/events", json={"events": events})
            ready.append(sid)
        started = time.perf_counter()
        burst = await asyncio.gather(*(stop(sid) for sid in ready))
        wall = time.perf_counter() - started

        # The same through the hook endpoint: 1,000 Claude Code sessions (a prompt
        # and a failing run each), then all their Stop hooks at once.
        hook = "/v1/hooks/claude-code"
        for i in range(sessions):
            sid = f"burst-{i}"
            await client.post(
                hook,
                json={"session_id": sid, "hook_event_name": "UserPromptSubmit",
                      "prompt": "Make pytest -q pass."},
            )  # fmt: skip
            await client.post(
                hook,
                json={"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Bash",
                      "tool_use_id": "t1", "tool_input": {"command": "pytest -q"},
                      "tool_response": FAILING},
            )  # fmt: skip

        async def hook_stop(i: int) -> float:
            before = time.perf_counter()
            answer = await client.post(
                hook,
                json={"session_id": f"burst-{i}", "hook_event_name": "Stop",
                      "last_assistant_message": "All tests pass."},
            )  # fmt: skip
            assert "hookSpecificOutput" in answer.json(), answer.text
            return (time.perf_counter() - before) * 1000

        started = time.perf_counter()
        hooked = await asyncio.gather(*(hook_stop(i) for i in range(sessions)))
        hook_wall = time.perf_counter() - started
    _emit("api_load", list(hooked), call="Stop hook", sessions=sessions, mode="stops at once",
          serve=serve)  # fmt: skip
    emit("api_load", "stops_per_s", sessions / hook_wall, "1/s", sessions=sessions,
         call="Stop hook", mode="stops at once", serve=serve)  # fmt: skip
    _emit(
        "api_load", list(burst), call="stop", sessions=sessions, mode="stops at once", serve=serve
    )
    emit(
        "api_load",
        "stops_per_s",
        sessions / wall,
        "1/s",
        sessions=sessions,
        mode="stops at once",
        serve=serve,
    )


class _HookClient:
    """One keep-alive connection, as an http hook's client holds it, with Nagle off:
    httpx's client writes a request's head and body apart and waits out the server's
    delayed ACK (a steady ~45 ms here) — that figure measured the client."""

    def __init__(self, url: str) -> None:
        import http.client
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        self._connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port or 80, timeout=60
        )
        self._connection.connect()
        assert self._connection.sock is not None
        self._connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def __enter__(self) -> _HookClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._connection.close()

    def post(self, path: str, *, json: Any) -> _Answer:
        import json as _json

        body = _json.dumps(json).encode()
        self._connection.request("POST", path, body, {"content-type": "application/json"})
        return _Answer(self._connection.getresponse().read().decode())


class _Client:
    """``client.post(path, json=…)`` answering ``.json()`` and ``.text``, on aiohttp."""

    def __init__(self, http: Any, base: str) -> None:
        self._http = http
        self._base = base

    async def post(self, path: str, *, json: Any) -> _Answer:
        async with self._http.post(self._base + path, json=json) as answer:
            return _Answer(await answer.text())


class _Answer:
    def __init__(self, text: str) -> None:
        self.text = text

    def json(self) -> Any:
        return json.loads(self.text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000, help="sessions at once (1000)")
    parser.add_argument("--http-n", type=int, default=200)
    parser.add_argument(
        "--stop-rate", type=float, default=10.0, help="stops/s of the paced load (10)"
    )
    parser.add_argument("--command-n", type=int, default=20)
    parser.add_argument("--skip-serve-peer", action="store_true", help="no Ray Serve figure")
    parser.add_argument(
        "--serve",
        choices=["ray", "in-process", "both"],
        default="both",
        help="which 'donecheck serve' to measure (both)",
    )
    args = parser.parse_args(argv)
    if not args.skip_serve_peer:
        bench_http_layer(args.http_n)
    modes = ["ray", "in-process"] if args.serve == "both" else [args.serve]
    for mode in modes:
        with tempfile.TemporaryDirectory(prefix="donecheck-hooks-") as scratch:
            started = time.perf_counter()
            child, env, endpoint = start_service(Path(scratch), in_process=mode == "in-process")
            emit("serve", "startup", time.perf_counter() - started, "s", serve=mode)
            try:
                log(f"hook_latency: donecheck serve ({mode}) at {endpoint['url']}")
                bench_hooks(endpoint, env, args.http_n, args.command_n, mode)
                asyncio.run(bench_api_load(endpoint, args.sessions, args.stop_rate, mode))
            finally:
                child.send_signal(2)
                child.communicate(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
