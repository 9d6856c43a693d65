"""A bare Ray actor call after an idle pause, at Ray's worker niceness and at DoneCheck's.

Ray starts worker processes at niceness 15; an embedded DoneCheck starts them
at 0 (``worker_niceness``). This measures what that does to one actor call
(``ray.get(actor.f.remote(1))`` on an async actor that returns its argument)
made back to back and after 50 ms and 0.5 s of idleness — the situation of a
lightly loaded deployment, where each decision is a chain of such calls.

Figures: ``call_ms_p50`` per niceness and idle gap (one JSON line each).
Run: ``python -m benchmarks.actor_call_idle`` (or through ``benchmarks/run.py``).
"""

from __future__ import annotations

import logging
import os
import statistics
import time

from benchmarks._common import emit

GAPS = (0.0, 0.05, 0.5)
CALLS = {0.0: 200, 0.05: 40, 0.5: 16}


def main() -> None:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    for niceness in (15, 0):
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
            _system_config={"worker_niceness": niceness},
        )

        @ray.remote
        class Echo:
            async def f(self, x: int) -> int:
                return x

        actor = Echo.remote()  # type: ignore[attr-defined]
        for _ in range(20):  # warm-up
            ray.get(actor.f.remote(1))
        for gap in GAPS:
            samples = []
            for _ in range(CALLS[gap]):
                time.sleep(gap)
                started = time.perf_counter()
                ray.get(actor.f.remote(1))
                samples.append((time.perf_counter() - started) * 1000)
            emit(
                "actor_call_idle",
                "call_ms_p50",
                statistics.median(samples),
                "ms",
                worker_niceness=niceness,
                idle_gap_s=gap,
                calls=len(samples),
            )
        ray.shutdown()


if __name__ == "__main__":
    main()
