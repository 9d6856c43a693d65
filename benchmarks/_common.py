"""Figure lines: one JSON object per measured figure, as msgspec's benchmarks print them."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable
from typing import Any


def emit(bench: str, metric: str, value: float, unit: str, **params: Any) -> None:
    line = {
        "bench": bench,
        "metric": metric,
        "value": round(value, 4),
        "unit": unit,
        "params": params,
    }
    print(json.dumps(line), flush=True)


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0–100) by nearest rank."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def describe(samples: list[float]) -> dict[str, float]:
    return {
        "p50": percentile(samples, 50),
        "p99": percentile(samples, 99),
        "mean": statistics.fmean(samples),
    }


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def command_log(
    session: str, calls: int, command: Callable[[int], str], output: Callable[[int], str]
) -> list[Any]:
    """A session's ledger of ``calls`` shell calls, call ``i`` running ``command(i)``
    and returning ``output(i)`` with exit status 0."""
    from donecheck.actors.messages import LedgerEntry, ToolCall, ToolResult

    entries = []
    for i in range(calls):
        call = ToolCall(
            session_id=session, call_id=f"c{i}", name="bash", arguments={"command": command(i)}
        )
        result = ToolResult(session_id=session, call_id=f"c{i}", output=output(i), exit_code=0)
        entries += [
            LedgerEntry(seq=2 * i + 1, event=call),
            LedgerEntry(seq=2 * i + 2, event=result),
        ]
    return entries
