"""ruff, mypy --strict and import-linter are part of the suite, so CI keeps style, types and
the layers (runtime -> actors -> parsers) honest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def test_ruff() -> None:
    done = _run(sys.executable, "-m", "ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format() -> None:
    done = _run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict() -> None:
    done = _run("bash", str(ROOT / ".ci" / "typecheck"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_imports_point_down() -> None:
    """The contracts in pyproject.toml ([tool.importlinter]): a broken one names the
    offending import and its line."""
    done = _run(str(Path(sys.executable).with_name("lint-imports")), "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_users_type_checker_finds_the_editable_install(tmp_path: Path) -> None:
    """After `pip install -e .` (README command 1), mypy in a user's own project sees
    donecheck's types: the error below is about the type, not a missing module."""
    user = tmp_path / "app.py"
    user.write_text("from donecheck.runtime import DoneCheck\n\nx: int = DoneCheck\n")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), str(user)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert 'expression has type "type[DoneCheck]"' in done.stdout, done.stdout + done.stderr
    assert "import-not-found" not in done.stdout
