"""Work in C that Python cannot interrupt, bounded in wall time by running it in a
forked child that is killed at the deadline.

MuPDF renders a page with the GIL held and no time limit: one damaged PDF (a fuzzed
scan) held its renderer for over 100 s. Where the process is single-threaded — the
isolated parse worker, which says so with :func:`allow_fork` — such work runs in a
``fork`` of it (copy-on-write, a few milliseconds) and its result comes back over a
pipe; at the deadline the child is killed and the caller gets ``None``. Elsewhere
(threads may hold locks a child would inherit) the work runs in place, bounded only
by the worker's own timeout.
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable

__all__ = ["allow_fork", "run_bounded"]

_FORK_SAFE = False


def allow_fork() -> None:
    """Declare this process single-threaded: bounded work may fork (the parse worker)."""
    global _FORK_SAFE
    _FORK_SAFE = True


def run_bounded(work: Callable[[], bytes], timeout_s: float) -> bytes | None:
    """``work()``'s bytes, or ``None`` when it did not finish within ``timeout_s`` (or
    failed in the child). Runs in place when this process has not allowed forking."""
    if not _FORK_SAFE or not hasattr(os, "fork"):
        return work()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the work, hand back its bytes, never return
        os.close(read_end)
        code = 1
        try:
            data = work()
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return None
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None
