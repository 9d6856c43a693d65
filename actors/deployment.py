"""Handles to a running deployment's actors, on Ray or in this process.

Ray-free: the in-process deployment (:mod:`.inprocess`) and everything a driver
does with a deployment import no Ray; :mod:`.deploy` makes a deployment on Ray
(:class:`~donecheck.actors.deploy.RayDeployment`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from donecheck.actors import calls
from donecheck.actors.config import Config
from donecheck.actors.ids import actor_name, budget_key, shard_of

__all__ = ["Deployment", "LocalDeployment"]


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
                yield actor_name(kind, i), handle

    def statistics(self, timeout_s: float = 30.0) -> dict[str, Any]:
        """Each actor's ``statistics()``, by actor name."""
        return calls.statistics(dict(self.named()), timeout_s)

    def kill(self) -> None:
        """Stop every actor of the deployment (other drivers lose it too)."""
        raise NotImplementedError


@dataclass(frozen=True)
class LocalDeployment(Deployment):
    """A deployment in this process, without Ray (:func:`~.inprocess.deploy_local`)."""

    stop: Callable[[], None] = lambda: None

    def kill(self) -> None:
        """Close every actor and stop the deployment's threads."""
        self.stop()
