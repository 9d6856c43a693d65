"""Review a recorded conversation end to end through the session API."""

from __future__ import annotations

import dataclasses
import hashlib
import mimetypes
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import msgspec

from donecheck.actors.messages import ControllerAction, ImageRef, LedgerEvent, ReportCard
from donecheck.parsers.material import sha256_ref
from donecheck.runtime.api import DoneCheck
from donecheck.runtime.session import AsyncSession, Session
from donecheck.runtime.transcripts.openai import Transcript

__all__ = [
    "UNKNOWN_REQUEST_NOTE",
    "NewInput",
    "ReviewOutcome",
    "ToolImages",
    "input_request_id",
    "replay_events",
    "review_transcript",
    "tool_image_refs",
    "with_request",
]

_BATCH = 1_000
"""Events per ledger call when a transcript is replayed. Each call is a store
transaction (an fsync) and, on Ray, an actor call: 1,000 rather than 200 cut the
recording of a 100k-message transcript on Ray by a third (4.6 -> 3.0 s,
``benchmarks.session_length``)."""


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


@dataclass(frozen=True, slots=True)
class ToolImages:
    """Images a replayed tool result held: hand them to
    ``session.attach_tool_images`` before the batch that holds the result."""

    call_id: str
    images: tuple[tuple[str, bytes], ...]


@dataclass(frozen=True, slots=True)
class NewInput:
    """A user input in a replayed transcript: a new task with a stable request id."""

    text: str
    request_id: str


def replay_events(
    session: AsyncSession | Session, transcript: Transcript
) -> Iterator[list[LedgerEvent] | NewInput | ToolImages]:
    """The transcript's steps as batches of ledger events, with each user input (a
    new task) between them, and each result's images (:class:`ToolImages`) before
    the batch that holds it. Event and request ids come from the transcript, so a
    replay of the same transcript adds nothing twice."""
    batch: list[LedgerEvent] = []
    for n, step in enumerate(transcript.steps):
        if step.kind == "result" and step.images:
            yield ToolImages(step.call_id, step.images)
        if step.kind == "call":
            batch.append(
                session.tool_call_event(
                    step.name, step.arguments, step.call_id, event_id=f"call:{step.call_id}"
                )
            )
        elif step.kind == "result":
            batch.append(
                session.tool_result_event(
                    step.call_id,
                    step.output,
                    step.ok,
                    step.exit_code,
                    event_id=f"result:{step.call_id}",
                    images=tool_image_refs(step.images),
                )
            )
        elif step.kind == "user":
            if batch:
                yield batch
                batch = []
            yield NewInput(step.text, input_request_id(n, step.text))
        if len(batch) >= _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def input_request_id(position: int, text: str) -> str:
    """A stable request id for the user input at ``position`` of a transcript."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()
    return f"rq-t{position}-{digest}"


def tool_image_refs(images: Sequence[tuple[str, bytes]]) -> tuple[ImageRef, ...]:
    """The refs ``attach_tool_images`` gives the same ``(name, bytes)`` images."""
    return tuple(
        ImageRef(
            sha256=sha256_ref(data),
            name=name,
            size=len(data),
            media_type=mimetypes.guess_type(name, strict=False)[0],
        )
        for name, data in images
    )


async def _replay(session: AsyncSession, transcript: Transcript) -> None:
    for item in replay_events(session, transcript):
        if isinstance(item, NewInput):
            await session.new_user_input(item.text, request_id=item.request_id)
        elif isinstance(item, ToolImages):
            await session.attach_tool_images(item.call_id, item.images)
        else:
            await session.record(item)


UNKNOWN_REQUEST_NOTE = (
    "The request was unknown: {form} does not carry the user's prompt (it was the command"
    " line's argument) and none was given (--request). Reviewed on what needs no request:"
    " failed, masked or missing checks behind a claim, claimed files never written, an"
    " answer that asks the user for something, a run that ends without an answer. Whether"
    " the work does what the user asked was not checked."
)

_FORM_NAMES = {
    "claude-stream": "a `claude -p` stream-json log",
    "codex-exec": "a `codex exec --json` log",
}


def with_request(transcript: Transcript, request: str, origin: str) -> Transcript:
    """``transcript`` with the user's ``request`` when the file does not carry one
    (unchanged when it does); the card says where the request came from."""
    if transcript.request_known or not request.strip():
        return transcript
    return dataclasses.replace(
        transcript,
        request=request,
        request_known=True,
        notes=[*transcript.notes, f"The request is from {origin}: the file does not carry it."],
    )


async def review_transcript(
    dc: DoneCheck, transcript: Transcript, *, request: str | None = None
) -> ReviewOutcome:
    """Open a session for ``transcript``, replay what the agent did, review its
    final answer and close the session. The report card says what was verified.

    ``request`` is the user's request when the file does not carry it (a ``claude
    -p`` stream, ``codex exec --json`` events); the file's own wins when it has one.
    Without either the run is reviewed on what needs no request, and the card says
    the request was unknown. A run that ended with no final text is reviewed as
    unfinished (it never passes)."""
    if request is not None:
        transcript = with_request(transcript, request, "the caller (--request)")
    notes = list(transcript.notes)
    text = transcript.request if transcript.request_known else ""
    if not transcript.request_known:
        form = _FORM_NAMES.get(transcript.form, f"the {transcript.form} file")
        notes.append(UNKNOWN_REQUEST_NOTE.format(form=form))
    session = await dc.open_session_async(
        text, attachments=transcript.attachments, images=transcript.images
    )
    try:
        await _replay(session, transcript)
        answer = transcript.answer if transcript.answer.strip() else ""
        action = await session.turn_stopping(answer, without_answer=not answer)
    finally:
        report = await session.close()
    # reviewed once: no loop runs over a recorded conversation, whatever the verdict
    report = msgspec.structs.replace(report, one_shot=True, notes=(*report.notes, *notes))
    action = msgspec.structs.replace(action, report=report)
    return ReviewOutcome(transcript.source, action, report, list(transcript.warnings))
