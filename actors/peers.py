"""How one actor reaches another: small async ports, and their in-process form.

The controller is written against :class:`LedgerPort`, :class:`ReviewerPort`
and :class:`BudgetPort`; the reviewer against :class:`BudgetPort`. In a
deployment they are Ray actors reached through
:class:`~donecheck.actors.calls.RayLedgers` and its siblings; in one process they
are :class:`~donecheck.actors.local.LocalLedgers`,
:class:`~donecheck.actors.local.LocalReviewers` and :class:`LocalBudgets` over
plain instances of the same classes Ray runs. This module imports no actor but
the budget accountant (the reviewer's default), so a reviewer that reaches the
ledger through a :class:`LedgerPort` never imports the ledger.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.ids import budget_key, shard_of
from donecheck.actors.messages import (
    Ack,
    AppendAck,
    BudgetInbox,
    BudgetQuery,
    BudgetReply,
    Deny,
    EvidenceRequest,
    EvidenceView,
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
)

__all__ = [
    "BudgetPort",
    "BudgetShards",
    "LedgerPort",
    "LocalBudgets",
    "ReviewerPort",
    "one_session",
]


class LedgerPort(Protocol):
    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck: ...

    async def view(self, request: ViewRequest) -> LedgerView: ...

    async def evidence(self, request: EvidenceRequest) -> EvidenceView: ...


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


def one_session(events: Sequence[LedgerEvent]) -> str:
    """The session of a batch of events; one append carries one session's events."""
    sessions = {e.session_id for e in events}
    if len(sessions) != 1:
        raise ValueError(f"one append carries one session's events, got {len(sessions)}")
    return sessions.pop()


class BudgetShards:
    """A :class:`BudgetPort` over budget shards, routed by tenant when there is one,
    else by session. Subclasses say how a message reaches a shard."""

    async def send(self, key: str, message: BudgetInbox) -> BudgetReply:
        raise NotImplementedError

    async def reserve(self, request: Reserve) -> Grant | Deny:
        answer = await self.send(budget_key(request.session_id, request.tenant), request)
        assert isinstance(answer, Grant | Deny)
        return answer

    async def settle(self, report: UsageReport) -> Settled:
        answer = await self.send(budget_key(report.session_id, report.tenant), report)
        assert isinstance(answer, Settled)
        return answer

    async def usage(self, query: BudgetQuery) -> UsageSummary:
        answer = await self.send(budget_key(query.session_id, query.tenant), query)
        assert isinstance(answer, UsageSummary)
        return answer


class LocalBudgets(BudgetShards):
    """Budget shards in process (unit tests, a reviewer used on its own)."""

    def __init__(self, accountants: Sequence[BudgetAccountant]) -> None:
        self.accountants = list(accountants)

    async def send(self, key: str, message: BudgetInbox) -> BudgetReply:
        return await self.accountants[shard_of(key, len(self.accountants))].handle_async(message)
