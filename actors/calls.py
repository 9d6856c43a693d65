"""Every call that crosses to an actor, in one place.

With :mod:`donecheck.actors.deploy` (which creates the actors), this is the only
module that touches Ray — and only when a call goes to a Ray actor: importing it
loads no Ray, so the in-process deployment runs without it. An import-linter
contract keeps Ray behind these two modules. It holds:

* waiting: :func:`get` / :func:`aget` with a deadline, Ray's exceptions
  translated into DoneCheck's tree (:func:`translate`), :func:`put` and
  :func:`first_done`;
* one function per call a driver makes — :func:`append`, :func:`ask`,
  :func:`attach_materials`, :func:`account`, :func:`parse`, :func:`remember`,
  :func:`statistics` — each returning an object ref to wait on;
* the ports one actor uses to reach another (:class:`RayLedgers`,
  :class:`RayReviewers`, :class:`RayBudgets`, implementing the Protocols in
  :mod:`donecheck.actors.peers`): small values that find their actors by name
  on first use, so they can be handed to an actor's constructor and still work
  after the actors they name restart.

Actors are named ``<kind>-<index>`` inside the deployment's namespace
(:func:`actor_name`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from donecheck.actors.batching import Batcher, batcher
from donecheck.actors.errors import ActorUnavailableError, DoneCheckError
from donecheck.actors.ids import actor_name, shard_of
from donecheck.actors.inprocess import LocalCallError, LocalRef, resolved
from donecheck.actors.messages import (
    Ack,
    AppendAck,
    BudgetInbox,
    BudgetReply,
    ControllerInbox,
    EvidenceRequest,
    EvidenceView,
    LedgerEvent,
    LedgerView,
    Material,
    ParseRequest,
    ReviewRequest,
    ReviewResult,
    ViewRequest,
    encode,
    encode_events,
    evidence_decoder,
    review_result_decoder,
    view_decoder,
)
from donecheck.actors.peers import BudgetShards, one_session

__all__ = [
    "RayBudgets",
    "RayLedgers",
    "RayReviewers",
    "Ref",
    "account",
    "actor_name",
    "aget",
    "append",
    "append_batched",
    "ask",
    "ask_batched",
    "attach_materials",
    "first_done",
    "get",
    "list_sessions",
    "lookup",
    "parse",
    "put",
    "remember",
    "statistics",
    "translate",
    "view",
]

Ref: TypeAlias = Any
"""A Ray object ref: the pending answer of one call."""


def _ray() -> Any:
    """Ray, imported when a call first goes to a Ray actor: the in-process
    deployment (``donecheck review``, ``serve --in-process``) never loads it."""
    import ray

    return ray


def lookup(kind: str, count: int, namespace: str) -> list[Any]:
    """Handles to the ``count`` actors of a kind, found by name."""
    ray = _ray()
    return [ray.get_actor(actor_name(kind, i), namespace=namespace) for i in range(count)]


# ------------------------------------------------------------------- waiting


def translate(exc: BaseException, actor: str, timeout_s: float | None) -> BaseException:
    """The DoneCheck error for a failure of a call to ``actor`` (on Ray or in process)."""
    if isinstance(exc, LocalCallError):
        return ActorUnavailableError(
            actor, f"raised {type(exc.cause).__name__}: {exc.cause}", timeout_s
        )
    ray = sys.modules.get("ray")  # not loaded: the failure cannot be one of Ray's
    if ray is None:
        if isinstance(exc, TimeoutError):
            within = f"within {timeout_s:g} s" if timeout_s is not None else "in time"
            return ActorUnavailableError(actor, f"no answer {within}", timeout_s)
        return exc
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = exc.cause
        if isinstance(cause, DoneCheckError):
            return cause
        return ActorUnavailableError(actor, f"raised {type(cause).__name__}: {cause}", timeout_s)
    if isinstance(exc, ray.exceptions.GetTimeoutError | TimeoutError):
        within = f"within {timeout_s:g} s" if timeout_s is not None else "in time"
        return ActorUnavailableError(actor, f"no answer {within}", timeout_s)
    if isinstance(exc, ray.exceptions.RayActorError):
        return ActorUnavailableError(actor, f"the actor died or is restarting ({exc})", timeout_s)
    return exc


def get(ref: Ref | list[Ref], *, actor: str, timeout_s: float) -> Any:
    """``ray.get`` with a deadline and translated errors (in-process refs too)."""
    try:
        if isinstance(ref, LocalRef):
            return ref.future().result(timeout_s)
        if isinstance(ref, list) and ref and all(isinstance(r, LocalRef) for r in ref):
            done, _ = concurrent.futures.wait([r.future() for r in ref], timeout_s)
            if len(done) < len(ref):
                raise TimeoutError
            return [r.future().result() for r in ref]
        return _ray().get(ref, timeout=timeout_s)
    except Exception as exc:
        raise translate(exc, actor, timeout_s) from exc


async def aget(ref: Ref, *, actor: str, timeout_s: float | None) -> Any:
    """Await an object ref with a deadline and translated errors (a ``StoreError``
    the ledger raised arrives as that ``StoreError``, not wrapped in Ray's task
    error). ``None``: no deadline — inside an actor, whose caller's own bounds it."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(ref.future()), timeout_s)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        raise translate(exc, actor, timeout_s) from exc


