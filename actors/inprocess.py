"""The same actors without Ray: one process, one event loop, the same classes.

A one-shot command (``donecheck review`` of a few files, ``eval`` on a corpus)
does not need a cluster: starting Ray costs seconds, the review a millisecond.
:func:`deploy_local` builds a :class:`~donecheck.actors.deployment.Deployment` whose
handles are :class:`LocalHandle` s over plain instances of the classes Ray runs
— :class:`EvidenceLedger`, :class:`CompletionController`, :class:`Reviewer`,
:class:`BudgetAccountant`, :class:`AttachmentParser` — wired with the in-process
ports of :mod:`donecheck.actors.peers`. A handle keeps Ray's calling convention
(``handle.method.remote(...)`` returns a ref), so the session API, the hooks and
the CLI run unchanged on either; :mod:`donecheck.actors.calls` waits on a
:class:`LocalRef` as it waits on a Ray object ref.

Like Ray's actors, each instance is only ever touched by one thread: the
ledger, controller, reviewer and budget instances by the system's event loop
thread (async methods run concurrently there, as on an async Ray actor), each
parser by its own thread (a parse blocks while its worker process reads the
file). Nothing here imports Ray.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import os
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.config import Config
from donecheck.actors.controller import CompletionController
from donecheck.actors.deployment import LocalDeployment
from donecheck.actors.errors import DoneCheckError
from donecheck.actors.ids import actor_name
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.local import LocalLedgers, LocalReviewers
from donecheck.actors.parser import AttachmentParser
from donecheck.actors.peers import LocalBudgets
from donecheck.actors.reviewer import Reviewer
from donecheck.actors.store import StoreLocation

__all__ = [
    "LocalCallError",
    "LocalHandle",
    "LocalRef",
    "LocalSystem",
    "deploy_local",
    "local_parser_count",
    "resolved",
]


class LocalCallError(Exception):
    """An in-process actor method raised something other than a DoneCheck error (as
    Ray wraps it in a ``RayTaskError``); ``calls`` turns it into an
    ``ActorUnavailableError`` naming the actor."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.cause = cause


class LocalRef:
    """The pending answer of one in-process call: ``future()`` like a Ray object ref,
    and awaitable (an actor may await a ref it was handed, as on Ray)."""

    __slots__ = ("_future",)

    def __init__(self, future: concurrent.futures.Future[Any]) -> None:
        self._future = future

    def future(self) -> concurrent.futures.Future[Any]:
        return self._future

    def __await__(self) -> Generator[Any, None, Any]:
        return asyncio.wrap_future(self._future).__await__()


def resolved(value: object) -> LocalRef:
    """A ref whose answer is ``value`` already (``calls.put``)."""
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    future.set_result(value)
    return LocalRef(future)


class LocalSystem:
    """The event loop, in a daemon thread, that the non-parser actors live on."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.call_soon(ready.set)
            self.loop.run_forever()

        self._thread = threading.Thread(target=run, name="donecheck-actors", daemon=True)
        self._thread.start()
        ready.wait()

    def submit(self, coro: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the loop thread and wait for it (building instances there)."""

        async def run() -> Any:
            return fn()

        return self.submit(run()).result()

    def stop(self) -> None:
        """Cancel what still runs on the loop (an interrupted batch), then stop it."""
        if self.loop.is_closed():
            return

        async def drain() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            self.submit(drain()).result(10)
        except (concurrent.futures.TimeoutError, RuntimeError):
            pass  # stop anyway: the thread is a daemon
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self.loop.close()


class _Method:
    __slots__ = ("_handle", "_name")

    def __init__(self, handle: LocalHandle, name: str) -> None:
        self._handle = handle
        self._name = name

    def remote(self, *args: Any, **kwargs: Any) -> LocalRef:
        return self._handle.submit(self._name, args, kwargs)


