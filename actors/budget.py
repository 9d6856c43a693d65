"""Budget accountant: room for aux calls, reserved before they start.

A call first reserves (``Reserve`` → ``Grant | Deny``), then settles every
attempt with the usage the provider reported (``UsageReport``). Messages are
applied one at a time per shard — :meth:`BudgetAccountant.apply` has no
``await`` inside — so concurrent calls of the sessions in a shard cannot overrun
a cap together.

Caps, all on *reported* tokens plus what is reserved:

* per session: ``session_aux_token_cap`` (200,000);
* per tenant (optional): ``tenant_aux_token_cap``; a tenant's sessions are
  routed to one shard (by tenant) so one counter sees them all;
* global (optional): ``global_aux_token_cap``, split evenly across the shards —
  no shared counter, so never overrun; a shard may refuse while another still
  has room.

Before a call, room for its prompt and one complete answer (the per-call output
cap) must fit under every cap, or it is denied before anything is spent. Usage
the provider did not report is recorded as unknown, never as zero, and by
default stops further aux calls for the session. Nothing here raises a cap,
switches a model or retries a call.

State is durable when a store is given: each change is written before the reply
(group commit in the Ray actor), and a restarted accountant reloads it — a
restart never resets a spent budget or frees a held reservation.

This is a guard on *reported* usage, not a billing cap on calls in flight: the
provider's own records are the bill.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from donecheck.actors import process
from donecheck.actors.batching import answer_each
from donecheck.actors.config import Config
from donecheck.actors.lru import SessionCache
from donecheck.actors.messages import (
    Ack,
    BudgetInbox,
    BudgetQuery,
    BudgetReply,
    Deny,
    Grant,
    MainCallRecorded,
    Reserve,
    Settled,
    UsageReport,
    UsageSummary,
)
from donecheck.actors.process import process_facts
from donecheck.actors.store import LedgerStore, StateWriter, StoreLocation, opened

__all__ = [
    "Accounted",
    "BudgetAccountant",
    "Caps",
    "Pool",
    "SessionUsage",
    "account",
    "grant",
    "reserve",
    "settle",
    "summary_of",
]


@dataclass(frozen=True, slots=True)
class Caps:
    call_output_tokens: int = 32_768
    call_timeout_s: float = 150.0
    session_tokens: int = 200_000
    stop_on_unknown: bool = True
    tenant_tokens: int | None = None
    global_tokens: int | None = None
    """This shard's share of the global cap."""

    @classmethod
    def from_config(cls, config: Config) -> Caps:
        share = None
        if config.global_aux_token_cap is not None:
            share = config.global_aux_token_cap // config.budget_shards
        return cls(
            call_output_tokens=config.aux_max_output_tokens,
            call_timeout_s=config.aux_call_timeout_s,
            session_tokens=config.session_aux_token_cap,
            stop_on_unknown=config.unknown_usage_policy == "stop",
            tenant_tokens=config.tenant_aux_token_cap,
            global_tokens=share,
        )


class Pool(msgspec.Struct, kw_only=True):
    """Reported tokens and held reservations of a group (a tenant, a shard)."""

    tokens: int = 0
    reservations: dict[str, int] = {}

    @property
    def committed(self) -> int:
        return self.tokens + sum(self.reservations.values())


class SessionUsage(msgspec.Struct, kw_only=True):
    """Per-session tally (owned by one accountant shard)."""

    tokens: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hit_tokens: int = 0
    reservations: dict[str, int] = {}
    """Reservation id → tokens held until its final settlement."""
    unknown_calls: int = 0
    retries: int = 0
    """Attempts beyond the first of an aux call."""
    kind_tokens: dict[str, int] = {}
    """Reported tokens per aux call kind."""
    main_calls: int = 0
    aux_calls: dict[str, int] = {}
    rechecks: int = 0
    tenant: str | None = None
    settled: list[str] = []
    """``reservation:attempt`` keys already counted, so a retried message counts once."""
    grants: dict[str, int] = {}
    """Output tokens granted per open reservation, to answer a retried ``Reserve``."""
    invalid_reports: int = 0
    """Usage reports refused (negative counts): not counted, the call's usage unknown."""
    overruns: int = 0
    """Settled attempts that reported more output than their grant allowed."""
    overrun_tokens: int = 0
    """Output tokens beyond the grants, in all."""

    @property
    def reserved(self) -> int:
        return sum(self.reservations.values())


