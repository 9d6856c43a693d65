"""How one actor reaches another: small async ports, with and without Ray.

The controller is written against :class:`LedgerPort` and :class:`ReviewerPort`.
In a deployment they are :class:`RayLedgers`/:class:`RayReviewers` (actor handles,
sharded by session id); in unit tests they are :class:`LocalLedgers`/
:class:`LocalReviewers` over plain instances of the same classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.reviewer import Reviewer
from donecheck.runtime.ids import shard_of
from donecheck.runtime.messages import (
    AppendAck,
    LedgerEvent,
    LedgerView,
    ReviewRequest,
    ReviewResult,
    ViewRequest,
    encode_events,
    view_decoder,
)

__all__ = [
    "LedgerPort",
    "LocalLedgers",
    "LocalReviewers",
    "RayLedgers",
    "RayReviewers",
    "ReviewerPort",
]


class LedgerPort(Protocol):
    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck: ...

    async def view(self, request: ViewRequest) -> LedgerView: ...


class ReviewerPort(Protocol):
    async def review(self, request: ReviewRequest) -> ReviewResult: ...


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
    def __init__(self, reviewers: Sequence[Reviewer]) -> None:
        self.reviewers = list(reviewers)

    async def review(self, request: ReviewRequest) -> ReviewResult:
        reviewer = self.reviewers[shard_of(request.session_id, len(self.reviewers))]
        return await reviewer.review(request)


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
        handle = self.handles[shard_of(request.session_id, len(self.handles))]
        result: ReviewResult = await handle.review.remote(request)
        return result
