"""What one reviewed turn costs, through the real actors, beside a bare Ray round-trip.

Figures:

* ``rules_review`` — the rules-only review of a session with ``--events`` ledger
  entries, in process (the work a reviewer actor does per review);
* ``turn`` — open a session, record its events in one batch, ``turn_stopping``,
  close: sequential latency and concurrent throughput (async sessions);
* ``ray_roundtrip`` — the peer: a bare Ray actor method call that does nothing,
  measured in the same run, the floor under any actor hop.

Run: ``python -m benchmarks.turn_latency`` (or through ``benchmarks/run.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time

from benchmarks._common import command_log, describe, emit, log

ANSWER = "I fixed add() in calc.py and all tests pass now; nothing else in the repo changed."


def ledger_events(session: object, n: int) -> list[object]:
    """n events: tool calls and results, with a failing then passing test run."""
    events = []
    for i in range(n // 2 - 2):
        call = session.tool_call_event("read_file", {"path": f"src/m{i}.py"})  # type: ignore[attr-defined]
        events += [call, session.tool_result_event(call.call_id, "x = 1\n" * 20, ok=True)]  # type: ignore[attr-defined]
    for code in (1, 0):
        call = session.tool_call_event("bash", {"command": "pytest -q"})  # type: ignore[attr-defined]
        out = "=== 1 failed, 2 passed in 0.1s ===" if code else "=== 3 passed in 0.1s ==="
        events += [call, session.tool_result_event(call.call_id, out, exit_code=code)]  # type: ignore[attr-defined]
    return events


def bench_rules(n_events: int, repeat: int) -> None:
    from donecheck.actors.evidence.view import build_view
    from donecheck.actors.messages import EvidenceRequest, ReviewRequest
    from donecheck.actors.review.rules import review_by_rules

    entries = command_log(
        "s",
        n_events // 2,
        lambda i: "pytest -q" if i % 10 == 0 else f"cat m{i}.py",
        lambda i: "=== 3 passed in 0.1s ===",
    )
    request = ReviewRequest(
        review_id="r",
        session_id="s",
        request_id="q",
        request="Fix it",
        answer=ANSWER,
    )
    asked = EvidenceRequest(session_id="s", request_id="q", request="Fix it")
    samples = []
    for _ in range(repeat):  # the ledger's view of the log, then the rules on it
        started = time.perf_counter()
        review_by_rules(request, build_view(entries, asked))
        samples.append((time.perf_counter() - started) * 1000)
    stats = describe(samples)
    for key in ("p50", "p99"):
        emit("rules_review", f"latency_{key}", stats[key], "ms", events=n_events, repeat=repeat)


def bench_turns(sessions: int, n_events: int, concurrency: int) -> None:
    import ray

    from donecheck.runtime import DoneCheck

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    dc = DoneCheck.start()

    @ray.remote
    class Echo:
        def ping(self) -> int:
            return 1

    echo = Echo.remote()
    ray.get(echo.ping.remote())
    samples = []
    for _ in range(300):
        started = time.perf_counter()
        ray.get(echo.ping.remote())
        samples.append((time.perf_counter() - started) * 1000)
    floor = describe(samples)
    emit("ray_roundtrip", "latency_p50", floor["p50"], "ms", peer="bare actor call")

    def one_turn() -> float:
        started = time.perf_counter()
        session = dc.open_session("Fix add() in calc.py")
        session.record(ledger_events(session, n_events))
        session.turn_stopping(ANSWER)
        session.close()
        return (time.perf_counter() - started) * 1000

    for _ in range(5):
        one_turn()  # warm up every shard
    samples = [one_turn() for _ in range(sessions)]
    turn = describe(samples)
    for key in ("p50", "p99"):
        emit(
            "turn",
            f"latency_{key}",
            turn[key],
            "ms",
            events=n_events,
            sessions=sessions,
            mode="sequential",
        )
    emit(
        "turn",
        "latency_p50_in_roundtrips",
        turn["p50"] / floor["p50"],
        "x",
        events=n_events,
        note="turn p50 / bare actor round-trip p50",
    )

    async def many() -> float:
        limit = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with limit:
                session = await dc.open_session_async("Fix add() in calc.py")
                await session.record(ledger_events(session, n_events))
                await session.turn_stopping(ANSWER)
                await session.close()

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(sessions)))
        return time.perf_counter() - started

    elapsed = asyncio.run(many())
    emit(
        "turn",
        "throughput",
        sessions / elapsed,
        "turns/s",
        events=n_events,
        sessions=sessions,
        concurrency=concurrency,
    )
    log(f"statistics: {dc.statistics()}")
    dc.shutdown()
    ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    bench_rules(args.events, args.repeat)
    bench_turns(args.sessions, args.events, args.concurrency)


if __name__ == "__main__":
    main()
