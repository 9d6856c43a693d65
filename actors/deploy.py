"""Where DoneCheck meets Ray: starting or reaching Ray, and creating the actors.

The actor logic lives in plain classes (``ledger.py``, ``controller.py`` …) that
run without Ray in unit tests. This module alone applies ``ray.remote`` to those
same classes, names every actor within the deployment's namespace, and decides
restart and concurrency settings; :mod:`donecheck.actors.calls` makes every
call to them. Only small values cross as constructor arguments — a
:class:`~donecheck.actors.store.StoreLocation`, ports that find their peers by
name — never an open store or an actor handle, so Ray can always restart an
actor (ray-project/ray#53727) and it reopens its store in its own process.

Creating actors with ``get_if_exists=True`` makes :func:`deploy` idempotent: a
second driver on the same cluster and namespace attaches to the running
deployment instead of starting another. The first actor, ``manifest``, holds
the configuration the deployment was started with. An attaching driver adopts
it, so every driver computes the same session → shard mapping.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from typing import Any

import ray

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.calls import RayBudgets, RayLedgers, RayReviewers, actor_name
from donecheck.actors.config import Config
from donecheck.actors.controller import CompletionController
from donecheck.actors.deployment import Deployment, LocalDeployment
from donecheck.actors.errors import DeploymentError
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.parser import AttachmentParser
from donecheck.actors.reviewer import Reviewer
from donecheck.actors.store import StoreLocation

__all__ = [
    "Deployment",
    "LocalDeployment",
    "RayDeployment",
    "actor_names",
    "deploy",
    "disconnect",
    "embedded_ray_options",
    "init_ray",
    "lean_malloc",
    "loopback_ray",
    "ray_address",
]

log = logging.getLogger("donecheck")

_LAYOUT = (
    "ledger_shards",
    "controller_shards",
    "budget_shards",
    "reviewer_actors",
    "parser_actors",
)
_CONTROLLER_CONCURRENCY = 2048


# ------------------------------------------------------------------------ Ray


def embedded_ray_options(config: Config) -> dict[str, Any]:
    """``ray.init`` options for an instance DoneCheck starts itself (call
    :func:`loopback_ray` first: the instance then listens on 127.0.0.1 only)."""
    options: dict[str, Any] = {
        "include_dashboard": False,
        "num_cpus": config.num_cpus,
        "_system_config": {"worker_niceness": config.worker_niceness},
    }
    if config.ray_runtime_env:
        options["runtime_env"] = dict(config.ray_runtime_env)
    return options


_LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def loopback_ray() -> None:
    """Keep a Ray instance this process starts on 127.0.0.1.

    Ray takes the loopback address as the node's address, and binds its gRPC
    servers (GCS, raylet, object manager, workers, agents) to it, when "Ray
    clusters" are off — the default on macOS and Windows, switched by
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` on every platform. Ray reads that once,
    at import, in every process: the environment carries it to the processes the
    instance starts, and this process's own copy is set beside it. A local
    instance needs no other node; a cluster is joined with ``address=``, which
    this leaves alone. ``tests/ray/test_network.py`` checks every port the
    instance opens.
    """
    from ray._private import ray_constants

    os.environ[_LOOPBACK_SWITCH] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False


MALLOC_ARENAS = "2"


def lean_malloc() -> None:
    """Cap the malloc arenas of the processes a Ray instance this process starts
    (``MALLOC_ARENA_MAX``; unless the environment sets it already).

    glibc gives each thread that allocates its own arena, up to eight per core,
    and hands memory back to the system per arena: an actor's process has a dozen
    threads (Ray's, the event loop's, the store's worker threads), so memory a
    burst of calls used stays resident in arenas nobody fills again. Two arenas
    keep an idle session's share of the actors' memory about 10% smaller
    (``benchmarks/sessions_load.py``, memory per idle session) at no measured
    cost in throughput. Read when a process starts: the environment carries it to
    the instance's processes, not to this one.
    """
    os.environ.setdefault("MALLOC_ARENA_MAX", MALLOC_ARENAS)


_CLIENT_ATTEMPTS = 4


def init_ray(address: str | None, config: Config) -> bool:
    """Connect to Ray (or start it). Returns whether this call started Ray."""
    if ray.is_initialized():
        return False
    # Ray's own log lines stay out of the host's output; actors' prints too.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    kwargs: dict[str, Any] = {
        "namespace": config.namespace,
        "logging_level": logging.ERROR,
        "log_to_driver": False,
    }
    if address is None:
        loopback_ray()
        lean_malloc()
        kwargs.update(embedded_ray_options(config))
        if os.environ.get("RAY_AUTH_MODE", "").lower() == "disabled":
            log.warning(
                "RAY_AUTH_MODE=disabled: the Ray instance DoneCheck starts takes no token;"
                " any process on this host can run code in it"
            )
    else:
        kwargs["address"] = address
    try:
        for attempt in range(_CLIENT_ATTEMPTS):
            try:
                ray.init(**kwargs)
                break
            except ConnectionError as exc:
                # Ray Client starts a server process per client; on a busy host that
                # start sometimes fails ("Starting Ray client server failed", the
                # process a zombie when the proxy looks at it). Try again, later.
                flaky = ("client server failed", "Initialization failure from server")
                last = attempt + 1 == _CLIENT_ATTEMPTS
                if not (address or "").startswith("ray://") or last:
                    raise
                if not any(f in str(exc) for f in flaky):
                    raise
                log.warning(
                    "Ray Client could not start a server for this driver; retrying (%d of %d)",
                    attempt + 2,
                    _CLIENT_ATTEMPTS,
                )
                ray.shutdown()
                time.sleep(attempt + 1)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a new local instance"
        hint = ""
        text = str(exc).lower()
        auth = any(w in text for w in ("timeout", "timed out", "auth", "token", "unauthenticated"))
        if address and auth and os.environ.get("RAY_AUTH_MODE") != "token":
            hint = (
                " (if the cluster uses token authentication, as Ray 2.59+ does for local"
                " clusters, set RAY_AUTH_MODE=token in this process's environment)"
            )
        raise DeploymentError(f"could not start or reach Ray at {where}: {exc}{hint}") from exc
    return address is None


def disconnect() -> None:
    """Disconnect this process from Ray (an embedded instance it started stops)."""
    ray.shutdown()


def ray_address() -> str:
    """The address of the Ray instance this process is connected to."""
    address: str = ray.get_runtime_context().gcs_address
    return address


# --------------------------------------------------------------------- actors


class _Manifest:
    """Holds the deployment's configuration so later drivers use the same layout."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def config(self) -> Config:
        return self._config


_RemoteManifest: Any = ray.remote(_Manifest)
_RemoteLedger: Any = ray.remote(EvidenceLedger)
_RemoteController: Any = ray.remote(CompletionController)
_RemoteReviewer: Any = ray.remote(Reviewer)
_RemoteBudget: Any = ray.remote(BudgetAccountant)
_RemoteParser: Any = ray.remote(AttachmentParser)


def parser_count(config: Config) -> int:
    """Parser pool size: as configured, else one per CPU of the cluster."""
    if config.parser_actors is not None:
        return config.parser_actors
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def actor_names(config: Config) -> list[str]:
    """Every actor name of a deployment with this layout (within its namespace)."""
    names = ["manifest"]
    for kind, count in (
        ("ledger", config.ledger_shards),
        ("reviewer", config.reviewer_actors),
        ("controller", config.controller_shards),
        ("budget", config.budget_shards),
        ("parser", parser_count(config)),
    ):
        names += [actor_name(kind, i) for i in range(count)]
    return names


@dataclass(frozen=True)
class RayDeployment(Deployment):
    """A deployment on Ray: its actors are stopped with ``ray.kill``."""

    def kill(self) -> None:
        """Stop every actor of the deployment (other drivers lose it too)."""
        for _, handle in self.named():
            ray.kill(handle, no_restart=True)
        ray.kill(self.manifest, no_restart=True)


def deploy(config: Config, *, detached: bool, timeout_s: float = 120.0) -> Deployment:
    """Create the deployment's actors, or attach to them if they already run."""
    ns = config.namespace
    lifetime = "detached" if detached else None

    placement = {"scheduling_strategy": "SPREAD"} if config.spread_actors else {}

    def opts(name: str, **extra: Any) -> dict[str, Any]:
        return {
            "name": name,
            "namespace": ns,
            "get_if_exists": True,
            "lifetime": lifetime,
            "num_cpus": 0,
            **placement,
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
    url = live.effective_store_url

    def store(name: str) -> StoreLocation:
        return StoreLocation(url, name)

    # Appends are idempotent (event ids) and durable before they are acknowledged,
    # so a call cut short by the ledger's death is safely run again once Ray has
    # restarted it and it has reloaded the session from the store.
    ledgers = tuple(
        _RemoteLedger.options(
            **opts(actor_name("ledger", i), max_restarts=-1, max_task_retries=3)
        ).remote(
            i,
            store=store(actor_name("ledger", i)),
            cached_sessions=live.ledger_cached_sessions,
            snapshot_targets=live.snapshot_max_targets,
            settle_gc=True,
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
                actor_name("reviewer", i),
                max_concurrency=reviewer_slots,
                max_restarts=-1,
                max_task_retries=2,
            )
        ).remote(
            i,
            config=live,
            budget=RayBudgets(ns, live.budget_shards),
            ledger=RayLedgers(ns, live.ledger_shards),
            settle_gc=True,
        )
        for i in range(live.reviewer_actors)
    )
    # Controller and accountant state is durable, and every message they take is
    # idempotent (a stop event is answered from the saved action, a reservation or
    # a settlement by its id), so a call cut short by their death is run again
    # once Ray has restarted them and they have reloaded their state.
    durable = {"max_restarts": -1, "max_task_retries": 2}
    controllers = tuple(
        _RemoteController.options(
            **opts(actor_name("controller", i), max_concurrency=_CONTROLLER_CONCURRENCY, **durable)
        ).remote(
            config=live,
            ledger=RayLedgers(ns, live.ledger_shards),
            reviewer=RayReviewers(ns, live.reviewer_actors),
            budget=RayBudgets(ns, live.budget_shards),
            store=store(actor_name("controller", i)),
            shard=i,
            settle_gc=True,
        )
        for i in range(live.controller_shards)
    )
    budgets = tuple(
        _RemoteBudget.options(
            **opts(actor_name("budget", i), max_concurrency=_CONTROLLER_CONCURRENCY, **durable)
        ).remote(config=live, shard=i, store=store(actor_name("budget", i)), settle_gc=True)
        for i in range(live.budget_shards)
    )
    # Parsing is a pure function of the bytes, so a call cut short by an actor's
    # death (a kill, a lost node) is simply run again on the restarted actor. A
    # file that crashes the parser itself never reaches here: its child process
    # dies instead, and the file is reported ``crashed``.
    retry = {"max_restarts": -1, "max_task_retries": 3}
    parsers = tuple(
        _RemoteParser.options(**opts(actor_name("parser", i), **retry)).remote(index=i, config=live)
        for i in range(parser_count(live))
    )
    deployment = RayDeployment(
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
