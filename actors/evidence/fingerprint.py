"""An order-preserving hash of the evidence a review saw (for the review cache)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from donecheck.actors.messages import LedgerEntry, encode

__all__ = ["RunningFingerprint", "fingerprint"]


def fingerprint(entries: Iterable[LedgerEntry]) -> str:
    """Order-preserving hash of entries: same events in the same order, same value."""
    running = RunningFingerprint()
    running.feed(entries)
    return running.value


class RunningFingerprint:
    """:func:`fingerprint` of a growing log, fed only what was added: ``count``
    entries so far (a ledger keeps one per session, a reviewer one per copy)."""

    __slots__ = ("_digest", "count")

    def __init__(self) -> None:
        self._digest = hashlib.blake2b(digest_size=16)
        self.count = 0

    def feed(self, entries: Iterable[LedgerEntry]) -> None:
        digest = self._digest
        for entry in entries:
            data = encode(entry)
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
            self.count += 1

    @property
    def value(self) -> str:
        return "fp:" + self._digest.copy().hexdigest()
