"""``python benchmarks/run.py`` is a command a newcomer runs: its ``--help`` helps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_help_names_every_benchmark_and_runs_none() -> None:
    shown = _run("--help")
    assert shown.returncode == 0, shown.stderr
    modules = sorted(
        p.stem
        for p in (ROOT / "benchmarks").glob("*.py")
        if not p.stem.startswith("_") and p.stem != "run"
    )
    assert modules and all(f"  {name} " in shown.stdout for name in modules)
    assert not any(line.startswith("{") for line in shown.stdout.splitlines())


def test_an_unknown_benchmark_is_named_and_nothing_runs() -> None:
    refused = _run("turn_latncy")
    assert refused.returncode == 2
    assert "no benchmark named turn_latncy" in refused.stderr and not refused.stdout
