"""A three-node Ray cluster (``ray.cluster_utils.Cluster`` on this machine) with the
PostgreSQL store and the actors spread over the nodes; one worker node is removed
while sessions run. Figures: acknowledged events lost and doubled (read back from
PostgreSQL), sessions ended, and the time from the node's loss until a whole new
session (open, record, stop, close) goes through again.

Needs PostgreSQL's ``initdb``/``pg_ctl`` (the machine's packages; ``.ci/run``
installs them). Run: ``python -m benchmarks.chaos_cluster --sessions 300``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks._common import describe, emit, log
from benchmarks.chaos_soak import emit_integrity, run_sessions

SHARDS = 3  # of each sharded kind: one per node


def probe_ids(lost: list[str], shards: int, salt: int) -> list[str]:
    """Session ids routed to each lost ledger, controller and budget shard, so the
    probe goes through the actors that were on the lost node."""
    from donecheck.actors.deploy import budget_key
    from donecheck.actors.ids import shard_of

    wanted = {
        (kind, int(index))
        for kind, _, index in (name.rpartition("-") for name in lost)
        if kind in {"ledger", "controller", "budget"} and index.isdigit()
    }
    found: list[str] = []
    for n in range(100_000):
        if not wanted:
            break
        candidate = f"probe-{salt}-{n}"
        hits = {
            (kind, index)
            for kind, index in wanted
            if shard_of(budget_key(candidate, None) if kind == "budget" else candidate, shards)
            == index
        }
        if hits:
            found.append(candidate)
            wanted -= hits
    return found or [f"probe-{salt}"]


async def probe(dc: Any, session_id: str | None = None) -> None:
    session = await dc.open_session_async("probe: does a turn go through?", session_id=session_id)
    call = session.tool_call_event("bash", {"command": "pytest -q"})
    await session.record([call, session.tool_result_event(call.call_id, "1 passed", exit_code=0)])
    await session.turn_stopping("Tests pass: 1 passed.")
    await session.close()


def main() -> None:
    import ray
    from ray.cluster_utils import Cluster

    from donecheck.actors.store import PostgresStore
    from donecheck.runtime import DoneCheck
    from tests.support import postgres

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--ramp", type=float, default=60.0)
    parser.add_argument("--kill-at", type=float, default=20.0, help="seconds into the run")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dc-cluster-pg-", dir="/tmp"))
    url = postgres.start(folder)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    workers = [cluster.add_node(num_cpus=1) for _ in range(2)]
    cluster.wait_for_nodes()
    dc = DoneCheck.start(
        address=cluster.address,
        namespace="chaos-cluster",
        store_url=url,
        spread_actors=True,
        ledger_shards=SHARDS,
        controller_shards=SHARDS,
        reviewer_actors=SHARDS,
        budget_shards=SHARDS,
        parser_actors=1,
    )
    recovery: dict[str, Any] = {}

    def lose_a_node() -> None:
        time.sleep(args.kill_at)
        victim = workers[0]
        on_it = [
            str(info.get("Name", ""))
            for info in ray._private.state.actors().values()
            if info.get("State") == "ALIVE"
            and (info.get("Address") or {}).get("NodeID") == victim.node_id
        ]
        log(f"removing node {victim.node_id[:8]} with {len(on_it)} actors: {sorted(on_it)}")
        lost = time.perf_counter()
        cluster.remove_node(victim)
        n = 0
        while True:
            try:
                targets = probe_ids(on_it, SHARDS, n)

                async def through_all(ids: list[str]) -> None:
                    for target in ids:
                        await probe(dc, target)

                asyncio.run(asyncio.wait_for(through_all(targets), 30))
                recovery.update(s=time.perf_counter() - lost, names=",".join(sorted(on_it)))
                return
            except Exception as exc:
                log(f"probe: {type(exc).__name__}")
                n += 1
                time.sleep(0.2)

    killer = threading.Thread(target=lose_a_node, daemon=True)
    started = time.perf_counter()
    try:
        killer.start()
        tally = run_sessions(dc, args.sessions, args.ramp, 0.0)
        killer.join(timeout=300)
    finally:
        wall = time.perf_counter() - started
        dc.shutdown(stop_deployment=True)
        ray.shutdown()
        cluster.shutdown()
    store = PostgresStore(url)
    try:
        stored = {s: [row.event_id for row in store.load(s)] for s in tally.acked}
    finally:
        store.close()
        postgres.stop(folder)
    stats = describe(tally.decisions_ms)
    params = {"sessions": args.sessions, "nodes": 3, "wall_s": round(wall)}
    emit_integrity("chaos_cluster", tally, stored, params)
    emit(
        "chaos_cluster",
        "recovery_after_node_loss_s",
        recovery.get("s", -1.0),
        "s",
        lost_actors=recovery.get("names"),
        **params,
    )
    emit("chaos_cluster", "decision_overhead_p99", stats["p99"], "ms", **params)


if __name__ == "__main__":
    main()
