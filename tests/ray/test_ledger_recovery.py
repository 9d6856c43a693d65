"""The crash test: appends while the ledger actor is killed; nothing acknowledged is lost
or doubled. Against SQLite and a real PostgreSQL."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import ray

from donecheck.actors.messages import ToolCall, ViewRequest
from donecheck.runtime import DoneCheck

pytestmark = pytest.mark.ray

EVENTS, BATCH, SESSIONS, KILLS = 10_000, 50, 20, 3


@pytest.fixture(params=["sqlite", "postgresql"])
def crash_deployment(request: pytest.FixtureRequest, ray_address: str, tmp_path: Path):
    url = (
        f"sqlite://{tmp_path / 'store'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    app = DoneCheck.start(
        namespace=f"crash-{request.param}",
        ledger_shards=1,
        controller_shards=1,
        parser_actors=1,
        store_url=url,
    )
    yield app
    app.shutdown(stop_deployment=True)


def test_kills_lose_or_double_no_acknowledged_event(crash_deployment: DoneCheck) -> None:
    ledger = crash_deployment.deployment.ledgers[0]
    events = [
        ToolCall(
            session_id=f"crash-s{n % SESSIONS}",
            call_id=f"c{n}",
            name="bash",
            arguments={"command": f"echo {n}"},
            event_id=f"ev-{n}",
        )
        for n in range(EVENTS)
    ]
    batches = [events[i : i + BATCH] for i in range(0, EVENTS, BATCH)]
    acked: list[str] = []
    failed: list[str] = []
    progress = threading.Event()
    kills = 0

    def killer() -> None:
        nonlocal kills
        for mark in (0.2, 0.45, 0.7):
            while len(acked) < mark * EVENTS and not progress.is_set():
                time.sleep(0.005)
            ray.kill(ledger, no_restart=False)
            kills += 1

    thread = threading.Thread(target=killer)
    thread.start()
    window: list[tuple[object, list[ToolCall]]] = []
    for batch in batches:
        window.append((ledger.append.remote(batch), batch))
        if len(window) >= 8:
            ref, sent = window.pop(0)
            _collect(ref, sent, acked, failed)
    for ref, sent in window:
        _collect(ref, sent, acked, failed)
    progress.set()
    thread.join()
    assert kills == KILLS

    stored: list[str] = []
    for n in range(SESSIONS):
        view = ray.get(ledger.view.remote(ViewRequest(session_id=f"crash-s{n}")), timeout=60)
        assert [e.seq for e in view.entries] == list(range(1, len(view.entries) + 1))
        stored += [e.event.event_id for e in view.entries]
    assert len(stored) == len(set(stored)), "an event was stored twice"
    assert set(acked) <= set(stored), "an acknowledged event was lost"
    assert set(stored) <= {e.event_id for e in events}
    # with Ray retrying calls cut short by a kill, every append ends acknowledged
    assert len(acked) + len(failed) == EVENTS
    stats = ray.get(ledger.statistics.remote())
    print(f"acked={len(acked)} failed={len(failed)} stored={len(stored)} after-restart={stats}")


def _collect(ref: object, sent: list[ToolCall], acked: list[str], failed: list[str]) -> None:
    try:
        ray.get(ref, timeout=120)
    except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError):
        failed.extend(e.event_id for e in sent)  # reported to the caller: may or may not be stored
    else:
        acked.extend(e.event_id for e in sent)
