"""Completion controller: the per-task state machine at the agent's stop boundary.

One instance serves one shard of sessions. For each ``turn_stopping`` it waits
for the session's attachments to be parsed, takes the session's complete ledger,
asks a reviewer, and turns the result into ``Deliver | Steer | Report`` through
the pure :func:`~donecheck.actors.loop.next_action`.

* A verdict is consumed exactly once: a repeated stop event with the same answer
  returns the same action without a second review.
* ``Cancel`` and a new user input bump the session's generation and cancel an
  in-flight review; a late result for an old generation is discarded.
* A review that fails or times out gives ``Report(unverified)`` — no loop, no pass.
* The events it takes — ``SessionOpened``, ``UserInput``, ``SessionClosed`` — it
  records in the session's ledger itself before acting on them: each event is
  sent once, to its one owner (a host never sends them to the ledger).
* State is durable when a store is given: every change to a session (its task,
  rounds, chain, policy, the last action) is committed before the reply, and a
  restarted controller reloads a session the first time it is touched — a
  restart never resets a round count or forgets an opt-out.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from donecheck.actors import process
from donecheck.actors.batching import answer_each
from donecheck.actors.clock import Clock, SystemClock, within
from donecheck.actors.config import Config
from donecheck.actors.errors import UnknownSessionError
from donecheck.actors.ids import serial_id
from donecheck.actors.loop import (
    REOPENS,
    Limits,
    TaskState,
    card_of,
    end_without_review,
    ending_action,
    next_action,
)
from donecheck.actors.loop.optout import switch_in
from donecheck.actors.lru import SessionCache
from donecheck.actors.messages import (
    Ack,
    AuxKind,
    BudgetQuery,
    Cancel,
    ControllerAction,
    ControllerInbox,
    Deliver,
    EvidenceRequest,
    EvidenceView,
    Material,
    MaterialRecorded,
    MilestoneCheck,
    NoVerdict,
    Policy,
    Report,
    ReportCard,
    ReportQuery,
    ReviewRequest,
    ReviewResult,
    SessionClosed,
    SessionOpened,
    SessionSummary,
    SetPolicy,
    Steer,
    TaskInfo,
    TaskQuery,
    TurnStopping,
    UsageSummary,
    UserInput,
    Verdict,
    ViewRequest,
)
from donecheck.actors.peers import BudgetPort, LedgerPort, ReviewerPort
from donecheck.actors.process import process_facts
from donecheck.actors.review.checklist import ANSWERS_BUDGET
from donecheck.actors.review.trivial import plain_and_short, trivial_stop
from donecheck.actors.store import LedgerStore, StateWriter, StoreLocation, opened

__all__ = ["CompletionController", "SessionRecord", "SessionStore"]

_HISTORY = 16  # finished tasks kept per session for report()
_ANSWERS_KEPT = 4  # earlier answers kept per task for the checklist
_CLOSED_KEPT = 4096  # closed sessions remembered in memory, to say so


class SessionRecord(msgspec.Struct, kw_only=True):
    """What the controller keeps durable about one session."""

    policy: Policy
    task: TaskState
    history: tuple[TaskState, ...] = ()
    last_stop: str | None = None
    """The event id of the latest stop, answered by ``last_action``."""
    last_action: Deliver | Steer | Report | None = None
    seen_seq: int | None = None
    """The ledger's last sequence number when ``last_action`` was decided."""
    closed: bool = False
    updated_at: float = 0.0


_record_decoder = msgspec.msgpack.Decoder(SessionRecord)


