"""Evidence ledger: every session's events, in order, durable, de-duplicated.

One instance serves one shard of sessions (chosen by
:func:`~donecheck.actors.ids.shard_of`). It is a plain class; ``actors/deploy.py``
makes it a Ray actor.

* **Durable before acknowledged.** :meth:`append` numbers a batch of events,
  writes it to the :class:`~donecheck.actors.store.LedgerStore` in one
  transaction, and only then updates its memory and answers. If the write
  fails, nothing is acknowledged and nothing changes.
* **Idempotent.** Every event has an ``event_id`` (a content hash when the
  sender gave none). An event already stored is not stored again; its original
  sequence number is returned. So a caller — or Ray, retrying a call cut short
  by a crash — may send a batch twice.
* **Recovery.** Memory is a cache of the store: a session is loaded the first
  time it is touched. A ledger actor restarted after a crash therefore rebuilds
  each session from the store on demand, and a write that conflicts with the
  store (another writer got there first) reloads the session and tries again.
* **Bounded.** At most ``cached_sessions`` sessions stay in memory (least
  recently used leave first; they are reloaded when needed).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from donecheck.actors import process
from donecheck.actors.errors import StoreError
from donecheck.actors.evidence.fingerprint import RunningFingerprint
from donecheck.actors.evidence.index import EvidenceIndex
from donecheck.actors.evidence.pairing import Pairing
from donecheck.actors.evidence.view import SourceReader, ViewParts, base_view, completed
from donecheck.actors.evidence.writes import edits_of
from donecheck.actors.messages import (
    AppendAck,
    ApprovalStatement,
    EvidenceRequest,
    EvidenceView,
    FileSnapshot,
    LedgerEntry,
    LedgerEvent,
    LedgerView,
    Message,
    Operation,
    SessionClosed,
    ViewRequest,
    encode,
    ledger_event_decoder,
)
from donecheck.actors.process import process_facts
from donecheck.actors.store import EventRow, LedgerStore, MemoryStore, StoreLocation, opened

__all__ = ["EvidenceLedger", "event_id_of"]

_raw_list = msgspec.msgpack.Decoder(list[msgspec.Raw])
_Asked = TypeVar("_Asked", ViewRequest, EvidenceRequest)
_NEW, _DUPLICATE, _SKIPPED = 0, 1, 2


def _ack(marks: Sequence[tuple[int, int]]) -> AppendAck:
    return AppendAck(
        seqs=tuple(seq for seq, _ in marks),
        duplicates=sum(1 for _, mark in marks if mark == _DUPLICATE),
        skipped=sum(1 for _, mark in marks if mark == _SKIPPED),
    )


def event_id_of(event: LedgerEvent) -> str:
    """The event's id, or a hash of its content when the sender gave none."""
    if event.event_id:
        return event.event_id
    return "h-" + hashlib.blake2b(encode(event), digest_size=16).hexdigest()


@dataclass(slots=True)
class _Views:
    """A request's evidence on a log of ``length`` entries: its base view and parts
    (:func:`~.evidence.view.base_view`), and each completed view by what was asked."""

    key: tuple[str, str, int]
    """(request id, request text, log length)."""
    base: EvidenceView
    parts: ViewParts
    done: dict[tuple[bool, bool, int], EvidenceView] = field(default_factory=dict)


