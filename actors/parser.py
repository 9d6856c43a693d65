"""Attachment parser: a pool member that parses in a supervised child process.

Each actor owns one :class:`~donecheck.parsers.worker.IsolatedParser`: a file
that hangs past ``parse_timeout_s`` or crashes the child (a segfault, the
``parse_memory_bytes`` cap) is ``failed`` with reason ``timeout``/``crashed`` and
the child is replaced — the actor and every other file are unaffected.
Results are cached by (content hash, parser recipe version), so the same
attachment is parsed once however many sessions send it (sessions reach the
same actor for the same hash); a new recipe version misses the old entries.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any

import msgspec

from donecheck.actors.clock import Clock, SystemClock
from donecheck.actors.config import Config
from donecheck.actors.messages import Material, ParseRequest
from donecheck.actors.process import process_facts
from donecheck.parsers.material import sha256_ref
from donecheck.parsers.worker import DEFAULT_TARGET, IsolatedParser

__all__ = ["AttachmentParser"]


@functools.cache
def _recipe() -> str:
    """The parsers' recipe version (importing the format registry on first use: a
    deployment that never parses never loads PyMuPDF and friends)."""
    from donecheck.parsers.registry import RECIPE_VERSION

    return RECIPE_VERSION


class AttachmentParser:
    def __init__(
        self,
        index: int = 0,
        *,
        config: Config | None = None,
        target: str = DEFAULT_TARGET,
        clock: Clock | None = None,
        start_worker: bool = True,
    ) -> None:
        """``start_worker=False`` starts the child process on the first parse (a one-shot
        command that may parse nothing)."""
        config = config or Config()
        self.index = index
        self._clock = clock or SystemClock()
        self._limits = config.parse_limits()
        self._worker = IsolatedParser(
            timeout_s=config.parse_timeout_s,
            memory_bytes=config.parse_memory_bytes,
            target=target,
            start=start_worker,
        )
        self._cache: OrderedDict[tuple[str, str], Material] = OrderedDict()
        self._cache_size = config.parse_cache_entries
        self._cache_bytes_limit = config.parse_cache_bytes
        self._cache_bytes = 0
        self._stats: dict[str, float] = {
            "parsed": 0,
            "cache_hits": 0,
            "failed": 0,
            "busy_s": 0.0,
            "bytes": 0,
        }

    def cached(self, sha256: str) -> Material | None:
        """The cached Material for this content under the current recipe, if any."""
        hit = self._cache.get((sha256, _recipe()))
        if hit is not None:
            self._cache.move_to_end((sha256, _recipe()))
            self._stats["cache_hits"] += 1
        return hit

    def remember(self, material: Material) -> bool:
        """Cache a Material another parser made for content this parser owns."""
        if material.recipe_version != _recipe() or not material.sha256:
            return False
        self._remember((material.sha256, _recipe()), material)
        return True

    def parse(self, request: ParseRequest, data: bytes) -> Material:
        hit = self.cached(request.sha256)
        if hit is not None:
            if hit.declared_name != request.declared_name:
                return msgspec.structs.replace(hit, declared_name=request.declared_name)
            return hit
        actual = sha256_ref(data)
        if actual != request.sha256:
            return Material(
                sha256=request.sha256,
                declared_name=request.declared_name,
                detected_type="unknown",
                status="failed",
                reason=f"the content does not match its address ({actual} received)",
            )
        started = self._clock.monotonic()
        material = self._worker.parse(
            data,
            request.declared_name,
            sha256=request.sha256,
            limits=self._limits,
            role=request.role,
        )
        self._stats["busy_s"] += self._clock.monotonic() - started
        self._stats["parsed"] += 1
        self._stats["bytes"] += len(data)
        if material.status == "failed":
            self._stats["failed"] += 1
        self._remember((request.sha256, _recipe()), material)
        return material

    def _remember(self, key: tuple[str, str], material: Material) -> None:
        size = _size(material)
        if not self._cache_size or size > self._cache_bytes_limit:
            return
        self._cache[key] = material
        self._cache_bytes += size
        while len(self._cache) > self._cache_size or self._cache_bytes > self._cache_bytes_limit:
            _, old = self._cache.popitem(last=False)
            self._cache_bytes -= _size(old)

    def statistics(self) -> dict[str, Any]:
        return {
            "index": self.index,
            **process_facts(),
            "worker_pid": self._worker.pid,
            "cached": len(self._cache),
            "cached_bytes": self._cache_bytes,
            "recipe": _recipe(),
            **self._stats,
            **{f"worker_{k}": v for k, v in self._worker.stats.items()},
        }

    def close(self) -> None:
        self._worker.close()


def _size(material: Material) -> int:
    """Approximate memory of a cached Material: its text and preview bytes."""
    return sum(len(b.text) for b in material.blocks) + sum(len(p.data) for p in material.previews)
