"""Time as an injected dependency, so limits are tested by advancing a fake clock.

Actor logic never calls ``time.time()`` itself, nor sleeps or times out on the
event loop's own clock: it is handed a :class:`Clock`, sleeps with
:meth:`Clock.sleep` and bounds a wait with :func:`within`. A test hands it a
:class:`FakeClock` and advances it: a 150-second deadline passes at once.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable
from typing import Protocol, TypeVar, runtime_checkable

__all__ = ["Clock", "FakeClock", "SystemClock", "within"]

_T = TypeVar("_T")


@runtime_checkable
class Clock(Protocol):
    def now(self) -> float:
        """Wall-clock seconds since the epoch (for records a human reads)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for limits and latencies)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock:
    """A clock that moves only when told to. A :meth:`sleep` on it returns when
    :meth:`advance` moves it past the sleep's end (on the next turn of the loop)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._mono = 0.0
        self._order = itertools.count()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._slept: asyncio.Event | None = None

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._mono + seconds, next(self._order), woken))
        if self._slept is not None:
            self._slept.set()
        await woken

    @property
    def sleeping(self) -> int:
        """Sleeps not yet over."""
        return sum(1 for *_, woken in self._sleepers if not woken.done())

    async def until_sleeping(self, count: int = 1) -> None:
        """Return once ``count`` sleeps are under way (the code under test is now
        waiting on this clock: advancing it will be seen)."""
        while self.sleeping < count:
            self._slept = asyncio.Event()
            await self._slept.wait()

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._now += seconds
        self._mono += seconds
        while self._sleepers and self._sleepers[0][0] <= self._mono:
            _, _, woken = heapq.heappop(self._sleepers)
            if not woken.done():
                woken.set_result(None)


async def within(clock: Clock, seconds: float, awaitable: Awaitable[_T]) -> _T:
    """The result of ``awaitable``, or :class:`TimeoutError` once ``seconds`` have
    passed on ``clock`` first (the awaitable is then cancelled)."""
    work = asyncio.ensure_future(awaitable)
    timer = asyncio.ensure_future(clock.sleep(seconds))
    try:
        await asyncio.wait({work, timer}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        work.cancel()
        raise
    finally:
        timer.cancel()
    if work.done():
        return work.result()
    work.cancel()
    await asyncio.wait({work})
    if not work.cancelled():
        work.exception()  # it ended as it was cut off: retrieved, the timeout stands
    raise TimeoutError
