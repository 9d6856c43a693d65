"""OpenCode session logs: what ``opencode export <sessionID>`` prints, and the event
stream of ``opencode run --format json``.

OpenCode keeps its sessions in SQLite (``$XDG_DATA_HOME/opencode/opencode.db``); the
forms a user holds in a file are these two, as ``opencode-ai`` 1.18.33 writes them
(recorded in ``tests/clients/recorded/opencode-*``):

* **export** — one JSON object ``{"info": {id, directory, version, …}, "messages":
  [{"info": {role, id, parentID, finish, …}, "parts": [...]}]}``. A user message's
  parts are ``text`` (``synthetic: true`` when OpenCode wrote it: a mentioned file's
  contents) and ``file``; an assistant message is one step of the agent's loop, its
  parts ``step-start``, ``reasoning``, ``text``, ``tool`` (``tool``, ``callID``,
  ``state {status, input, output, metadata {exit, …}, error}``: the shell's exit
  status is ``metadata.exit``), ``patch``, ``step-finish``.
* **run stream** — one event a line, ``{"type", "timestamp", "sessionID", "part"}``
  (``step_start``, ``text``, ``tool_use``, ``step_finish``, ``error``): the same
  parts, but not the prompt, which was the command line's argument.

DoneCheck's checklist, handed back by its plugin as a user message, is told apart by
its own opening (:mod:`~donecheck.runtime.transcripts.roles`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.openai import (
    Step,
    Transcript,
    json_line,
    read_transcript_text,
)
from donecheck.runtime.transcripts.turns import TurnReader

__all__ = [
    "is_opencode_export",
    "is_opencode_stream",
    "load_opencode",
    "parse_opencode_export",
    "parse_opencode_stream",
    "tool_result",
]

_STREAM_TYPES = frozenset({"step_start", "text", "tool_use", "step_finish", "reasoning", "error"})
_FAILED = frozenset({"error"})


def is_opencode_export(data: Any) -> bool:
    """Whether decoded JSON is an ``opencode export``: session ``info`` with an
    ``ses_`` id, and messages of ``{info, parts}``."""
    if not isinstance(data, dict):
        return False
    info, messages = data.get("info"), data.get("messages")
    return (
        isinstance(info, dict)
        and str(info.get("id", "")).startswith("ses_")
        and isinstance(messages, list)
        and all(isinstance(m, dict) and "info" in m and "parts" in m for m in messages)
    )


def is_opencode_stream(objects: list[dict[str, Any]]) -> bool:
    """Whether decoded JSON Lines are ``opencode run --format json`` events."""
    return bool(objects) and all(
        o.get("type") in _STREAM_TYPES
        and str(o.get("sessionID", "")).startswith("ses_")
        and ("part" in o or o.get("type") == "error")
        for o in objects
    )


def tool_result(state: dict[str, Any]) -> tuple[str, bool | None, int | None]:
    """A tool part's ``state`` as DoneCheck reads a result: its text, ``False`` when
    OpenCode says it failed (``status: error``), and the shell's exit status
    (``metadata.exit``, when the tool gives one)."""
    status = state.get("status")
    output = state.get("output")
    if status in _FAILED:
        output = state.get("error") if output is None else output
    text = output if isinstance(output, str) else "" if output is None else json.dumps(output)
    metadata = state.get("metadata")
    code = metadata.get("exit") if isinstance(metadata, dict) else None
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    return text, (False if status in _FAILED else None), exit_code


def load_opencode(path: str | Path) -> Transcript:
    text = read_transcript_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return parse_opencode_stream(text.splitlines(), str(path))
    return parse_opencode_export(data, str(path))


class _Reader(TurnReader):
    def user(self, parts: list[Any]) -> None:
        text = "\n".join(
            str(p.get("text") or "")
            for p in parts
            if isinstance(p, dict) and p.get("type") == "text" and not p.get("synthetic")
        ).strip()
        self.said(text)

    def part(self, number: int, part: Any) -> None:
        if not isinstance(part, dict):
            return
        if part.get("type") == "text" and not part.get("synthetic"):
            text = part.get("text")
            if isinstance(text, str) and text.strip():
                self.answer = text
        elif part.get("type") == "tool":
            self.tool(number, part)

    def tool(self, number: int, part: dict[str, Any]) -> None:
        given = part.get("callID") if isinstance(part.get("callID"), str) else None
        call_id = self.pairing.call(given, number)
        found = part.get("state")
        state: dict[str, Any] = found if isinstance(found, dict) else {}
        arguments = state.get("input")
        self.steps.append(
            Step(
                kind="call",
                call_id=call_id,
                name=str(part.get("tool") or "?"),
                arguments=arguments if isinstance(arguments, dict | str) else {},
            )
        )
        self.acted = True
        self.answer = ""
        if state.get("status") not in {"completed", "error"}:
            return  # still running (pending) when the log was taken: no result
        output, ok, code = tool_result(state)
        result_id = self.pairing.result(given)[0] if given else call_id
        self.steps.append(
            Step(kind="result", call_id=result_id, output=output, ok=ok, exit_code=code)
        )

    def transcript(self, request_known: bool = True) -> Transcript:
        return Transcript(
            source=self.source,
            request="\n\n".join(self.request),
            answer=self.answer,
            steps=self.steps,
            form="opencode",
            request_known=request_known,
        )


def parse_opencode_export(data: Any, source: str = "<opencode export>") -> Transcript:
    """Read an ``opencode export``; :class:`TranscriptError` when it is none, or holds
    no user prompt."""
    if not is_opencode_export(data):
        raise TranscriptError(source, "not an OpenCode export ({info, messages})")
    reader = _Reader(source)
    warnings: list[str] = []
    for number, message in enumerate(data["messages"], start=1):
        info, parts = message.get("info"), message.get("parts")
        if not isinstance(info, dict) or not isinstance(parts, list):
            warnings.append(f"message {number}: not an OpenCode message; skipped")
            continue
        if info.get("role") == "user":
            reader.user(parts)
        elif info.get("role") == "assistant":
            for part in parts:
                reader.part(number, part)
    if not reader.opened:
        raise TranscriptError(source, "no user prompt in the OpenCode export")
    found = reader.transcript()
    found.warnings = warnings
    return found


def parse_opencode_stream(lines: list[str], source: str = "<opencode run>") -> Transcript:
    """Read ``opencode run --format json`` output; the prompt was the command line's,
    so the request is not known (``--request`` gives it)."""
    warnings: list[str] = []
    reader = _Reader(source)
    reader.opened = True
    for number, raw in enumerate(lines, start=1):
        record = json_line(number, raw, warnings)
        if record is None:
            continue
        if not isinstance(record, dict):
            warnings.append(f"line {number}: not an OpenCode event; skipped")
            continue
        reader.part(number, record.get("part"))
    if not reader.steps and not reader.answer:
        raise TranscriptError(source, "no step of the agent in the OpenCode run output")
    found = reader.transcript(request_known=False)
    found.warnings = warnings
    return found
