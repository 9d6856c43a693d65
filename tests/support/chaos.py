"""Faults on purpose, for the chaos benchmarks and their tests: kept out of the
package, switched on in a Ray worker by :func:`inject_store_faults`.

``benchmarks/chaos_soak.py`` starts Ray with
``runtime_env={"worker_process_setup_hook": "tests.support.chaos.inject_store_faults"}``
and ``DONECHECK_CHAOS_STORE_FAULT_RATE`` in the workers' environment: every store an actor
opens then fails that share of its writes before they commit.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

from donecheck.actors import store as store_module
from donecheck.actors.errors import StoreError
from donecheck.actors.store import LedgerStore

__all__ = ["STORE_FAULT_RATE_ENV", "FaultyStore", "inject_store_faults"]

STORE_FAULT_RATE_ENV = "DONECHECK_CHAOS_STORE_FAULT_RATE"
"""The share of store writes that fail, in a worker :func:`inject_store_faults` set up."""


class FaultyStore:
    """A store whose writes fail at ``rate`` before they commit (chaos tests)."""

    def __init__(self, store: LedgerStore, rate: float) -> None:
        self._store = store
        self._rate = rate
        self._random = random.Random()
        self.injected = 0

    def _maybe_fail(self) -> None:
        if self._random.random() < self._rate:
            self.injected += 1
            raise StoreError("chaos", "injected fault: the commit failed")

    def append(self, shard: int, rows: Any, new_sessions: Any = ()) -> None:
        self._maybe_fail()
        self._store.append(shard, rows, new_sessions)

    def put_state(self, kind: str, key: str, data: bytes) -> None:
        self._maybe_fail()
        self._store.put_state(kind, key, data)

    def put_states(self, kind: str, items: Sequence[tuple[str, bytes]]) -> None:
        self._maybe_fail()
        self._store.put_states(kind, items)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def inject_store_faults() -> None:
    """Make every store this process opens a :class:`FaultyStore` at the rate the
    environment gives (a Ray ``worker_process_setup_hook``)."""
    rate = float(os.environ.get(STORE_FAULT_RATE_ENV) or 0)
    if rate <= 0:
        return
    real = store_module.open_store

    def faulty(url: str, name: str) -> LedgerStore:
        return FaultyStore(real(url, name), rate)  # type: ignore[return-value]

    store_module.open_store = faulty
