"""Pair each tool result with the call it answers, as providers really write them.

Tool-call ids are not unique everywhere: several OpenAI-compatible servers start
over at ``call_0`` in every message, some leave ids out, and results may come
back in another order than the calls. :class:`Pairing` gives every call an id
unique within the transcript (the provider's own when it is unique, else the
provider's with a ``~n`` suffix) and pairs each result:

1. by id, with a call of the nearest preceding assistant message that has one
   still unanswered;
2. else (no id, or no unanswered call with that id) by position: the oldest
   unanswered call of the nearest preceding assistant message.

A result with no call left to answer keeps its own id and is reported.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Pairing"]


@dataclass(slots=True)
class _Call:
    unique: str
    given: str
    message: int


class Pairing:
    """Unique call ids, and the call each result answers (see the module docstring)."""

    def __init__(self) -> None:
        self._pending: list[_Call] = []
        self._used: set[str] = set()

    def call(self, given: str | None, message: int) -> str:
        """Register a call made in assistant message ``message``; its unique id."""
        base = given or f"call-{message}-{len(self._used) + 1}"
        unique, n = base, 1
        while unique in self._used:
            n += 1
            unique = f"{base}~{n}"
        self._used.add(unique)
        self._pending.append(_Call(unique, given or "", message))
        return unique

    def result(self, given: str | None) -> tuple[str, str]:
        """The unique id of the call a result answers, and how it was found:
        ``"id"``, ``"position"`` or ``"unknown"`` (no call was waiting for it)."""
        if not self._pending:
            unique = given or f"result-{len(self._used) + 1}"
            self._used.add(unique)
            return unique, "unknown"
        if given:
            same = [c for c in self._pending if c.given == given]
            if same:  # the nearest message's, and within it the first
                nearest = max(c.message for c in same)
                call = next(c for c in same if c.message == nearest)
                self._pending.remove(call)
                return call.unique, "id"
        latest = self._pending[-1].message
        call = next(c for c in self._pending if c.message == latest)
        self._pending.remove(call)
        return call.unique, "position"

    @property
    def unanswered(self) -> int:
        return len(self._pending)
