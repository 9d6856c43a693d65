"""Many small calls to one actor sent as one: an outbox per destination.

An actor call costs about the same CPU whether it carries one message or fifty
(submission, scheduling, a task on the other side). Under load many sessions
talk to the same ledger or budget shard at once, so a :class:`Batcher` keeps
at most one call in flight per destination and sends whatever arrived
meanwhile together in the next one:

* **No added wait.** An idle destination gets the message at once (a batch of
  one); messages only wait while a call to the same destination is already
  running, which they would otherwise queue behind on the actor anyway.
* **Order kept.** One call at a time, first in first out: one session's appends
  reach its ledger shard in the order they were made.
* **Each caller gets its own answer.** The destination answers a list, one
  reply per message; a reply that is an exception is raised to that caller
  only. A call that fails as a whole fails every message it carried (the
  destination never saw them, or — a store transaction — kept none of them).

A batcher belongs to the event loop it was first used on (its futures do);
:func:`batcher` finds or makes the one for the running loop.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["Batcher", "answer_each", "batcher"]

T = TypeVar("T")
R = TypeVar("R")

MAX_BATCH = 256
"""Messages per call at most (a bound on one call's size and its answer's)."""


class Batcher(Generic[T, R]):
    """An outbox for one destination: ``await submit(message)`` is its reply."""

    def __init__(
        self,
        send: Callable[[list[T]], Awaitable[Sequence[R | BaseException]]],
        *,
        max_batch: int = MAX_BATCH,
    ) -> None:
        """``send(messages)`` makes one call and returns one reply (or exception)
        per message, in order."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, not {max_batch}")
        self._send = send
        self._max = max_batch
        self._queue: deque[tuple[T, asyncio.Future[R]]] = deque()
        self._runner: asyncio.Task[None] | None = None
        self.calls = 0
        self.messages = 0

    async def submit(self, message: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._queue.append((message, future))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.ensure_future(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._queue:
            batch = [self._queue.popleft() for _ in range(min(self._max, len(self._queue)))]
            live = [(m, f) for m, f in batch if not f.done()]  # a caller gave up: skip it
            if not live:
                continue
            self.calls += 1
            self.messages += len(live)
            try:
                replies = await self._send([m for m, _ in live])
                if len(replies) != len(live):
                    raise RuntimeError(
                        f"a batch of {len(live)} message(s) got {len(replies)} replies"
                    )
            except asyncio.CancelledError:
                for _, future in live:
                    future.cancel()
                for _, future in self._queue:
                    future.cancel()
                self._queue.clear()
                raise
            except Exception as exc:  # the call failed: every message it carried did
                for _, future in live:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), reply in zip(live, replies, strict=True):
                if future.done():
                    continue
                if isinstance(reply, BaseException):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)


async def answer_each(work: Iterable[Awaitable[R]]) -> list[R | Exception]:
    """The destination's side of a batch: run each message's handling at once and
    answer each with its reply or its own error (a cancellation or an interrupt
    still ends the whole call)."""
    answers = await asyncio.gather(*work, return_exceptions=True)
    for answer in answers:
        if isinstance(answer, BaseException) and not isinstance(answer, Exception):
            raise answer
    return list(answers)  # type: ignore[arg-type]


_registry: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, Any]] = (
    weakref.WeakKeyDictionary()
)


def batcher(
    key: Hashable,
    send: Callable[[list[T]], Awaitable[Sequence[R | BaseException]]],
    *,
    max_batch: int = MAX_BATCH,
) -> Batcher[T, R]:
    """The running loop's batcher for ``key`` (made with ``send`` the first time)."""
    loop = asyncio.get_running_loop()
    known = _registry.setdefault(loop, {})
    found = known.get(key)
    if found is None:
        found = known[key] = Batcher(send, max_batch=max_batch)
    return found
