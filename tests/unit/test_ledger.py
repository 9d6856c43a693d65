"""The ledger over a real store: durable before acknowledged, idempotent, recoverable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.errors import StoreError
from donecheck.actors.evidence.fingerprint import fingerprint
from donecheck.actors.evidence.pairing import Pairing
from donecheck.actors.evidence.view import build_view
from donecheck.actors.ledger import EvidenceLedger, event_id_of
from donecheck.actors.messages import (
    AttachmentRef,
    EvidenceRequest,
    FileSnapshot,
    MaterialRecorded,
    SessionClosed,
    SessionOpened,
    ToolCall,
    ToolResult,
    ViewRequest,
)
from donecheck.actors.store import MemoryStore, open_store
from donecheck.parsers import parse_bytes


def call(i: int, sid: str = "s", command: str = "ls", event_id: str | None = None) -> ToolCall:
    return ToolCall(
        session_id=sid,
        call_id=f"c{i}",
        name="bash",
        arguments={"command": command},
        event_id=event_id if event_id is not None else f"e{i}",
    )


def result(i: int, sid: str = "s", code: int = 0, output: str = "") -> ToolResult:
    return ToolResult(
        session_id=sid, call_id=f"c{i}", exit_code=code, output=output, event_id=f"r{i}"
    )


def test_append_orders_and_deduplicates() -> None:
    ledger = EvidenceLedger()
    ack = ledger.append([call(1), call(2), call(3, sid="t")])
    assert ack.seqs == (1, 2, 1) and ack.duplicates == 0
    again = ledger.append([call(2), call(4), call(4)])  # a retry, and a repeat inside a batch
    assert again.seqs == (2, 3, 3) and again.duplicates == 2
    view = ledger.view(ViewRequest(session_id="s"))
    assert [e.event.call_id for e in view.entries] == ["c1", "c2", "c4"]
    assert ledger.view(ViewRequest(session_id="s", since_seq=2)).entries[0].seq == 3


def test_events_without_an_id_are_deduplicated_by_content() -> None:
    ledger = EvidenceLedger()
    event = call(1, event_id="")
    assert ledger.append([event]).seqs == (1,)
    assert ledger.append([event]).duplicates == 1
    assert event_id_of(event).startswith("h-")


def test_durable_before_acknowledged_and_rebuilt_by_a_new_instance(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path}"
    first = EvidenceLedger(0, store=open_store(url, "ledger-0"))
    first.append(
        [
            SessionOpened(session_id="s", request_id="r", request="fix", event_id="o"),
            call(1),
            result(1, code=1),
        ]
    )
    first.close()  # the actor dies; its memory is gone
    second = EvidenceLedger(0, store=open_store(url, "ledger-0"))
    assert second.open_sessions() == ["s"]
    view = second.view(ViewRequest(session_id="s", include=("entries", "edits")))
    assert [e.seq for e in view.entries] == [1, 2, 3]
    rebuilt = second.evidence(EvidenceRequest(session_id="s", request_id="r"))
    assert rebuilt.last_seq == 3 and rebuilt.acted  # the evidence of the rebuilt log
    # a retry of an append the dead instance had already stored is not doubled
    assert second.append([call(1), result(1, code=1), call(2)]).seqs == (2, 3, 4)
    assert second.statistics()["loads"] == 1


class Broken(MemoryStore):
    """A store whose disk is full."""

    def append(self, shard, rows, new_sessions=()):  # type: ignore[no-untyped-def]
        raise StoreError("memory://", "disk full")


def test_a_failed_write_acknowledges_nothing() -> None:
    ledger = EvidenceLedger(store=Broken())
    with pytest.raises(StoreError, match="disk full"):
        ledger.append([call(1)])
    assert ledger.view(ViewRequest(session_id="s")).entries == ()


def test_a_conflict_with_another_writer_reloads_and_retries() -> None:
    store = MemoryStore()
    ours, theirs = EvidenceLedger(store=store), EvidenceLedger(store=store)
    ours.append([call(1)])
    theirs.append([call(2)])  # e.g. an earlier incarnation still running
    ack = ours.append([call(3)])
    assert ack.seqs == (3,)
    assert [e.event.call_id for e in ours.view(ViewRequest(session_id="s")).entries] == [
        "c1",
        "c2",
        "c3",
    ]
    assert ours.statistics()["conflicts"] == 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2),  # which writer (an incarnation of the shard's actor)
            st.booleans(),  # that writer restarts first (forgets what it cached)
            st.lists(st.integers(0, 7), min_size=1, max_size=4),  # event ids, repeats likely
        ),
        max_size=25,
    )
)
def test_writers_sharing_a_store_never_store_an_event_twice(
    steps: list[tuple[int, bool, list[int]]],
) -> None:
    """The store keys rows by (session, seq) only; event ids are the ledger's to
    check. Whatever the interleaving of writers that each cache the log, every
    event is stored once, seqs run 1..n, and every acknowledgement names the seq
    its event is stored at."""
    store = MemoryStore()
    writers = [EvidenceLedger(store=store) for _ in range(3)]
    for index, restart, ids in steps:
        if restart:
            writers[index] = EvidenceLedger(store=store)
        ack = writers[index].append([call(i) for i in ids])
        stored = store.load("s")
        assert [row.seq for row in stored] == list(range(1, len(stored) + 1))
        at = {row.event_id: row.seq for row in stored}
        assert len(at) == len(stored)
        assert list(ack.seqs) == [at[f"e{i}"] for i in ids]


ASK = EvidenceRequest(session_id="s", request_id="r", request="Fix it.", approvals=True)


def test_a_pairing_that_fails_on_append_acknowledges_the_events_and_skips_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ledger pairs entries as it stores them. If that fails, the events are
    still acknowledged (they are durable), and no entry is left out of a later
    view's operations: the pairing starts over, and fails there if it still does."""
    ledger = EvidenceLedger()
    ledger.append([call(1, command="pytest"), result(1, code=1, output="1 failed")])
    real = Pairing.feed
    broken = {"on": True}

    def feed(self: Pairing, entries: Any) -> None:
        if broken["on"]:
            for _ in entries:
                self.count += 1  # as far as it got
            raise RuntimeError("pairing bug")
        real(self, entries)

    monkeypatch.setattr(Pairing, "feed", feed)
    ack = ledger.append([call(2, command="pytest"), result(2, code=1, output="2 failed")])
    assert ack.seqs == (3, 4)
    assert ledger.statistics()["absorb_failures"] == 1
    with pytest.raises(RuntimeError):
        ledger.evidence(ASK)
    broken["on"] = False
    view = ledger.view(ViewRequest(session_id="s", include=("entries",)))
    evidence = ledger.evidence(ASK)
    assert [f.run.call_seq for f in evidence.failed] == [3]  # the later failure: none skipped
    once = build_view(view.entries, ASK)  # one pass over the whole log
    assert evidence == msgspec.structs.replace(once, fingerprint=view.fingerprint)
    assert view.fingerprint == fingerprint(view.entries)


