"""Parse targets that misbehave on purpose, run inside the isolated worker by tests."""

from __future__ import annotations

import ctypes
import os
import signal
import time
from typing import Any

from donecheck.actors.messages import Material
from donecheck.parsers import parse_bytes


def misbehave(data: bytes, name: str, **kwargs: Any) -> Material:
    """``HANG`` sleeps forever, ``SEGV`` segfaults, ``EXIT`` exits, ``HOG`` allocates
    without bound, ``PID`` reports the worker's pid; anything else parses normally."""
    if data.startswith(b"HANG"):
        while True:
            time.sleep(1)
    if data.startswith(b"SEGV"):
        os.kill(os.getpid(), signal.SIGSEGV)
        ctypes.string_at(0)
    if data.startswith(b"EXIT"):
        os._exit(3)
    if data.startswith(b"HOG"):
        hoard = []
        while True:
            hoard.append(bytearray(64 * 1024 * 1024))
    material = parse_bytes(data, name, **kwargs)
    if data.startswith(b"PID"):
        return Material(
            sha256=material.sha256,
            declared_name=name,
            detected_type="text/plain",
            status="parsed",
            reason=str(os.getpid()),
        )
    return material
