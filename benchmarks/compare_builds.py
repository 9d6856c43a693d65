"""This build against an earlier commit's, side by side in one run: the saturated
``sessions_load`` level (one shard of each actor kind, no think time).

The earlier build is checked out as a git worktree and imported through a shim
folder (``donecheck/{actors,parsers,runtime}`` → the worktree's folders) put
first on ``PYTHONPATH``, so its driver and its Ray workers run its code while
the load itself — the same ``benchmarks/sessions_load.py`` — stays this one's.
Each build runs ``--rounds`` times, alternating (earlier, this, earlier, this …)
so that a machine getting busier or quieter weighs on both; the median round of
each counts.

Figures: per build ``sessions_per_s``, ``cpu_ms_per_session`` and the busiest
process's share of a core; then ``throughput_ratio`` and ``cpu_ratio`` (this
build over the earlier one).

Run: ``python -m benchmarks.compare_builds --rev feec34f`` (``--sessions``,
``--rounds``, ``--judge-latency``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._common import emit, log

ROOT = Path(__file__).resolve().parents[1]


def shim_for(rev: str, scratch: Path) -> Path:
    """A folder that makes ``import donecheck`` find ``rev``'s code."""
    tree = scratch / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(tree), rev],
        check=True,
        capture_output=True,
    )
    shim = scratch / "shim" / "donecheck"
    shim.mkdir(parents=True)
    for layer in ("actors", "parsers", "runtime"):
        (shim / layer).symlink_to(tree / layer)
    return shim.parent


def one_round(shim: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    if shim is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(shim), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    command = [
        sys.executable,
        "-m",
        "benchmarks.sessions_load",
        "--levels",
        "",
        "--idle",
        "0",
        "--shards",
        "1",
        "--shard-sessions",
        str(args.sessions),
        "--judge-latency",
        str(args.judge_latency),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"sessions_load failed ({done.returncode}):\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            figures[row["metric"]] = row
    return figures


def _short(rev: str) -> str:
    """``rev``'s short commit id."""
    command = ["git", "-C", str(ROOT), "rev-parse", "--short", rev]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", required=True, help="the earlier commit (any git revision)")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2, help="runs per build (median)")
    parser.add_argument("--judge-latency", type=float, default=0.2)
    args = parser.parse_args()
    label, head = _short(args.rev), _short("HEAD")
    with tempfile.TemporaryDirectory(prefix="dc-compare-") as tmp:
        shim = shim_for(args.rev, Path(tmp))
        try:
            runs: dict[str, list[dict[str, Any]]] = {"earlier": [], "this": []}
            for n in range(args.rounds):
                for build, path in (("earlier", shim), ("this", None)):
                    log(f"round {n + 1}/{args.rounds}: {build} build …")
                    runs[build].append(one_round(path, args))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(Path(tmp) / "tree")],
                check=False,
                capture_output=True,
            )
    medians: dict[str, dict[str, float]] = {}
    for build, rounds in runs.items():
        rate = statistics.median(r["sessions_per_s"]["value"] for r in rounds)
        cpu = statistics.median(r["cpu_ms_per_session"]["value"] for r in rounds)
        busiest = statistics.median(r["busiest_process_busy"]["value"] for r in rounds)
        medians[build] = {"rate": rate, "cpu": cpu}
        commit = label if build == "earlier" else f"{head} + working tree"
        common = {"build": build, "commit": commit, "sessions": args.sessions, "shards": 1}
        emit("compare_builds", "sessions_per_s", rate, "1/s", **common)
        emit(
            "compare_builds",
            "cpu_ms_per_session",
            cpu,
            "ms",
            by_process_kind=rounds[-1]["cpu_ms_per_session"]["params"]["by_process_kind"],
            **common,
        )
        emit(
            "compare_builds",
            "busiest_process_busy",
            busiest,
            "fraction of a core",
            process=rounds[-1]["busiest_process_busy"]["params"]["process"],
            **common,
        )
    emit(
        "compare_builds",
        "throughput_ratio",
        medians["this"]["rate"] / medians["earlier"]["rate"],
        "x",
        earlier=label,
        target=">= 2",
    )
    emit(
        "compare_builds",
        "cpu_ratio",
        medians["this"]["cpu"] / medians["earlier"]["cpu"],
        "x",
        earlier=label,
        target="<= 0.5",
    )


if __name__ == "__main__":
    main()
