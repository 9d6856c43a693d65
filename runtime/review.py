"""Review a recorded conversation end to end through the session API."""

from __future__ import annotations

from dataclasses import dataclass, field

from donecheck.runtime.api import DoneCheck
from donecheck.runtime.messages import ControllerAction, LedgerEvent, ReportCard
from donecheck.runtime.session import AsyncSession
from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["ReviewOutcome", "review_transcript"]

_BATCH = 200


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    source: str
    action: ControllerAction
    report: ReportCard
    warnings: list[str] = field(default_factory=list)

    @property
    def decision(self) -> str:
        """``pass | need_evidence | need_fix | blocked | skipped | unverified``."""
        return self.report.decision or "unverified"


async def _replay(session: AsyncSession, transcript: Transcript) -> None:
    batch: list[LedgerEvent] = []
    for step in transcript.steps:
        if step.kind == "call":
            batch.append(session.tool_call_event(step.name, step.arguments, step.call_id))
        elif step.kind == "result":
            batch.append(session.tool_result_event(step.call_id, step.output, step.ok))
        elif step.kind == "user":
            if batch:
                await session.record(batch)
                batch = []
            await session.new_user_input(step.text)
        if len(batch) >= _BATCH:
            await session.record(batch)
            batch = []
    if batch:
        await session.record(batch)


async def review_transcript(dc: DoneCheck, transcript: Transcript) -> ReviewOutcome:
    """Open a session for ``transcript``, replay what the agent did, review its
    final answer and close the session. The report card says what was verified."""
    session = await dc.open_session_async(
        transcript.request, attachments=transcript.attachments, images=transcript.images
    )
    try:
        await _replay(session, transcript)
        action = await session.turn_stopping(transcript.answer)
    finally:
        report = await session.close()
    return ReviewOutcome(transcript.source, action, report, list(transcript.warnings))
