"""Time as an injected dependency, so limits are tested by advancing a fake clock.

Actor logic never calls ``time.time()`` itself: it is handed a :class:`Clock`.
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "FakeClock", "SystemClock"]


@runtime_checkable
class Clock(Protocol):
    def now(self) -> float:
        """Wall-clock seconds since the epoch (for records a human reads)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for limits and latencies)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._mono = 0.0

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._now += seconds
        self._mono += seconds
