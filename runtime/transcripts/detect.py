"""Read any transcript file, its import form told from its content, not its name.

Forms:

* ``openai`` — a JSON object ``{"messages": [...]}`` or a bare list of chat
  messages with ``tool_calls`` / ``tool`` messages (or legacy ``function_call``);
* ``anthropic`` — the same shape in Anthropic Messages form (``tool_use`` /
  ``tool_result`` content blocks);
* ``claude-code`` — JSON Lines with ``type`` (``user``, ``assistant``, …) and a
  ``message`` per line (a Claude Code session file);
* ``claude-stream`` — the same messages as ``claude -p --output-format stream-json``
  prints them (a ``system``/``init`` line, then messages, hook and task lines, a
  ``result``); no prompt in it;
* ``codex`` — a Codex rollout (``~/.codex/sessions/…/rollout-*.jsonl``);
* ``codex-exec`` — the events ``codex exec --json`` prints (``thread.started``,
  ``item.*``, ``turn.completed``); no prompt in it;
* ``gemini`` — a Gemini CLI chat log (``~/.gemini/tmp/<project>/chats/session-*.jsonl``:
  a header with ``sessionId`` and ``projectHash``, message records of type ``user`` /
  ``gemini``, ``$set`` updates);
* ``copilot`` — a GitHub Copilot CLI session log
  (``~/.copilot/session-state/<id>/events.jsonl``: ``session.start`` from
  ``copilot-agent``, ``user.message``, ``assistant.message``, ``tool.execution_*``);
* ``opencode`` — an OpenCode session: what ``opencode export <id>`` prints (``info``
  with a ``ses_`` id, ``messages`` of ``{info, parts}``) or the events of ``opencode run
  --format json``;
* ``mini-swe-agent`` — a mini-SWE-agent trajectory (``trajectory_format``
  ``mini-swe-agent-1``: chat messages whose replies each run one fenced ``bash``
  command, observations as ``<returncode>``/``<output>`` user messages);
* ``atif`` — a Harbor ATIF trajectory (``trajectory.json``: ``schema_version``
  ``ATIF-v…`` and ``steps``);
* ``openai-jsonl`` — JSON Lines, one chat message per line.

A file that is none of these raises :class:`TranscriptError` naming the file and
what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.atif import is_atif, parse_atif
from donecheck.runtime.transcripts.claude import parse_claude_lines, subagent_files
from donecheck.runtime.transcripts.codex import CODEX_TYPES, parse_codex_lines
from donecheck.runtime.transcripts.codex_exec import EXEC_TYPES, parse_codex_exec_lines
from donecheck.runtime.transcripts.copilot import is_copilot_log, parse_copilot_lines
from donecheck.runtime.transcripts.gemini import is_gemini_log, parse_gemini_lines
from donecheck.runtime.transcripts.miniswe import is_mini_swe_agent, parse_mini_swe_agent
from donecheck.runtime.transcripts.openai import Transcript, parse_openai, read_transcript_text
from donecheck.runtime.transcripts.opencode import (
    is_opencode_export,
    is_opencode_stream,
    parse_opencode_export,
    parse_opencode_stream,
)

__all__ = ["FORMS", "detect_form", "load_transcript"]

FORMS = (
    "openai",
    "anthropic",
    "claude-code",
    "claude-stream",
    "codex",
    "codex-exec",
    "gemini",
    "copilot",
    "opencode",
    "mini-swe-agent",
    "atif",
    "openai-jsonl",
)
_CLAUDE_TYPES = frozenset({"user", "assistant", "summary", "system", "progress"})


def _claude_record(record: dict[str, Any]) -> bool:
    """A line of a Claude Code session file: a known record type, or any record
    stamped with the session (2.1.x writes many kinds besides messages: attachments,
    queue operations, cost state … each with ``sessionId``)."""
    return record.get("type") in _CLAUDE_TYPES or (
        "sessionId" in record and isinstance(record.get("type"), str)
    )


def _messages(data: Any) -> list[Any] | None:
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        return list(data["messages"])
    return data if isinstance(data, list) else None


def _anthropic(messages: list[Any]) -> bool:
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") in {"tool_use", "tool_result"} for b in content
        ):
            return True
    return False


def _json_lines(text: str) -> list[Any] | None:
    """The decoded lines of a JSON Lines text, or ``None`` when most are not JSON."""
    decoded: list[Any] = []
    broken = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            decoded.append(json.loads(line))
        except json.JSONDecodeError:
            broken += 1
    return decoded if decoded and broken <= len(decoded) else None


def detect_form(text: str) -> tuple[str, Any]:
    """The import form of a transcript's text and its decoded content, or
    ``("", None)`` when it is none of :data:`FORMS`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    else:
        if is_atif(data):
            return "atif", data
        if is_opencode_export(data):  # before the chat forms': it has ``messages`` too
            return "opencode", data
        if is_mini_swe_agent(data):  # likewise
            return "mini-swe-agent", data
        if _records(data):
            # the same records in one JSON array: ``claude -p --output-format json --verbose``
            lines = [json.dumps(record) for record in data]
            form, content = _form_of_records(data, lines)
            if form:
                return form, content
        messages = _messages(data)
        if messages is not None:
            return ("anthropic" if _anthropic(messages) else "openai"), data
        if isinstance(data, dict) and data.get("type") in {*_CLAUDE_TYPES, "result"}:
            return "claude-code", [text]  # a one-line Claude Code file (or stream's result)
        return "", None
    decoded = _json_lines(text)
    if decoded is None:
        return "", None
    return _form_of_records([o for o in decoded if isinstance(o, dict)], text.splitlines())


