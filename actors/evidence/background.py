"""Runs started in the background, and their results when they come back.

An agent may start a check without waiting for it (Claude Code's ``Bash`` with
``run_in_background``; Codex's ``exec_command`` that yields before the process ends)
and read how it ended later: through a tool that fetches a background task's output
(Claude Code's ``TaskOutput`` / ``BashOutput``, Codex's ``write_stdin``), or by reading
the file its output goes to. Each form is a table row: the start, naming the task
(and its output file), and the result, saying whether the task finished, with what
exit status and what output.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["STARTS", "Finished", "finished", "started"]

STARTS: list[tuple[str, re.Pattern[str]]] = [
    # (whose, how its result says a command went on in the background)
    (
        "Claude Code: Bash with run_in_background",
        re.compile(
            r"Command running in background with ID:\s*(?P<id>[\w-]+)"
            r"(?:\.\s*Output is being written to:\s*(?P<file>\S+))?"
        ),
    ),
    ("Codex: exec_command yielded", re.compile(r"Process running with session ID\s+(?P<id>\d+)")),
]
_TAG = re.compile(
    r"<(?P<tag>status|exit_code|output|stdout|stderr)>\n?(?P<body>.*?)</(?P=tag)>", re.S
)
_CODEX_EXIT = re.compile(r"Process exited with code\s+(-?\d+)")
_CODEX_OUTPUT = re.compile(r"(?s)\nOutput:\n(?P<body>.*)$")


@dataclass(frozen=True, slots=True)
class Finished:
    """A background task's result: its output and exit status, when it ended."""

    output: str
    exit_code: int | None


def started(output: str) -> tuple[str, str] | None:
    """``(task id, output file)`` when a call's result says its command went on in the
    background (the file ``""`` when not named), else ``None``."""
    for _, pattern in STARTS:
        found = pattern.search(output[:2_000])
        if found is not None:
            return found.group("id"), found.groupdict().get("file") or ""
    return None


def finished(output: str) -> Finished | None:
    """How a background task ended, from what a call that fetched its output returned;
    ``None`` while it still runs (or when the text says nothing of it)."""
    tags = {m.group("tag"): m.group("body") for m in _TAG.finditer(output[:200_000])}
    if "status" in tags:  # Claude Code's TaskOutput / BashOutput, as text
        if tags["status"].strip() not in {"completed", "failed", "killed"}:
            return None
        code = tags.get("exit_code", "").strip()
        body = tags.get("output") or "\n".join(tags.get(k, "") for k in ("stdout", "stderr"))
        return Finished(body, int(code) if re.fullmatch(r"-?\d+", code) else None)
    if output.lstrip().startswith("{"):  # the same, as its structured result
        try:
            data = json.loads(output)
        except ValueError:
            data = None
        task = data.get("task") if isinstance(data, dict) else None
        if isinstance(task, dict):
            if task.get("status") not in {"completed", "failed", "killed"}:
                return None
            code = task.get("exit_code", task.get("exitCode"))
            return Finished(str(task.get("output") or ""), code if isinstance(code, int) else None)
    exited = _CODEX_EXIT.search(output)
    if exited is not None:  # Codex's write_stdin after the process ended
        body = _CODEX_OUTPUT.search(output)
        return Finished(body.group("body") if body else output, int(exited.group(1)))
    return None
