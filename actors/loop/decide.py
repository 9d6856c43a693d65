"""The steps of the review→fix loop: what a stop, a review result or a cancel does
to one task. Pure: no I/O, no clock (the controller passes ``now``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

from donecheck.actors.loop.state import Limits, TaskState, card_of
from donecheck.actors.messages import (
    AnswerLink,
    ControllerAction,
    Deliver,
    EndReason,
    Finding,
    NoVerdict,
    Report,
    ReviewResult,
    Steer,
    Verdict,
)
from donecheck.actors.review.checklist import steer_message

__all__ = [
    "REOPENS",
    "end_without_review",
    "ending_action",
    "next_action",
    "progress_key",
]

REOPENS: frozenset[EndReason] = frozenset({"pass", "skipped"})
"""Ends after which a later stop of the same request is reviewed again: the answer
went to the user, yet the agent stopped once more (with more work, or none).
After any other end the loop stays over: a later stop gets the same ending."""


def progress_key(findings: Sequence[Finding], evidence: str) -> str:
    """What must change between reviews for a round to count as progress: the
    findings (by rule and requirement) or the evidence they were drawn from
    (``EvidenceView.progress``: the latest result per operation and the latest
    snapshot per file). Re-running a failing check that fails the same way is no
    progress; editing a file (seen by a tool or a snapshot) or getting a different
    result is."""
    digest = hashlib.blake2b(digest_size=12)
    for f in sorted((f.rule or "", f.requirement) for f in findings):
        digest.update(repr(f).encode())
    digest.update(evidence.encode())
    return digest.hexdigest()


def ending_action(state: TaskState, limits: Limits) -> ControllerAction:
    """The action for a task that has ended: ``Deliver`` when the answer may go to
    the user as it is (passed, skipped, opted out), else ``Report`` with the reason."""
    card = card_of(state, limits.max_rounds)
    reason = state.end_reason or "cancelled"
    if reason in {"pass", "skipped", "opted_out"}:
        return Deliver(session_id=state.session_id, request_id=state.request_id, report=card)
    return Report(
        session_id=state.session_id, request_id=state.request_id, reason=reason, report=card
    )


def end_without_review(
    state: TaskState, reason: EndReason, note: str, limits: Limits
) -> tuple[TaskState, ControllerAction]:
    """End a task that was not (or could not be) reviewed: skipped, opted out, cancelled."""
    state = msgspec.structs.replace(state, end_reason=reason, notes=(*state.notes, note))
    return state, ending_action(state, limits)


def next_action(
    state: TaskState,
    result: ReviewResult,
    limits: Limits,
    now: float,
    progress: str,
) -> tuple[TaskState, ControllerAction]:
    """What one review result means for the task.

    * ``pass`` → :class:`Deliver`;
    * ``blocked`` → :class:`Report`;
    * no verdict → :class:`Report` ``unverified`` (never a fix, never a pass);
    * ``need_fix``/``need_evidence`` → :class:`Steer` with a checklist, unless the
      round limit, the time window, or no progress since the last review stops
      the loop first (→ :class:`Report`);
    * when the judge was refused by the aux budget, the rules decided alone: their
      findings steer as usual, but their ``pass`` is not one — the judge was
      configured and never saw the answer — so the loop ends ``budget``,
      the answer ``unverified``.

    So the loop ends within ``max_rounds + 1`` reviewed stops: every steer uses a
    round, and a review that does not steer ends it.

    ``now`` is monotonic seconds; ``progress`` is :func:`progress_key` of this review.
    """
    label = state.next_label
    first = state.first_review_at if state.first_review_at is not None else now
    judge_errors = tuple(dict.fromkeys((*state.judge_errors, *result.judge_errors)))
    state = msgspec.structs.replace(
        state, first_review_at=first, reviews=state.reviews + 1, judge_errors=judge_errors
    )
    if isinstance(result, NoVerdict):
        state = msgspec.structs.replace(
            state,
            chain=(*state.chain, AnswerLink(label=label, decision="unverified")),
            end_reason="unverified",
            notes=_notes(state, result.notes, f"{label} could not be verified: {result.reason}"),
            raw_reviews=_raw(state, result.raw_text),
            unverified=(*state.unverified, f"{label}: the review failed ({result.reason})"),
        )
        return state, ending_action(state, limits)

    verdict: Verdict = result
    denied = verdict.budget_denied
    decision = "unverified" if denied is not None and verdict.decision == "pass" else None
    state = msgspec.structs.replace(
        state,
        chain=(*state.chain, AnswerLink(label=label, decision=decision or verdict.decision)),
        findings=verdict.findings,
        cited=verdict.cited,
        notes=_notes(
            state,
            verdict.notes,
            f"{label}: the aux budget refused the judge call ({denied}); the rules decided"
            if denied is not None
            else "",
        ),
        coverage=verdict.coverage,
        quotes=verdict.quotes,
        runs=verdict.runs,
        raw_reviews=_raw(state, verdict.raw_text),
        judge=verdict.reviewer.removeprefix("judge:") if verdict.reviewer != "rules" else "",
        temperature=verdict.temperature,
        assumptions=verdict.assumptions or state.assumptions,
        judge_stopped=state.judge_stopped
        or (
            f"the judge's answer to {label} was not trusted ({verdict.judge_rejected})"
            if verdict.judge_rejected
            else ""
        ),
    )
    if decision == "unverified":
        state = msgspec.structs.replace(
            state,
            end_reason="budget",
            last_progress=progress,
            unverified=(*state.unverified, f"{label}: not judged (aux budget)"),
        )
        return state, ending_action(state, limits)
    if verdict.decision == "pass":
        state = msgspec.structs.replace(state, end_reason="pass", last_progress=progress)
        return state, ending_action(state, limits)
    if verdict.decision == "blocked":
        state = msgspec.structs.replace(state, end_reason="blocked", last_progress=progress)
        return state, ending_action(state, limits)

    stop: EndReason | None = None
    if state.rounds_used >= limits.max_rounds:
        stop = "round_limit"
    elif now - first >= limits.round_window_s:
        stop = "time_limit"
    elif state.last_progress == progress:
        stop = "no_progress"
    if stop is not None:
        state = msgspec.structs.replace(
            state,
            end_reason=stop,
            last_progress=progress,
            unverified=tuple(f"{f.requirement}: {f.problem}" for f in verdict.findings),
        )
        return state, ending_action(state, limits)

    round_no = state.rounds_used + 1
    state = msgspec.structs.replace(state, rounds_used=round_no, last_progress=progress)
    message = steer_message(
        verdict=verdict,
        request=state.request,
        reviewed_label=label,
        round_no=round_no,
        max_rounds=limits.max_rounds,
        answers=state.answers,
    )
    return state, Steer(
        session_id=state.session_id,
        request_id=state.request_id,
        round=round_no,
        message=message,
        report=card_of(state, limits.max_rounds),
    )


def _notes(state: TaskState, more: Sequence[str], last: str = "") -> tuple[str, ...]:
    return tuple(dict.fromkeys((*state.notes, *more, *((last,) if last else ()))))


def _raw(state: TaskState, raw: str) -> tuple[str, ...]:
    return (*state.raw_reviews, raw) if raw else state.raw_reviews