@dataclass(slots=True)
class _SessionLog:
    entries: list[LedgerEntry] = field(default_factory=list)
    by_event_id: dict[str, int] = field(default_factory=dict)
    closed: bool = False
    running: RunningFingerprint = field(default_factory=RunningFingerprint)
    pairing: Pairing = field(default_factory=Pairing)
    ops: list[Operation] | None = None
    """The pairing's operations as of ``pairing.count`` entries."""
    watched: set[str] = field(default_factory=set)
    """Paths the session's file snapshots are of (at most ``snapshot_targets``)."""
    index: EvidenceIndex | None = None
    """What a review looks up in the log (made at the first review, then fed as
    entries arrive: an idle session holds none)."""
    sources: SourceReader | None = None
    """The approval statements of the entries read so far (made at the first review
    that asks for them: an idle session holds none)."""
    views: _Views | None = None
    """The latest request's view, built once per request and log length, and what
    each ask added to it (:meth:`EvidenceLedger.evidence`)."""

    def fingerprint(self) -> str:
        """:func:`~.evidence.fingerprint` of the log, fed only the entries added since
        the last call (the log only grows)."""
        self.running.feed(self.entries[self.running.count :])
        return self.running.value

    def operations(self) -> list[Operation]:
        """The session's operations, pairing only the entries added since the last
        time (the log only grows)."""
        if self.ops is None or self.pairing.count != len(self.entries):
            self.absorb()
            self.ops = self.pairing.operations()
        return self.ops

    def absorb(self) -> None:
        """Pair and hash the entries added since the last time. The ledger does it as
        it appends them, while they are still in the CPU's cache: a view of a long
        session then reads no entry again (pairing 100k entries at the review read
        ~80 MB that had long left the cache)."""
        try:
            new = self.entries[self.pairing.count :]
            if new:
                self.ops = None
                self.pairing.feed(new)
            self.running.feed(self.entries[self.running.count :])
            if self.index is not None:
                self.index.feed(self.entries[self.index.count :])
        except BaseException:
            # a feed that stopped part-way has counted entries it did not take in:
            # start over from the whole log next time rather than skip them
            self.forget_derived()
            raise

    def evidence_index(self, snapshot_targets: int) -> EvidenceIndex:
        """The log's :class:`EvidenceIndex`, up to date (made whole the first time)."""
        if self.index is None:
            self.index = EvidenceIndex(snapshot_targets)
        self.index.feed(self.entries[self.index.count :])
        return self.index

    def approvals(self) -> list[ApprovalStatement]:
        """The approval statements of the log (each entry read once)."""
        if self.sources is None:
            self.sources = SourceReader()
        return self.sources.statements(self.entries)

    def forget_derived(self) -> None:
        """Drop what is derived from the entries (rebuilt from them when needed)."""
        self.pairing, self.running, self.ops = Pairing(), RunningFingerprint(), None
        self.index, self.sources, self.views = None, None, None

    @property
    def registered(self) -> bool:
        """The store knows this session (it has stored events of it)."""
        return bool(self.entries)


