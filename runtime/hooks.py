"""Claude Code hooks: feed DoneCheck from the agent's own lifecycle events.

Configure two hooks in ``.claude/settings.json`` (``donecheck hook`` reads the
payload from stdin)::

    {"hooks": {
      "PostToolUse": [{"matcher": "*",
                       "hooks": [{"type": "command", "command": "donecheck hook"}]}],
      "Stop": [{"hooks": [{"type": "command", "command": "donecheck hook"}]}]}}

* ``UserPromptSubmit`` opens the session (or starts a new task in it).
* ``PostToolUse`` / ``PostToolUseFailure`` record the call and its result, and
  snapshot the file a file tool wrote.
* ``Stop`` replays the session's transcript (ids make this add nothing twice, so
  nothing is lost if a PostToolUse hook did not run), reviews
  ``last_assistant_message`` (or the transcript's final text), and answers
  ``{"decision": "block", "reason": <checklist>}`` when the agent must go on.

The mapping is pure (:func:`plan`); :func:`handle` applies it to a deployment.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from donecheck.actors.errors import InputError, TranscriptError, UnknownSessionError
from donecheck.actors.messages import Steer
from donecheck.runtime.endpoint import Agent, session_id_for
from donecheck.runtime.gates import watch_gates
from donecheck.runtime.replay import NewInput, ToolImages, replay_events
from donecheck.runtime.transcripts.claude import load_claude_jsonl, response_images, tool_output
from donecheck.runtime.transcripts.codex import codex_arguments, load_codex
from donecheck.runtime.transcripts.openai import named_tool_images

__all__ = ["Agent", "BlockCap", "HookReply", "handle", "session_id_for", "stop_event_id"]

FILE_TOOLS = {"Write", "Edit", "MultiEdit", "NotebookEdit"}
_UNKNOWN_REQUEST = "(the user's request was not recorded by the hooks)"


@dataclass(frozen=True, slots=True)
class HookReply:
    """What ``donecheck hook`` prints (JSON for Claude Code) and a note for stderr."""

    output: dict[str, Any] = field(default_factory=dict)
    note: str = ""


class BlockCap:
    """DoneCheck's own cap on consecutive blocked stops of one session (Codex has none,
    and Claude Code's ``stop_hook_active`` does not cap): past ``limit`` blocks with no
    new user prompt between, a stop is let through with a note. The loop's round limit
    ends a task first; this holds even if the loop's state were lost."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def reset(self, session_id: str) -> None:
        with self._lock:
            self._counts.pop(session_id, None)

    def allow(self, session_id: str) -> bool:
        """Count one more block; whether it may still block."""
        with self._lock:
            count = self._counts.get(session_id, 0) + 1
            self._counts[session_id] = count
            while len(self._counts) > 100_000:
                self._counts.pop(next(iter(self._counts)))
            return count <= self.limit


def stop_event_id(payload: dict[str, Any], answer: str, agent: Agent = "claude-code") -> str:
    """Names one Stop: the same hook delivered again (a retry) gets the same id; a
    later stop — the agent went on and stopped again, even with the same words —
    gets a new one, because the transcript has grown. Claude Code's
    ``stop_hook_active`` stops count like any other."""
    path = payload.get("transcript_path")
    try:
        size = os.path.getsize(path) if isinstance(path, str) and path else None
    except OSError:
        size = None
    if size is None:  # no transcript to tell a retry from a new stop: a new stop
        return "stop-" + os.urandom(8).hex()
    raw = json.dumps([session_id_for(payload, agent), size, answer]).encode()
    return "stop-" + hashlib.blake2b(raw, digest_size=12).hexdigest()


def _transcript(payload: dict[str, Any], agent: Agent = "claude-code") -> Any | None:
    """The session's transcript (``None`` when the payload names none); a named
    transcript that is not there is an input error, not a silent skip."""
    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        return None
    if not Path(path).is_file():
        raise InputError(f"the hook payload's transcript_path {path!r} does not exist")
    try:
        return load_codex(path) if agent == "codex" else load_claude_jsonl(path)
    except TranscriptError:
        return None


def _session(
    dc: Any, payload: dict[str, Any], agent: Agent = "claude-code", request: str | None = None
) -> Any:
    session_id = session_id_for(payload, agent)
    try:
        return dc.session(session_id)
    except UnknownSessionError:
        transcript = _transcript(payload, agent) if request is None else None
        text = request or (transcript.request if transcript is not None else _UNKNOWN_REQUEST)
        return dc.open_session(text, session_id=session_id)


