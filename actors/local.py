"""In-process ports: the ledger shards and reviewers of one process, reached as the
:mod:`~donecheck.actors.peers` Protocols say (the in-process deployment, unit tests,
benchmarks of the logic alone)."""

from __future__ import annotations

from collections.abc import Sequence

from donecheck.actors.ids import shard_of
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.messages import (
    Ack,
    AppendAck,
    EvidenceRequest,
    EvidenceView,
    LedgerEvent,
    LedgerView,
    ReviewRequest,
    ReviewResult,
    ViewRequest,
)
from donecheck.actors.peers import ReviewerPort, one_session

__all__ = ["LocalLedgers", "LocalReviewers"]


class LocalLedgers:
    """In-process shards (unit tests, benchmarks of the logic alone)."""

    def __init__(self, ledgers: Sequence[EvidenceLedger]) -> None:
        self.ledgers = list(ledgers)

    def for_session(self, session_id: str) -> EvidenceLedger:
        return self.ledgers[shard_of(session_id, len(self.ledgers))]

    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        return self.for_session(one_session(events)).append(events)

    async def view(self, request: ViewRequest) -> LedgerView:
        return self.for_session(request.session_id).view(request)

    async def evidence(self, request: EvidenceRequest) -> EvidenceView:
        return self.for_session(request.session_id).evidence(request)


class LocalReviewers:
    def __init__(self, reviewers: Sequence[ReviewerPort]) -> None:
        self.reviewers = list(reviewers)

    async def review(self, request: ReviewRequest) -> ReviewResult:
        return await self._for(request).review(request)

    async def prepare(self, request: ReviewRequest) -> Ack:
        return await self._for(request).prepare(request)

    def _for(self, request: ReviewRequest) -> ReviewerPort:
        return self.reviewers[shard_of(request.session_id, len(self.reviewers))]
