"""Facts about the current process, for actors' ``statistics()``."""

from __future__ import annotations

import os

__all__ = ["rss_bytes"]

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes() -> int | None:
    """Resident memory of this process now (Linux ``/proc``), else ``None``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None