def _records(data: Any) -> bool:
    """A JSON array of typed records rather than of chat messages."""
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(o, dict) for o in data)
        and not any("role" in o for o in data)
    )


def _form_of_records(objects: list[dict[str, Any]], lines: list[str]) -> tuple[str, Any]:
    """The form of a log given as records (JSON Lines, or one JSON array of them)."""
    if is_gemini_log(objects):  # before Claude Code's: both have ``user`` records
        return "gemini", lines
    if is_copilot_log(objects):  # before Claude Code's: both have ``user`` messages
        return "copilot", lines
    if is_opencode_stream(objects):
        return "opencode", lines
    if objects and sum(o.get("type") in CODEX_TYPES for o in objects) * 2 >= len(objects):
        return "codex", lines
    if objects and sum(o.get("type") in EXEC_TYPES for o in objects) * 2 >= len(objects):
        return "codex-exec", lines
    if objects and any(o.get("type") == "system" and o.get("subtype") == "init" for o in objects):
        if sum(_claude_record(o) or o.get("type") == "result" for o in objects) * 2 >= len(objects):
            return "claude-stream", lines
    if objects and sum(_claude_record(o) for o in objects) * 2 >= len(objects):
        return "claude-code", lines
    if objects and all("role" in o for o in objects):
        return "openai-jsonl", objects
    return "", None


def load_transcript(path: str | Path) -> Transcript:
    """Read one transcript file in any of :data:`FORMS`; ``transcript.form`` says which."""
    source = str(path)
    text = read_transcript_text(path)
    form, content = detect_form(text)
    if form == "claude-code":  # with its sub-agents' files, kept beside it
        subagents = [read_transcript_text(f).splitlines() for f in subagent_files(Path(path))]
        transcript = parse_claude_lines(content, source, subagents)
    elif form == "claude-stream":
        transcript = parse_claude_lines(content, source)
    elif form == "codex":
        transcript = parse_codex_lines(content, source)
    elif form == "codex-exec":
        transcript = parse_codex_exec_lines(content, source)
    elif form == "gemini":
        transcript = parse_gemini_lines(content, source)
    elif form == "copilot":
        transcript = parse_copilot_lines(content, source)
    elif form == "opencode":
        transcript = (
            parse_opencode_stream(content, source)
            if isinstance(content, list)
            else parse_opencode_export(content, source)
        )
    elif form == "mini-swe-agent":
        transcript = parse_mini_swe_agent(content, source)
    elif form == "atif":
        transcript = parse_atif(content, source, Path(path).parent)
    elif form in {"openai", "anthropic", "openai-jsonl"}:
        transcript = parse_openai(content, source)
    else:
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            if _json_lines(text) is None:
                raise TranscriptError(
                    source, f"invalid JSON: {exc.msg} (column {exc.colno})", exc.lineno
                ) from None
        raise TranscriptError(
            source,
            'not a transcript: expected {"messages": [...]}, a list of chat messages, an ATIF'
            " trajectory, or JSON Lines (a Claude Code session or stream-json, a Codex rollout"
            " or exec --json events, a Gemini CLI chat log, a Copilot CLI events.jsonl, an"
            " OpenCode export or run --format json, a mini-SWE-agent trajectory, or one chat"
            " message per line)",
        )
    if form not in {"claude-code", "claude-stream"}:  # the Claude reader tells them apart
        transcript.form = form
    return transcript
