"""How one actor reaches another: small async ports, with and without Ray.

The controller is written against :class:`LedgerPort` and :class:`ReviewerPort`.
In a deployment they are :class:`RayLedgers`/:class:`RayReviewers` (actor handles,
sharded by session id); in unit tests they are :class:`LocalLedgers`/
:class:`LocalReviewers` over plain instances of the same classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.ledger import EvidenceLedger
from donecheck.runtime.ids import shard_of
from donecheck.runtime.messages import (
    Ack,
    AppendAck,
    BudgetQuery,
    Deny,
    Grant,
    LedgerEvent,
    LedgerView,
    Reserve,
    ReviewRequest,
    ReviewResult,
    Settled,
    UsageReport,
    UsageSummary,
    ViewRequest,
    encode_events,
    view_decoder,
)

__all__ = [
    "BudgetPort",
    "LedgerPort",
    "LocalBudgets",
    "LocalLedgers",
    "LocalReviewers",
    "RayBudgets",
    "RayLedgers",
    "RayReviewers",
    "ReviewerPort",
    "budget_key",
]


class LedgerPort(Protocol):
    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck: ...

    async def view(self, request: ViewRequest) -> LedgerView: ...


class ReviewerPort(Protocol):
    async def review(self, request: ReviewRequest) -> ReviewResult: ...

    async def prepare(self, request: ReviewRequest) -> Ack:
        """Pre-analyse the task ahead of its first review (its request; no answer yet)."""
        ...


class BudgetPort(Protocol):
    """The budget accountant as an aux caller sees it: reserve first, then settle."""

    async def reserve(self, request: Reserve) -> Grant | Deny: ...

    async def settle(self, report: UsageReport) -> Settled: ...

    async def usage(self, query: BudgetQuery) -> UsageSummary: ...


def budget_key(session_id: str, tenant: str | None) -> str:
    """What picks a budget shard: the tenant when there is one (so one shard sees all
    of a tenant's sessions), else the session."""
    return f"tenant:{tenant}" if tenant else session_id


def _single_session(events: Sequence[LedgerEvent]) -> str:
    sessions = {e.session_id for e in events}
    if len(sessions) != 1:
        raise ValueError(f"one append carries one session's events, got {len(sessions)}")
    return sessions.pop()


class LocalLedgers:
    """In-process shards (unit tests, benchmarks of the logic alone)."""

    def __init__(self, ledgers: Sequence[EvidenceLedger]) -> None:
        self.ledgers = list(ledgers)

    def for_session(self, session_id: str) -> EvidenceLedger:
        return self.ledgers[shard_of(session_id, len(self.ledgers))]

    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        return self.for_session(_single_session(events)).append(events)

    async def view(self, request: ViewRequest) -> LedgerView:
        return self.for_session(request.session_id).view(request)


class LocalReviewers:
    def __init__(self, reviewers: Sequence[ReviewerPort]) -> None:
        self.reviewers = list(reviewers)

    async def review(self, request: ReviewRequest) -> ReviewResult:
        return await self._for(request).review(request)

    async def prepare(self, request: ReviewRequest) -> Ack:
        return await self._for(request).prepare(request)

    def _for(self, request: ReviewRequest) -> ReviewerPort:
        return self.reviewers[shard_of(request.session_id, len(self.reviewers))]


class RayLedgers:
    """Ledger shards as Ray actor handles."""

    def __init__(self, handles: Sequence[Any]) -> None:
        self.handles = list(handles)

    def for_session(self, session_id: str) -> Any:
        return self.handles[shard_of(session_id, len(self.handles))]

    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        handle = self.for_session(_single_session(events))
        ack: AppendAck = await handle.append_packed.remote(encode_events(events))
        return ack

    async def view(self, request: ViewRequest) -> LedgerView:
        data = await self.for_session(request.session_id).view_packed.remote(request)
        return view_decoder.decode(data)


class RayReviewers:
    """The reviewer pool; a session always goes to the same reviewer (cache locality)."""

    def __init__(self, handles: Sequence[Any]) -> None:
        self.handles = list(handles)

    async def review(self, request: ReviewRequest) -> ReviewResult:
        result: ReviewResult = await self._for(request).review.remote(request)
        return result

    async def prepare(self, request: ReviewRequest) -> Ack:
        ack: Ack = await self._for(request).prepare.remote(request)
        return ack

    def _for(self, request: ReviewRequest) -> Any:
        return self.handles[shard_of(request.session_id, len(self.handles))]


class LocalBudgets:
    """Budget shards in process (unit tests, a reviewer used on its own)."""

    def __init__(self, accountants: Sequence[BudgetAccountant]) -> None:
        self.accountants = list(accountants)

    def _for(self, session_id: str, tenant: str | None) -> BudgetAccountant:
        key = budget_key(session_id, tenant)
        return self.accountants[shard_of(key, len(self.accountants))]

    async def reserve(self, request: Reserve) -> Grant | Deny:
        answer = self._for(request.session_id, request.tenant).handle(request)
        assert isinstance(answer, Grant | Deny)
        return answer

    async def settle(self, report: UsageReport) -> Settled:
        answer = self._for(report.session_id, report.tenant).handle(report)
        assert isinstance(answer, Settled)
        return answer

    async def usage(self, query: BudgetQuery) -> UsageSummary:
        answer = self._for(query.session_id, query.tenant).handle(query)
        assert isinstance(answer, UsageSummary)
        return answer


class RayBudgets:
    """Budget shards as Ray actor handles, found by name on first use (so a reviewer
    can be created before them, and keeps working after they restart)."""

    def __init__(self, namespace: str, count: int) -> None:
        self.namespace = namespace
        self.count = count
        self._handles: list[Any] | None = None

    def _for(self, session_id: str, tenant: str | None) -> Any:
        if self._handles is None:
            import ray

            self._handles = [
                ray.get_actor(f"budget-{i}", namespace=self.namespace) for i in range(self.count)
            ]
        return self._handles[shard_of(budget_key(session_id, tenant), self.count)]

    async def reserve(self, request: Reserve) -> Grant | Deny:
        handle = self._for(request.session_id, request.tenant)
        answer: Grant | Deny = await handle.handle.remote(request)
        return answer

    async def settle(self, report: UsageReport) -> Settled:
        answer: Settled = await self._for(report.session_id, report.tenant).handle.remote(report)
        return answer

    async def usage(self, query: BudgetQuery) -> UsageSummary:
        answer: UsageSummary = await self._for(query.session_id, query.tenant).handle.remote(query)
        return answer
