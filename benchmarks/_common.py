"""Figure lines: one JSON object per measured figure, as msgspec's benchmarks print them."""

from __future__ import annotations

import json
import statistics
import sys
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
