"""Codex CLI session rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

One JSON object per line, ``{"timestamp", "type", "payload"}``:

* ``session_meta`` / ``turn_context`` — the session's and each turn's settings (skipped,
  but a ``session_meta`` whose ``source`` is a sub-agent marks the rollout as a
  sub-agent's conversation, and the card says so);
* ``response_item`` — what the model saw and said: ``message`` (role ``user``,
  ``assistant`` or ``developer``; content parts ``input_text`` / ``output_text``),
  ``function_call`` / ``function_call_output`` (the ``shell`` tool: ``command`` an
  argv such as ``["bash", "-lc", "pytest -q"]``, output a JSON string whose
  ``metadata.exit_code`` is the status; the ``exec_command`` tool: ``cmd`` a string,
  output text saying "Process exited with code N"), ``custom_tool_call`` /
  ``custom_tool_call_output`` (``apply_patch``: a patch naming the files it writes),
  ``reasoning`` (skipped);
* ``event_msg`` — the UI's view of the same turn (``user_message``,
  ``agent_message``, token counts): read only when a rollout has no
  ``response_item`` messages, so nothing is counted twice.

User messages Codex adds itself (``<environment_context>``, ``<user_instructions>``,
AGENTS.md contents) and a Stop hook's continuation (``<hook_prompt …>``, DoneCheck's
checklist among them) are not the user's request (:mod:`.roles`).
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
from donecheck.runtime.transcripts.pairing import Pairing
from donecheck.runtime.transcripts.roles import not_the_users

__all__ = ["CODEX_TYPES", "codex_arguments", "exit_status", "load_codex", "parse_codex_lines"]

CODEX_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
EXITED = re.compile(r"Process exited with code (-?\d+)|^Exit code: (-?\d+)$", re.M)
"""A Codex tool output's exit status: ``exec_command``'s "Process exited with code N",
the freeform tools' (``apply_patch``, ``shell``) "Exit code: N" first line."""


def exit_status(text: str) -> int | None:
    """The exit status in the header Codex puts before a tool's ``Output:`` — never
    a line of the output itself (a command may print "Exit code: 0" as it fails)."""
    header = text.split("\nOutput:", 1)[0]
    found = EXITED.search(header)
    return int(found.group(1) or found.group(2)) if found else None


def load_codex(path: str | Path) -> Transcript:
    return parse_codex_lines(read_transcript_text(path).splitlines(), str(path))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and part.get("type") in {"input_text", "output_text", "text"}:
            parts.append(str(part.get("text", "")))
    return "\n".join(parts)


def codex_arguments(name: str, raw: Any) -> dict[str, Any] | str:
    """A call's arguments, the shell tool's argv made a command line."""
    try:
        args = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return str(raw)
    if not isinstance(args, dict):
        return str(raw)
    argv = args.get("command")
    if isinstance(argv, list) and all(isinstance(a, str) for a in argv):
        if (
            len(argv) >= 3
            and argv[0].rsplit("/", 1)[-1] in {"bash", "sh", "zsh"}
            and argv[1]
            in {
                "-lc",
                "-c",
            }
        ):
            command = argv[2]
        else:
            command = " ".join(argv)
        return {**args, "command": command}
    return args


def _output(raw: Any) -> tuple[str, int | None]:
    """A call's output text and exit status, from either tool's shape."""
    if not isinstance(raw, str):
        raw = json.dumps(raw, ensure_ascii=False) if raw is not None else ""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and "output" in data:
        metadata = data.get("metadata")
        code = metadata.get("exit_code") if isinstance(metadata, dict) else None
        return str(data.get("output") or ""), code if isinstance(code, int) else None
    return raw, exit_status(raw)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.request: list[str] = []
        self.steps: list[Step] = []
        self.warnings: list[str] = []
        self.answer = ""
        self.opened = False
        self.acted = False
        self.subagent = False
        self.pending_user: list[str] = []
        self.pairing = Pairing()
        self.events: list[tuple[str, str]] = []
        self.items = 0
        self.messages = 0

    def user(self, text: str) -> None:
        if not text.strip() or not_the_users(text):  # Codex's context, a hook's continuation
            return
        if not self.opened or (not self.acted and not self.answer and not self.pending_user):
            self.request.append(text)
            self.opened = True
            return
        self.steps.append(Step(kind="user", text=text))
        self.answer = ""
        self.acted = False

    def item(self, number: int, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        self.items += 1
        if kind == "message":
            role = payload.get("role")
            text = _text(payload.get("content"))
            self.messages += 1
            if role == "user":
                self.user(text)
            elif role == "assistant" and text.strip():
                self.answer = text
        elif kind in {"function_call", "custom_tool_call", "local_shell_call"}:
            given = payload.get("call_id") or payload.get("id")
            call_id = self.pairing.call(given if isinstance(given, str) else None, number)
            name = str(payload.get("name") or ("shell" if kind == "local_shell_call" else "?"))
            if kind == "custom_tool_call":
                arguments: dict[str, Any] | str = {"input": str(payload.get("input", ""))}
            elif kind == "local_shell_call":
                arguments = codex_arguments(name, payload.get("action") or {})
            else:
                arguments = codex_arguments(name, payload.get("arguments", "{}"))
            self.steps.append(Step(kind="call", call_id=call_id, name=name, arguments=arguments))
            self.acted = True
            self.answer = ""
        elif kind in {"function_call_output", "custom_tool_call_output"}:
            given = payload.get("call_id")
            call_id, how = self.pairing.result(given if isinstance(given, str) else None)
            if how == "unknown":
                self.warnings.append(f"line {number}: a result for no pending tool call")
            output, code = _output(payload.get("output"))
            self.steps.append(Step(kind="result", call_id=call_id, output=output, exit_code=code))

    def line(self, number: int, raw: str) -> None:
        record = json_line(number, raw, self.warnings)
        if record is None:
            return
        if not isinstance(record, dict):
            self.warnings.append(f"line {number}: not a JSON object; skipped")
            return
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return
        if record.get("type") == "session_meta":
            source = payload.get("source")
            if isinstance(source, dict) and ("subagent" in source or "sub_agent" in source):
                self.subagent = True  # a thread another Codex agent spawned
        elif record.get("type") == "response_item":
            self.item(number, payload)
        elif record.get("type") == "event_msg" and payload.get("type") in {
            "user_message",
            "agent_message",
        }:
            self.events.append((str(payload["type"]), str(payload.get("message") or "")))


def parse_codex_lines(lines: list[str], source: str = "<rollout>") -> Transcript:
    """Parse a rollout's lines; raises :class:`TranscriptError` when nothing usable is left."""
    reader = _Reader(source)
    for number, raw in enumerate(lines, start=1):
        reader.line(number, raw)
    if reader.messages == 0:  # an older rollout: only the UI's events carry the text
        for kind, text in reader.events:
            if kind == "user_message":
                reader.user(text)
            elif text.strip():
                reader.answer = text
    if not reader.opened:
        raise TranscriptError(source, "no user prompt in the Codex rollout")
    notes = (
        [
            "A sub-agent's conversation (session_meta: spawned by another agent), read on"
            " its own: its request is the prompt the parent agent gave it, not the user's."
        ]
        if reader.subagent
        else []
    )
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer=reader.answer,
        steps=reader.steps,
        warnings=reader.warnings,
        form="codex",
        notes=notes,
    )
