"""Where the actor classes become Ray actors: names, namespace, shards, restarts.

The actor logic lives in plain classes (``ledger.py``, ``controller.py`` …) that
run without Ray in unit tests. This module alone applies ``ray.remote``, names
every actor within the deployment's namespace, and decides restart and
concurrency settings. Creating actors with ``get_if_exists=True`` makes
:func:`deploy` idempotent: a second driver on the same cluster and namespace
attaches to the running deployment instead of starting another.

The first actor, ``manifest``, holds the configuration the deployment was
started with. An attaching driver adopts it, so every driver computes the same
session → shard mapping.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import ray

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.controller import CompletionController
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.parser import AttachmentParser
from donecheck.actors.peers import RayBudgets, RayLedgers, RayReviewers, budget_key
from donecheck.actors.reviewer import Reviewer
from donecheck.actors.store import open_store
from donecheck.runtime.config import Config
from donecheck.runtime.ids import shard_of
from donecheck.runtime.messages import BudgetInbox, BudgetReply
from donecheck.runtime.process import settle_gc

__all__ = ["Deployment", "actor_names", "deploy"]

log = logging.getLogger("donecheck")

_LAYOUT = (
    "ledger_shards",
    "controller_shards",
    "budget_shards",
    "reviewer_actors",
    "parser_actors",
)
_CONTROLLER_CONCURRENCY = 2048


class _Manifest:
    """Holds the deployment's configuration so later drivers use the same layout."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def config(self) -> Config:
        return self._config


class _RayLedger(EvidenceLedger):
    """The ledger with its store opened from the configuration, in its own process."""

    def __init__(self, *, config: Config, shard: int) -> None:
        super().__init__(
            shard,
            store=open_store(config.effective_store_url, f"ledger-{shard}"),
            cached_sessions=config.ledger_cached_sessions,
            snapshot_targets=config.snapshot_max_targets,
        )
        settle_gc()


class _RayController(CompletionController):
    """The controller with Ray peers, looked up by name in its own process.

    Only small values cross as constructor arguments (not actor handles), so
    Ray can always restart it (ray-project/ray#53727).
    """

    def __init__(self, *, config: Config, shard: int) -> None:
        ns = config.namespace
        super().__init__(
            config=config,
            ledger=RayLedgers(_lookup("ledger", config.ledger_shards, ns)),
            reviewer=RayReviewers(_lookup("reviewer", config.reviewer_actors, ns)),
            budget=RayBudgets(ns, config.budget_shards),
            store=open_store(config.effective_store_url, f"controller-{shard}"),
            shard=shard,
        )
        settle_gc()


class _RayBudget(BudgetAccountant):
    """The accountant with its durable state in the deployment's store. An async
    actor: each message is applied at once (atomically), and its state change is
    group-committed before the reply."""

    def __init__(self, *, config: Config, shard: int) -> None:
        super().__init__(
            config=config,
            shard=shard,
            store=open_store(config.effective_store_url, f"budget-{shard}"),
        )
        settle_gc()

    async def handle(self, msg: BudgetInbox) -> BudgetReply:  # type: ignore[override]
        return await self.handle_async(msg)


class _RayReviewer(Reviewer):
    """The reviewer with the budget shards found by name on first use."""

    def __init__(self, *, config: Config, index: int) -> None:
        super().__init__(
            index,
            config=config,
            budget=RayBudgets(config.namespace, config.budget_shards),
        )
        settle_gc()


def _lookup(kind: str, count: int, namespace: str) -> list[Any]:
    return [ray.get_actor(f"{kind}-{i}", namespace=namespace) for i in range(count)]


_RemoteManifest: Any = ray.remote(_Manifest)
_RemoteLedger: Any = ray.remote(_RayLedger)
_RemoteController: Any = ray.remote(_RayController)
_RemoteReviewer: Any = ray.remote(_RayReviewer)
_RemoteBudget: Any = ray.remote(_RayBudget)
_RemoteParser: Any = ray.remote(AttachmentParser)


def parser_count(config: Config) -> int:
    """Parser pool size: as configured, else one per CPU of the cluster."""
    if config.parser_actors is not None:
        return config.parser_actors
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def actor_names(config: Config) -> list[str]:
    """Every actor name of a deployment with this layout (within its namespace)."""
    names = ["manifest"]
    names += [f"ledger-{i}" for i in range(config.ledger_shards)]
    names += [f"reviewer-{i}" for i in range(config.reviewer_actors)]
    names += [f"controller-{i}" for i in range(config.controller_shards)]
    names += [f"budget-{i}" for i in range(config.budget_shards)]
    names += [f"parser-{i}" for i in range(parser_count(config))]
    return names


