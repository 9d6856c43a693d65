"""Client CPU per judge call: DoneCheck's judge client beside bare httpx and aiohttp.

The scripted judge runs in its own process on 127.0.0.1 (answering at once), so
the CPU counted is the client's alone: ``--calls`` chat-completion calls of a
3 KB prompt, ``--concurrency`` at once, from one event loop, per client:

* ``bare_httpx`` — one ``httpx.AsyncClient`` (pool sized to the concurrency);
* ``bare_aiohttp`` — one ``aiohttp.ClientSession``;
* ``donecheck`` — :class:`~donecheck.actors.judge.OpenAIProvider`, with its
  deadline, retries, byte caps and usage parsing.

Figures: ``cpu_ms_per_call`` per client (median of ``--rounds``).

Run: ``python -m benchmarks.judge_client``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable

from benchmarks._common import emit, log
from benchmarks.review_throughput import start_judge

PROMPT = [{"role": "user", "content": "x" * 3000}]


async def bare_httpx(url: str, calls: int, concurrency: int) -> float:
    import httpx

    body = json.dumps({"model": "m", "messages": PROMPT, "max_tokens": 100}).encode()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, trust_env=False) as client:
        limit = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with limit:
                answer = await client.post(
                    url + "/chat/completions",
                    content=body,
                    headers={"content-type": "application/json"},
                )
                json.loads(answer.content)

        return await _cpu(one, calls)


async def bare_aiohttp(url: str, calls: int, concurrency: int) -> float:
    import aiohttp

    body = json.dumps({"model": "m", "messages": PROMPT, "max_tokens": 100}).encode()
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as client:
        limit = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with (
                limit,
                client.post(
                    url + "/chat/completions",
                    data=body,
                    headers={"content-type": "application/json"},
                ) as answer,
            ):
                json.loads(await answer.read())

        return await _cpu(one, calls)


async def donecheck(url: str, calls: int, concurrency: int) -> float:
    from donecheck.actors.judge import JudgeRoute, OpenAIProvider

    provider = OpenAIProvider(JudgeRoute(base_url=url, model="m"), max_connections=concurrency)
    limit = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with limit:
            await provider.generate(PROMPT, max_tokens=100, deadline_s=60)

    try:
        return await _cpu(one, calls)
    finally:
        await provider.aclose()


async def _cpu(one: Callable[[], Awaitable[None]], calls: int) -> float:
    await asyncio.gather(*(one() for _ in range(min(calls, 50))))  # connections open
    started = time.process_time()
    await asyncio.gather(*(one() for _ in range(calls)))
    return (time.process_time() - started) / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    child, url = start_judge(0.0)
    url = url.rstrip("/")
    try:
        clients = {"bare_httpx": bare_httpx, "bare_aiohttp": bare_aiohttp, "donecheck": donecheck}
        runs: dict[str, list[float]] = {name: [] for name in clients}
        for n in range(args.rounds):
            for name, client in clients.items():
                log(f"round {n + 1}: {name} …")
                runs[name].append(asyncio.run(client(url, args.calls, args.concurrency)))
        for name, values in runs.items():
            emit(
                "judge_client",
                "cpu_ms_per_call",
                statistics.median(values),
                "ms",
                client=name,
                calls=args.calls,
                concurrency=args.concurrency,
                rounds=[round(v, 4) for v in values],
            )
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    main()
