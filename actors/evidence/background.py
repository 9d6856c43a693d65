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

__all__ = ["STARTS", "Finished", "finished", "notice_file", "notices", "started"]

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
_NOTICE = re.compile(r"<task-notification>(?P<body>.*?)</task-notification>", re.S)
_NOTICE_TASK = re.compile(r"<task-id>\s*(?P<id>[\w-]+)\s*</task-id>")
_NOTICE_FILE = re.compile(r"<output-file>\s*(?P<file>[^<\s]+)\s*</output-file>")
_COMMAND_SUMMARY = re.compile(r"<summary>\s*Background command ")
"""How Claude Code itself tells a background command's notice from a sub-agent's
(``Agent "…" finished``) or a remote task's: its summary's opening words."""
_SUMMARY_EXIT = re.compile(r"<summary>[^<]*?\bexit code:? (-?\d+)\b[^<]*</summary>")
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


def notices(text: str) -> list[tuple[str, str]]:
    """``(task id, notice)`` for each notice in a user's turn that a background command
    ended (Claude Code's ``<task-notification>``; not a sub-agent's), in order."""
    found = []
    for block in _NOTICE.finditer(text[:50_000]):
        task = _NOTICE_TASK.search(block.group("body"))
        if task is not None and _COMMAND_SUMMARY.search(block.group("body")):
            found.append((task.group("id"), block.group(0)))
    return found


def notice_file(notice: str) -> str:
    """The file a notice says the task's output is in, or ``""``."""
    found = _NOTICE_FILE.search(notice)
    return found.group("file") if found else ""


def finished(output: str) -> Finished | None:
    """How a background task ended, from what a call that fetched its output returned;
    ``None`` while it still runs (or when the text says nothing of it)."""
    tags = {m.group("tag"): m.group("body") for m in _TAG.finditer(output[:200_000])}
    if "status" in tags:  # Claude Code's TaskOutput / BashOutput, as text
        if tags["status"].strip() not in {"completed", "failed", "killed"}:
            return None
        code = tags.get("exit_code", "").strip()
        if not code:  # a notice says it in its summary: "… completed (exit code 1)"
            told = _SUMMARY_EXIT.search(output)
            code = told.group(1) if told else ""
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
