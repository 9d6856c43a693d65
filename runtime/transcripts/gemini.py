"""Gemini CLI chat logs (``$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-*.jsonl``).

One JSON object per line, read the way Gemini CLI itself reads the file back
(``loadConversationRecord`` of its chat recording service, 0.61.0):

* a header ``{"sessionId", "projectHash", "startTime", "kind", …}`` (it may carry
  ``messages``); ``kind`` other than ``main`` is a sub-agent's conversation;
* ``{"$set": {…}}`` — a metadata update; one whose ``messages`` is a list replaces
  every message read so far (the session's opening context is written so);
* ``{"$rewindTo": id}`` — the messages from ``id`` on are taken back;
* a message record ``{"id", "type", "content", …}``: ``type`` ``user`` (``content``
  a list of parts: ``text``, or the ``functionResponse`` of each tool call), ``gemini``
  (``content`` its text; ``toolCalls`` ``[{id, name, args, result, status}]``, each
  ``result`` the call's ``functionResponse`` parts), or the CLI's ``info`` / ``error``
  / ``warning`` notes (skipped). The same ``id`` written again is an **upsert**: the
  record is replaced where it first stood (a model turn is written once as it
  starts and again with its tool calls and their results).

A tool's output is ``functionResponse.response.output`` (or ``error``); the shell
tool's (``run_shell_command``) is ``Output: …`` followed by the lines Gemini CLI adds
— ``Error:``, ``Exit Code: N`` (only when not 0), ``Signal:``, ``Background PIDs:``,
``Process Group PGID:`` — inside ``<untrusted_context>``: :func:`tool_text` reads
the command's own output and its exit status from them. User turns the CLI writes
itself (``<session_context>``, its loop detector's ``System: Potential loop
detected``) and a blocked stop's reason handed back as the next user turn (DoneCheck's
checklist) are not the user's request (:mod:`.roles`).
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

__all__ = ["SHELL", "is_gemini_log", "load_gemini", "parse_gemini_lines", "tool_text"]

SHELL = "run_shell_command"
_WRAPPER = re.compile(r"\A\s*<untrusted_context>\n?(?P<body>.*?)\n?</untrusted_context>\s*\Z", re.S)
_TRAILER = re.compile(
    r"^(?P<key>Error|Exit Code|Signal|Background PIDs|Process Group PGID): (?P<value>.*)$"
)
"""The lines Gemini CLI's shell tool puts after a command's output, in this order."""
_CANCELLED = ("Command was cancelled", "Command was automatically cancelled")
_MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})


def _unwrapped(text: str) -> str:
    found = _WRAPPER.match(text)
    return found.group("body") if found else text


def tool_text(name: str, raw: Any) -> tuple[str, int | None]:
    """A Gemini CLI tool result's text and, for the shell tool, the command's exit
    status (``None`` when it does not say: cancelled, moved to the background).
    ``raw`` is the ``llmContent`` of an ``AfterTool`` payload or the ``output`` of a
    ``functionResponse``: a string or a list of parts."""
    text = _unwrapped(_parts_text(raw))
    if name != SHELL or not text.startswith("Output: "):
        return text, None
    lines = text[len("Output: ") :].split("\n")
    trailer: dict[str, str] = {}
    while lines:
        found = _TRAILER.match(lines[-1])
        if found is None or found.group("key") in trailer:
            break
        trailer[found.group("key")] = found.group("value")
        lines.pop()
    output = "\n".join(lines)
    if output == "(empty)":
        output = ""
    if "Error" in trailer:
        output = f"{output}\nError: {trailer['Error']}" if output else f"Error: {trailer['Error']}"
    code_text = trailer.get("Exit Code", "")
    if re.fullmatch(r"-?[0-9]+", code_text):
        return output, int(code_text)
    if "Signal" in trailer or "Exit Code" in trailer:
        return output, None  # ended by a signal: no status
    return output, 0  # the shell tool leaves the line out when the status is 0


def _parts_text(raw: Any) -> str:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        return "" if raw is None else json.dumps(raw, ensure_ascii=False)
    texts = []
    for part in raw:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            texts.append(_response_text(part["functionResponse"]))
    return "\n".join(texts)


def _response_text(response: dict[str, Any]) -> str:
    body = response.get("response")
    if isinstance(body, dict):
        for key in ("output", "error", "content"):
            if key in body:
                found = body[key]
                return found if isinstance(found, str) else _parts_text(found)
        return json.dumps(body, ensure_ascii=False)
    return _parts_text(body)


def is_gemini_log(objects: list[dict[str, Any]]) -> bool:
    """Whether decoded JSON Lines are a Gemini CLI chat log: its header or model
    turns, and most lines its records."""
    if not objects:
        return False
    header = "sessionId" in objects[0] and "projectHash" in objects[0]
    model = any(o.get("type") == "gemini" and "id" in o for o in objects)
    ours = sum(
        "$set" in o
        or "$rewindTo" in o
        or ("sessionId" in o and "projectHash" in o)
        or ("id" in o and o.get("type") in _MESSAGE_TYPES)
        for o in objects
    )
    return (header or model) and ours * 2 >= len(objects)


def load_gemini(path: str | Path) -> Transcript:
    return parse_gemini_lines(read_transcript_text(path).splitlines(), str(path))


def _messages(lines: list[str], source: str, warnings: list[str]) -> tuple[list[Any], str]:
    """The log's messages after every upsert, ``$set`` and rewind, in order, and the
    session's ``kind``."""
    messages: dict[str, Any] = {}
    kind = ""
    for number, raw in enumerate(lines, start=1):
        record = json_line(number, raw, warnings)
        if record is None:
            continue
        if not isinstance(record, dict):
            warnings.append(f"line {number}: not a JSON object; skipped")
            continue
        if isinstance(record.get("$rewindTo"), str):
            ids = list(messages)
            cut = ids.index(record["$rewindTo"]) if record["$rewindTo"] in ids else 0
            for gone in ids[cut:]:
                del messages[gone]
        elif isinstance(record.get("$set"), dict):
            given = record["$set"].get("messages")
            if isinstance(given, list):
                messages = {m["id"]: m for m in given if isinstance(m, dict) and _has_id(m)}
            kind = str(record["$set"].get("kind", kind))
        elif _has_id(record):
            messages[record["id"]] = record  # an upsert keeps the first place
        elif "sessionId" in record and "projectHash" in record:
            kind = str(record.get("kind", ""))
            for m in record.get("messages") or []:
                if isinstance(m, dict) and _has_id(m):
                    messages[m["id"]] = m
    return list(messages.values()), kind


