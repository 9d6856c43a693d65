"""Identifiers and the session → shard mapping.

(Content addresses are :func:`~donecheck.parsers.material.sha256_ref`.)
"""

from __future__ import annotations

import itertools
import re
import uuid
import zlib

__all__ = [
    "MAX_SESSION_ID",
    "SESSION_ID_PATTERN",
    "actor_name",
    "budget_key",
    "check_session_id",
    "new_id",
    "serial_id",
    "shard_of",
]

MAX_SESSION_ID = 200
# "(?!\n)$": Python's "$" also matches before a final newline, ECMA's (the HTTP API's
# OpenAPI document) does not; with the look-ahead both mean "the end".
SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@+-]*(?!\n)$"
_SESSION_ID = re.compile(SESSION_ID_PATTERN)


def check_session_id(value: str) -> str:
    """``value`` if it can name a session — 1 to 200 letters, digits and ``. _ : @ + -``,
    starting with a letter or digit: it is a store key, a file-safe label and part of
    URLs — else :class:`~donecheck.actors.errors.InputError` saying what is wrong."""
    from donecheck.actors.errors import InputError

    if not isinstance(value, str) or not value:
        raise InputError("a session id must not be empty")
    if len(value) > MAX_SESSION_ID:
        raise InputError(f"a session id is at most {MAX_SESSION_ID} characters, not {len(value)}")
    if not _SESSION_ID.fullmatch(value):
        raise InputError(
            f"session id {value[:60]!r}: only letters, digits and . _ : @ + - (starting with"
            " a letter or digit)"
        )
    return value


def new_id(prefix: str = "") -> str:
    """A random, URL-safe identifier such as ``s-3f2a…``."""
    return f"{prefix}{uuid.uuid4().hex}"


_PROCESS = uuid.uuid4().hex[:16]
_SERIAL = itertools.count(1)


def serial_id(prefix: str = "") -> str:
    """A unique identifier that is not a secret: this process's random part (new at
    every start, so a restarted actor never repeats one) and a counter. For ids an
    actor makes per call — reviews, reservations — where :func:`new_id` costs a
    system call each (~20 us here, 2% of a reviewer's CPU under load)."""
    return f"{prefix}{_PROCESS}{next(_SERIAL):x}"


def shard_of(key: str, shards: int) -> int:
    """Stable shard index of ``key`` — the same in every process and Python run.

    (``hash()`` is salted per process, so it cannot be used across Ray workers.)
    """
    if shards < 1:
        raise ValueError(f"shards must be >= 1, got {shards}")
    return zlib.crc32(key.encode("utf-8")) % shards


def budget_key(session_id: str, tenant: str | None) -> str:
    """What picks a budget shard: the tenant when there is one (so one shard sees all
    of a tenant's sessions), else the session."""
    return f"tenant:{tenant}" if tenant else session_id


def actor_name(kind: str, index: int) -> str:
    """The name of actor ``index`` of a kind (``ledger``, ``budget`` …) in its namespace
    (and of its store)."""
    return f"{kind}-{index}"
