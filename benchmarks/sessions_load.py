"""Many concurrent agent sessions through the whole review→fix loop.

Each simulated session is a scripted agent: it thinks for about
``--agent-latency`` seconds per model call (uniformly 0.5–1.5× that, seeded; an
``asyncio.sleep``, so the driver stays cheap), reads
a few files, runs the tests, sees one fail, and still claims they pass. DoneCheck
reviews (with the scripted judge on 127.0.0.1 at ``--judge-latency`` s, or
rules-only with 0) and steers; the agent writes the fix, reruns the tests and
stops again; DoneCheck delivers; the session closes. Two decisions per session.
Sessions start spread over one session length (``--ramp``, by default the
agent's seven think times), as a steady stream of users would, so at the peak
about N sessions are open at once; the peak actually reached is reported with
each level. A few warm-up sessions run first and are not counted.

Figures (one JSON line each):

* ``sessions_load`` ``sessions_per_s`` — sessions completing the loop per second,
  at 10 / 100 / 1,000 / 5,000 concurrent sessions;
* ``decision_overhead_p50/p99`` — ``turn_stopping`` latency beyond the model
  time inside it: one judge call (the review) per decision; the pre-analysis
  runs at open while the agent thinks;
* ``memory_per_idle_session`` — growth of the actors' resident memory (ledger,
  controller, budget, reviewer) per open idle session;
* ``shards`` — the same load with every sharded actor kind at 1 shard and at 2,
  and their ratio (no shared lock: 2 shards should do ~2× on 2 cores).

Run: ``python -m benchmarks.sessions_load`` (or through ``benchmarks/run.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import time
from typing import Any

from benchmarks._common import describe, emit, log
from benchmarks.review_throughput import start_judge

CLAIM = "I fixed add() in the calculator module and all of the tests pass now."
FIXED = "[DoneCheck A2] add() is fixed; I reran pytest after the edit and it passed: 3 passed."
FAILED = "FAILED tests/test_calc.py::test_add - assert -1 == 5\n=== 1 failed, 2 passed in 0.04s ==="


class Gauge:
    """Sessions open now, and the most open at once."""

    def __init__(self) -> None:
        self.open = 0
        self.peak = 0

    def __enter__(self) -> Gauge:
        self.open += 1
        self.peak = max(self.peak, self.open)
        return self

    def __exit__(self, *_: object) -> None:
        self.open -= 1


async def one_session(
    dc: Any, n: int, agent_s: float, reads: int, gauge: Gauge | None = None
) -> tuple[float, float, str]:
    """One agent session; (first decision s, second decision s, outcome)."""
    with gauge or Gauge():
        return await _session(dc, n, agent_s, reads)


async def _session(dc: Any, n: int, agent_s: float, reads: int) -> tuple[float, float, str]:
    rng = random.Random(n)

    async def think() -> None:
        await asyncio.sleep(agent_s * rng.uniform(0.5, 1.5))

    session = await dc.open_session_async(f"Fix add() in calc.py so the tests pass (#{n}).")
    for i in range(reads):
        await think()
        call = session.tool_call_event("read_file", {"path": f"src/m{i}.py"})
        await session.record(
            [call, session.tool_result_event(call.call_id, "x = 1\n" * 10, ok=True)]
        )
    await think()
    call = session.tool_call_event("bash", {"command": "pytest -q"})
    await session.record([call, session.tool_result_event(call.call_id, FAILED, exit_code=1)])
    await think()
    started = time.perf_counter()
    first = await session.turn_stopping(CLAIM)
    first_s = time.perf_counter() - started
    await think()
    write = session.tool_call_event("write_file", {"path": "calc.py", "content": "..."})
    run = session.tool_call_event("bash", {"command": "pytest -q"})
    await session.record(
        [
            write,
            session.tool_result_event(write.call_id, "ok", exit_code=0),
            run,
            session.tool_result_event(run.call_id, "=== 3 passed in 0.04s ===", exit_code=0),
        ]
    )
    await think()
    started = time.perf_counter()
    second = await session.turn_stopping(FIXED)
    second_s = time.perf_counter() - started
    await session.close()
    outcome = f"{type(first).__name__}>{type(second).__name__}"
    return first_s, second_s, outcome


async def load(
    dc: Any, sessions: int, agent_s: float, reads: int, ramp_s: float
) -> tuple[float, list[tuple[float, float, str]], int]:
    gauge = Gauge()

    async def delayed(n: int) -> tuple[float, float, str]:
        await asyncio.sleep(ramp_s * n / max(1, sessions))
        return await one_session(dc, n, agent_s, reads, gauge)

    await asyncio.gather(*(one_session(dc, -n, 0.0, reads) for n in range(1, 9)))  # warm-up
    started = time.perf_counter()
    results = await asyncio.gather(*(delayed(n) for n in range(sessions)))
    return time.perf_counter() - started, results, gauge.peak


def run_level(
    dc: Any, sessions: int, args: argparse.Namespace, judge_s: float, label: dict[str, Any]
) -> float:
    ramp = args.ramp if args.ramp >= 0 else (args.reads + 4) * args.agent_latency
    wall, results, peak = asyncio.run(load(dc, sessions, args.agent_latency, args.reads, ramp))
    outcomes: dict[str, int] = {}
    for *_, outcome in results:
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    expected = outcomes.get("Steer>Deliver", 0)
    # model time inside each decision: one review (the pre-analysis runs at
    # open, while the agent thinks, unless the agent stops before it is done)
    overhead = [(t - judge_s) * 1000 for first, second, _ in results for t in (first, second)]
    stats = describe(overhead)
    params = {
        **label,
        "sessions": sessions,
        "peak_open": peak,
        "ramp_s": ramp,
        "outcomes": outcomes,
    }
    emit("sessions_load", "sessions_per_s", sessions / wall, "1/s", **params)
    emit("sessions_load", "decision_overhead_p50", stats["p50"], "ms", **params)
    emit("sessions_load", "decision_overhead_p99", stats["p99"], "ms", target_ms=100, **params)
    if expected != sessions:
        log(f"warning: {sessions - expected} session(s) did not go Steer → Deliver: {outcomes}")
    return sessions / wall


def actor_memory(dc: Any) -> dict[str, int]:
    """Resident bytes of the ledger, controller, budget and reviewer actors, by kind."""
    kinds: dict[str, int] = {}
    for name, stats in dc.statistics().items():
        kind = name.split("-")[0]
        if kind in {"ledger", "controller", "budget", "reviewer"}:
            kinds[kind] = kinds.get(kind, 0) + (stats.get("rss_bytes") or 0)
    return kinds


def _proc_cpu(pid: int) -> float:
    """CPU seconds a process has used (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (/proc/stat)."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def cpu_census(dc: Any, judge_pid: int | None) -> dict[str, float]:
    """CPU seconds so far of each DoneCheck actor, the driver, the judge, the machine."""
    census = {
        name: float(stats["cpu_s"])
        for name, stats in dc.statistics().items()
        if isinstance(stats, dict) and "cpu_s" in stats
    }
    census["driver"] = time.process_time()
    if judge_pid is not None:
        census["judge server"] = _proc_cpu(judge_pid)
    census["machine busy"], census["machine total"] = _machine_busy()
    return census


def report_cpu(
    before: dict[str, float], after: dict[str, float], sessions: int, label: dict[str, Any]
) -> None:
    """Where the CPU went: per session by process kind, and the busiest process."""
    used = {k: after[k] - before.get(k, 0.0) for k in after}
    wall = used.pop("machine total") / (os.cpu_count() or 1)
    machine = used.pop("machine busy")
    kinds: dict[str, float] = {}
    for name, seconds in used.items():
        kind = name.split("-")[0]
        kinds[kind] = kinds.get(kind, 0.0) + seconds
    busiest = max(used, key=lambda k: used[k])
    emit(
        "shards",
        "cpu_ms_per_session",
        machine / sessions * 1000,
        "ms",
        by_process_kind={k: round(v / sessions * 1000, 2) for k, v in sorted(kinds.items())},
        **label,
    )
    emit("shards", "machine_busy", machine / wall / (os.cpu_count() or 1), "fraction", **label)
    emit(
        "shards",
        "busiest_process_busy",
        used[busiest] / wall,
        "fraction of a core",
        process=busiest,
        **label,
    )


def bench_memory(dc: Any, idle: int) -> None:
    async def open_idle() -> list[Any]:
        sessions = []
        for start in range(0, idle, 200):
            batch = await asyncio.gather(
                *(
                    dc.open_session_async(f"Fix add() in calc.py, idle #{n}.")
                    for n in range(start, min(idle, start + 200))
                )
            )
            for session in batch:
                call = session.tool_call_event("read_file", {"path": "calc.py"})
                await session.record(
                    [call, session.tool_result_event(call.call_id, "def add(a, b): ...", ok=True)]
                )
            sessions.extend(batch)
        return sessions

    asyncio.run(load(dc, 0, 0.0, 1, 0.0))  # the warm-up sessions: imports, connections
    gc.collect()
    before = actor_memory(dc)
    sessions = asyncio.run(open_idle())
    after = actor_memory(dc)
    grew = sum(after.values()) - sum(before.values())
    emit(
        "sessions_load",
        "memory_per_idle_session",
        grew / idle / 1024,
        "KiB",
        idle_sessions=idle,
        target_kib=30,
        by_kind_kib={k: round((after[k] - before.get(k, 0)) / idle / 1024, 2) for k in after},
    )
    log(f"{len(sessions)} idle sessions open; actors grew {grew / 2**20:.1f} MiB")


def deploy(shards: int, judge_url: str | None, data_dir: str, namespace: str) -> Any:
    from donecheck.runtime.api import DoneCheck

    judge = {"judge_base_url": judge_url, "judge_model": "scripted"} if judge_url else {}
    return DoneCheck.start(
        namespace=namespace,
        data_dir=data_dir,
        ledger_shards=shards,
        controller_shards=shards,
        reviewer_actors=shards,
        budget_shards=shards,
        parser_actors=1,
        **judge,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="10,100,1000,5000", help="concurrent sessions")
    parser.add_argument("--agent-latency", type=float, default=8.0, help="s per agent model call")
    parser.add_argument("--judge-latency", type=float, default=0.2, help="s; 0 = rules-only")
    parser.add_argument("--reads", type=int, default=3, help="file reads before the first stop")
    parser.add_argument(
        "--ramp",
        type=float,
        default=-1,
        help="s over which sessions start (-1: one session length)",
    )
    parser.add_argument("--idle", type=int, default=2000, help="idle sessions for memory")
    parser.add_argument("--shard-sessions", type=int, default=1000, help="load for 1 vs 2 shards")
    parser.add_argument(
        "--shards", default="1,2", help='shard counts of the saturated runs ("1": one only)'
    )
    parser.add_argument(
        "--worker-niceness", type=int, default=0, help="Ray workers' niceness (Ray's own: 15)"
    )
    args = parser.parse_args()

    import tempfile

    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from donecheck.actors import deploy as dc_deploy
    from donecheck.actors.config import Config
    from donecheck.actors.deploy import embedded_ray_options, loopback_ray

    loopback_ray()
    lean_malloc = getattr(dc_deploy, "lean_malloc", None)  # absent in an earlier build
    if lean_malloc is not None:
        lean_malloc()  # as DoneCheck.start() does
    ray.init(
        logging_level=logging.ERROR,
        log_to_driver=False,
        # as DoneCheck.start() does, unless --worker-niceness says otherwise
        **embedded_ray_options(Config(num_cpus=2, worker_niceness=args.worker_niceness)),
    )
    child, url = start_judge(args.judge_latency) if args.judge_latency > 0 else (None, None)
    scratch = tempfile.mkdtemp(prefix="dc-load-")
    try:
        label = {
            "judge_latency_s": args.judge_latency,
            "agent_latency_s": args.agent_latency,
            "worker_niceness": args.worker_niceness,
        }
        # memory first, on a fresh deployment: after a heavy level the actors'
        # allocators hand memory back while idle sessions open, hiding their cost
        if args.idle > 0:
            dc = deploy(2, url, scratch, "load-memory")
            bench_memory(dc, args.idle)
            dc.shutdown(stop_deployment=True)
        levels = [int(x) for x in args.levels.split(",") if x.strip()]
        if levels:
            dc = deploy(2, url, scratch, "load-2")
            for level in levels:
                log(f"{level} sessions, 2 shards …")
                run_level(dc, level, args, args.judge_latency, {**label, "shards": 2})
            dc.shutdown(stop_deployment=True)
        rates = {}
        for shards in (int(x) for x in args.shards.split(",") if x.strip()):
            log(f"{args.shard_sessions} sessions, {shards} shard(s), no think time …")
            dc = deploy(shards, url, scratch, f"load-shards-{shards}")
            fast = argparse.Namespace(**{**vars(args), "agent_latency": 0.0, "ramp": 0.0})
            before = cpu_census(dc, child.pid if child else None)
            rates[shards] = run_level(
                dc, args.shard_sessions, fast, args.judge_latency, {**label, "shards": shards}
            )
            after = cpu_census(dc, child.pid if child else None)
            report_cpu(before, after, args.shard_sessions, {"shards": shards})
            dc.shutdown(stop_deployment=True)
        if 1 in rates and 2 in rates:
            emit(
                "shards",
                "throughput_ratio_2_vs_1",
                rates[2] / rates[1],
                "x",
                sessions=args.shard_sessions,
                target=1.6,
            )
    finally:
        if child is not None:
            child.terminate()
            child.wait(10)
        ray.shutdown()


if __name__ == "__main__":
    main()
