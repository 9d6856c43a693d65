"""Start-up of the stateful actors against the sessions their store holds (issue 16).

A SQLite store is filled with N past sessions' state — a budget record per session
(one tenant) and a controller record per session — and then a budget accountant
and a completion controller start on it, and touch one old session. Figures: the
start-up time, the first touch, and the sessions in memory afterwards, for N in
0, 10k and 100k. Target: start-up independent of N.

Run: ``python -m benchmarks.actor_startup`` (``--sizes``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import msgspec

from benchmarks._common import emit, log


def _fill(folder: Path, sessions: int) -> None:
    from donecheck.actors.budget import Pool, SessionUsage
    from donecheck.actors.controller import SessionRecord
    from donecheck.actors.loop import TaskState
    from donecheck.actors.messages import Policy
    from donecheck.actors.store import SqliteStore

    budget = SqliteStore(folder, "budget-0")
    usage = msgspec.msgpack.encode(SessionUsage(tenant="acme", tokens=1_000, main_calls=3))
    rows = [(f"session:s{n}", usage) for n in range(sessions)]
    rows.append(("tenant:acme", msgspec.msgpack.encode(Pool(tokens=1_000 * sessions))))
    for start in range(0, len(rows), 10_000):
        budget.put_states("budget-0", rows[start : start + 10_000])
    budget.close()
    controller = SqliteStore(folder, "controller-0")
    for start in range(0, sessions, 10_000):
        batch = []
        for n in range(start, min(sessions, start + 10_000)):
            task = TaskState(session_id=f"s{n}", request_id="r", request="Fix add() in calc.py")
            record = SessionRecord(policy=Policy(), task=task)
            batch.append((f"s{n}", msgspec.msgpack.encode(record)))
        controller.put_states("controller-0", batch)
    controller.close()


async def _measure(folder: Path, sessions: int) -> None:
    from donecheck.actors.budget import BudgetAccountant
    from donecheck.actors.config import Config
    from donecheck.actors.controller import CompletionController
    from donecheck.actors.messages import BudgetQuery, ReportQuery
    from donecheck.actors.store import SqliteStore

    config = Config()
    started = time.perf_counter()
    budget = BudgetAccountant(config=config, store=SqliteStore(folder, "budget-0"))
    budget_start = time.perf_counter() - started
    started = time.perf_counter()
    await budget.handle_async(BudgetQuery(session_id="s0"))
    budget_touch = time.perf_counter() - started

    class _Nobody:  # the report of an old session needs no ledger or reviewer
        async def view(self, request: object) -> None:
            raise AssertionError("not asked")

    started = time.perf_counter()
    controller = CompletionController(
        config=config,
        ledger=_Nobody(),  # type: ignore[arg-type]
        reviewer=_Nobody(),  # type: ignore[arg-type]
        store=SqliteStore(folder, "controller-0"),
    )
    controller_start = time.perf_counter() - started
    started = time.perf_counter()
    if sessions:
        await controller.handle(ReportQuery(session_id="s0"))
    controller_touch = time.perf_counter() - started
    for actor, start, touch, memory in (
        ("budget", budget_start, budget_touch, budget.statistics()["sessions"]),
        ("controller", controller_start, controller_touch, controller.statistics()["sessions"]),
    ):
        emit(
            "actor_startup",
            "start_s",
            start,
            "s",
            actor=actor,
            stored_sessions=sessions,
            first_touch_s=round(touch, 5),
            sessions_in_memory=memory,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 10_000, 100_000])
    args = parser.parse_args()
    for sessions in args.sizes:
        with tempfile.TemporaryDirectory(prefix="dc-startup-") as tmp:
            started = time.perf_counter()
            _fill(Path(tmp), sessions)
            log(f"{sessions:,} sessions stored in {time.perf_counter() - started:.1f} s")
            asyncio.run(_measure(Path(tmp), sessions))


if __name__ == "__main__":
    main()
