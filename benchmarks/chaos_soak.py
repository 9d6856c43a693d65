"""Sessions through the whole loop while actors die, commits fail and the judge
misbehaves: is anything acknowledged lost or doubled, does every session end,
does a budget cap hold, and what does a decision cost meanwhile?

* ``--sessions`` agent sessions (the ``sessions_load`` shape: reads, a failing
  test run, a false claim, a fix, a passing run, a second claim), started over
  ``--ramp`` seconds, each call retried as a hook or an agent would (up to 12
  times, 0.2-1 s apart) when DoneCheck answers with an error;
* a chaos thread kills a random actor (ledger, controller, budget, reviewer,
  parser) every 5-10 s; Ray restarts it from its store;
* ``--store-faults`` of all store writes fail as if the commit had
  (``tests/support/chaos.py``, set up in every actor's process by Ray);
* the judge (the scripted provider on 127.0.0.1) answers a mix: 429 with
  Retry-After, 500, a stream cut off part-way, a slow answer, and normal ones.

Figures: acknowledged events lost and doubled (read back from the ledger's own
SQLite files), sessions ended and their end reasons, budget overruns, p50/p99
decision overhead, kills and injected faults.

Run: ``python -m benchmarks.chaos_soak --sessions 1000``. Not covered here: a
multi-node cluster with PostgreSQL losing a node (issue 15's second half).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks._common import describe, emit, log
from benchmarks.sessions_load import CLAIM, FAILED, FIXED

KINDS = ("ledger", "controller", "budget", "reviewer", "parser")


def judge_script(path: Path, calls: int, seed: int) -> None:
    """A mix of misbehaving replies, in a seeded order, then normal ones."""
    rng = random.Random(seed)
    rows = []
    for _ in range(calls):
        roll = rng.random()
        if roll < 0.05:
            rows.append({"status": 429, "headers": {"retry-after": "0.2"}})
        elif roll < 0.10:
            rows.append({"status": 500})
        elif roll < 0.15:
            rows.append({"stream": True, "cut_after": 2})
        elif roll < 0.20:
            rows.append({"latency_s": 3.0})
        else:
            rows.append({"latency_s": 0.05})
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


class Tally:
    def __init__(self) -> None:
        self.acked: dict[str, list[str]] = {}
        self.ended: Counter[str] = Counter()
        self.unfinished: list[str] = []
        self.decisions_ms: list[float] = []
        self.call_errors: Counter[str] = Counter()
        self.overruns: list[str] = []


async def _retry(tally: Tally, what: str, call: Any) -> Any:
    for attempt in range(12):
        try:
            return await call()
        except Exception as exc:  # an actor restarting, an injected commit failure
            tally.call_errors[f"{what}: {type(exc).__name__}"] += 1
            if attempt == 11:
                raise
            await asyncio.sleep(random.uniform(0.2, 1.0))
    raise AssertionError("unreachable")


async def one_session(dc: Any, n: int, tally: Tally, judge_s: float) -> None:
    session = await _retry(
        tally, "open", lambda: dc.open_session_async(f"Fix add() in calc.py (#{n}).")
    )
    acked = tally.acked.setdefault(session.session_id, [])

    async def record(events: list[Any]) -> None:
        await _retry(tally, "record", lambda: session.record(events))
        acked.extend(e.event_id for e in events)

    try:
        for i in range(3):
            call = session.tool_call_event("read_file", {"path": f"src/m{i}.py"})
            await record([call, session.tool_result_event(call.call_id, "x = 1\n", ok=True)])
        run = session.tool_call_event("bash", {"command": "pytest -q"})
        await record([run, session.tool_result_event(run.call_id, FAILED, exit_code=1)])
        started = time.perf_counter()
        await _retry(tally, "stop", lambda: session.turn_stopping(CLAIM))
        tally.decisions_ms.append((time.perf_counter() - started - judge_s) * 1000)
        write = session.tool_call_event("write_file", {"path": "calc.py", "content": "..."})
        rerun = session.tool_call_event("bash", {"command": "pytest -q"})
        await record(
            [
                write,
                session.tool_result_event(write.call_id, "ok", exit_code=0),
                rerun,
                session.tool_result_event(rerun.call_id, "=== 3 passed in 0.04s ===", exit_code=0),
            ]
        )
        started = time.perf_counter()
        await _retry(tally, "stop", lambda: session.turn_stopping(FIXED))
        tally.decisions_ms.append((time.perf_counter() - started - judge_s) * 1000)
        report = await _retry(tally, "close", lambda: session.close())
        tally.ended[str(report.end_reason or report.decision)] += 1
        usage = report.usage
        if usage is not None and (
            usage.overruns or (usage.cap is not None and usage.aux_tokens > usage.cap)
        ):
            tally.overruns.append(session.session_id)
    except Exception as exc:
        tally.unfinished.append(f"{session.session_id}: {type(exc).__name__}: {exc}"[:200])


def run_sessions(dc: Any, sessions: int, ramp_s: float, judge_s: float) -> Tally:
    """``sessions`` agent sessions started evenly over ``ramp_s``; their tally."""
    tally = Tally()

    async def everything() -> None:
        async def delayed(n: int) -> None:
            await asyncio.sleep(ramp_s * n / max(1, sessions))
            await one_session(dc, n, tally, judge_s)

        await asyncio.gather(*(delayed(n) for n in range(sessions)))

    asyncio.run(everything())
    return tally


def emit_integrity(
    bench: str, tally: Tally, stored: dict[str, list[str]], params: dict[str, Any]
) -> None:
    """What every fault run reports: acknowledged events lost and doubled (against
    what the store holds), sessions ended and why, errors the clients retried."""
    lost = sum(len(set(ids) - set(stored.get(s, []))) for s, ids in tally.acked.items())
    doubled = sum(len(ids) - len(set(ids)) for ids in stored.values())
    emit(bench, "acknowledged_events_lost", lost, "events", **params)
    emit(bench, "events_doubled", doubled, "events", **params)
    emit(
        bench,
        "sessions_ended",
        sum(tally.ended.values()),
        "sessions",
        end_reasons=dict(tally.ended),
        unfinished=len(tally.unfinished),
        examples=tally.unfinished[:3],
        **params,
    )
    emit(
        bench,
        "call_errors_retried",
        sum(tally.call_errors.values()),
        "calls",
        by_kind=dict(tally.call_errors.most_common(8)),
        **params,
    )


def chaos(dc: Any, stop: threading.Event, kills: Counter[str], seed: int) -> None:
    import ray

    rng = random.Random(seed)
    groups = {
        "ledger": dc.deployment.ledgers,
        "controller": dc.deployment.controllers,
        "budget": dc.deployment.budgets,
        "reviewer": dc.deployment.reviewers,
        "parser": dc.deployment.parsers,
    }
    while not stop.wait(rng.uniform(5, 10)):
        kind = rng.choice(KINDS)
        ray.kill(rng.choice(groups[kind]), no_restart=False)
        kills[kind] += 1


def read_back(data_dir: Path, namespace: str, sessions: list[str]) -> dict[str, list[str]]:
    from donecheck.actors.store import SqliteStore

    folder = data_dir / namespace
    found: dict[str, list[str]] = {s: [] for s in sessions}
    for path in sorted(folder.glob("ledger-*.sqlite3")):
        store = SqliteStore(folder, path.stem)
        try:
            for session in sessions:
                found[session] += [row.event_id for row in store.load(session)]
        finally:
            store.close()
    return found


def main() -> None:
    from benchmarks.review_throughput import start_judge
    from donecheck.runtime import DoneCheck
    from tests.support.chaos import STORE_FAULT_RATE_ENV

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--ramp", type=float, default=60.0)
    parser.add_argument("--store-faults", type=float, default=0.005)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="dc-chaos-"))
    script = tmp / "judge.jsonl"
    judge_script(script, args.sessions * 3, args.seed)
    root = str(Path(__file__).resolve().parents[1])  # the actors import tests.support
    faults = {
        "env_vars": {
            STORE_FAULT_RATE_ENV: str(args.store_faults),
            "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p),
        },
        "worker_process_setup_hook": "tests.support.chaos.inject_store_faults",
    }
    child, url = start_judge(0.05, script)
    namespace = "chaos"
    dc = DoneCheck.start(
        namespace=namespace,
        data_dir=tmp / "data",
        num_cpus=2,
        judge_base_url=url,
        judge_model="scripted",
        judge_stream=False,
        ray_runtime_env=faults,
    )
    kills: Counter[str] = Counter()
    stop = threading.Event()
    thread = threading.Thread(target=chaos, args=(dc, stop, kills, args.seed), daemon=True)
    started = time.perf_counter()
    try:
        thread.start()
        tally = run_sessions(dc, args.sessions, args.ramp, 0.05)
    finally:
        stop.set()
        thread.join()
        wall = time.perf_counter() - started
        dc.shutdown()
        child.terminate()
    stored = read_back(tmp / "data", namespace, list(tally.acked))
    stats = describe(tally.decisions_ms)
    params = {"sessions": args.sessions, "store_faults": args.store_faults, "wall_s": round(wall)}
    emit_integrity("chaos_soak", tally, stored, params)
    emit("chaos_soak", "budget_overruns", len(tally.overruns), "sessions", **params)
    emit("chaos_soak", "decision_overhead_p50", stats["p50"], "ms", **params)
    emit("chaos_soak", "decision_overhead_p99", stats["p99"], "ms", **params)
    emit("chaos_soak", "kills", sum(kills.values()), "kills", by_kind=dict(kills), **params)
    log(f"data kept in {tmp}")


if __name__ == "__main__":
    main()
