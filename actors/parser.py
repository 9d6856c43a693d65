"""Attachment parser: a stateless pool member with a content-addressed cache.

Parsing (libmagic, PyMuPDF, …) runs only in these processes, never on an async
actor's event loop. Results are cached by (content hash, recipe version).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from donecheck.parsers import RECIPE_VERSION, parse_bytes
from donecheck.runtime.clock import Clock, SystemClock
from donecheck.runtime.messages import Material, ParseRequest

__all__ = ["AttachmentParser"]


class AttachmentParser:
    def __init__(self, index: int = 0, cache_size: int = 256, clock: Clock | None = None) -> None:
        self.index = index
        self._clock = clock or SystemClock()
        self._cache: OrderedDict[tuple[str, str], Material] = OrderedDict()
        self._cache_size = cache_size
        self._stats = {"parsed": 0, "cache_hits": 0, "failed": 0, "busy_s": 0.0}

    def parse(self, request: ParseRequest, data: bytes) -> Material:
        key = (request.sha256, RECIPE_VERSION)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self._stats["cache_hits"] += 1
            if cached.declared_name != request.declared_name:
                return msgspec.structs.replace(cached, declared_name=request.declared_name)
            return cached
        started = self._clock.monotonic()
        material = parse_bytes(data, request.declared_name, sha256=request.sha256)
        self._stats["busy_s"] += self._clock.monotonic() - started
        self._stats["parsed"] += 1
        if material.status == "failed":
            self._stats["failed"] += 1
        self._cache[key] = material
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return material

    def statistics(self) -> dict[str, Any]:
        return {"index": self.index, "cached": len(self._cache), **self._stats}
