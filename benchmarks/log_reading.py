"""Reading long agent logs: time and peak memory against file size, per log form.

Each form's file is grown from a real recorded run (``tests/clients/recorded``: the
honest Claude Code and Codex runs, and Harbor's ATIF conversion of them) by
repeating its tool call and result — the same shapes, fresh ids — until it is the
size asked, with the run's own final answer last. Then ``load_transcript`` reads
it: wall time, ``tracemalloc`` peak, both against the file's size; the ratio of the
largest to the smallest size says whether reading is linear (10× the bytes should
cost about 10× the time, and the peak should stay a fixed multiple of the size).

Run: ``python -m benchmarks.log_reading`` (``--sizes-mb 1 10``; ``--repeats 3``).
Prints JSON lines.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks._common import emit, log
from donecheck.runtime.transcripts.detect import load_transcript

RECORDED = Path(__file__).resolve().parents[1] / "tests" / "clients" / "recorded"
HARBOR_TRIAL = next((RECORDED / "harbor" / "jobs").iterdir()) / "calc-fix__honest-claude"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


def _grow_lines(
    lines: list[str], unit_of: Callable[[list[str]], tuple[int, int]], size: int
) -> str:
    """``lines`` with the unit ``lines[start:end]`` (a call and its result) repeated
    right after it — each copy's ids made unique — until the text is ``size`` bytes;
    what followed the unit (the run's answer) stays after the copies."""
    start, end = unit_of(lines)
    unit = "\n".join(lines[start:end])
    ids = sorted(set(_ids(unit)), key=len, reverse=True)
    total = sum(len(line) + 1 for line in lines)
    copies = []
    n = 0
    while total < size:
        n += 1
        copy_text = unit
        for found in ids:
            copy_text = copy_text.replace(found, f"{found}x{n}")
        copies.append(copy_text)
        total += len(copy_text) + 1
    return "\n".join([*lines[:end], *copies, *lines[end:]]) + "\n"


def _ids(text: str) -> list[str]:
    import re

    return re.findall(r"\b(?:toolu|call|item|fc|ctc)_[0-9a-z]+\b", text)


def _pair_at(predicate: Callable[[dict[str, Any]], bool]) -> Callable[[list[str]], tuple[int, int]]:
    """The first line that matches and the one after it (a call and its result)."""

    def unit_of(lines: list[str]) -> tuple[int, int]:
        for n, line in enumerate(lines):
            if predicate(json.loads(line)):
                return n, n + 2
        raise ValueError("no tool call in the recorded run")

    return unit_of


def _claude_call(record: dict[str, Any]) -> bool:
    content = (record.get("message") or {}).get("content")
    return record.get("type") == "assistant" and any(
        isinstance(b, dict) and b.get("type") == "tool_use" and b.get("name") == "Bash"
        for b in content or []
    )


def _codex_call(record: dict[str, Any]) -> bool:
    payload = record.get("payload") or {}
    return record.get("type") == "response_item" and payload.get("type") == "function_call"


def _exec_call(record: dict[str, Any]) -> bool:
    item = record.get("item") or {}
    return record.get("type") == "item.started" and item.get("type") == "command_execution"


def _grow_atif(path: Path, size: int) -> str:
    data = json.loads(path.read_text())
    steps = data["steps"]
    unit = next(s for s in steps if s.get("tool_calls") and s.get("observation"))
    grown = steps[:-1]
    text_size = len(json.dumps(data, indent=2))
    step_size = len(json.dumps(unit, indent=4))  # nested two levels deeper in the file
    for n in range(max(0, (size - text_size) // step_size)):
        clone = copy.deepcopy(unit)
        for call in clone["tool_calls"]:
            call["tool_call_id"] += f"x{n}"
        for result in clone["observation"]["results"]:
            result["source_call_id"] += f"x{n}"
        grown.append(clone)
    grown.append(steps[-1])
    for n, step in enumerate(grown, start=1):
        step["step_id"] = n
    data["steps"] = grown
    return json.dumps(data, indent=2)


def forms() -> dict[str, Callable[[int], str]]:
    honest = RECORDED / "claude-code-honest"
    codex = RECORDED / "codex-honest"
    return {
        "claude-code": lambda n: _grow_lines(
            _lines(honest / "transcript.jsonl"), _pair_at(_claude_call), n
        ),
        "claude-stream": lambda n: _grow_lines(
            _drop_result(_lines(honest / "stream.jsonl")), _pair_at(_claude_call_stream), n
        ),
        "codex": lambda n: _grow_lines(
            _lines(codex / "transcript.jsonl"), _pair_at(_codex_call), n
        ),
        "codex-exec": lambda n: _grow_lines(_lines(codex / "stream.jsonl"), _exec_unit, n),
        "atif": lambda n: _grow_atif(HARBOR_TRIAL / "agent" / "trajectory.json", n),
    }


def _claude_call_stream(record: dict[str, Any]) -> bool:
    return _claude_call(record)


def _drop_result(lines: list[str]) -> list[str]:
    return lines  # the stream's last line is its result record: it stays last


def _exec_unit(lines: list[str]) -> tuple[int, int]:
    """codex exec: a command's item.started and item.completed lines."""
    for n, line in enumerate(lines):
        if _exec_call(json.loads(line)):
            return n, n + 2
    raise ValueError("no command in the recorded run")


def read_once(path: Path) -> tuple[float, float, int]:
    """Seconds to read (untraced), peak MB traced while reading again, steps read."""
    gc.collect()
    started = time.perf_counter()
    transcript = load_transcript(path)
    seconds = time.perf_counter() - started
    steps = len(transcript.steps)
    del transcript
    gc.collect()
    tracemalloc.start()
    load_transcript(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 1e6, steps


def decode_floor(path: Path) -> float:
    """Seconds to only decode the file's JSON (every line, or the one document): the
    least any reader of it must do — the peer the readers are compared with."""
    started = time.perf_counter()
    text = path.read_text()
    if path.suffix == ".jsonl":
        for line in text.splitlines():
            if line.strip():
                json.loads(line)
    else:
        json.loads(text)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--form", action="append", help="only these forms (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dc-logs-") as scratch:
        for form, grow in forms().items():
            if args.form and form not in args.form:
                continue
            per_size: dict[float, tuple[float, float]] = {}
            for mb in args.sizes_mb:
                path = Path(scratch) / f"{form}-{mb:g}.json{'l' if form != 'atif' else ''}"
                path.write_text(grow(int(mb * 1e6)))
                size_mb = path.stat().st_size / 1e6
                runs = [read_once(path) for _ in range(args.repeats)]
                seconds = statistics.median(r[0] for r in runs)
                peak = statistics.median(r[1] for r in runs)
                steps = runs[0][2]
                floor = statistics.median(decode_floor(path) for _ in range(args.repeats))
                where = {"form": form, "mb": round(size_mb, 1)}
                for metric, value, unit in (
                    ("read_seconds", seconds, "s"),
                    ("read_mb_per_s", size_mb / seconds, "MB/s"),
                    ("peak_memory", peak, "MB"),
                    ("peak_per_file_mb", peak / size_mb, "ratio"),
                    ("steps", steps, "count"),
                    ("decode_only_seconds", floor, "s"),
                    ("over_decode_only", seconds / floor, "ratio"),
                ):
                    emit("log_reading", metric, value, unit, **where)
                log(
                    f"{form:<14} {size_mb:5.1f} MB  {seconds:6.3f} s (decode alone {floor:6.3f} s)"
                    f"  peak {peak:6.1f} MB  {steps} steps"
                )
                per_size[size_mb] = (seconds, peak)
                path.unlink()
            small, large = min(per_size), max(per_size)
            if large > small:
                emit(
                    "log_reading",
                    "time_ratio",
                    per_size[large][0] / per_size[small][0],
                    "ratio",
                    form=form,
                    bytes_ratio=round(large / small, 1),
                )


if __name__ == "__main__":
    main()
