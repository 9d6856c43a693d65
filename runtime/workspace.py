"""The workspace's own ground truth: its test files and test configuration, read from
disk at a task's start and at each stop (:func:`workspace_state`).

Where DoneCheck sees the agent's workspace — the hooks (their ``cwd``), the HTTP
service and the Python API given a workspace — this is what a change to the tests is
judged against: a change made by any tool or command is seen even when no tool call
describes it, and an undo by any route is seen too (a file back as it was carries no
weakening). Which files count is :func:`donecheck.actors.evidence.integrity.classify`'s
(tests, test configuration, modules that shadow the runner). Whether each is as git
has it at ``HEAD`` is read from ``git ls-files -s`` (one process, bounded), so
``git checkout -- file`` can be read as putting it back.

Bounded: the walk stops after :data:`WALK_ENTRIES` entries and :data:`WALK_S`
seconds, at most :data:`MAX_FILES` files are listed, a file's text is kept up to
:data:`FILE_CHARS` characters and all of them up to :data:`TOTAL_CHARS` (past them,
the hash only); ``missed`` says what a bound cut.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Literal

from donecheck.actors.evidence.integrity import classify
from donecheck.actors.messages import WorkspaceFile, WorkspaceState

__all__ = ["MAX_FILES", "named_inputs", "workspace_state"]

WALK_ENTRIES = 20_000
WALK_S = 2.0
MAX_FILES = 300
FILE_CHARS = 128 * 1024
TOTAL_CHARS = 2 * 1024 * 1024
GIT_S = 2.0
_PRUNED = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", "target", ".idea"}
)  # fmt: skip


def _committed(root: Path) -> dict[str, str]:
    """``path → blob id`` of what git has staged for each file (empty when ``root`` is
    not in a git work tree, git is missing, or it did not answer in time)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-s", "-z"],
            capture_output=True,
            timeout=GIT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    found: dict[str, str] = {}
    for record in done.stdout.split(b"\0"):
        head, _, path = record.partition(b"\t")
        parts = head.split()
        if len(parts) == 3 and path:
            found[path.decode("utf-8", "surrogateescape")] = parts[1].decode()
    return found


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def workspace_state(
    root: str | os.PathLike[str],
    moment: Literal["start", "stop"],
    session_id: str,
    *,
    at: float = 0.0,
    event_id: str = "",
) -> WorkspaceState:
    """The test files and test configuration under ``root`` as they are now (see the
    module docstring). ``root`` that is not a folder gives a state with ``missed``
    saying so and no files."""
    base = Path(root)
    if not base.is_dir():
        return WorkspaceState(
            session_id=session_id, root=str(root), moment=moment, missed=f"{root}: not a folder",
            at=at, event_id=event_id,
        )  # fmt: skip
    committed = _committed(base)
    deadline = time.monotonic() + WALK_S
    files: list[WorkspaceFile] = []
    missed = ""
    seen = chars = 0
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d not in _PRUNED and not d.startswith("."))
        for name in sorted(names):
            seen += 1
            if seen > WALK_ENTRIES or time.monotonic() > deadline:
                missed = f"the walk stopped after {seen - 1} entries: later files were not read"
                break
            path = Path(folder) / name
            rel = path.relative_to(base).as_posix()
            if classify(rel) is None or not path.is_file() or path.is_symlink():
                continue
            if len(files) >= MAX_FILES:
                missed = f"more than {MAX_FILES} test and configuration files: the rest not read"
                break
            try:
                data = path.read_bytes()
            except OSError:
                continue
            text: str | None = None
            if len(data) <= FILE_CHARS * 4 and chars < TOTAL_CHARS:
                try:
                    decoded = data.decode("utf-8")
                except UnicodeDecodeError:
                    decoded = None
                if decoded is not None and len(decoded) <= FILE_CHARS and "\0" not in decoded:
                    text = decoded
                    chars += len(decoded)
            blob = committed.get(rel)
            files.append(
                WorkspaceFile(
                    path=rel,
                    sha256=hashlib.sha256(data).hexdigest(),
                    text=text,
                    committed=(blob == _blob_id(data)) if blob is not None else None,
                )
            )
        if missed:
            break
    return WorkspaceState(
        session_id=session_id,
        root=str(base),
        moment=moment,
        files=tuple(files),
        missed=missed,
        at=at,
        event_id=event_id,
    )


_INPUT_NAME = re.compile(
    r"""(?ix)(?:^|(?<=[\s`'"(\[:,]))
    (?P<name>(?:[\w.-]+/)*[\w.-]+\.(?:pdf|docx?|xlsx?|pptx?|odt|ods|rtf|csv|tsv|json|jsonl|
        ya?ml|xml|txt|md|html?|png|jpe?g|gif|webp|tiff?|bmp|zip|tar|tgz|gz|eml|msg))
    (?=$|[\s`'")\],.;:!?])"""
)
"""A document, data file or image named in a request (not source code: the code is
the agent's to change, a spec is an input to read)."""
_OPAQUE = re.compile(
    r"(?i)\.(?:pdf|docx?|xlsx?|pptx?|odt|ods|rtf|png|jpe?g|gif|webp|tiff?|bmp|zip|tar|tgz|gz|eml|msg)$"
)
"""Formats an agent reads and seldom writes: an input unless the request says to make one."""
_MADE = re.compile(
    r"(?i)\b(?:create|write|generate|produce|export|save|render|make|build|output|convert)"
    r"\b[^.\n]{0,50}$"
)
MAX_INPUTS = 8
MAX_INPUT_BYTES = 32 * 1024 * 1024


def named_inputs(request: str, root: str | os.PathLike[str]) -> list[Path]:
    """The files ``request`` names as inputs that lie in the workspace ``root``: a spec,
    a PDF, a data file, an image — each a material like an attachment, so an answer
    that relies on it with no read of it is not a pass. Not one the request asks to
    be written ("Write README.md …"), not one outside ``root``; at most
    :data:`MAX_INPUTS`, each at most :data:`MAX_INPUT_BYTES`."""
    from donecheck.actors.words.claims import asks_to_change

    base = Path(root).resolve()
    found: list[Path] = []
    for match in _INPUT_NAME.finditer(request):
        name = match.group("name")
        path = (base / name).resolve()
        if not path.is_relative_to(base) or path in found:
            continue
        try:
            if not path.is_file() or path.stat().st_size > MAX_INPUT_BYTES:
                continue
        except OSError:
            continue
        if _OPAQUE.search(name):
            if _MADE.search(request[max(0, match.start() - 60) : match.start()]):
                continue  # "Export the report to report.pdf": an output
        elif asks_to_change(request, name):
            continue  # an output of the task, not an input
        found.append(path)
        if len(found) >= MAX_INPUTS:
            break
    return found
