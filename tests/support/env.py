"""The environment for a DoneCheck process a test starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Set for the whole test session by tests/conftest.py; a child keeps them.
_KEEP = ("RAY_AUTH_TOKEN", "RAY_TMPDIR")


def child_env(folder: Path | None = None) -> dict[str, str]:
    """None of this session's Ray or DoneCheck settings (the child starts its own),
    but this session's Ray token and temporary folder, and a data folder and
    runtime file under *folder* (a fresh temporary one if None): never $HOME."""
    folder = folder or Path(tempfile.mkdtemp(prefix="dc-child-"))
    env = {
        k: v
        for k, v in os.environ.items()
        if k in _KEEP or (not k.startswith(("RAY_", "DONECHECK_")) and k != "PYTHONBREAKPOINT")
    }
    env["DONECHECK_DATA_DIR"] = str(folder / "data")
    env["DONECHECK_RUNTIME_FILE"] = str(folder / "run" / "serve.json")
    return env
