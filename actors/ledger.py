"""Evidence ledger: every session's events, in order, with idempotent appends.

One instance serves one shard of sessions (chosen by :func:`~donecheck.runtime.ids.shard_of`).
It is a plain class; ``actors/deploy.py`` makes it a Ray actor. An append is
applied completely before it returns, so an acknowledged event is recorded.

In this version the record lives in memory: open sessions are kept whole, and
of the closed ones only the latest ``keep_closed`` per shard, so memory stays
bounded however long the deployment runs.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from donecheck.runtime.evidence import fingerprint
from donecheck.runtime.ids import new_id
from donecheck.runtime.messages import (
    AppendAck,
    LedgerEntry,
    LedgerEvent,
    LedgerView,
    SessionClosed,
    ViewRequest,
)

__all__ = ["EvidenceLedger"]


@dataclass(slots=True)
class _SessionLog:
    entries: list[LedgerEntry] = field(default_factory=list)
    by_event_id: dict[str, int] = field(default_factory=dict)
    closed: bool = False


class EvidenceLedger:
    """Ordered, de-duplicated event log per session."""

    def __init__(self, shard: int = 0, keep_closed: int = 1_000) -> None:
        self.shard = shard
        self._sessions: dict[str, _SessionLog] = {}
        self._closed: OrderedDict[str, None] = OrderedDict()
        self._keep_closed = keep_closed
        self._evicted = 0
        self._appended = 0
        self._duplicates = 0
        self._views = 0

    def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        """Record ``events`` in order. An event whose ``event_id`` was seen is not
        stored twice; its original sequence number is returned instead."""
        seqs: list[int] = []
        duplicates = 0
        for event in events:
            log = self._sessions.setdefault(event.session_id, _SessionLog())
            event_id = event.event_id or new_id("ev-")
            seen = log.by_event_id.get(event_id)
            if seen is not None:
                seqs.append(seen)
                duplicates += 1
                continue
            seq = len(log.entries) + 1
            log.entries.append(LedgerEntry(seq=seq, event=event))
            log.by_event_id[event_id] = seq
            if isinstance(event, SessionClosed):
                log.closed = True
                self._closed[event.session_id] = None
            seqs.append(seq)
        self._evict()
        self._appended += len(events) - duplicates
        self._duplicates += duplicates
        return AppendAck(seqs=tuple(seqs), duplicates=duplicates)

    def view(self, request: ViewRequest) -> LedgerView:
        """Entries of a session after ``since_seq`` (an unknown session has none)."""
        self._views += 1
        log = self._sessions.get(request.session_id)
        entries = tuple(log.entries[request.since_seq :]) if log is not None else ()
        return LedgerView(
            session_id=request.session_id, entries=entries, fingerprint=fingerprint(entries)
        )

    def _evict(self) -> None:
        """Keep at most ``keep_closed`` closed sessions in memory, oldest out first."""
        while len(self._closed) > self._keep_closed:
            session_id, _ = self._closed.popitem(last=False)
            if self._sessions.pop(session_id, None) is not None:
                self._evicted += 1

    def forget(self, session_id: str) -> bool:
        """Drop a session from memory (after it is closed and reported)."""
        self._closed.pop(session_id, None)
        return self._sessions.pop(session_id, None) is not None

    def statistics(self) -> dict[str, Any]:
        return {
            "shard": self.shard,
            "sessions": len(self._sessions),
            "events": sum(len(s.entries) for s in self._sessions.values()),
            "appended": self._appended,
            "duplicates": self._duplicates,
            "views": self._views,
            "closed_kept": len(self._closed),
            "evicted": self._evicted,
        }