def _has_id(record: dict[str, Any]) -> bool:
    return isinstance(record.get("id"), str)


class _Reader(TurnReader):
    def user(self, text: str) -> None:
        self.said(text)

    def message(self, number: int, message: dict[str, Any], results: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "user":
            content = message.get("content")
            parts = content if isinstance(content, list) else [content]
            texts = [
                p if isinstance(p, str) else p["text"]
                for p in parts
                if isinstance(p, str) or (isinstance(p, dict) and isinstance(p.get("text"), str))
            ]
            if texts:  # the tool results in a user turn are read with their calls
                self.user("".join(texts))
        elif kind == "gemini":
            text = _parts_text(message.get("content"))
            calls = [c for c in message.get("toolCalls") or [] if isinstance(c, dict)]
            if text.strip():
                self.answer = text
            for call in calls:
                self.call(number, call, results)

    def call(self, number: int, call: dict[str, Any], results: dict[str, Any]) -> None:
        given = call.get("id") if isinstance(call.get("id"), str) else None
        call_id = self.pairing.call(given, number)
        name = str(call.get("name") or "?")
        args = call.get("args")
        self.steps.append(
            Step(
                kind="call",
                call_id=call_id,
                name=name,
                arguments=args if isinstance(args, dict) else {},
            )
        )
        self.acted = True
        self.answer = ""
        result = call.get("result") or (results.get(given) if given else None)
        if result is None:
            return  # never answered (the turn was cut off)
        self.pairing.result(given)
        output, code = tool_text(name, result)
        status = call.get("status")
        self.steps.append(
            Step(
                kind="result",
                call_id=call_id,
                output=output,
                ok=False if status in {"error", "cancelled"} else None,
                exit_code=code,
            )
        )


def _results(messages: list[Any]) -> dict[str, Any]:
    """The ``functionResponse`` parts of user turns, by call id (for a model turn
    whose tool calls were written without their results)."""
    found: dict[str, Any] = {}
    for message in messages:
        content = message.get("content") if message.get("type") == "user" else None
        for part in content if isinstance(content, list) else []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict) and isinstance(response.get("id"), str):
                found[response["id"]] = [part]
    return found


def parse_gemini_lines(lines: list[str], source: str = "<gemini chat>") -> Transcript:
    """Parse a chat log's lines; raises :class:`TranscriptError` when nothing usable
    is left."""
    warnings: list[str] = []
    messages, kind = _messages(lines, source, warnings)
    reader = _Reader(source)
    results = _results(messages)
    for number, message in enumerate(messages, start=1):
        reader.message(number, message, results)
    if not reader.opened:
        raise TranscriptError(source, "no user prompt in the Gemini CLI chat log")
    notes = (
        [
            f"A sub-agent's conversation (kind {kind!r}), read on its own: its request is"
            " the prompt the parent agent gave it, not the user's."
        ]
        if kind and kind != "main"
        else []
    )
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer=reader.answer,
        steps=reader.steps,
        warnings=warnings,
        form="gemini",
        notes=notes,
    )
