"""Reviews per second and the overhead DoneCheck adds to a judge's latency.

Figures (one JSON line each, see ``_common.emit``):

* ``rules_review`` — rules-only reviews of a 200-event session by a reviewer
  actor on Ray: latency *inside the actor* (the actor's own p50/p99), and
  reviews/s from a driver at 1 and 100 in flight, beside the peer
  ``echo_actor`` — a bare Ray actor that returns the same request unread.
* ``judge_review`` — reviews with the scripted judge (a separate process on
  127.0.0.1 answering after ``--latency`` s) at 1, 100 and 1,000 concurrent
  sessions, through the deployment's reviewer actors and budget accountant:
  reviews/s, and p50/p99 overhead beyond the provider's latency.
* ``bare_httpx`` — the peer: one asyncio loop with one ``httpx.AsyncClient``
  making the same provider calls (the same prompt bytes) from one process, the
  practical limit on this machine. ``ratio_vs_bare`` = DoneCheck's reviews/s ÷
  this. A plain httpx client's pool scans every connection per request
  (encode/httpx#3215), which caps it at high concurrency, so a second peer,
  ``bare_aiohttp``, runs the same loop on one ``aiohttp.ClientSession`` (the
  client DoneCheck's judge calls use): the loop's ceiling, for comparison only.

Every review is a distinct session (no verdict cache hits) and carries its
acceptance items, as a controller's review does once pre-analysis is cached
for the task: one provider call per review on both sides.

Run: ``python -m benchmarks.review_throughput`` (or through ``benchmarks/run.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks._common import command_log, describe, emit, log

ANSWER = "I fixed add() in calc.py and all tests pass now; nothing else in the repo changed."
REQUEST = "Fix add() in calc.py.\n1. The tests must pass.\n2. Keep the public API unchanged."


def review_request(session: str, n_events: int) -> Any:
    from donecheck.actors.evidence.view import build_view
    from donecheck.actors.messages import EvidenceRequest, ReviewRequest
    from donecheck.actors.review.preanalysis import extract_acceptance

    entries = command_log(
        session,
        n_events // 2,
        lambda i: "pytest -q" if i % 10 == 0 else f"cat src/m{i}.py",
        lambda i: "=== 3 passed in 0.1s ===" if i % 10 == 0 else "x = 1\n" * 20,
    )
    return ReviewRequest(
        review_id=f"rv-{session}",
        session_id=session,
        request_id="q",
        request=REQUEST,
        answer=f"{ANSWER} ({session})",
        acceptance=extract_acceptance("q", REQUEST),
        # the evidence view a ledger shard would serve for this session
        view=build_view(
            entries,
            EvidenceRequest(session_id=session, request_id="q", request=REQUEST, prompt=True),
        ),
    )


_SCRIPTED = (
    "donecheck.runtime.testing.scripted"
    if importlib.util.find_spec("donecheck.runtime.testing") is not None
    else "donecheck.runtime.scripted"  # an earlier build (compare_builds)
)


class Echo:
    async def review(self, request: Any) -> Any:
        return request.review_id


async def _drive(
    send: Callable[[Any], Awaitable[Any]], requests: list[Any], concurrency: int
) -> tuple[float, list[float]]:
    """Send ``requests`` with ``concurrency`` in flight; (wall s, latencies s)."""
    limit = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(request: Any) -> None:
        async with limit:
            started = time.perf_counter()
            await send(request)
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(one(r) for r in requests))
    return time.perf_counter() - started, latencies


def bench_rules(n_events: int, reviews: int) -> None:
    import ray

    from donecheck.actors.reviewer import Reviewer

    reviewer = ray.remote(Reviewer).options(max_concurrency=256).remote()
    echo = ray.remote(Echo).options(max_concurrency=256).remote()
    requests = [review_request(f"s{i}", n_events) for i in range(reviews)]
    asyncio.run(_drive(reviewer.review.remote, requests[:50], 10))  # warm up both
    asyncio.run(_drive(echo.review.remote, requests[:50], 10))
    for concurrency in (1, 100):
        for name, handle in (("rules_review", reviewer), ("echo_actor", echo)):
            wall, latencies = asyncio.run(_drive(handle.review.remote, requests, concurrency))
            emit(
                name,
                "reviews_per_s",
                len(requests) / wall,
                "1/s",
                events=n_events,
                concurrency=concurrency,
                reviews=len(requests),
            )
            if concurrency == 1:
                emit(
                    name,
                    "driver_latency_p50",
                    describe(latencies)["p50"] * 1000,
                    "ms",
                    events=n_events,
                )
    stats = ray.get(reviewer.statistics.remote())
    for key in ("p50", "p99"):
        emit(
            "rules_review",
            f"in_actor_latency_{key}",
            stats[f"rules_review_ms_{key}"],
            "ms",
            events=n_events,
            target_p50_ms=5,
        )
    ray.kill(reviewer)
    ray.kill(echo)


def start_judge(latency: float, script: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """The scripted judge in its own process (its replies from ``script``, a JSON
    Lines file, first); the process and its URL."""
    replies = ["--script", str(script)] if script is not None else []
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            _SCRIPTED,
            "--latency",
            str(latency),
            *replies,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    first = child.stdout.readline()
    return child, json.loads(first)["url"]


async def bare_loop(
    url: str, bodies: list[bytes], concurrency: int, client: str
) -> tuple[float, list[float]]:
    """The same provider calls from one loop on one ``httpx`` or ``aiohttp`` client."""
    import aiohttp
    import httpx

    headers = {"content-type": "application/json"}
    latencies: list[float] = []
    limit = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with (
        httpx.AsyncClient(timeout=60, trust_env=False, limits=limits) as hx,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as ah,
    ):

        async def post(body: bytes) -> bytes:
            if client == "httpx":
                return (
                    await hx.post(url + "/chat/completions", content=body, headers=headers)
                ).content
            async with ah.post(url + "/chat/completions", data=body, headers=headers) as answer:
                return await answer.read()

        async def one(body: bytes) -> None:
            async with limit:
                started = time.perf_counter()
                json.loads(await post(body))["choices"][0]["message"]["content"]
                latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(one(b) for b in bodies[:concurrency]))  # open the connections
        latencies.clear()
        started = time.perf_counter()
        await asyncio.gather(*(one(b) for b in bodies))
        return time.perf_counter() - started, latencies


def bench_judge(n_events: int, latency: float, levels: list[int], reviewers: int) -> None:
    import ray

    from donecheck.actors.calls import RayReviewers
    from donecheck.actors.config import Config
    from donecheck.actors.deploy import deploy
    from donecheck.actors.review.prompt import build_review_prompt

    child, url = start_judge(latency)
    try:
        config = Config(
            namespace="bench-review",
            store_url="memory://",
            judge_base_url=url,
            judge_model="scripted",
            reviewer_actors=reviewers,
            ledger_shards=1,
            controller_shards=1,
            parser_actors=1,
        )
        deployment = deploy(config, detached=False)
        pool = RayReviewers(config.namespace, len(deployment.reviewers))
        warm = [review_request(f"warm-{i}", n_events) for i in range(8 * reviewers)]
        asyncio.run(_drive(pool.review, warm, len(warm)))  # every reviewer has a client
        for level in levels:
            count = max(level, 30)  # enough samples for a percentile at one in flight
            for round_no in (1, 2):
                requests = [
                    review_request(f"j{level}-{round_no}-{i}", n_events) for i in range(count)
                ]
                # the bare loop sends the very prompts DoneCheck builds for these sessions
                bodies = []
                for request in requests:
                    prompt = build_review_prompt(
                        request.view, request, request.acceptance, sees_images=False
                    )
                    body = {
                        "model": "scripted",
                        "messages": prompt.messages,
                        "temperature": 0.2,
                        "max_tokens": 8192,
                    }
                    bodies.append(json.dumps(body, ensure_ascii=False).encode())
                bare_wall, bare_lat = asyncio.run(bare_loop(url, bodies, level, "httpx"))
                aiohttp_wall, _ = asyncio.run(bare_loop(url, bodies, level, "aiohttp"))
                dc_wall, dc_lat = asyncio.run(_drive(pool.review, requests, level))
                if round_no == 1:
                    continue  # warm-up: connections, imports, actor code paths
                dc_rate, bare_rate = count / dc_wall, count / bare_wall
                overhead = describe([(x - latency) * 1000 for x in dc_lat])
                bare_overhead = describe([(x - latency) * 1000 for x in bare_lat])
                params = {
                    "events": n_events,
                    "reviews": count,
                    "concurrency": level,
                    "provider_latency_s": latency,
                    "reviewer_actors": reviewers,
                }
                emit("judge_review", "reviews_per_s", dc_rate, "1/s", **params)
                emit("bare_httpx", "calls_per_s", bare_rate, "1/s", **params)
                emit("bare_aiohttp", "calls_per_s", count / aiohttp_wall, "1/s", **params)
                emit(
                    "judge_review", "ratio_vs_bare", dc_rate / bare_rate, "x", target=0.7, **params
                )
                for key in ("p50", "p99"):
                    emit("judge_review", f"overhead_{key}", overhead[key], "ms", **params)
                    emit("bare_httpx", f"overhead_{key}", bare_overhead[key], "ms", **params)
        stats = deployment.statistics()
        judged = sum(v.get("judge_calls", 0) for k, v in stats.items() if k.startswith("reviewer"))
        log(f"reviewer judge calls: {judged}; budget: {stats.get('budget-0')}")
        deployment.kill()
    finally:
        child.terminate()
        child.wait(10)
        del ray


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--reviews", type=int, default=400, help="rules-only reviews per figure")
    parser.add_argument("--latency", type=float, default=0.2, help="scripted judge latency, s")
    parser.add_argument("--levels", default="1,100,1000", help="concurrent sessions")
    parser.add_argument("--reviewers", type=int, default=2, help="reviewer actors")
    parser.add_argument("--skip-rules", action="store_true")
    args = parser.parse_args()

    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        if not args.skip_rules:
            log("rules-only reviews …")
            bench_rules(args.events, args.reviews)
        log("judge reviews …")
        bench_judge(
            args.events, args.latency, [int(x) for x in args.levels.split(",")], args.reviewers
        )
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
