"""One task's state in the review→fix loop, and the report card made from it.

A task is one user request of one session. :class:`TaskState` is immutable:
each step of the loop (:mod:`.decide`) returns a new one, and the controller
keeps it durably (msgpack) so a restart never resets a round count.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from donecheck.actors.messages import (
    AnswerLink,
    Coverage,
    EndReason,
    Finding,
    Policy,
    ReportCard,
    ReportedRun,
    UsageSummary,
)

__all__ = ["CARD_ANSWER_CHARS", "CARD_REQUEST_CHARS", "Limits", "TaskState", "bounded", "card_of"]

CARD_REQUEST_CHARS = 600
CARD_ANSWER_CHARS = 1_200
"""How much of the request and of the latest answer a card shows (head and tail)."""


def bounded(text: str, limit: int) -> str:
    """``text`` on one line within ``limit`` characters: its head and its tail."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    head = limit * 2 // 3
    tail = limit - head - 3
    return f"{line[:head].rstrip()} … {line[-tail:].lstrip()}"


@dataclass(frozen=True, slots=True)
class Limits:
    max_rounds: int = 2
    round_window_s: float = 300.0
    trigger_min_chars: int = 60

    def with_policy(self, policy: Policy) -> Limits:
        return Limits(
            max_rounds=policy.max_rounds if policy.max_rounds is not None else self.max_rounds,
            round_window_s=(
                policy.round_window_s if policy.round_window_s is not None else self.round_window_s
            ),
            trigger_min_chars=self.trigger_min_chars,
        )


class TaskState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the loop knows about one task. Immutable; replaced on each step."""

    session_id: str
    request_id: str
    request: str
    chain: tuple[AnswerLink, ...] = ()
    rounds_used: int = 0
    first_review_at: float | None = None
    last_progress: str | None = None
    end_reason: EndReason | None = None
    findings: tuple[Finding, ...] = ()
    cited: dict[str, str] = {}
    notes: tuple[str, ...] = ()
    raw_reviews: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()
    coverage: tuple[Coverage, ...] = ()
    quotes: dict[str, str] = {}
    opted_out: bool = False
    """Review turned off for this request only."""
    milestone_used: bool = False
    reviews: int = 0
    """Reviews made for this task: the first plus ``R`` rechecks."""
    answers: tuple[str, ...] = ()
    """The agent's answers so far (each cut to 12,000 characters), for the checklist."""
    judge_errors: tuple[str, ...] = ()
    """Why the judge could not be used, when it could not (named on the card)."""
    runs: tuple[ReportedRun, ...] = ()
    """The latest check results with their origin (for the card)."""
    judge: str = ""
    """The model that judged the latest review ("": the rules alone)."""
    temperature: float | None = None
    judge_stopped: str = ""
    """Why the task's later reviews ask no judge (its citation was rejected)."""
    assumptions: tuple[str, ...] = ()

    @property
    def next_label(self) -> str:
        return f"A{len(self.chain) + 1}"


def card_of(state: TaskState, max_rounds: int, usage: UsageSummary | None = None) -> ReportCard:
    decision = state.chain[-1].decision if state.chain else state.end_reason
    return ReportCard(
        session_id=state.session_id,
        request_id=state.request_id,
        chain=state.chain,
        rounds_used=state.rounds_used,
        max_rounds=max_rounds,
        end_reason=state.end_reason,
        decision=decision,
        findings=state.findings,
        cited=state.cited,
        notes=state.notes,
        unverified=state.unverified,
        raw_reviews=state.raw_reviews,
        usage=usage,
        coverage=state.coverage,
        quotes=state.quotes,
        reviews=state.reviews,
        judge_errors=state.judge_errors,
        runs=state.runs,
        judge=state.judge,
        temperature=state.temperature,
        judge_stopped=state.judge_stopped,
        assumptions=state.assumptions,
        request=bounded(state.request, CARD_REQUEST_CHARS),
        answer=bounded(state.answers[-1], CARD_ANSWER_CHARS) if state.answers else "",
    )