def grant(
    usage: SessionUsage,
    request: Reserve,
    caps: Caps,
    *,
    tenant: Pool | None = None,
    shard: Pool | None = None,
) -> Grant | Deny:
    """Whether one more aux call fits, with room for its complete answer.

    The call needs its prompt plus a full answer (the smaller of what it asks for
    and the per-call cap) on top of what was used and what is already reserved,
    under the session cap and, when set, the tenant cap and this shard's share of
    the global cap.
    """
    if request.prompt_tokens < 0 or request.max_output_tokens <= 0:
        return Deny(reservation_id=request.reservation_id, reason="invalid reservation size")
    if caps.stop_on_unknown and usage.unknown_calls:
        return Deny(
            reservation_id=request.reservation_id,
            reason=(
                f"{usage.unknown_calls} earlier aux call(s) reported no usage; "
                "aux calls stop (unknown_usage_policy=stop)"
            ),
        )
    output = min(request.max_output_tokens, caps.call_output_tokens)
    need = request.prompt_tokens + output
    committed = usage.tokens + usage.reserved
    if committed + need > caps.session_tokens:
        return Deny(
            reservation_id=request.reservation_id,
            reason=(
                f"session aux budget: {usage.tokens} used + {usage.reserved} reserved + "
                f"{need} for this call (prompt {request.prompt_tokens} + answer {output}) "
                f"> cap {caps.session_tokens}"
            ),
        )
    for name, pool, cap in (
        (f"tenant {request.tenant!r}", tenant, caps.tenant_tokens),
        ("global (this shard's share)", shard, caps.global_tokens),
    ):
        if pool is not None and cap is not None and pool.committed + need > cap:
            return Deny(
                reservation_id=request.reservation_id,
                reason=(
                    f"{name} aux budget: {pool.committed} used or reserved + {need} for this"
                    f" call > cap {cap}"
                ),
            )
    return Grant(
        reservation_id=request.reservation_id,
        max_output_tokens=output,
        deadline_s=caps.call_timeout_s,
    )


_SETTLED_KEPT = 256


@dataclass(frozen=True, slots=True)
class Accounted:
    """What one message does to a session's budget: the reply and the state after it
    (``changed``: something must be written), and how it counts in the statistics."""

    reply: BudgetReply
    usage: SessionUsage
    tenant: Pool | None = None
    shard: Pool | None = None
    changed: bool = False
    counted: str = ""
    """``granted``, ``denied`` or ``settled`` (the actor's statistics)."""


def summary_of(session_id: str, usage: SessionUsage, caps: Caps) -> UsageSummary:
    """A session's usage as the report card shows it."""
    return UsageSummary(
        session_id=session_id,
        main_calls=usage.main_calls,
        aux_calls=dict(usage.aux_calls),
        aux_tokens=usage.tokens,
        unknown_calls=usage.unknown_calls,
        rechecks=usage.rechecks,
        reserved_tokens=usage.reserved,
        cache_hit_tokens=usage.cache_hit_tokens,
        cap=caps.session_tokens,
        aux_tokens_by_kind=dict(usage.kind_tokens),
        retries=usage.retries,
        invalid_reports=usage.invalid_reports,
        overruns=usage.overruns,
        overrun_tokens=usage.overrun_tokens,
    )


def _without(held: dict[str, int], reservation_id: str) -> dict[str, int]:
    return {k: v for k, v in held.items() if k != reservation_id}


