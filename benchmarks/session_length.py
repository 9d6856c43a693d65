"""Review time against session length: one transcript of N messages (tool calls
and results, a test run every 50 calls, a final claim), replayed into a session
and reviewed, for N in 1k, 10k, 30k, 100k — in-process and on an embedded Ray.

Target (issue 15): 100k messages in at most 10x the time of 10k.
Run: ``python -m benchmarks.session_length`` (``--sizes``, ``--no-ray``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import emit, log


def write_transcript(folder: Path, messages: int) -> Path:
    rows: list[dict[str, object]] = [
        {"role": "user", "content": "Fix the failing test in calc.py and make `pytest -q` pass."}
    ]
    i = 0
    while len(rows) < messages - 1:
        call = f"call_{i}"
        command = "pytest -q" if i % 50 == 0 else f"cat src/file_{i % 97}.py"
        arguments = json.dumps({"command": command})
        rows.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call,
                        "type": "function",
                        "function": {"name": "bash", "arguments": arguments},
                    }
                ],
            }
        )
        output = (
            "3 passed in 0.01s"
            if command.startswith("pytest")
            else f"def f{i}():\n    return {i}\n"
        )
        rows.append({"role": "tool", "tool_call_id": call, "content": output})
        i += 1
    rows.append({"role": "assistant", "content": "Done: all tests pass (`pytest -q`: 3 passed)."})
    path = folder / f"t{messages}.json"
    path.write_text(json.dumps({"messages": rows}))
    return path


async def _timed(dc: Any, transcript: Any) -> tuple[float, float, str]:
    """(seconds to record the transcript, seconds to review its answer, decision)."""
    from donecheck.runtime.replay import _replay

    session = await dc.open_session_async(transcript.request)
    started = time.perf_counter()
    await _replay(session, transcript)
    recorded = time.perf_counter()
    action = await session.turn_stopping(transcript.answer)
    reviewed = time.perf_counter()
    await session.close()
    return recorded - started, reviewed - recorded, action.report.decision or "unverified"


def measure(dc: object, paths: list[Path], mode: str, repeats: int) -> None:
    """Every size once to warm up (not counted: the first run in a process pays for
    code paths, allocator arenas and files that later sessions reuse), then
    ``repeats`` rounds, each running every size once in a new session — sizes
    interleaved, so drift in the machine's speed touches each size alike. The
    median counts; the minimum and every run are printed too."""
    from donecheck.runtime.transcripts.detect import load_transcript

    transcripts = [(int(path.stem[1:]), load_transcript(path)) for path in paths]
    first = {n: asyncio.run(_timed(dc, t)) for n, t in transcripts}
    runs: dict[int, list[tuple[float, float, str]]] = {n: [] for n, _ in transcripts}
    for round_ in range(repeats):
        for n, transcript in transcripts:
            runs[n].append(asyncio.run(_timed(dc, transcript)))
        log(f"{mode}: round {round_ + 1}/{repeats}")
    times: dict[int, float] = {}
    review: dict[int, float] = {}
    least: dict[int, float] = {}
    for n, done in runs.items():
        times[n] = statistics.median(r[0] + r[1] for r in done)
        review[n] = statistics.median(r[1] for r in done)
        least[n] = min(r[0] + r[1] for r in done)
        emit(
            "session_length",
            "review_s",
            times[n],
            "s",
            mode=mode,
            messages=n,
            decision=done[-1][2],
            record_s=round(statistics.median(r[0] for r in done), 4),
            turn_stopping_s=round(review[n], 4),
            min_s=round(least[n], 4),
            repeats=repeats,
            spread_s=[round(r[0] + r[1], 4) for r in done],
            warm_up_s=round(first[n][0] + first[n][1], 4),
        )
    if 10_000 in times and 100_000 in times:
        emit(
            "session_length",
            "ratio_100k_10k",
            times[100_000] / times[10_000],
            "x",
            mode=mode,
            target="<= 10",
            of_minimums=round(least[100_000] / least[10_000], 2),
            turn_stopping_only=round(review[100_000] / review[10_000], 2),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 30_000, 100_000])
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument(
        "--repeats", type=int, default=5, help="counted runs per size, after one to warm up"
    )
    args = parser.parse_args()
    from donecheck.runtime import DoneCheck

    with tempfile.TemporaryDirectory(prefix="dc-length-") as tmp:
        folder = Path(tmp)
        paths = [write_transcript(folder, n) for n in args.sizes]
        log(f"transcripts: {', '.join(str(n) for n in args.sizes)} messages")
        local = DoneCheck.start_local(data_dir=folder / "local")
        try:
            measure(local, paths, "in-process", args.repeats)
        finally:
            local.shutdown()
        if not args.no_ray:
            embedded = DoneCheck.start(data_dir=folder / "ray", num_cpus=2)
            try:
                measure(embedded, paths, "ray", args.repeats)
            finally:
                embedded.shutdown()


if __name__ == "__main__":
    main()
