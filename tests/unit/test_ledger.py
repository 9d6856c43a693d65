from __future__ import annotations

from donecheck.actors.ledger import EvidenceLedger
from donecheck.runtime.messages import SessionClosed, ToolCall, ViewRequest


def call(i: int, sid: str = "s", event_id: str | None = None) -> ToolCall:
    return ToolCall(session_id=sid, call_id=f"c{i}", name="bash", event_id=event_id or f"e{i}")


def test_append_orders_and_deduplicates() -> None:
    ledger = EvidenceLedger()
    ack = ledger.append([call(1), call(2), call(3, sid="t")])
    assert ack.seqs == (1, 2, 1) and ack.duplicates == 0
    again = ledger.append([call(2), call(4)])
    assert again.seqs == (2, 3) and again.duplicates == 1
    view = ledger.view(ViewRequest(session_id="s"))
    assert [e.event.call_id for e in view.entries] == ["c1", "c2", "c4"]
    assert ledger.view(ViewRequest(session_id="s", since_seq=2)).entries[0].seq == 3


def test_unknown_session_view_is_empty_and_stable() -> None:
    ledger = EvidenceLedger()
    a = ledger.view(ViewRequest(session_id="none"))
    assert a.entries == () and a.fingerprint == ledger.view(ViewRequest(session_id="x")).fingerprint


def test_statistics_and_forget() -> None:
    ledger = EvidenceLedger(shard=3)
    ledger.append([call(1), call(1), SessionClosed(session_id="s", event_id="z")])
    stats = ledger.statistics()
    assert stats == {
        "shard": 3,
        "sessions": 1,
        "events": 2,
        "appended": 2,
        "duplicates": 1,
        "views": 0,
        "closed_kept": 1,
        "evicted": 0,
    }
    assert ledger.forget("s") and not ledger.forget("s")


def test_closed_sessions_are_bounded_open_ones_are_not() -> None:
    ledger = EvidenceLedger(keep_closed=2)
    for i in range(5):
        ledger.append([call(1, sid=f"open-{i}")])
        ledger.append(
            [call(1, sid=f"done-{i}"), SessionClosed(session_id=f"done-{i}", event_id=f"z{i}")]
        )
    stats = ledger.statistics()
    assert stats["sessions"] == 5 + 2 and stats["evicted"] == 3
    assert ledger.view(ViewRequest(session_id="open-0")).entries
    assert not ledger.view(ViewRequest(session_id="done-0")).entries
    assert ledger.view(ViewRequest(session_id="done-4")).entries
