"""The user's own switch, written in the conversation (SPEC §7, opt-out).

A line of a user message that says only ``donecheck: off`` (or ``/donecheck off``)
turns review off for that request; ``… off for this session`` for the whole
session; ``donecheck: on`` turns it back on for both. The switch lives in the
user's messages, so it holds wherever they are read again: a client's hook that
forwards the prompt, a transcript replayed after compaction, the API. Only the
user's messages are read for it: never an agent's answer, a tool output or a
DoneCheck checklist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Switch", "switch_in"]

_LINE = re.compile(
    r"^[ \t]*(?:/donecheck|donecheck:)[ \t]+(?P<state>off|on)"
    r"(?:[ \t]+(?:for[ \t]+)?(?:the[ \t]+|this[ \t]+)?(?P<scope>session|request))?[ \t]*\.?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class Switch:
    review: bool
    scope: Literal["request", "session"]


def switch_in(text: str) -> Switch | None:
    """The last switch a user message states, or None. ``on`` without a scope turns
    review on for the session and the request alike."""
    found = None
    for match in _LINE.finditer(text[:100_000]):
        found = match
    if found is None:
        return None
    review = found.group("state").lower() == "on"
    scope = (found.group("scope") or ("session" if review else "request")).lower()
    return Switch(review=review, scope="session" if scope == "session" else "request")