def test_memory_is_bounded_and_evicted_sessions_reload() -> None:
    ledger = EvidenceLedger(cached_sessions=2)
    for n in range(5):
        ledger.append([call(1, sid=f"s{n}")])
    ledger.append([SessionClosed(session_id="s4", event_id="z")])
    stats = ledger.statistics()
    assert stats["cached_sessions"] == 2 and stats["evicted"] >= 3
    assert [e.seq for e in ledger.view(ViewRequest(session_id="s0")).entries] == [1]


def test_views() -> None:
    ledger = EvidenceLedger(snapshot_targets=2)
    spec = parse_bytes(
        b"The report must list every open invoice with its due date and owner.\n", "spec.txt"
    )
    ledger.append(
        [
            SessionOpened(
                session_id="s",
                request_id="r",
                request="do it",
                event_id="o",
                attachments=(AttachmentRef(sha256=spec.sha256, name="spec.txt", size=70),),
            ),
            MaterialRecorded(session_id="s", material=spec, event_id="m"),
            call(1, command="pytest -q"),
            result(1, code=1, output="1 failed in 0.1s"),
            ToolCall(
                session_id="s",
                call_id="w",
                name="write_file",
                arguments={"path": "a.py", "content": "x"},
                event_id="w",
            ),
            ToolResult(session_id="s", call_id="w", output="ok", ok=True, event_id="wr"),
            call(2, command="cat spec.txt"),
            result(2, output=spec.blocks[0].text),
            call(3, command="pytest -q"),
            result(3, code=0, output="3 passed in 0.1s"),
            *(
                FileSnapshot(session_id="s", path=p, sha256="sha256:1", size=1, event_id=f"f{p}")
                for p in ("a.py", "b.py", "c.py")
            ),
        ]
    )
    view = ledger.evidence(
        EvidenceRequest(
            session_id="s", request_id="r", request="do it", prompt=True, excerpt_chars=500
        )
    )
    assert view.last_seq == 12
    (check,) = view.checks
    assert (check.command, check.runs, check.ok, check.latest) == ("pytest -q", 2, True, "E10")
    assert [e.path for e in view.edits] == ["a.py"]
    (read,) = view.reads
    assert read.status == "read" and read.evidence == ("E8",)
    assert view.snapshot_paths == ("a.py", "b.py")  # c.py: past the 2 targets, not kept
    assert view.excerpt is not None and view.excerpt.text.startswith("[E10] bash `pytest -q`")
    assert view.failed == () and list(view.passing) == ["test"]
    # the fingerprint covers the complete ledger, however little was asked for
    full = ledger.view(ViewRequest(session_id="s"))
    assert full.fingerprint == view.fingerprint and len(full.entries) == 12