def reserve(
    msg: Reserve, usage: SessionUsage, caps: Caps, tenant: Pool | None, shard: Pool | None
) -> Accounted:
    """A reservation: granted (its tokens held in the session and its pools) or
    denied (:func:`grant`); a retried one gets the answer it got."""
    if msg.reservation_id in usage.grants:  # a retried message: same answer
        granted = Grant(
            reservation_id=msg.reservation_id,
            max_output_tokens=usage.grants[msg.reservation_id],
            deadline_s=caps.call_timeout_s,
        )
        return Accounted(granted, usage, tenant, shard)
    answer = grant(usage, msg, caps, tenant=tenant, shard=shard)
    if not isinstance(answer, Grant):
        return Accounted(answer, usage, tenant, shard, counted="denied")
    held = msg.prompt_tokens + answer.max_output_tokens
    rid = msg.reservation_id
    kept = msgspec.structs.replace(
        usage,
        reservations={**usage.reservations, rid: held},
        grants={**usage.grants, rid: answer.max_output_tokens},
    )
    return Accounted(
        answer,
        kept,
        _pool_after(tenant, holds=(rid, held)),
        _pool_after(shard, holds=(rid, held)),
        changed=True,
        counted="granted",
    )


def _pool_after(
    pool: Pool | None,
    *,
    spent: int = 0,
    holds: tuple[str, int] | None = None,
    releases: str | None = None,
) -> Pool | None:
    """``pool`` after a call spent tokens from it, held a reservation or released one."""
    if pool is None:
        return None
    reservations = pool.reservations
    if holds is not None:
        reservations = {**reservations, holds[0]: holds[1]}
    if releases is not None:
        reservations = _without(reservations, releases)
    return msgspec.structs.replace(pool, tokens=pool.tokens + spent, reservations=reservations)


def settle(
    msg: UsageReport, usage: SessionUsage, caps: Caps, tenant: Pool | None, shard: Pool | None
) -> Accounted:
    """One attempt's reported usage, counted once: a retried report changes nothing;
    negative counts are refused and the call's usage is unknown; the final attempt
    releases the reservation."""
    key = f"{msg.reservation_id}:{msg.attempt}"
    if key in usage.settled:  # a retried message: counted already
        settled = Settled(
            reservation_id=msg.reservation_id,
            session_tokens=usage.tokens,
            usage=summary_of(msg.session_id, usage, caps),
        )
        return Accounted(settled, usage, tenant, shard)
    new = msgspec.structs.replace(usage, settled=[*usage.settled[-_SETTLED_KEPT + 1 :], key])
    counts = (msg.input_tokens, msg.output_tokens, msg.cache_hit_tokens)
    invalid = any(c is not None and c < 0 for c in counts)
    unknown = invalid or msg.input_tokens is None or msg.output_tokens is None
    spent = 0
    if invalid:  # refused: nothing counted from it; the call's usage is unknown
        new.invalid_reports += 1
        new.unknown_calls += 1
    elif unknown and msg.rejected:
        unknown = False  # refused before any output: nothing was used
    elif unknown:
        new.unknown_calls += 1
    else:
        spent = (msg.input_tokens or 0) + (msg.output_tokens or 0)
        new.tokens += spent
        new.input_tokens += msg.input_tokens or 0
        new.output_tokens += msg.output_tokens or 0
        new.cache_hit_tokens += msg.cache_hit_tokens or 0
        new.kind_tokens = {**new.kind_tokens, msg.kind: new.kind_tokens.get(msg.kind, 0) + spent}
        allowed = new.grants.get(msg.reservation_id)
        if allowed is not None and (msg.output_tokens or 0) > allowed:
            new.overruns += 1
            new.overrun_tokens += (msg.output_tokens or 0) - allowed
    if msg.attempt > 1:
        new.retries += 1
    if msg.attempt == 1:
        new.aux_calls = {**new.aux_calls, msg.kind: new.aux_calls.get(msg.kind, 0) + 1}
        if msg.kind == "review" and new.aux_calls[msg.kind] > 1:
            new.rechecks += 1
    if msg.final:
        new.grants = _without(new.grants, msg.reservation_id)
        new.reservations = _without(new.reservations, msg.reservation_id)
    release = msg.reservation_id if msg.final else None
    settled = Settled(
        reservation_id=msg.reservation_id,
        session_tokens=new.tokens,
        unknown=unknown,
        usage=summary_of(msg.session_id, new, caps),
    )
    return Accounted(
        settled,
        new,
        _pool_after(tenant, spent=spent, releases=release),
        _pool_after(shard, spent=spent, releases=release),
        changed=True,
        counted="settled",
    )


