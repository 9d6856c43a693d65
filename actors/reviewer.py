"""Reviewer: turns a :class:`ReviewRequest` into a verdict. Holds no session state.

The embedded default is rules-only (:func:`~donecheck.actors.rules.review_by_rules`).
The class is async so one actor can hold many reviews in flight once a judge
model is configured; rules-only reviews are CPU-cheap and run inline.
"""

from __future__ import annotations

from typing import Any

from donecheck.actors.rules import review_by_rules
from donecheck.runtime.clock import Clock, SystemClock
from donecheck.runtime.messages import NoVerdict, ReviewRequest, ReviewResult

__all__ = ["Reviewer"]


class Reviewer:
    def __init__(self, index: int = 0, clock: Clock | None = None) -> None:
        self.index = index
        self._clock = clock or SystemClock()
        self._in_flight = 0
        self._reviews = 0
        self._failures = 0
        self._busy_s = 0.0

    async def review(self, request: ReviewRequest) -> ReviewResult:
        self._in_flight += 1
        started = self._clock.monotonic()
        try:
            verdict = review_by_rules(request)
        except Exception as exc:  # a bug in a rule must not become a pass or a fix
            self._failures += 1
            return NoVerdict(
                review_id=request.review_id,
                reason=f"the rules reviewer failed: {type(exc).__name__}: {exc}",
            )
        finally:
            self._in_flight -= 1
            self._reviews += 1
            self._busy_s += self._clock.monotonic() - started
        return verdict

    def statistics(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "in_flight": self._in_flight,
            "reviews": self._reviews,
            "failures": self._failures,
            "busy_s": round(self._busy_s, 6),
            "mode": "rules",
        }
