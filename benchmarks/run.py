"""Run benchmark modules, each in a fresh process, and pass their JSON figure lines through.

    python benchmarks/run.py                 # every benchmark
    python benchmarks/run.py turn_latency    # one of them

Only figure lines (JSON objects) reach stdout; anything else a benchmark or a
peer tool prints goes to stderr. Benchmarks are kept out of the test suite;
their figures and the command that made them go in benchmarks/RESULTS.md.
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
        with subprocess.Popen(
            [sys.executable, "-m", f"benchmarks.{name}"],
            cwd=HERE.parent,
            stdout=subprocess.PIPE,
            text=True,
        ) as child:
            assert child.stdout is not None
            for line in child.stdout:  # figures to stdout; whatever else a peer prints, stderr
                (sys.stdout if line.startswith("{") else sys.stderr).write(line)
                sys.stdout.flush()
        status = status or child.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
