"""A small progress bar on stderr for long CLI work (only on a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """``ProgressBar(total, "reviewing")``; call :meth:`advance` per item, :meth:`close` at the end.

    Draws nothing unless the stream is a terminal and there are more than
    ``min_items`` items, so piped output and logs stay clean.
    """

    def __init__(
        self, total: int, label: str, *, stream: TextIO | None = None, min_items: int = 3
    ) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self._stream = stream or sys.stderr
        self._enabled = total > min_items and self._stream.isatty()
        self._started = time.monotonic()
        self._drawn = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self._enabled and (now - self._drawn > 0.1 or self.done >= self.total):
            self._drawn = now
            width = 28
            filled = int(width * self.done / max(self.total, 1))
            rate = self.done / max(now - self._started, 1e-9)
            self._stream.write(
                f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                f"{self.done}/{self.total} ({rate:.1f}/s)"
            )
            self._stream.flush()

    def close(self) -> None:
        if self._enabled:
            self._stream.write("\r" + " " * 72 + "\r")
            self._stream.flush()
