"""A very long request as a reader is shown it: its tail (where the last, target
request is) and its head (which may hold a checklist) — for the judge's prompt, the
pre-analysis and the fix checklist alike."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HEAD_CHARS", "LONG_REQUEST_CHARS", "TAIL_CHARS", "RequestView", "request_view"]

LONG_REQUEST_CHARS = 12_000
HEAD_CHARS = 4_000
TAIL_CHARS = 6_000


@dataclass(frozen=True, slots=True)
class RequestView:
    """The request as a model is shown it: whole, or its tail and its head."""

    tail: str
    head: str = ""
    omitted: int = 0

    @property
    def whole(self) -> bool:
        return not self.head


def request_view(request: str, limit: int = LONG_REQUEST_CHARS) -> RequestView:
    """A very long request (a pasted dump) becomes its tail — where the last,
    target request is — and its head, which may hold a checklist."""
    if len(request) <= limit:
        return RequestView(tail=request)
    return RequestView(
        tail=request[-TAIL_CHARS:],
        head=request[:HEAD_CHARS],
        omitted=len(request) - HEAD_CHARS - TAIL_CHARS,
    )