class LocalHandle:
    """An actor instance behind Ray's calling convention: ``handle.name.remote(...)``.

    Calls run on the system's loop thread, or on ``executor`` (a parser's own
    thread) when given. Refs among the arguments are waited for first, as Ray
    resolves object refs passed to a call."""

    def __init__(
        self,
        instance: Any,
        system: LocalSystem,
        executor: concurrent.futures.ThreadPoolExecutor | None = None,
    ) -> None:
        self.instance = instance
        self._system = system
        self._executor = executor

    def __getattr__(self, name: str) -> _Method:
        if name.startswith("_"):
            raise AttributeError(name)
        return _Method(self, name)

    def submit(self, name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> LocalRef:
        method = getattr(self.instance, name)
        if self._executor is not None:
            return LocalRef(self._executor.submit(_call_sync, method, args, kwargs))
        return LocalRef(self._system.submit(_call_on_loop(method, args, kwargs)))


def _call_sync(method: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    try:
        values = [a.future().result() if isinstance(a, LocalRef) else a for a in args]
        return method(*values, **kwargs)
    except DoneCheckError:
        raise
    except Exception as exc:
        raise LocalCallError(exc) from exc


async def _call_on_loop(
    method: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]
) -> Any:
    try:
        values = [await a if isinstance(a, LocalRef) else a for a in args]
        result = method(*values, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result
    except DoneCheckError:
        raise
    except Exception as exc:
        raise LocalCallError(exc) from exc


@dataclass(frozen=True)
class _Parts:
    ledgers: list[EvidenceLedger]
    budgets: list[BudgetAccountant]
    reviewers: list[Reviewer]
    controllers: list[CompletionController]


def _parser(index: int, config: Config) -> AttachmentParser:
    return AttachmentParser(index=index, config=config, start_worker=False)


def local_parser_count(config: Config) -> int:
    """Parser threads in process: as configured, else one per CPU (at most 4)."""
    if config.parser_actors is not None:
        return max(1, config.parser_actors)
    return max(1, min(4, os.cpu_count() or 1))


def deploy_local(config: Config) -> Any:
    """A deployment of ``config`` in this process (no Ray): a
    :class:`~donecheck.actors.deployment.Deployment` of :class:`LocalHandle` s. Stop it
    with its ``kill()``."""

    system = LocalSystem()
    url = config.effective_store_url

    def store(kind: str, i: int) -> StoreLocation:
        return StoreLocation(url, actor_name(kind, i))

    def build() -> _Parts:
        ledgers = [
            EvidenceLedger(
                i,
                store=store("ledger", i),
                cached_sessions=config.ledger_cached_sessions,
                snapshot_targets=config.snapshot_max_targets,
            )
            for i in range(config.ledger_shards)
        ]
        budgets = [
            BudgetAccountant(config=config, shard=i, store=store("budget", i))
            for i in range(config.budget_shards)
        ]
        reviewers = [
            Reviewer(i, config=config, budget=LocalBudgets(budgets), ledger=LocalLedgers(ledgers))
            for i in range(config.reviewer_actors)
        ]
        controllers = [
            CompletionController(
                config=config,
                ledger=LocalLedgers(ledgers),
                reviewer=LocalReviewers(reviewers),
                budget=LocalBudgets(budgets),
                store=store("controller", i),
                shard=i,
            )
            for i in range(config.controller_shards)
        ]
        return _Parts(ledgers, budgets, reviewers, controllers)

    try:
        parts: _Parts = system.call(build)
    except BaseException:
        system.stop()
        raise
    executors = []
    parsers = []
    for i in range(local_parser_count(config)):
        executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"parser-{i}")
        executors.append(executor)
        parser = executor.submit(_parser, i, config).result()
        parsers.append(LocalHandle(parser, system, executor))

    def handles(instances: Sequence[Any]) -> tuple[LocalHandle, ...]:
        return tuple(LocalHandle(x, system) for x in instances)

    def stop() -> None:
        async def close() -> None:
            for reviewer in parts.reviewers:
                await reviewer.aclose()
            for ledger in parts.ledgers:
                ledger.close()

        try:
            system.submit(close()).result(30)
        finally:
            for handle, executor in zip(parsers, executors, strict=True):
                executor.submit(handle.instance.close).result(30)
            for executor in executors:
                executor.shutdown(wait=False, cancel_futures=True)
            system.stop()

    return LocalDeployment(
        config=config,
        manifest=None,
        ledgers=handles(parts.ledgers),
        reviewers=handles(parts.reviewers),
        controllers=handles(parts.controllers),
        budgets=handles(parts.budgets),
        parsers=tuple(parsers),
        stop=stop,
    )
