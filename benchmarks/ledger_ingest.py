"""Durable ledger ingest through the actors, beside a bare SQLite executemany.

Figures (one JSON line each):

* ``ledger_ingest`` — events/s and p50/p99 latency of one ``append`` call (from
  submit to acknowledgement, i.e. durable), for 1 and N ledger shards, SQLite
  and PostgreSQL, batches of 1, 10 and 100 events;
* ``ledger_bare`` — the peer: one process inserting the same rows into one SQLite
  file with ``executemany`` (WAL, ``synchronous=FULL``, one transaction per batch),
  the practical limit of the storage engine on this machine;
* ``ledger_view`` — latency of reading a 1,000-event session (all entries, and
  all entries with every view computed), p50/p99;
* ``ledger_vs_bare`` — the ratio the target names (batches of 100).

PostgreSQL: ``$DONECHECK_BENCH_POSTGRES_URL``, else a throwaway server started from
the machine's packages (as the tests do), else skipped with a note on stderr.
Run: ``python benchmarks/run.py ledger_ingest``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from benchmarks._common import describe, emit, log
from donecheck.actors.messages import (
    EvidenceRequest,
    ToolResult,
    ViewRequest,
    encode,
    encode_events,
    evidence_decoder,
    view_decoder,
)

OUTPUT = "collected 12 items\n\ntests/test_api.py ............   [100%]\n\n12 passed in 0.42s\n"
SESSIONS = 64


def make_batches(total: int, batch: int, shards: int, tag: str) -> list[list[ToolResult]]:
    """``total`` events in batches of one session each, spread over the sessions."""
    from donecheck.actors.ids import shard_of

    sessions = [f"{tag}-s{n}" for n in range(SESSIONS)]
    assert len({shard_of(s, shards) for s in sessions}) == shards
    batches = []
    for start in range(0, total, batch):
        session = sessions[(start // batch) % SESSIONS]
        batches.append(
            [
                ToolResult(
                    session_id=session,
                    call_id=f"c{n}",
                    output=OUTPUT,
                    exit_code=0,
                    event_id=f"{tag}-e{n}",
                    at=1_700_000_000.0 + n,
                )
                for n in range(start, min(start + batch, total))
            ]
        )
    return batches


def bare_sqlite(batches: list[list[ToolResult]], folder: Path) -> float:
    """events/s of one process inserting the same rows the ledger would, durably."""
    path = folder / "bare.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE dc_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        "event_id TEXT NOT NULL, kind TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, "
        "data BLOB NOT NULL, PRIMARY KEY (session_id, seq), UNIQUE (session_id, event_id))"
    )
    seqs: dict[str, int] = {}
    started = time.perf_counter()
    count = 0
    for batch in batches:
        rows = []
        for event in batch:
            seq = seqs[event.session_id] = seqs.get(event.session_id, 0) + 1
            rows.append(
                (event.session_id, seq, event.event_id, "ToolResult", event.at, encode(event))
            )
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT INTO dc_events VALUES (?,?,?,?,?,?)", rows)
        db.execute("COMMIT")
        count += len(rows)
    elapsed = time.perf_counter() - started
    db.close()
    return count / elapsed


def drive(
    ledgers: list[object], batches: list[list[ToolResult]], window: int
) -> tuple[float, list[float]]:
    """Send the batches to their shards, ``window`` calls in flight per shard."""
    import ray

    from donecheck.actors.ids import shard_of

    queues: list[list[list[ToolResult]]] = [[] for _ in ledgers]
    for batch in batches:
        queues[shard_of(batch[0].session_id, len(ledgers))].append(batch)
    in_flight: dict[object, tuple[int, float]] = {}
    latencies: list[float] = []
    positions = [0] * len(ledgers)
    events = sum(len(b) for b in batches)
    started = time.perf_counter()

    def submit(shard: int) -> None:
        if positions[shard] < len(queues[shard]):
            batch = queues[shard][positions[shard]]
            positions[shard] += 1
            # as Session.record sends it: one msgpack array per batch
            ref = ledgers[shard].append_packed.remote(encode_events(batch))  # type: ignore[attr-defined]
            in_flight[ref] = (shard, time.perf_counter())

    for shard in range(len(ledgers)):
        for _ in range(window):
            submit(shard)
    while in_flight:
        done, _ = ray.wait(list(in_flight), num_returns=1, timeout=120)
        if not done:
            raise TimeoutError("no append finished within 120 s")
        for ref in done:
            shard, sent = in_flight.pop(ref)
            ray.get(ref)
            latencies.append((time.perf_counter() - sent) * 1000)
            submit(shard)
    return events / (time.perf_counter() - started), latencies


@contextmanager
def postgres_url() -> Iterator[str | None]:
    given = os.environ.get("DONECHECK_BENCH_POSTGRES_URL")
    if given:
        yield given
        return
    try:
        from tests.support import postgres
    except ImportError:
        yield None
        return
    if postgres.find_bin("initdb") is None:
        log("PostgreSQL is not installed: PostgreSQL figures skipped")
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="dc-bench-pg-", dir="/tmp"))
    try:
        yield postgres.start(folder)
    finally:
        postgres.stop(folder)


def fresh_database(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    return f"{server.rpartition('/')[0]}/{name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply event counts")
    args = parser.parse_args()
    totals = {
        1: int(2_000 * args.scale),
        10: int(20_000 * args.scale),
        100: int(100_000 * args.scale),
    }
    window = 4

    import ray

    from donecheck.runtime import DoneCheck

    ray.init(
        num_cpus=os.cpu_count() or 1,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    with tempfile.TemporaryDirectory(prefix="dc-bench-ledger-") as tmp, postgres_url() as pg:
        folder = Path(tmp)
        bare = {}
        for batch, total in totals.items():
            place = folder / f"bare{batch}"
            place.mkdir()
            bare[batch] = bare_sqlite(make_batches(total, batch, 1, f"bare{batch}"), place)
            emit(
                "ledger_bare",
                "events_per_s",
                bare[batch],
                "1/s",
                store="sqlite",
                batch=batch,
                peer="one process, executemany, WAL + synchronous=FULL",
            )
        stores = [("sqlite", None)] + ([("postgresql", pg)] if pg else [])
        best: dict[tuple[str, int], float] = {}
        for store, server in stores:
            for shards in sorted({1, args.shards}):
                tag = f"{store}-{shards}"
                url = (
                    f"sqlite://{folder / tag}"
                    if store == "sqlite"
                    else fresh_database(server, f"dc_bench_{shards}")
                )
                dc = DoneCheck.start(
                    namespace=f"bench-{tag}",
                    ledger_shards=shards,
                    controller_shards=1,
                    parser_actors=1,
                    store_url=url,
                )
                ledgers = list(dc.deployment.ledgers)
                for batch, total in totals.items():
                    batches = make_batches(total, batch, shards, f"{tag}-b{batch}")
                    rate, latencies = drive(ledgers, batches, window)
                    best[(store, batch)] = max(best.get((store, batch), 0.0), rate)
                    stats = describe(latencies)
                    params = {
                        "store": store,
                        "shards": shards,
                        "batch": batch,
                        "events": total,
                        "in_flight_per_shard": window,
                    }
                    emit("ledger_ingest", "events_per_s", rate, "1/s", **params)
                    emit("ledger_ingest", "append_latency_p50", stats["p50"], "ms", **params)
                    emit("ledger_ingest", "append_latency_p99", stats["p99"], "ms", **params)
                if shards == max(1, args.shards) and store == "sqlite":
                    view_latency(dc)
                dc.shutdown(stop_deployment=True)
        emit(
            "ledger_vs_bare",
            "ratio",
            best[("sqlite", 100)] / bare[100],
            "x",
            note="best ledger events/s (batches of 100, SQLite) / bare executemany",
        )
    ray.shutdown()


def view_latency(dc: object) -> None:
    import ray

    from donecheck.actors.messages import ToolCall

    session = "view-session"
    ledger = dc.deployment.ledger_for(session)  # type: ignore[attr-defined]
    events: list[object] = []
    for n in range(500):
        command = "pytest -q" if n % 25 == 0 else f"cat src/m{n}.py"
        events.append(
            ToolCall(
                session_id=session,
                call_id=f"c{n}",
                name="bash",
                arguments={"command": command},
                event_id=f"vc{n}",
            )
        )
        events.append(
            ToolResult(
                session_id=session, call_id=f"c{n}", output=OUTPUT, exit_code=0, event_id=f"vr{n}"
            )
        )
    for start in range(0, len(events), 100):
        ray.get(ledger.append_packed.remote(encode_events(events[start : start + 100])))
    asks = (
        ("entries", ViewRequest(session_id=session)),
        (
            "evidence",
            EvidenceRequest(
                session_id=session, request_id="q", request="Fix it", prompt=True, approvals=True
            ),
        ),
    )
    for label, request in asks:
        method, decoder = (
            (ledger.view_packed, view_decoder)
            if isinstance(request, ViewRequest)
            else (ledger.evidence_packed, evidence_decoder)
        )
        ray.get(method.remote(request))
        samples = []
        for n in range(50):  # as a peer reads it: packed, then decoded here
            if isinstance(request, EvidenceRequest):  # a new request: worked out afresh
                request = msgspec.structs.replace(request, request=f"Fix it ({n})")
            started = time.perf_counter()
            view = decoder.decode(ray.get(method.remote(request)))
            samples.append((time.perf_counter() - started) * 1000)
        assert view.last_seq == 1_000
        stats = describe(samples)
        for key in ("p50", "p99"):
            emit("ledger_view", f"latency_{key}", stats[key], "ms", events=1_000, views=label)


if __name__ == "__main__":
    main()