class EvidenceLedger:
    """Ordered, durable, de-duplicated event log per session."""

    def __init__(
        self,
        shard: int = 0,
        *,
        store: LedgerStore | StoreLocation | None = None,
        cached_sessions: int = 5_000,
        snapshot_targets: int = 24,
        settle_gc: bool = False,
    ) -> None:
        """``store`` defaults to memory (not durable). ``settle_gc``: set by
        ``deploy`` in an actor's process (:func:`~donecheck.actors.process.settle_gc`)."""
        self.shard = shard
        self.store: LedgerStore = opened(store) or MemoryStore()
        self._sessions: OrderedDict[str, _SessionLog] = OrderedDict()
        self._cached = cached_sessions
        self._snapshot_targets = snapshot_targets
        self._stats = {
            "calls": 0,
            "appended": 0,
            "duplicates": 0,
            "views": 0,
            "evidence": 0,
            "views_built": 0,
            "loads": 0,
            "evicted": 0,
            "conflicts": 0,
            "batches": 0,
            "snapshots_skipped": 0,
            "absorb_failures": 0,
        }
        if settle_gc:
            process.settle_gc()

    # ---------------------------------------------------------------- memory

    def _log(self, session_id: str, *, evict: bool = True) -> _SessionLog:
        log = self._sessions.get(session_id)
        if log is not None:
            self._sessions.move_to_end(session_id)
            return log
        log = _SessionLog()
        for row in self.store.load(session_id):
            event = ledger_event_decoder.decode(row.data)
            log.entries.append(LedgerEntry(seq=row.seq, event=event))
            log.by_event_id[row.event_id] = row.seq
            log.closed = log.closed or isinstance(event, SessionClosed)
            if isinstance(event, FileSnapshot):
                log.watched.add(event.path)
        self._stats["loads"] += 1
        self._sessions[session_id] = log
        if evict:
            self._evict()
        return log

    def _evict(self) -> None:
        while len(self._sessions) > self._cached:
            victim = next((s for s, log in self._sessions.items() if log.closed), None)
            if victim is None:
                victim = next(iter(self._sessions))
            del self._sessions[victim]
            self._stats["evicted"] += 1

    # ----------------------------------------------------------------- append

    def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        """Store ``events`` in order; they are durable when this returns."""
        self._stats["calls"] += 1
        return _ack(self._append_retrying(events, None))

    def append_packed(self, data: bytes) -> AppendAck:
        """:meth:`append` for a batch sent as :func:`encode_events` bytes. Each event
        is stored as the bytes it arrived in (no second encoding)."""
        return self.append_many([data])[0]

    def append_many(self, batches: Sequence[bytes]) -> list[AppendAck]:
        """Several callers' :meth:`append_packed` batches (one call from a
        :class:`~donecheck.actors.batching.Batcher`), stored in one transaction, in
        order: all of them are durable when this returns, or none is. One
        acknowledgement per batch."""
        self._stats["calls"] += 1
        raws: list[msgspec.Raw] = []
        sizes: list[int] = []
        for data in batches:
            items = _raw_list.decode(data)
            raws += items
            sizes.append(len(items))
        marks = self._append_retrying([ledger_event_decoder.decode(r) for r in raws], raws)
        acks: list[AppendAck] = []
        start = 0
        for size in sizes:
            acks.append(_ack(marks[start : start + size]))
            start += size
        return acks

    def _append_retrying(
        self, events: Sequence[LedgerEvent], raws: Sequence[msgspec.Raw] | None
    ) -> list[tuple[int, int]]:
        try:
            return self._append(events, raws)
        except StoreError as exc:
            if not exc.conflict:
                raise
            # Someone else wrote to these sessions (a previous incarnation of this
            # actor, say): forget them, reload from the store, and try once more.
            self._stats["conflicts"] += 1
            for event in events:
                self._sessions.pop(event.session_id, None)
            return self._append(events, raws)

    def _append(
        self, events: Sequence[LedgerEvent], raws: Sequence[msgspec.Raw] | None
    ) -> list[tuple[int, int]]:
        """``(seq, mark)`` per event: mark ``_NEW``, ``_DUPLICATE`` (its first seq) or
        ``_SKIPPED`` (seq 0)."""
        seqs: list[tuple[int, int]] = []
        rows: list[EventRow] = []
        new: list[tuple[_SessionLog, LedgerEntry, str]] = []
        planned: dict[str, dict[str, int]] = {}
        new_sessions: list[str] = []
        duplicates = skipped = 0
        log = _SessionLog()
        batch: dict[str, int] = {}
        watching: dict[str, set[str]] = {}
        current = None
        for index, event in enumerate(events):
            session_id = event.session_id
            if session_id == current:
                if session_id is not current:  # one string per batch, not one per event
                    msgspec.structs.force_setattr(event, "session_id", current)
            else:  # batches are mostly one session: look up once
                current = session_id
                log = self._log(session_id, evict=False)  # after the batch: see below
                if not log.registered and session_id not in planned:
                    new_sessions.append(session_id)
                batch = planned.setdefault(session_id, {})
            event_id = event.event_id or event_id_of(event)
            seen = log.by_event_id.get(event_id) or batch.get(event_id)
            if seen is not None:
                seqs.append((seen, _DUPLICATE))
                duplicates += 1
                continue
            if isinstance(event, FileSnapshot):  # at most snapshot_targets paths a session
                paths = watching.setdefault(session_id, set(log.watched))
                if event.path not in paths and len(paths) >= self._snapshot_targets:
                    seqs.append((0, _SKIPPED))
                    skipped += 1
                    continue
                paths.add(event.path)
            seq = len(log.entries) + len(batch) + 1
            batch[event_id] = seq
            data = bytes(raws[index]) if raws is not None else encode(event)
            rows.append(EventRow(session_id, seq, event_id, type(event).__name__, event.at, data))
            new.append((log, LedgerEntry(seq=seq, event=event), event_id))
            seqs.append((seq, _NEW))
        try:
            self.store.append(self.shard, rows, new_sessions)  # durable before acknowledged
        except BaseException:
            self._evict()
            raise
        for log, entry, event_id in new:
            log.entries.append(entry)
            log.by_event_id[event_id] = entry.seq
            if isinstance(entry.event, SessionClosed):
                log.closed = True
            elif isinstance(entry.event, FileSnapshot):
                log.watched.add(entry.event.path)
        for log in {id(log): log for log, _, _ in new}.values():
            try:
                log.absorb()  # while the new entries are still in the CPU's cache
            except Exception:
                # The events are stored: acknowledge them. The pairing starts over
                # at the next view, which then fails as it would have (a review
                # that cannot read its evidence is unverified) — never skips one.
                self._stats["absorb_failures"] += 1
        self._stats["appended"] += len(rows)
        self._stats["duplicates"] += duplicates
        self._stats["snapshots_skipped"] += skipped
        self._stats["batches"] += 1
        self._evict()  # only now: the logs this batch planned entries for stayed cached
        return seqs

    def view_packed(self, request: ViewRequest) -> bytes:
        """:meth:`view`, answered as msgpack bytes (decode with ``view_decoder``)."""
        return encode(self._counted(self.view, request))

    def _counted(self, answer: Callable[[_Asked], Message], request: _Asked) -> Message:
        self._stats["calls"] += 1
        return answer(request)

    def view_many(self, requests: Sequence[ViewRequest]) -> list[bytes | Exception]:
        """Several callers' :meth:`view_packed` in one call."""
        return self._each(requests, self.view)

    def _each(
        self, requests: Sequence[_Asked], answer: Callable[[_Asked], Message]
    ) -> list[bytes | Exception]:
        """Several callers' requests in one call, each answered packed; a request that
        fails (its session's store cannot be read) answers its own error."""
        self._stats["calls"] += 1
        answers: list[bytes | Exception] = []
        for request in requests:
            try:
                answers.append(encode(answer(request)))
            except Exception as exc:
                answers.append(exc)
        return answers

    def view(self, request: ViewRequest) -> LedgerView:
        """A session's entries after ``since_seq`` (at most ``limit``) and, with
        ``edits``, every write of the session; an unknown session has none."""
        self._stats["views"] += 1
        log = self._log(request.session_id)
        entries = log.entries
        shown: tuple[LedgerEntry, ...] = ()
        if "entries" in request.include:
            end = None if request.limit is None else request.since_seq + max(1, request.limit)
            shown = tuple(entries[request.since_seq : end])
        edits = tuple(edits_of(log.operations())) if "edits" in request.include else ()
        return LedgerView(
            session_id=request.session_id,
            entries=shown,
            fingerprint=log.fingerprint(),
            last_seq=len(entries),
            edits=edits,
        )

    def evidence(self, request: EvidenceRequest) -> EvidenceView:
        """What a review of ``request.request_id`` needs, worked out from the session's
        log here, where it lives (:func:`~donecheck.actors.evidence.view.build_view`):
        the operations paired as the entries arrived, the approval statements read
        once per entry, the view itself kept until the log grows."""
        self._stats["evidence"] += 1
        log = self._log(request.session_id)
        key = (request.request_id, request.request, len(log.entries))
        views = log.views
        if views is None or views.key != key:
            self._stats["views_built"] += 1
            base, parts = base_view(
                log.entries,
                request,
                ops=log.operations(),
                actions=log.pairing.actions,
                index=log.evidence_index(self._snapshot_targets),
                snapshot_targets=self._snapshot_targets,
            )
            views = log.views = _Views(key, base, parts)
        asked = (request.prompt, request.approvals, request.excerpt_chars if request.prompt else 0)
        view = views.done.get(asked)
        if view is None:
            view = completed(
                views.base,
                views.parts,
                request,
                log.entries,
                statements=log.approvals() if request.approvals else None,
            )
            view = msgspec.structs.replace(view, fingerprint=log.fingerprint())
            views.done[asked] = view
        return view

    def evidence_packed(self, request: EvidenceRequest) -> bytes:
        """:meth:`evidence`, answered as msgpack bytes (``evidence_decoder``)."""
        return encode(self._counted(self.evidence, request))

    def evidence_many(self, requests: Sequence[EvidenceRequest]) -> list[bytes | Exception]:
        """Several callers' :meth:`evidence_packed` in one call."""
        return self._each(requests, self.evidence)

    def open_sessions(self) -> list[str]:
        """Sessions of this shard the store holds as open (what a restart can rebuild)."""
        return self.store.open_sessions(self.shard)

    def statistics(self) -> dict[str, Any]:
        return {
            "shard": self.shard,
            **process_facts(),
            "store": self.store.url,
            "cached_sessions": len(self._sessions),
            "cached_events": sum(len(s.entries) for s in self._sessions.values()),
            **self._stats,
        }

    def close(self) -> None:
        self.store.close()