def _tool_events(session: Any, payload: dict[str, Any], agent: Agent = "claude-code") -> list[Any]:
    name = str(payload.get("tool_name", "?"))
    arguments = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
    if agent == "codex":  # the shell tool's argv, as a command line
        shaped = codex_arguments(name, arguments)
        arguments = shaped if isinstance(shaped, dict) else arguments
    given = payload.get("tool_use_id")
    if isinstance(given, str) and given:
        call_id = given
    else:  # stable across hook processes (hash() is salted per process)
        raw = json.dumps([name, arguments], sort_keys=True, default=str).encode()
        call_id = f"{name}-{hashlib.blake2b(raw, digest_size=8).hexdigest()}"
    failed = payload.get("hook_event_name") == "PostToolUseFailure"
    response = payload.get("error") if failed else payload.get("tool_response")
    output, code = tool_output(response)
    images = named_tool_images(call_id, response_images(response))
    refs = session.attach_tool_images(call_id, images) if images else ()
    return [
        session.tool_call_event(name, arguments, call_id, event_id=f"call:{call_id}"),
        session.tool_result_event(
            call_id,
            output,
            False if failed else None,
            code,
            event_id=f"result:{call_id}",
            images=refs,
        ),
    ]


_CAPS: dict[int, BlockCap] = {}


def _cap(dc: Any) -> BlockCap:
    limit = dc.config.max_rounds + 1
    cap = _CAPS.get(limit)
    if cap is None:
        cap = _CAPS[limit] = BlockCap(limit)
    return cap


def _gates(session: Any, payload: dict[str, Any]) -> str:
    """Run the due gates of the payload's workspace (its ``cwd``, when this host has
    it) before the review; a few words on what they did, for the hook's note."""
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd or not os.path.isdir(cwd):
        return ""
    done = session.run_gates(cwd)
    if done is None:
        return ""
    if done.problem:
        return f" (gates not run: {done.problem})"
    said = [f"{r.name} {r.status} in {r.duration_s:.1f} s" for r in done.ran]
    said += [f"{r.name} {r.status} (unchanged since its last run)" for r in done.reused]
    return f" (gates: {'; '.join(said)})" if said else ""


def handle(dc: Any, payload: dict[str, Any], agent: Agent = "claude-code") -> HookReply:
    """Apply one hook payload of ``agent`` (Claude Code or Codex: the same events and
    answers) to the DoneCheck deployment ``dc``."""
    event = payload.get("hook_event_name")
    if event == "UserPromptSubmit":
        prompt = str(payload.get("prompt") or "")
        session_id = session_id_for(payload, agent)
        _cap(dc).reset(session_id)
        cwd = payload.get("cwd")
        if isinstance(cwd, str) and cwd and os.path.isdir(cwd):
            watch_gates(session_id, Path(cwd))  # the gates file as the user left it
        try:
            dc.session(session_id).new_user_input(prompt)
        except UnknownSessionError:
            dc.open_session(prompt, session_id=session_id)
        return HookReply(note="task started")
    if event in {"PostToolUse", "PostToolUseFailure"}:
        session = _session(dc, payload, agent)
        call, result = _tool_events(session, payload, agent)
        session.record([call, result])
        arguments = payload.get("tool_input")
        if payload.get("tool_name") in FILE_TOOLS and isinstance(arguments, dict):
            path = arguments.get("file_path") or arguments.get("notebook_path")
            if isinstance(path, str):
                session.file_snapshot(
                    os.path.join(str(payload.get("cwd") or "."), path),
                    event_id=f"snapshot:{call.call_id}",
                )
        return HookReply(note="recorded")
    if event == "Stop":
        session = _session(dc, payload, agent)
        transcript = _transcript(payload, agent)
        if transcript is not None:
            for item in replay_events(session, transcript):
                if isinstance(item, NewInput):
                    session.new_user_input(item.text, request_id=item.request_id)
                elif isinstance(item, ToolImages):
                    session.attach_tool_images(item.call_id, item.images)
                else:
                    session.record(item)
        answer = payload.get("last_assistant_message")
        if not isinstance(answer, str) or not answer.strip():
            answer = transcript.answer if transcript is not None else ""
        if not answer.strip():
            return HookReply(note="DoneCheck: no final text to review; the turn was not checked")
        gates = _gates(session, payload)
        action = session.turn_stopping(answer, event_id=stop_event_id(payload, answer, agent))
        card = action.report
        note = f"DoneCheck: {card.decision or 'unverified'}" + gates
        if isinstance(action, Steer):
            cap = _cap(dc)
            if cap.allow(session.session_id):
                return HookReply(output={"decision": "block", "reason": action.message}, note=note)
            return HookReply(
                note=f"{note} (not blocked: {cap.limit} stops in a row were blocked already)"
            )
        _cap(dc).reset(session.session_id)
        if card.end_reason and card.end_reason != "pass":
            note += f" (stopped: {card.end_reason})"
        return HookReply(note=note)
    return HookReply(note=f"ignored hook event {event!r}")
