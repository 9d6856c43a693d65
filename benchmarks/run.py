"""Run benchmark modules, each in a fresh process, and pass their JSON figure lines through.

    python benchmarks/run.py                 # every benchmark
    python benchmarks/run.py turn_latency    # one of them
    python benchmarks/run.py --list          # what there is, a line each

Only figure lines (JSON objects) reach stdout; anything else a benchmark or a
peer tool prints goes to stderr. Benchmarks are kept out of the test suite;
their figures and the command that made them go in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def benchmarks() -> dict[str, str]:
    """Each benchmark module's name and the first paragraph of its docstring."""
    found: dict[str, str] = {}
    for path in sorted(HERE.glob("*.py")):
        if path.stem.startswith("_") or path.stem == "run":
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.strip().split("\n\n")[0].split())
        found[path.stem] = first if len(first) <= 100 else first[:99] + "…"
    return found


def parser() -> argparse.ArgumentParser:
    known = benchmarks()
    listing = "\n".join(f"  {name:<22} {line}" for name, line in known.items())
    p = argparse.ArgumentParser(
        prog="python benchmarks/run.py",
        description=(
            "Run benchmarks, each in a fresh process; their figures (JSON lines) go to"
            " stdout, everything else to stderr. A benchmark's own options: python -m"
            " benchmarks.NAME --help."
        ),
        epilog=f"benchmarks:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all)")
    p.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    known = benchmarks()
    if args.list:
        for name, line in known.items():
            print(f"{name:<22} {line}")
        return 0
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(f"run.py: no benchmark named {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    status = 0
    for name in args.names or list(known):
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