def put(value: object) -> Ref:
    """A ref whose answer is ``value``, to wait on like a call's answer (the driver's
    own: it is never handed to an actor)."""
    return resolved(value)


def first_done(refs: Sequence[Ref], timeout_s: float) -> list[Ref]:
    """Wait for one of ``refs`` to be ready; the ready ones (none after the timeout)."""
    if refs and all(isinstance(r, LocalRef) for r in refs):
        by_future = {r.future(): r for r in refs}
        finished, _ = concurrent.futures.wait(
            list(by_future), timeout_s, return_when=concurrent.futures.FIRST_COMPLETED
        )
        return [by_future[f] for f in finished]
    done, _ = _ray().wait(list(refs), num_returns=1, timeout=timeout_s)
    return list(done)


# ---------------------------------------------------------- a driver's calls


def append(ledger: Any, events: Sequence[LedgerEvent]) -> Ref:
    """Append one session's events to its ledger shard (packed: ~15x cheaper than
    Ray's pickling). The answer is an :class:`AppendAck`."""
    return ledger.append_packed.remote(encode_events(events))


def _outbox(handle: Any, method: str, actor: str, timeout_s: float | None) -> Batcher[Any, Any]:
    """The running loop's outbox for an actor's batch endpoint ``handle.method``
    (``append_many``, ``view_many``, ``handle_many``): see :mod:`.batching`."""

    async def send(messages: list[Any]) -> list[Any]:
        ref = getattr(handle, method).remote(messages)
        answers: list[Any] = await aget(ref, actor=actor, timeout_s=timeout_s)
        return answers

    return batcher((method, handle), send)


async def append_batched(ledger: Any, events: Sequence[LedgerEvent], timeout_s: float) -> AppendAck:
    """:func:`append` from an event loop, sent with the appends other sessions make
    to the same shard meanwhile (one call, one transaction)."""
    ack: AppendAck = await _outbox(ledger, "append_many", "ledger", timeout_s).submit(
        encode_events(events)
    )
    return ack


def view(ledger: Any, request: ViewRequest) -> Ref:
    """Ask a session's ledger shard for views (answered packed: decode the bytes
    with :data:`~donecheck.actors.messages.view_decoder`)."""
    return ledger.view_packed.remote(request)


def ask(controller: Any, message: ControllerInbox) -> Ref:
    """Send a message to a session's controller shard."""
    return controller.handle.remote(message)


