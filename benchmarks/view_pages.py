"""A long session's ledger read as one message against in pages, as a reviewer
reads it (issue 15): the time to encode and decode it, and the page faults it
costs — memory the process had to be given afresh.

Figures (one JSON line each):

* ``fault_us`` — what one page fault costs on this machine: fresh anonymous
  memory, one byte written per 4 KiB page;
* ``view_read`` — per size and way (``whole``: one ``ViewRequest``; ``paged``:
  pages of the reviewer's ``_VIEW_PAGE`` entries, the last with the operations),
  in this process: median seconds over ``--repeats`` reads after a warm-up read,
  minor page faults of a read in all and in the encoder alone.

Run: ``python -m benchmarks.view_pages`` (``--sizes``, ``--repeats``).
"""

from __future__ import annotations

import argparse
import mmap
import resource
import statistics
import time

from benchmarks._common import emit, log
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.messages import (
    LedgerView,
    ToolCall,
    ToolResult,
    ViewRequest,
    encode,
    view_decoder,
)
from donecheck.actors.reviewer import _VIEW_PAGE


def faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def fault_cost(megabytes: int = 64) -> float:
    """Microseconds per page fault: touch every page of fresh anonymous memory."""
    size = megabytes << 20
    costs = []
    for _ in range(3):
        memory = mmap.mmap(-1, size)
        started = time.perf_counter()
        for offset in range(0, size, mmap.PAGESIZE):
            memory[offset] = 1
        costs.append((time.perf_counter() - started) / (size // mmap.PAGESIZE) * 1e6)
        memory.close()
    return min(costs)


def ledger_of(messages: int) -> EvidenceLedger:
    """A session of ``messages`` entries, shaped like ``session_length``'s transcript
    (a shell call and its result each, a test run every 50 calls)."""
    ledger = EvidenceLedger()
    batch: list[ToolCall | ToolResult] = []
    for i in range(messages // 2):
        command = "pytest -q" if i % 50 == 0 else f"cat src/file_{i % 97}.py"
        output = "3 passed in 0.01s" if i % 50 == 0 else f"def f{i}():\n    return {i}\n"
        batch.append(ToolCall(session_id="s", call_id=f"c{i}", name="bash",
                              arguments={"command": command}, event_id=f"call:{i}"))  # fmt: skip
        batch.append(ToolResult(session_id="s", call_id=f"c{i}", output=output,
                                event_id=f"result:{i}"))  # fmt: skip
        if len(batch) >= 1_000:
            ledger.append(batch)
            batch = []
    if batch:
        ledger.append(batch)
    return ledger


def read(ledger: EvidenceLedger, limit: int | None) -> tuple[list[LedgerView], int]:
    """Every entry of the session, read as the reviewer reads it; the views decoded
    (kept, as the reviewer keeps them) and the faults taken while encoding."""
    views: list[LedgerView] = []
    since = encoder_faults = 0
    while True:
        request = ViewRequest(session_id="s", since_seq=since,
                              include=("entries", "operations"), limit=limit)  # fmt: skip
        before = faults()
        data = encode(ledger.view(request))
        encoder_faults += faults() - before
        view = view_decoder.decode(data)
        views.append(view)
        since += len(view.entries)
        if not view.entries or since >= view.last_seq:
            return views, encoder_faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    emit("view_pages", "fault_us", fault_cost(), "us", page_bytes=mmap.PAGESIZE)
    for messages in args.sizes:
        ledger = ledger_of(messages)
        log(f"{messages} entries recorded")
        for way, limit in (("whole", None), ("paged", _VIEW_PAGE)):
            read(ledger, limit)  # warm-up: the first read pays for what later ones reuse
            times, all_faults, encoder = [], [], []
            for _ in range(args.repeats):
                before, started = faults(), time.perf_counter()
                views, encoder_faults = read(ledger, limit)
                times.append(time.perf_counter() - started)
                all_faults.append(faults() - before)
                encoder.append(encoder_faults)
                del views
            emit("view_pages", "view_read", statistics.median(times), "s", messages=messages,
                 way=way, page=limit, repeats=args.repeats,
                 faults=int(statistics.median(all_faults)),
                 encoder_faults=int(statistics.median(encoder)))  # fmt: skip


if __name__ == "__main__":
    main()
