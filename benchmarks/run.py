"""Run benchmark modules, each in a fresh process, and pass their JSON figure lines through.

    python benchmarks/run.py                 # every benchmark
    python benchmarks/run.py turn_latency    # one of them

Benchmarks are kept out of the test suite; their figures and the command that
made them go in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    names = argv or sorted(
        p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_") and p.stem != "run"
    )
    status = 0
    for name in names:
        done = subprocess.run([sys.executable, "-m", f"benchmarks.{name}"], cwd=HERE.parent)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