def test_the_snapshot_cap_holds_per_session_whatever_sends_them(tmp_path: Path) -> None:
    from donecheck.actors.messages import FileSnapshot

    def snap(path: str, n: int = 0) -> FileSnapshot:
        return FileSnapshot(session_id="s", path=path, size=n, event_id=f"{path}-{n}")

    store = open_store(f"sqlite://{tmp_path}", "ledger-0")
    ledger = EvidenceLedger(0, store=store, snapshot_targets=24)
    acks = [ledger.append([snap(f"/w/f{i}.py")]) for i in range(20)]  # one handle's worth
    assert all(a.skipped == 0 for a in acks)
    again = EvidenceLedger(0, store=store, snapshot_targets=24)  # restarted, another handle
    ack = again.append([snap(f"/w/g{i}.py") for i in range(10)])
    assert ack.skipped == 6 and ack.seqs[4:] == (0,) * 6  # 20 + 4 = 24 paths
    assert again.append([snap("/w/f3.py", 1)]).skipped == 0  # a watched path: recorded
    assert again.append([snap("/w/new.py")]).skipped == 1
    assert again.statistics()["snapshots_skipped"] == 7


def test_the_running_fingerprint_is_the_fingerprint_of_the_whole_ledger(tmp_path: Path) -> None:
    """Issue 16: a view hashes only the entries added since the last one, and gets the
    value a full pass gets — also after a reload from the store."""
    from donecheck.actors.evidence.fingerprint import fingerprint

    ledger = EvidenceLedger(store=open_store(f"sqlite://{tmp_path}", "ledger-0"))
    seen = set()
    for batch in range(4):
        ledger.append([call(batch * 3 + i) for i in range(3)])
        view = ledger.view(ViewRequest(session_id="s"))
        assert view.fingerprint == fingerprint(view.entries)
        seen.add(view.fingerprint)
    assert len(seen) == 4
    again = EvidenceLedger(store=open_store(f"sqlite://{tmp_path}", "ledger-0"))
    reloaded = again.view(ViewRequest(session_id="s"))
    assert reloaded.fingerprint == view.fingerprint
