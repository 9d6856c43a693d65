"""GitHub Copilot CLI session logs (``$COPILOT_HOME/session-state/<id>/events.jsonl``).

One event per line, ``{"type", "data", "id", "timestamp", "parentId"}``, as
``@github/copilot`` 1.0.102 writes them (recorded in ``tests/clients/recorded/copilot-*``):

* ``session.start`` — ``data.producer`` ``copilot-agent``, ``data.copilotVersion``,
  ``data.context.cwd``;
* ``user.message`` — ``data.content`` (what was typed, or a Stop hook's reason handed
  back) and ``data.transformedContent`` (what the model sees: a
  ``<current_datetime>`` line first);
* ``assistant.message`` — ``data.content`` (its text, ``""`` beside tool calls) and
  ``data.toolRequests`` ``[{toolCallId, name, arguments}]``;
* ``tool.execution_complete`` — ``data.toolCallId``, ``data.success``,
  ``data.result.content`` (the text the model got: the shell tool's ends
  ``<shellId: N completed with exit code K>``) and, for the shell,
  ``data.shellExecution.exitCode``;
* ``hook.start`` / ``hook.end`` — each hook run; a Stop hook's answer is
  ``hook.end``'s ``data.output`` (``{"decision": "block", "reason": R}``), and the
  ``user.message`` whose ``content`` is R right after it is that continuation, not a
  request;
* everything else (``assistant.turn_*``, ``session.*``, ``system.message``, usage) is
  skipped.
"""

from __future__ import annotations

import json
import re
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

__all__ = ["is_copilot_log", "load_copilot", "parse_copilot_lines", "stop_logged", "tool_text"]

_SHELLS = frozenset({"bash", "powershell", "Bash", "PowerShell"})
_TRAILER = re.compile(r"\n?<shellId: [^>]*? completed with exit code (?P<code>-?\d+)>\s*\Z")
"""The line Copilot CLI's shell tool puts after a command's output."""
_STOPS = frozenset({"agentStop", "Stop"})


def tool_text(name: str, text: Any, code: Any = None) -> tuple[str, int | None]:
    """A Copilot CLI tool result's text and, for the shell tool, the command's exit
    status: ``code`` when the log gives it (``shellExecution.exitCode``), else the
    ``<shellId: N completed with exit code K>`` line (``None`` when neither says)."""
    text = text if isinstance(text, str) else "" if text is None else json.dumps(text)
    if name not in _SHELLS:
        return text, None
    found = _TRAILER.search(text)
    if found is not None:
        text = text[: found.start()]
    if isinstance(code, int) and not isinstance(code, bool):
        return text, code
    return text, int(found.group("code")) if found else None


def stop_logged(text: str, moment: int) -> bool:
    """Whether an ``events.jsonl``'s ``text`` holds the ``hook.start`` of the Stop
    hook that fired at ``moment`` (milliseconds, its input's ``timestamp``): Copilot
    CLI writes events in order, so everything before that stop is in the file then."""
    for line in reversed(text.splitlines()):
        if '"hook.start"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        data = record.get("data") if isinstance(record, dict) else None
        if not isinstance(data, dict):
            continue
        given = data.get("input")
        if (
            isinstance(given, dict)
            and data.get("hookType") in _STOPS
            and given.get("timestamp") == moment
        ):
            return True
    return False


def is_copilot_log(objects: list[dict[str, Any]]) -> bool:
    """Whether decoded JSON Lines are a Copilot CLI ``events.jsonl``: its
    ``session.start`` from ``copilot-agent`` first, or most lines its events."""
    if not objects:
        return False
    first = objects[0]
    given = first.get("data")
    data: dict[str, Any] = given if isinstance(given, dict) else {}
    if first.get("type") == "session.start" and data.get("producer") == "copilot-agent":
        return True
    ours = sum(
        isinstance(o.get("type"), str)
        and isinstance(o.get("data"), dict)
        and "parentId" in o
        and str(o["type"]).split(".", 1)[0] in {"session", "user", "assistant", "tool", "hook"}
        for o in objects
    )
    return ours * 2 >= len(objects) and any(o.get("type") == "user.message" for o in objects)