class SessionStore:
    """The controller's durable state: one :class:`SessionRecord` per session, in the
    actor's store under its own kind, each change written through group commits
    before the reply. Without a store nothing is durable and every load is empty."""

    def __init__(self, store: LedgerStore | None, kind: str) -> None:
        self._store = store
        self._kind = kind
        self._writer = StateWriter(store, kind) if store is not None else None

    @property
    def durable(self) -> bool:
        return self._store is not None

    def load_now(self, session_id: str) -> SessionRecord | None:
        if self._store is None:
            return None
        data = self._store.get_state(self._kind, session_id)
        return None if data is None else _record_decoder.decode(data)

    async def load(self, session_id: str) -> SessionRecord | None:
        """:meth:`load_now`, read in a worker thread (the event loop keeps serving)."""
        if self._store is None:
            return None
        return await asyncio.to_thread(self.load_now, session_id)

    async def save(self, session_id: str, record: SessionRecord) -> None:
        if self._writer is not None:
            await self._writer.save(session_id, msgspec.msgpack.encode(record))

    def busy(self, session_id: str) -> bool:
        """A write of the session is not committed yet."""
        return self._writer is not None and self._writer.busy(session_id)

    @property
    def commits(self) -> int:
        return self._writer.commits if self._writer is not None else 0

    def records(self) -> list[tuple[str, SessionRecord]]:
        """Every session the store holds, by id."""
        if self._store is None:
            return []
        return [
            (key, _record_decoder.decode(data)) for key, data in self._store.list_state(self._kind)
        ]


@dataclass(slots=True)
class _Session:
    """One session in memory: its durable state (``state``, what the store keeps,
    the only copy) and what lives only while the actor does."""

    state: SessionRecord
    limits: Limits
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    generation: int = 0
    inflight: asyncio.Task[tuple[ReviewResult, str]] | None = None
    materials: list[asyncio.Task[None]] = field(default_factory=list)
    preparing: asyncio.Task[None] | None = None
    usage: UsageSummary | None = None
    """The usage the latest review brought back (``None``: ask the accountant)."""


