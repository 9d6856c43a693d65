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
    Operation,
    Report,
    ReviewResult,
    Steer,
    Verdict,
)
from donecheck.actors.review.checklist import steer_message

__all__ = [
    "end_without_review",
    "ending_action",
    "is_trivial",
    "next_action",
    "progress_key",
]


def is_trivial(answer: str, min_chars: int) -> bool:
    """Short answers with no code are not reviewed (SPEC §7)."""
    return len(answer.strip()) < min_chars and "```" not in answer and "`" not in answer


def progress_key(findings: Sequence[Finding], ops: Sequence[Operation]) -> str:
    """What must change between reviews for a round to count as progress.

    The findings (by rule and requirement) plus the latest result per operation:
    re-running a failing check that fails the same way is no progress; editing a
    file or getting a different result is.
    """
    latest: dict[str, tuple[bool | None, int | None]] = {}
    for op in ops:
        latest[op.key] = (op.ok, op.exit_code)
    digest = hashlib.blake2b(digest_size=12)
    for f in sorted((f.rule or "", f.requirement) for f in findings):
        digest.update(repr(f).encode())
    for key in sorted(latest):
        digest.update(repr((key, latest[key])).encode())
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
      the loop first (→ :class:`Report`).

    ``now`` is monotonic seconds; ``progress`` is :func:`progress_key` of this review.
    """
    label = state.next_label
    first = state.first_review_at if state.first_review_at is not None else now
    if result.budget_denied is not None:
        # past the aux budget no call is started: the loop ends here, saying why
        findings = result.findings if isinstance(result, Verdict) else ()
        state = msgspec.structs.replace(
            state,
            chain=(*state.chain, AnswerLink(label=label, decision="budget")),
            first_review_at=first,
            end_reason="budget",
            findings=findings,
            cited=result.cited if isinstance(result, Verdict) else {},
            notes=tuple(
                dict.fromkeys(
                    (
                        *state.notes,
                        *result.notes,
                        f"{label}: the aux budget refused the review: {result.budget_denied}",
                    )
                )
            ),
            unverified=tuple(f"{f.requirement}: {f.problem}" for f in findings)
            or (f"{label}: not reviewed by the judge (aux budget)",),
        )
        return state, ending_action(state, limits)
    if isinstance(result, NoVerdict):
        state = msgspec.structs.replace(
            state,
            chain=(*state.chain, AnswerLink(label=label, decision="unverified")),
            first_review_at=first,
            end_reason="unverified",
            notes=tuple(
                dict.fromkeys(
                    (*state.notes, *result.notes, f"{label} could not be verified: {result.reason}")
                )
            ),
            raw_reviews=(*state.raw_reviews, result.raw_text)
            if result.raw_text
            else state.raw_reviews,
            unverified=(*state.unverified, f"{label}: the review failed ({result.reason})"),
        )
        return state, ending_action(state, limits)

    verdict: Verdict = result
    notes = tuple(dict.fromkeys((*state.notes, *verdict.notes)))
    state = msgspec.structs.replace(
        state,
        chain=(*state.chain, AnswerLink(label=label, decision=verdict.decision)),
        first_review_at=first,
        findings=verdict.findings,
        cited=verdict.cited,
        notes=notes,
        coverage=verdict.coverage,
        quotes=verdict.quotes,
        raw_reviews=(*state.raw_reviews, verdict.raw_text)
        if verdict.raw_text
        else state.raw_reviews,
    )
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
    )
    return state, Steer(
        session_id=state.session_id,
        request_id=state.request_id,
        round=round_no,
        message=message,
        report=card_of(state, limits.max_rounds),
    )