def load_copilot(path: str | Path) -> Transcript:
    return parse_copilot_lines(read_transcript_text(path).splitlines(), str(path))


class _Reader(TurnReader):
    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.names: dict[str, str] = {}
        self.reasons: list[str] = []
        """The reasons of Stop hooks that blocked, not yet seen handed back."""

    def user(self, data: dict[str, Any]) -> None:
        text = data.get("content")
        if not isinstance(text, str) or not text.strip():
            return
        if text in self.reasons:  # a blocked stop's reason, handed back
            self.reasons.remove(text)
            return
        self.said(text)

    def assistant(self, number: int, data: dict[str, Any]) -> None:
        text = data.get("content")
        if isinstance(text, str) and text.strip():
            self.answer = text
        for call in data.get("toolRequests") or []:
            if not isinstance(call, dict):
                continue
            given = call.get("toolCallId") if isinstance(call.get("toolCallId"), str) else None
            call_id = self.pairing.call(given, number)
            name = str(call.get("name") or "?")
            if given:
                self.names[given] = name
            arguments = call.get("arguments")
            self.steps.append(
                Step(
                    kind="call",
                    call_id=call_id,
                    name=name,
                    arguments=arguments if isinstance(arguments, dict | str) else {},
                )
            )
            self.acted = True
            self.answer = ""

    def result(self, data: dict[str, Any]) -> None:
        given = data.get("toolCallId") if isinstance(data.get("toolCallId"), str) else None
        if given is None or given not in self.names:
            return  # a call this log never showed (a sub-agent's)
        call_id = self.pairing.result(given)[0]
        result = data.get("result") if isinstance(data.get("result"), dict) else {}
        error = data.get("error")
        raw = result.get("content") if result else None
        if raw is None and isinstance(error, dict):
            raw = error.get("message")
        found = data.get("shellExecution")
        shell: dict[str, Any] = found if isinstance(found, dict) else {}
        output, code = tool_text(self.names[given], raw, shell.get("exitCode"))
        self.steps.append(
            Step(
                kind="result",
                call_id=call_id,
                output=output,
                ok=False if data.get("success") is False else None,
                exit_code=code,
            )
        )

    def hook(self, data: dict[str, Any]) -> None:
        output = data.get("output")
        if data.get("hookType") in _STOPS and isinstance(output, dict):
            if output.get("decision") in {"block", "deny"} and isinstance(
                output.get("reason"), str
            ):
                self.reasons.append(output["reason"])


def parse_copilot_lines(lines: list[str], source: str = "<copilot events>") -> Transcript:
    """Parse an ``events.jsonl``'s lines; raises :class:`TranscriptError` when no
    user prompt is in them."""
    warnings: list[str] = []
    reader = _Reader(source)
    for number, raw in enumerate(lines, start=1):
        record = json_line(number, raw, warnings)
        if record is None:
            continue
        if not isinstance(record, dict) or not isinstance(record.get("data"), dict):
            warnings.append(f"line {number}: not a Copilot CLI event; skipped")
            continue
        kind, data = record.get("type"), record["data"]
        if kind == "user.message":
            reader.user(data)
        elif kind == "assistant.message":
            if data.get("parentToolCallId"):
                continue  # a sub-agent's turn
            reader.assistant(number, data)
        elif kind == "tool.execution_complete":
            reader.result(data)
        elif kind == "hook.end":
            reader.hook(data)
    if not reader.opened:
        raise TranscriptError(source, "no user prompt in the Copilot CLI events.jsonl")
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer=reader.answer,
        steps=reader.steps,
        warnings=warnings,
        form="copilot",
    )