async def ask_batched(controller: Any, message: ControllerInbox, timeout_s: float) -> Any:
    """:func:`ask` from an event loop for a message the controller answers at once
    (not a stop or a milestone, which wait for a review), sent with the ones other
    sessions send the same shard meanwhile."""
    return await _outbox(controller, "handle_many", "controller", timeout_s).submit(message)


def attach_materials(
    controller: Any, session_id: str, jobs: Sequence[tuple[str, str, Ref]], call_id: str = ""
) -> Ref:
    """Hand the controller ``(sha256, name, parse ref)`` per attachment being parsed
    (with ``call_id``: per image that tool call returned)."""
    return controller.attach_materials.remote(session_id, list(jobs), call_id=call_id)


def list_sessions(controller: Any, limit: int) -> Ref:
    """A controller shard's sessions, newest first: a list of ``SessionSummary``."""
    return controller.sessions.remote(limit)


def account(budget: Any, message: BudgetInbox) -> Ref:
    """Send a message to a budget accountant shard (its writes group-committed)."""
    return budget.handle_async.remote(message)


def parse(parser: Any, request: ParseRequest, data: bytes) -> Ref:
    """Parse one attachment on a parser of the pool. The answer is a :class:`Material`."""
    return parser.parse.remote(request, data)


def remember(parser: Any, material: Ref | Material) -> None:
    """Let ``parser`` cache a material another parser made (no answer awaited)."""
    parser.remember.remote(material)


def statistics(named: Mapping[str, Any], timeout_s: float) -> dict[str, Any]:
    """Every named actor's ``statistics()``, gathered at once."""
    names = list(named)
    refs = [named[n].statistics.remote() for n in names]
    answers = get(refs, actor="statistics", timeout_s=timeout_s) if refs else []
    return dict(zip(names, answers, strict=True))


# --------------------------------------------------------------------- ports


class _Named:
    """Shards of one kind, found by name on first use (a small, picklable value)."""

    kind = ""

    def __init__(self, namespace: str, count: int) -> None:
        self.namespace = namespace
        self.count = count
        self._handles: list[Any] | None = None

    def _shard(self, key: str) -> Any:
        if self._handles is None:
            self._handles = lookup(self.kind, self.count, self.namespace)
        return self._handles[shard_of(key, self.count)]


class RayLedgers(_Named):
    """Ledger shards, by session id; calls to a shard batched (:mod:`.batching`)."""

    kind = "ledger"

    async def append(self, events: Sequence[LedgerEvent]) -> AppendAck:
        outbox = _outbox(self._shard(one_session(events)), "append_many", "ledger", None)
        ack: AppendAck = await outbox.submit(encode_events(events))
        return ack

    async def view(self, request: ViewRequest) -> LedgerView:
        outbox = _outbox(self._shard(request.session_id), "view_many", "ledger", None)
        return view_decoder.decode(await outbox.submit(request))

    async def evidence(self, request: EvidenceRequest) -> EvidenceView:
        outbox = _outbox(self._shard(request.session_id), "evidence_many", "ledger", None)
        return evidence_decoder.decode(await outbox.submit(request))


class RayReviewers(_Named):
    """The reviewer pool; a session always goes to the same reviewer (cache locality)."""

    kind = "reviewer"

    async def review(self, request: ReviewRequest) -> ReviewResult:
        data = await self._shard(request.session_id).review_packed.remote(encode(request))
        return review_result_decoder.decode(data)

    async def prepare(self, request: ReviewRequest) -> Ack:
        ack: Ack = await self._shard(request.session_id).prepare_packed.remote(encode(request))
        return ack


class RayBudgets(_Named, BudgetShards):
    """Budget shards, by tenant when there is one, else by session."""

    kind = "budget"

    async def send(self, key: str, message: BudgetInbox) -> BudgetReply:
        answer: BudgetReply = await _outbox(self._shard(key), "handle_many", "budget", None).submit(
            message
        )
        return answer
