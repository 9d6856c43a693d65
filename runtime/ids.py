"""Identifiers, content hashes and the session → shard mapping."""

from __future__ import annotations

import hashlib
import uuid
import zlib

__all__ = ["new_id", "sha256_ref", "shard_of"]


def new_id(prefix: str = "") -> str:
    """A random, URL-safe identifier such as ``s-3f2a…``."""
    return f"{prefix}{uuid.uuid4().hex}"


def sha256_ref(data: bytes) -> str:
    """Content address of ``data``: ``"sha256:<hex>"`` (derived paths use the hex only)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def shard_of(key: str, shards: int) -> int:
    """Stable shard index of ``key`` — the same in every process and Python run.

    (``hash()`` is salted per process, so it cannot be used across Ray workers.)
    """
    if shards < 1:
        raise ValueError(f"shards must be >= 1, got {shards}")
    return zlib.crc32(key.encode("utf-8")) % shards