@dataclass(frozen=True)
class Deployment:
    """Handles to a running deployment's actors."""

    config: Config
    manifest: Any
    """Held so the manifest lives as long as this handle (non-detached actors die
    with their last handle)."""
    ledgers: tuple[Any, ...]
    reviewers: tuple[Any, ...]
    controllers: tuple[Any, ...]
    budgets: tuple[Any, ...]
    parsers: tuple[Any, ...]

    def ledger_for(self, session_id: str) -> Any:
        return self.ledgers[shard_of(session_id, len(self.ledgers))]

    def controller_for(self, session_id: str) -> Any:
        return self.controllers[shard_of(session_id, len(self.controllers))]

    def budget_for(self, session_id: str, tenant: str | None = None) -> Any:
        return self.budgets[shard_of(budget_key(session_id, tenant), len(self.budgets))]

    def parser_for(self, sha256: str) -> Any:
        return self.parsers[shard_of(sha256, len(self.parsers))]

    def named(self) -> Iterator[tuple[str, Any]]:
        for kind, handles in (
            ("ledger", self.ledgers),
            ("reviewer", self.reviewers),
            ("controller", self.controllers),
            ("budget", self.budgets),
            ("parser", self.parsers),
        ):
            for i, handle in enumerate(handles):
                yield f"{kind}-{i}", handle

    def statistics(self, timeout_s: float = 30.0) -> dict[str, Any]:
        names, refs = zip(*((n, h.statistics.remote()) for n, h in self.named()), strict=True)
        return dict(zip(names, ray.get(list(refs), timeout=timeout_s), strict=True))

    def kill(self) -> None:
        """Stop every actor of the deployment (other drivers lose it too)."""
        for _, handle in self.named():
            ray.kill(handle, no_restart=True)
        ray.kill(self.manifest, no_restart=True)


def deploy(config: Config, *, detached: bool, timeout_s: float = 120.0) -> Deployment:
    """Create the deployment's actors, or attach to them if they already run."""
    ns = config.namespace
    lifetime = "detached" if detached else None

    def opts(name: str, **extra: Any) -> dict[str, Any]:
        return {
            "name": name,
            "namespace": ns,
            "get_if_exists": True,
            "lifetime": lifetime,
            "num_cpus": 0,
            **extra,
        }

    manifest = _RemoteManifest.options(**opts("manifest")).remote(config)
    live: Config = ray.get(manifest.config.remote(), timeout=timeout_s)
    differs = [f for f in _LAYOUT if getattr(live, f) != getattr(config, f)]
    if differs:
        log.info(
            "attached to the running deployment in namespace %r; it keeps its layout (%s)",
            ns,
            ", ".join(f"{f}={getattr(live, f)}" for f in differs),
        )
    # Appends are idempotent (event ids) and durable before they are acknowledged,
    # so a call cut short by the ledger's death is safely run again once Ray has
    # restarted it and it has reloaded the session from the store.
    ledgers = tuple(
        _RemoteLedger.options(**opts(f"ledger-{i}", max_restarts=-1, max_task_retries=3)).remote(
            config=live, shard=i
        )
        for i in range(live.ledger_shards)
    )
    # Room for every review the actor runs at once, those queued behind them, and
    # statistics calls: the reviewer's own semaphore is the bound that counts.
    # A review is a pure function of its request, so one cut short by the
    # reviewer's death is run again once Ray has restarted it (with a judge this
    # may repeat a provider call; the budget accountant counts it).
    reviewer_slots = 2 * live.reviewer_concurrency + 64
    reviewers = tuple(
        _RemoteReviewer.options(
            **opts(
                f"reviewer-{i}",
                max_concurrency=reviewer_slots,
                max_restarts=-1,
                max_task_retries=2,
            )
        ).remote(config=live, index=i)
        for i in range(live.reviewer_actors)
    )
    # Controller and accountant state is durable, and every message they take is
    # idempotent (a stop event is answered from the saved action, a reservation or
    # a settlement by its id), so a call cut short by their death is run again
    # once Ray has restarted them and they have reloaded their state.
    durable = {"max_restarts": -1, "max_task_retries": 2}
    controllers = tuple(
        _RemoteController.options(
            **opts(f"controller-{i}", max_concurrency=_CONTROLLER_CONCURRENCY, **durable)
        ).remote(config=live, shard=i)
        for i in range(live.controller_shards)
    )
    budgets = tuple(
        _RemoteBudget.options(
            **opts(f"budget-{i}", max_concurrency=_CONTROLLER_CONCURRENCY, **durable)
        ).remote(config=live, shard=i)
        for i in range(live.budget_shards)
    )
    # Parsing is a pure function of the bytes, so a call cut short by an actor's
    # death (a kill, a lost node) is simply run again on the restarted actor. A
    # file that crashes the parser itself never reaches here: its child process
    # dies instead, and the file is reported ``crashed``.
    retry = {"max_restarts": -1, "max_task_retries": 3}
    parsers = tuple(
        _RemoteParser.options(**opts(f"parser-{i}", **retry)).remote(index=i, config=live)
        for i in range(parser_count(live))
    )
    deployment = Deployment(
        config=live,
        manifest=manifest,
        ledgers=ledgers,
        reviewers=reviewers,
        controllers=controllers,
        budgets=budgets,
        parsers=parsers,
    )
    deployment.statistics(timeout_s=timeout_s)  # every actor is up and answering
    return deployment
