"""Sessions rewritten into another agent's tool dialect, by the dialect table itself.

Every tool call is read into its action (:func:`~donecheck.actors.actions.read_action`)
and written back as the same action done through ``agent``'s own tool
(:func:`~donecheck.actors.actions.dialects.as_call`); a call the agent has no tool
for stays as it was. A decision that moves under this rewrite depends on the dialect,
which none may.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import msgspec

from donecheck.actors.actions import ActionReader
from donecheck.actors.actions.dialects import AGENTS, as_call
from donecheck.actors.messages import LedgerEntry, ToolCall
from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["REWRITE_AGENTS", "rewrite_entries", "rewrite_transcript"]

REWRITE_AGENTS: tuple[str, ...] = tuple(a for a in AGENTS if a != "aider")
"""The agents a session is rewritten into (Aider's table row is its `func` format only)."""


def rewrite_entries(entries: Sequence[LedgerEntry], agent: str) -> list[LedgerEntry]:
    """``entries`` with each tool call written in ``agent``'s dialect."""
    reader = ActionReader()
    out: list[LedgerEntry] = []
    for entry in entries:
        event = entry.event
        if isinstance(event, ToolCall):
            action = reader.read(event.name, event.arguments)
            # a call that opens a file for later path-less edits keeps its form
            call = as_call(action, agent) if action.opens is None else None
            if call is not None:
                name, arguments = call
                event = msgspec.structs.replace(event, name=name, arguments=arguments)
                entry = msgspec.structs.replace(entry, event=event)
        out.append(entry)
    return out


def rewrite_transcript(transcript: Transcript, agent: str) -> Transcript:
    """``transcript`` with each call step written in ``agent``'s dialect."""
    reader = ActionReader()
    steps = []
    for step in transcript.steps:
        if step.kind == "call":
            action = reader.read(step.name, step.arguments)
            call = as_call(action, agent) if action.opens is None else None
            if call is not None:
                step = dataclasses.replace(step, name=call[0], arguments=call[1])
        steps.append(step)
    return dataclasses.replace(transcript, steps=steps)
