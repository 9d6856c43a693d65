"""What ``pip install`` of DoneCheck costs a new user: bytes fetched, bytes installed,
seconds — for the package as the README installs it and for its ``[test]`` extra, in
a fresh virtual environment with an empty pip cache (so every wheel is fetched).

Figures (JSON lines), per target:

* ``install_size`` ``download`` — the wheels and sdists pip fetched (``pip download``);
* ``install_size`` ``installed`` — the virtual environment's ``site-packages`` after
  ``pip install``, less a bare venv's;
* ``install_size`` ``seconds`` — the install's wall time;
* ``install_size`` ``packages`` — how many distributions it installed.

The peer is the bare venv (pip alone). Needs the network to PyPI; writes only under a
temporary folder. Run: ``python -m benchmarks.install_size [--target . --target '.[test]']``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import emit, log

ROOT = Path(__file__).resolve().parents[1]


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _site(venv: Path) -> Path:
    return next(venv.glob("lib/python*/site-packages"))


def measure(target: str, scratch: Path) -> None:
    venv = scratch / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
    bare = _size(_site(venv))
    fetched = scratch / "wheels"
    shutil.rmtree(fetched, ignore_errors=True)
    spec = target.replace(".", str(ROOT), 1) if target.startswith(".") else target
    subprocess.run([*pip, "download", "--no-cache-dir", "-d", str(fetched), spec], check=True)
    started = time.monotonic()
    subprocess.run([*pip, "install", "--no-cache-dir", spec], check=True)
    seconds = time.monotonic() - started
    listed = subprocess.run(
        [*pip[:-1], "list", "--format=freeze"], capture_output=True, text=True, check=True
    ).stdout.split()
    emit("install_size", "download", _size(fetched) / 1e6, "MB", target=target)
    emit("install_size", "installed", (_size(_site(venv)) - bare) / 1e6, "MB", target=target)
    emit("install_size", "seconds", seconds, "s", target=target)
    emit("install_size", "packages", len(listed), "distributions", target=target)
    log(f"install_size: {target}: {len(listed)} packages in {seconds:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--target", action="append", help="what to install (default: . and '.[test]')"
    )
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="dc-bench-install-"))
    try:
        for target in args.target or [".", ".[test]"]:
            measure(target, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