class CompletionController:
    def __init__(
        self,
        *,
        config: Config,
        ledger: LedgerPort,
        reviewer: ReviewerPort,
        budget: BudgetPort | None = None,
        store: LedgerStore | StoreLocation | None = None,
        shard: int = 0,
        clock: Clock | None = None,
        settle_gc: bool = False,
    ) -> None:
        """Without a store the state is not durable. ``settle_gc``: set by
        ``deploy`` in an actor's process (:func:`~donecheck.actors.process.settle_gc`)."""
        self.shard = shard
        self._config = config
        self._ledger = ledger
        self._reviewer = reviewer
        self._budget = budget
        self._store = SessionStore(opened(store), f"controller-{shard}")
        self._clock = clock or SystemClock()
        self._limits = Limits(
            max_rounds=config.max_rounds,
            round_window_s=config.round_window_s,
            trigger_min_chars=config.trigger_min_chars,
        )
        self._sessions: SessionCache[_Session] = SessionCache(config.state_cached_sessions)
        """Open sessions in memory; the least recently used idle ones are dropped past
        ``state_cached_sessions`` and reload from the store when touched."""
        self._closed: OrderedDict[str, None] = OrderedDict()
        """Sessions closed lately (a store says so for all of them)."""
        # pre-analysis while the agent works: only a judge makes one
        self._eager = config.preanalysis_at_open and bool(config.judge_base_url)
        self._stats = {
            "calls": 0,
            "batched": 0,
            "reviews": 0,
            "duplicates": 0,
            "discarded": 0,
            "unverified": 0,
            "restored": 0,
            "milestones": 0,
            "prepared": 0,
            "prepare_failures": 0,
            "dropped": 0,
            "reports": 0,
        }
        self._timing = {"review_call_s": 0.0}
        if settle_gc:
            process.settle_gc()

    # ------------------------------------------------------------------ inbox

    async def handle(
        self, msg: ControllerInbox
    ) -> ControllerAction | Ack | ReportCard | TaskInfo | Verdict | NoVerdict:
        self._stats["calls"] += 1
        return await self._handle(msg)

    async def _handle(
        self, msg: ControllerInbox
    ) -> ControllerAction | Ack | ReportCard | TaskInfo | Verdict | NoVerdict:
        await self._load(msg.session_id)
        try:
            return await self._dispatch(msg)
        finally:
            self._trim()

    async def handle_many(self, messages: Sequence[ControllerInbox]) -> list[Any]:
        """Several sessions' messages in one call (from a
        :class:`~donecheck.actors.batching.Batcher`; never a stop, which waits for a
        review): each handled as if it came alone, answered or failed on its own."""
        self._stats["calls"] += 1
        self._stats["batched"] += len(messages)
        return await answer_each(self._handle(m) for m in messages)

    async def _dispatch(
        self, msg: ControllerInbox
    ) -> ControllerAction | Ack | ReportCard | TaskInfo | Verdict | NoVerdict:
        match msg:
            case TurnStopping():
                return await self._turn_stopping(msg)
            case SessionOpened():
                return await self._open(msg)
            case UserInput():
                self._get(msg.session_id)  # a known, open session's input only
                await self._ledger.append([msg])  # the controller records it (its owner)
                return await self._saved(msg.session_id, self._new_input(msg))
            case Cancel():
                return await self._saved(msg.session_id, self._cancel(msg))
            case SetPolicy():
                return await self._saved(msg.session_id, self._set_policy(msg))
            case MilestoneCheck():
                return await self._milestone(msg)
            case ReportQuery():
                return await self._report(msg)
            case TaskQuery():
                found = self._get(msg.session_id, closed_ok=True)
                return TaskInfo(
                    session_id=msg.session_id,
                    request_id=found.state.task.request_id,
                    closed=found.state.closed,
                )
            case SessionClosed():
                card = await self._report(ReportQuery(session_id=msg.session_id))
                session = self._get(msg.session_id, closed_ok=True)
                if session.state.closed:  # closed already (a retried message)
                    return card
                await self._ledger.append([msg])  # the controller records it (its owner)
                self._invalidate(session)
                session.state.closed = True
                await self._save(msg.session_id, session)
                self._sessions.pop(msg.session_id)
                self._closed[msg.session_id] = None
                while len(self._closed) > _CLOSED_KEPT:
                    self._closed.popitem(last=False)
                return card
        raise TypeError(f"the controller does not accept {type(msg).__name__}")

    # ------------------------------------------------------------ durability

    async def _save(self, session_id: str, session: _Session) -> None:
        session.state.updated_at = self._clock.now()
        await self._store.save(session_id, session.state)

    async def _saved(self, session_id: str, reply: Ack) -> Ack:
        await self._save(session_id, self._get(session_id))
        return reply

    async def _load(self, session_id: str) -> None:
        """Bring an open session the store has into memory, read in a worker thread
        (the event loop keeps serving); a message that changed it meanwhile wins."""
        if not self._store.durable or session_id in self._sessions:
            return
        record = await self._store.load(session_id)
        if record is None or session_id in self._sessions:
            return
        session = self._session_of(record)
        if not session.state.closed:
            self._sessions[session_id] = session

    def _trim(self) -> None:
        """Drop the least recently used sessions past the limit that nothing is using
        (no review, preparation or attachment in flight, no lock held, state
        committed): the store has them."""
        if not self._store.durable:
            return
        store = self._store

        def idle(session_id: str, session: _Session) -> bool:
            tasks = [session.inflight, session.preparing, *session.materials]
            return (
                not session.lock.locked()
                and all(t is None or t.done() for t in tasks)
                and not store.busy(session_id)
            )

        before = self._sessions.dropped
        self._sessions.trim(idle)
        self._stats["dropped"] += self._sessions.dropped - before

    def _restore(self, session_id: str) -> _Session | None:
        record = self._store.load_now(session_id)
        return None if record is None else self._session_of(record)

    def _session_of(self, record: SessionRecord) -> _Session:
        self._stats["restored"] += 1
        return _Session(state=record, limits=self._limits.with_policy(record.policy))

    def attach_materials(
        self,
        session_id: str,
        pending: Sequence[tuple[str, str, Awaitable[Material]]],
        *,
        call_id: str = "",
    ) -> Ack:
        """Record parsed attachments in the ledger as they arrive.

        ``pending`` holds ``(sha256, declared name, awaitable)`` per attachment;
        the awaitable is a Ray object ref of the parser's answer. A review of this
        session waits for them, so it sees every material. With ``call_id`` they
        are images a tool call returned: materials of origin ``tool``.
        """
        self._stats["calls"] += 1
        session = self._get(session_id)
        for sha256, name, item in pending:
            session.materials.append(
                asyncio.ensure_future(
                    self._record_material(session_id, sha256, name, item, call_id)
                )
            )
        if (
            not call_id
            and self._eager
            and session.state.policy.review
            and not session.state.task.chain
        ):
            session.preparing = asyncio.ensure_future(self._prepare_when_read(session))
        what = f"image(s) of tool call {call_id}" if call_id else "attachment(s)"
        return Ack(session_id=session_id, detail=f"{len(pending)} {what} pending")

    def sessions(self, limit: int = 100) -> list[SessionSummary]:
        """This shard's sessions, most recently updated first (at most ``limit``)."""
        records: dict[str, SessionRecord] = dict(self._store.records())
        for session_id, session in self._sessions.items():
            records[session_id] = session.state
        found = [
            SessionSummary(
                session_id=session_id,
                request=" ".join(record.task.request.split())[:120],
                decision=record.task.chain[-1].decision
                if record.task.chain
                else record.task.end_reason,
                rounds_used=record.task.rounds_used,
                end_reason=record.task.end_reason,
                tasks=len(record.history) + 1,
                closed=record.closed,
                updated_at=record.updated_at,
            )
            for session_id, record in records.items()
        ]
        found.sort(key=lambda s: s.updated_at, reverse=True)
        return found[:limit]

    def statistics(self) -> dict[str, Any]:
        return {
            "shard": self.shard,
            **process_facts(),
            "sessions": len(self._sessions),
            "in_flight": sum(
                1
                for s in self._sessions.values()
                if s.inflight is not None and not s.inflight.done()
            ),
            **self._stats,
            "commits": self._store.commits,
            **{k: round(v, 6) for k, v in self._timing.items()},
        }

    # -------------------------------------------------------------- commands

    def _get(self, session_id: str, *, closed_ok: bool = False) -> _Session:
        session = self._sessions.get(session_id)
        if session is None:
            session = self._restore(session_id)
            if session is None:
                if session_id in self._closed:
                    raise UnknownSessionError(session_id, "the session is closed")
                raise UnknownSessionError(session_id)
            if session.state.closed and not closed_ok:
                raise UnknownSessionError(session_id, "the session is closed")
            if not session.state.closed:
                self._sessions[session_id] = session
        return session

    async def _open(self, msg: SessionOpened) -> Ack:
        known = self._sessions.get(msg.session_id) or self._restore(msg.session_id)
        if known is not None:
            if not known.state.closed:
                self._sessions[msg.session_id] = known
            return Ack(session_id=msg.session_id, detail="already open")
        # the controller records the opening (its owner): durable before the task is
        await self._ledger.append([msg])
        if msg.session_id in self._sessions:  # the same opening, sent again meanwhile
            return Ack(session_id=msg.session_id, detail="already open")
        session = self._sessions[msg.session_id] = _Session(
            state=SessionRecord(
                policy=msg.policy,
                task=TaskState(
                    session_id=msg.session_id, request_id=msg.request_id, request=msg.request
                ),
            ),
            limits=self._limits.with_policy(msg.policy),
        )
        self._apply_switch(session, msg.request)
        await self._save(msg.session_id, session)
        if self._eager and msg.policy.review and not msg.attachments and not msg.images:
            # nothing attached: the request is all its pre-analysis reads, and the
            # evidence of a session just opened holds nothing else
            bare = EvidenceView(session_id=msg.session_id, request_id=msg.request_id, last_seq=1)
            session.preparing = asyncio.ensure_future(self._prepare(session, bare))
        return Ack(session_id=msg.session_id, detail="opened")

    def _invalidate(self, session: _Session) -> None:
        session.generation += 1
        session.state.last_stop = None
        session.state.last_action = None
        session.state.seen_seq = None
        if session.inflight is not None and not session.inflight.done():
            session.inflight.cancel()

    def _new_input(self, msg: UserInput) -> Ack:
        session = self._get(msg.session_id)
        known = {session.state.task.request_id, *(t.request_id for t in session.state.history)}
        if msg.request_id in known:  # the same input again (a replayed transcript)
            return Ack(session_id=msg.session_id, detail=f"task {msg.request_id} already known")
        self._invalidate(session)
        if session.state.task.end_reason is None and session.state.task.chain:
            session.state.task = msgspec.structs.replace(session.state.task, end_reason="cancelled")
        session.state.history = (*session.state.history, session.state.task)[-_HISTORY:]
        session.state.task = TaskState(
            session_id=msg.session_id, request_id=msg.request_id, request=msg.text
        )
        self._apply_switch(session, msg.text)
        if self._eager and session.state.policy.review:
            session.preparing = asyncio.ensure_future(self._prepare_when_read(session))
        return Ack(session_id=msg.session_id, detail=f"new task {msg.request_id}")

    @staticmethod
    def _apply_switch(session: _Session, text: str) -> None:
        """The user's ``donecheck: off`` / ``on`` in the message that starts a task."""
        switch = switch_in(text)
        if switch is None:
            return
        if switch.review or switch.scope == "session":
            session.state.policy = msgspec.structs.replace(
                session.state.policy, review=switch.review
            )
        session.state.task = msgspec.structs.replace(
            session.state.task, opted_out=not switch.review
        )

    def _cancel(self, msg: Cancel) -> Ack:
        session = self._get(msg.session_id)
        in_flight = session.inflight is not None and not session.inflight.done()
        self._invalidate(session)
        if session.state.task.end_reason is None:
            session.state.task, _ = end_without_review(
                session.state.task, "cancelled", msg.reason, session.limits
            )
        return Ack(
            session_id=msg.session_id,
            detail="cancelled an in-flight review" if in_flight else "cancelled",
        )

    def _set_policy(self, msg: SetPolicy) -> Ack:
        session = self._get(msg.session_id)
        if msg.scope == "session":
            session.state.policy = msgspec.structs.replace(session.state.policy, review=msg.review)
            return Ack(
                session_id=msg.session_id,
                detail=f"review {'on' if msg.review else 'off'} for the session",
            )
        session.state.task = msgspec.structs.replace(session.state.task, opted_out=not msg.review)
        return Ack(
            session_id=msg.session_id,
            detail=f"review {'on' if msg.review else 'off'}"
            f" for request {session.state.task.request_id}",
        )

    async def _usage(self, session: _Session) -> UsageSummary | None:
        if self._budget is None:
            return None
        try:
            return await self._budget.usage(
                BudgetQuery(
                    session_id=session.state.task.session_id, tenant=session.state.policy.tenant
                )
            )
        except Exception:  # a report without usage beats no report
            return None

    async def _report(self, msg: ReportQuery) -> ReportCard:
        self._stats["reports"] += 1
        session = self._get(msg.session_id, closed_ok=True)
        task = session.state.task
        if msg.request_id is not None and msg.request_id != task.request_id:
            matches = [t for t in session.state.history if t.request_id == msg.request_id]
            if not matches:
                raise UnknownSessionError(msg.session_id, f"no task {msg.request_id!r}")
            task = matches[-1]
        return card_of(task, session.limits.max_rounds, await self._usage(session))

    async def _with_usage(
        self, session: _Session, action: ControllerAction, known: UsageSummary | None = None
    ) -> ControllerAction:
        usage = known or await self._usage(session)
        if usage is None:
            return action
        return msgspec.structs.replace(
            action, report=msgspec.structs.replace(action.report, usage=usage)
        )

    async def _milestone(self, msg: MilestoneCheck) -> Ack | Verdict | NoVerdict:
        """One advisory mid-task review per request, when enabled. Never steers."""
        session = self._get(msg.session_id)
        if not self._config.milestone_checks:
            return Ack(session_id=msg.session_id, detail="milestone checks are off")
        if session.state.task.milestone_used:
            return Ack(
                session_id=msg.session_id,
                detail="the milestone check of this request was used already",
            )
        session.state.task = msgspec.structs.replace(session.state.task, milestone_used=True)
        await self._save(msg.session_id, session)
        self._stats["milestones"] += 1
        note = msg.note or "(the agent asks whether it is on track)"
        result, _ = await self._review(session, session.state.task, note, kind="milestone")
        return result

    # ------------------------------------------------------------ the review

    async def _turn_stopping(self, msg: TurnStopping) -> ControllerAction:
        session = self._get(msg.session_id)
        async with session.lock:
            if (
                msg.event_id
                and msg.event_id == session.state.last_stop
                and session.state.last_action
                and not await self._worked_since(session)
            ):
                self._stats["duplicates"] += 1  # the same stop event again: one answer
                return session.state.last_action
            session.usage = None
            session.state.seen_seq = None
            action = await self._decide(session, msg)
            if not isinstance(action, Steer):  # the turn ends: its card carries usage
                action = await self._with_usage(session, action, session.usage)
            session.state.last_stop = msg.event_id or None
            session.state.last_action = action
            await self._save(msg.session_id, session)
            return action

    async def _worked_since(self, session: _Session) -> bool:
        """Whether a stop event delivered again must be decided again: its answer let
        the turn end, and the ledger has grown since (the agent ran something after
        it, so a failing run now would be passed by the old answer)."""
        if not isinstance(session.state.last_action, Deliver):
            return False  # a steer or a report lets nothing through
        since = session.state.seen_seq
        if since is None:
            return True
        view = await self._ledger.view(
            ViewRequest(session_id=session.state.task.session_id, since_seq=since)
        )
        return bool(view.entries)

    async def _decide(self, session: _Session, msg: TurnStopping) -> ControllerAction:
        """Every stop is a stop. One that follows the loop's end gets that ending,
        unless the answer went to the user (pass, skipped) and the agent stopped
        again: then it is reviewed, on the rounds that are left."""
        task, limits = session.state.task, session.limits
        if task.end_reason is not None and task.end_reason not in REOPENS:
            return ending_action(task, limits)
        if not session.state.policy.review or task.opted_out:
            scope = "this request" if session.state.policy.review else "this session"
            session.state.task, action = end_without_review(
                task, "opted_out", f"DoneCheck is turned off for {scope}.", limits
            )
            return action
        if not msg.answer.strip() and not msg.without_answer:
            # said, not ended: the next stop is reviewed as usual
            _, action = end_without_review(
                task, "unverified", "The answer is empty: there was nothing to review.", limits
            )
            return action
        first_stop = not task.chain and task.end_reason is None
        if first_stop and not msg.without_answer and await self._trivial(session, task, msg.answer):
            answered = (*task.answers, msg.answer[:ANSWERS_BUDGET])[-_ANSWERS_KEPT:]
            session.state.task, action = end_without_review(
                msgspec.structs.replace(task, answers=answered),
                "skipped",
                "Not reviewed: a short first answer that claims nothing, on a request that"
                " names no check, file or attachment, with no tool activity.",
                limits,
            )
            return action
        if task.end_reason is not None:  # reopened: the loop goes on where it was
            task = msgspec.structs.replace(task, end_reason=None)
        task = msgspec.structs.replace(
            task, answers=(*task.answers, msg.answer[:ANSWERS_BUDGET])[-_ANSWERS_KEPT:]
        )
        session.state.task = task

        generation = session.generation
        review = asyncio.ensure_future(self._review(session, task, msg.answer))
        session.inflight = review
        try:
            result, progress = await review
        except asyncio.CancelledError:
            if session.generation == generation:
                raise
            result = None
        finally:
            session.inflight = None
        if result is None or session.generation != generation:
            # cancelled or superseded while the review ran: its result is void
            self._stats["discarded"] += 1
            return ending_action(session.state.task, limits)
        self._stats["reviews"] += 1
        session.usage = result.usage
        if isinstance(result, NoVerdict):
            self._stats["unverified"] += 1
        session.state.task, action = next_action(
            task, result, limits, now=self._clock.monotonic(), progress=progress
        )
        return action

    async def _trivial(self, session: _Session, task: TaskState, answer: str) -> bool:
        """A first stop skipped only where it is safe (:func:`trivial_stop`)."""
        if not plain_and_short(answer, session.limits.trigger_min_chars):
            return False  # the answer alone says it is worth a review: no ledger needed
        if session.materials:
            await asyncio.gather(*session.materials, return_exceptions=True)
        view = await self._ledger.evidence(
            EvidenceRequest(
                session_id=task.session_id, request_id=task.request_id, request=task.request
            )
        )
        session.state.seen_seq = view.last_seq
        return trivial_stop(answer, task.request, view, session.limits.trigger_min_chars)

    async def _review(
        self, session: _Session, task: TaskState, answer: str, kind: AuxKind = "review"
    ) -> tuple[ReviewResult, str]:
        review_id = serial_id("rv-")
        if session.materials:
            await asyncio.gather(*session.materials, return_exceptions=True)
        request = ReviewRequest(
            review_id=review_id,
            session_id=task.session_id,
            request_id=task.request_id,
            request=task.request,
            answer=answer,
            answer_label=task.next_label,
            round=task.rounds_used,
            kind=kind,
            tenant=session.state.policy.tenant,
            judge_off=task.judge_stopped,
            previous=task.findings,
        )
        # the reviewer asks the ledger for the evidence itself, and returns how far
        # into the ledger that went and the progress key of it
        started = self._clock.monotonic()
        result = await self._ask_reviewer(request)
        self._timing["review_call_s"] += self._clock.monotonic() - started
        session.state.seen_seq = result.ledger_seq  # None (a failed review): decide again
        # a verdict without a key counts as progress: the round limit still ends it
        return result, result.progress or f"unknown:{review_id}"

    async def _ask_reviewer(self, request: ReviewRequest) -> ReviewResult:
        """The reviewer's result; a timeout or a failure is a ``NoVerdict``."""
        review_id = request.review_id
        timeout = self._config.review_timeout_s
        try:
            return await within(self._clock, timeout, self._reviewer.review(request))
        except TimeoutError:
            return NoVerdict(
                review_id=review_id, reason=f"the review timed out after {timeout:g} s"
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the reviewer actor died or raised
            return NoVerdict(
                review_id=review_id, reason=f"the review failed: {type(exc).__name__}: {exc}"
            )

    async def _prepare_when_read(self, session: _Session) -> None:
        """Pre-analyse once the attachments are recorded: never guess at them."""
        await asyncio.gather(*session.materials, return_exceptions=True)
        await self._prepare(session)

    async def _prepare(self, session: _Session, view: EvidenceView | None = None) -> None:
        """Ask the reviewer for the task's pre-analysis now, in the background, so
        the agent's stop waits for one model call (the review), not two. Without
        ``view`` the reviewer asks the ledger for the evidence (the materials)."""
        task = session.state.task
        request = ReviewRequest(
            review_id=serial_id("pre-"),
            session_id=task.session_id,
            request_id=task.request_id,
            request=task.request,
            answer="",
            tenant=session.state.policy.tenant,
            view=view,
        )
        try:
            await self._reviewer.prepare(request)
        except Exception:  # the first review pre-analyses instead
            self._stats["prepare_failures"] += 1
        else:
            self._stats["prepared"] += 1

    async def _record_material(
        self,
        session_id: str,
        sha256: str,
        name: str,
        pending: Awaitable[Material],
        call_id: str = "",
    ) -> None:
        try:
            material = await pending
        except Exception as exc:  # the parser crashed: say so, never drop the attachment
            material = Material(
                sha256=sha256,
                declared_name=name,
                detected_type="unknown",
                status="failed",
                reason=f"crashed: {type(exc).__name__}: {exc}",
            )
        event_id = f"material-{session_id}-{sha256}"
        if call_id:  # the parse cache is by content: whose it is, is said here
            material = msgspec.structs.replace(
                material, origin="tool", call_id=call_id, declared_name=name
            )
            event_id = f"material-{session_id}-tool-{call_id}-{sha256}"
        await self._ledger.append(
            [
                MaterialRecorded(
                    session_id=session_id,
                    material=material,
                    at=self._clock.now(),
                    event_id=event_id,
                )
            ]
        )