def account(
    msg: BudgetInbox, usage: SessionUsage, caps: Caps, tenant: Pool | None, shard: Pool | None
) -> Accounted:
    """What ``msg`` does to the session's ``usage`` and its pools. Pure: the state in,
    the reply and the state after out; nothing is changed in place."""
    match msg:
        case Reserve():
            return reserve(msg, usage, caps, tenant, shard)
        case UsageReport():
            return settle(msg, usage, caps, tenant, shard)
        case MainCallRecorded():
            new = msgspec.structs.replace(usage, main_calls=usage.main_calls + msg.count)
            ack = Ack(session_id=msg.session_id, detail=f"main calls {new.main_calls}")
            return Accounted(ack, new, tenant, shard, changed=True)
        case BudgetQuery():
            return Accounted(summary_of(msg.session_id, usage, caps), usage, tenant, shard)
    raise TypeError(f"the budget accountant does not accept {type(msg).__name__}")


_SESSION = "session:"
_TENANT = "tenant:"
_SHARD = "shard"
_usage_decoder = msgspec.msgpack.Decoder(SessionUsage)
_pool_decoder = msgspec.msgpack.Decoder(Pool)


class BudgetAccountant:
    def __init__(
        self,
        *,
        config: Config,
        shard: int = 0,
        store: LedgerStore | StoreLocation | None = None,
        settle_gc: bool = False,
    ) -> None:
        """Without a store the state is not durable. ``settle_gc``: set by
        ``deploy`` in an actor's process (:func:`~donecheck.actors.process.settle_gc`)."""
        self.shard = shard
        self._caps = Caps.from_config(config)
        self._store = store = opened(store)
        self._kind = f"budget-{shard}"
        self._sessions: SessionCache[SessionUsage] = SessionCache(config.state_cached_sessions)
        self._tenants: dict[str, Pool] = {}
        self._pool = Pool()
        self._held: dict[str, tuple[str, int]] = {}
        """Reservation id → (session id, tokens held), of the sessions in memory."""
        self._stats = {"calls": 0, "granted": 0, "denied": 0, "settled": 0, "loaded_sessions": 0}
        self._writer = StateWriter(store, self._kind) if store is not None else None
        if store is not None:
            self._restore(store)
        if settle_gc:
            process.settle_gc()

    # ------------------------------------------------------------ durability

    def _restore(self, store: LedgerStore) -> None:
        """The pools at start-up (one per tenant, and the shard's); sessions load when
        a message touches them (:meth:`_fetch`), so start-up does not grow with the
        sessions a shard has seen."""
        for key, data in store.list_state(self._kind, _TENANT):
            self._tenants[key[len(_TENANT) :]] = _pool_decoder.decode(data)
        shard = store.get_state(self._kind, _SHARD)
        if shard is not None:
            self._pool = _pool_decoder.decode(shard)

    def _fetch(self, session_id: str) -> SessionUsage | None:
        """A session's usage as the store has it (no store, or none: ``None``)."""
        if self._store is None or session_id in self._sessions:
            return None
        data = self._store.get_state(self._kind, _SESSION + session_id)
        return _usage_decoder.decode(data) if data is not None else None

    def _adopt(self, session_id: str, usage: SessionUsage | None) -> None:
        """Keep a fetched session unless a message changed it in memory meanwhile."""
        if usage is None or session_id in self._sessions:
            return
        self._sessions[session_id] = usage
        for rid, held in usage.reservations.items():
            self._held[rid] = (session_id, held)
        self._stats["loaded_sessions"] += 1

    def _trim(self) -> None:
        """Forget the least recently used sessions past the limit — those holding no
        reservation and whose state is committed: the store has them."""
        if self._store is None:
            return
        writer = self._writer

        def droppable(session_id: str, usage: SessionUsage) -> bool:
            key = _SESSION + session_id
            return not usage.reservations and (writer is None or not writer.busy(key))

        self._sessions.trim(droppable)

    def _dirty(self, session_id: str, usage: SessionUsage) -> list[tuple[str, bytes]]:
        items = [(_SESSION + session_id, msgspec.msgpack.encode(usage))]
        if usage.tenant is not None and usage.tenant in self._tenants:
            items.append(
                (_TENANT + usage.tenant, msgspec.msgpack.encode(self._tenants[usage.tenant]))
            )
        if self._caps.global_tokens is not None:
            items.append((_SHARD, msgspec.msgpack.encode(self._pool)))
        return items

    def handle(self, msg: BudgetInbox) -> BudgetReply:
        """Apply one message; with a store, the change is written before the reply."""
        self._stats["calls"] += 1
        self._adopt(msg.session_id, self._fetch(msg.session_id))
        reply, dirty = self.apply(msg)
        if self._store is not None and dirty:
            self._store.put_states(self._kind, dirty)
        self._trim()
        return reply

    async def handle_async(self, msg: BudgetInbox) -> BudgetReply:
        """:meth:`handle` for an async actor: the session is read from the store in a
        worker thread, and writes are group-committed."""
        self._stats["calls"] += 1
        return await self._handle_async(msg)

    async def handle_many(self, messages: Sequence[BudgetInbox]) -> list[BudgetReply | Exception]:
        """Several callers' messages in one call (from a
        :class:`~donecheck.actors.batching.Batcher`), each applied as if it came
        alone — answered, or failed, on its own — with their writes sharing commits."""
        self._stats["calls"] += 1
        return await answer_each(self._handle_async(m) for m in messages)

    async def _handle_async(self, msg: BudgetInbox) -> BudgetReply:
        if self._store is not None and msg.session_id not in self._sessions:
            fetched = await asyncio.to_thread(self._fetch, msg.session_id)
            self._adopt(msg.session_id, fetched)
        reply, dirty = self.apply(msg)
        if self._writer is not None:
            # one transaction: the session, its tenant's pool and the shard's pool
            # are committed together, so a crash cannot keep one without the others
            await self._writer.save_many(dirty)
        self._trim()
        return reply

    # ------------------------------------------------------------------ logic

    def _usage(self, session_id: str, tenant: str | None) -> SessionUsage:
        usage = self._sessions.get(session_id)
        if usage is None:
            usage = SessionUsage(tenant=tenant)
            self._sessions[session_id] = usage
        elif tenant is not None and usage.tenant is None:
            usage.tenant = tenant
        return usage

    def _tenant_pool(self, usage: SessionUsage) -> Pool | None:
        if usage.tenant is None or self._caps.tenant_tokens is None:
            return None
        return self._tenants.setdefault(usage.tenant, Pool())

    def apply(self, msg: BudgetInbox) -> tuple[BudgetReply, list[tuple[str, bytes]]]:
        """The reply and the state entries to persist (:func:`account` decides; this
        keeps what it decided). No I/O, no ``await``: atomic."""
        if isinstance(msg, BudgetQuery):
            usage = self._sessions.get(msg.session_id) or SessionUsage()
            return summary_of(msg.session_id, usage, self._caps), []
        usage = self._usage(msg.session_id, msg.tenant)
        tenant = self._tenant_pool(usage)
        shard = self._pool if self._caps.global_tokens is not None else None
        done = account(msg, usage, self._caps, tenant, shard)
        if done.counted:
            self._stats[done.counted] += 1
        if not done.changed:
            return done.reply, []
        self._sessions[msg.session_id] = done.usage
        if done.tenant is not None and usage.tenant is not None:
            self._tenants[usage.tenant] = done.tenant
        if done.shard is not None:
            self._pool = done.shard
        if isinstance(msg, Reserve):
            self._held[msg.reservation_id] = (
                msg.session_id,
                done.usage.reservations[msg.reservation_id],
            )
        elif isinstance(msg, UsageReport) and msg.final:
            self._held.pop(msg.reservation_id, None)
        return done.reply, self._dirty(msg.session_id, done.usage)

    def summary(self, session_id: str, usage: SessionUsage) -> UsageSummary:
        return summary_of(session_id, usage, self._caps)

    def statistics(self) -> dict[str, Any]:
        return {
            "shard": self.shard,
            **process_facts(),
            "sessions": len(self._sessions),
            "reservations": len(self._held),
            "tenants": len(self._tenants),
            **self._stats,
            "commits": self._writer.commits if self._writer else 0,
        }
