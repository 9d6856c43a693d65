"""Review time against session length: one transcript of N messages (tool calls
and results, a test run every 50 calls, a final claim), replayed into a session
and reviewed, for N in 1k, 10k, 30k, 100k — in-process and on an embedded Ray.

Target (issue 15): 100k messages in at most 10x the time of 10k.
Run: ``python -m benchmarks.session_length`` (``--sizes``, ``--no-ray``); with
``--end-to-end``, ``donecheck review FILE`` per size in a new process instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
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


async def _block(dc: Any, copies: list[Any]) -> tuple[float, float, str]:
    """:func:`_timed` per session, averaged over one session per copy, in a row."""
    record = review = 0.0
    decision = ""
    for transcript in copies:
        r, v, decision = await _timed(dc, transcript)
        record, review = record + r, review + v
    return record / len(copies), review / len(copies), decision


def cpu_seconds(dc: Any) -> float:
    """CPU time spent so far by this process and, on Ray, the deployment's actors'
    processes (each actor's ``statistics()`` reports its own). Unlike the clock it
    leaves out the time the machine gave to others (steal on this VM)."""
    total = time.process_time()
    if not dc.local:
        by_pid = {facts["pid"]: facts["cpu_s"] for facts in dc.statistics().values()}
        total += sum(by_pid.values())
    return total


def measure(dc: Any, paths: list[Path], mode: str, repeats: int) -> None:
    """The time of one session of each size, measured so that every size sees the
    same machine:

    * each sample of a size is a block of sessions of about the largest size's
      messages in all (100 sessions of 1k, 10 of 10k, 3 of 30k, 1 of 100k), each a
      new session; its time per session counts. A lone 0.3 s run either hits a
      quiet moment of a shared machine or does not (10k alone spread 0.25-0.44 s);
      a 3 s run always takes its share of the disturbance — so lone short runs made
      long sessions look superlinear when the work is not (cachegrind: 9.8x the
      instructions for 10x the messages);
    * every size runs once first, to warm up (printed, not counted: the first run
      in a process pays for code paths, arenas and files later sessions reuse);
    * then ``repeats`` rounds, sizes interleaved, so drift touches each alike; the
      median counts, the minimum and every sample are printed too."""
    from donecheck.runtime.transcripts.detect import load_transcript

    sizes = {int(path.stem[1:]): path for path in paths}
    largest = max(sizes)
    block = {n: max(1, largest // n) for n in sizes}
    # a copy per session of a block: a session replays a transcript it has not
    # touched, as the largest does (one 10k transcript replayed ten times would
    # stay in the CPU's cache and flatter the smaller sizes)
    copies = {n: [load_transcript(path) for _ in range(block[n])] for n, path in sizes.items()}
    first = {n: asyncio.run(_timed(dc, load_transcript(path))) for n, path in sizes.items()}
    runs: dict[int, list[tuple[float, float, str]]] = {n: [] for n in sizes}
    cpu: dict[int, list[float]] = {n: [] for n in sizes}
    for round_ in range(repeats):
        for n in sizes:
            before = cpu_seconds(dc)
            runs[n].append(asyncio.run(_block(dc, copies[n])))
            cpu[n].append((cpu_seconds(dc) - before) / block[n])
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
            sessions_per_sample=block[n],
            spread_s=[round(r[0] + r[1], 4) for r in done],
            warm_up_s=round(first[n][0] + first[n][1], 4),
            cpu_s=round(statistics.median(cpu[n]), 4),
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
            of_cpu=round(statistics.median(cpu[100_000]) / statistics.median(cpu[10_000]), 2),
        )


def end_to_end(paths: list[Path], repeats: int) -> None:
    """What a user waits for: ``donecheck review FILE`` in a new process per run —
    start, read the file, replay it, review it, print the verdict, exit — the way
    the issue timed it (its 15.5 s for 10k and 24 s for 30k carry ~11 s of fixed
    cost). Sizes interleaved, ``repeats`` rounds after one warm-up round (the
    first run after a file is written pays for the page cache); the median counts."""
    sizes = {int(path.stem[1:]): path for path in paths}

    def run(path: Path) -> tuple[float, str]:
        command = [sys.executable, "-m", "donecheck.runtime.cli", "review", "--json", str(path)]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        took = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr}")
        return took, json.loads(done.stdout.splitlines()[-1]).get("decision", "?")

    for path in sizes.values():
        run(path)
    runs: dict[int, list[tuple[float, str]]] = {n: [] for n in sizes}
    for round_ in range(repeats):
        for n, path in sizes.items():
            runs[n].append(run(path))
        log(f"end-to-end: round {round_ + 1}/{repeats}")
    times = {n: statistics.median(t for t, _ in done) for n, done in runs.items()}
    for n, done in runs.items():
        emit("session_length", "cli_review_s", times[n], "s", mode="cli", messages=n,
             decision=done[-1][1], repeats=repeats,
             spread_s=[round(t, 3) for t, _ in done])  # fmt: skip
    if 10_000 in times and 100_000 in times:
        emit("session_length", "cli_ratio_100k_10k", times[100_000] / times[10_000], "x",
             mode="cli", target="<= 10")  # fmt: skip


def one_session(folder: Path, sizes: list[int], messages: int) -> None:
    """``--one``: every size's transcript written and loaded (the same set-up
    whatever ``messages``, so a run with 0 subtracts), a 200-message warm-up, then
    one session of ``messages`` (none for 0), in-process."""
    from donecheck.runtime import DoneCheck
    from donecheck.runtime.transcripts.detect import load_transcript

    loaded = {n: load_transcript(write_transcript(folder, n)) for n in sizes}
    warm = load_transcript(write_transcript(folder, 200))
    dc = DoneCheck.start_local(data_dir=folder / "local")
    try:
        asyncio.run(_timed(dc, warm))
        if messages:
            record_s, review_s, decision = asyncio.run(_timed(dc, loaded[messages]))
            emit("session_length", "one_s", record_s + review_s, "s", messages=messages,
                 record_s=round(record_s, 4), decision=decision)  # fmt: skip
    finally:
        dc.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 30_000, 100_000])
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument(
        "--repeats", type=int, default=3, help="counted samples per size, after a warm-up run"
    )
    parser.add_argument(
        "--one",
        type=int,
        metavar="N",
        help="in-process, load the --sizes transcripts, replay a 200-message warm-up and"
        " then one session of N messages (one of --sizes; 0: none): to count its"
        " instructions, e.g. valgrind --tool=cachegrind --cache-sim=no python -m"
        " benchmarks.session_length --one 10000, minus the same with --one 0",
    )
    parser.add_argument(
        "--end-to-end",
        action="store_true",
        help="time `donecheck review FILE` per size instead, each run a new process"
        " (start-up included: what a user waits for)",
    )
    args = parser.parse_args()
    from donecheck.runtime import DoneCheck

    with tempfile.TemporaryDirectory(prefix="dc-length-") as tmp:
        folder = Path(tmp)
        if args.one is not None:
            if args.one and args.one not in args.sizes:
                parser.error(f"--one {args.one}: not one of --sizes {args.sizes}")
            one_session(folder, args.sizes, args.one)
            return
        paths = [write_transcript(folder, n) for n in args.sizes]
        log(f"transcripts: {', '.join(str(n) for n in args.sizes)} messages")
        if args.end_to_end:
            end_to_end(paths, args.repeats)
            return
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
