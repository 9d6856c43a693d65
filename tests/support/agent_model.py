"""A scripted model that plays an agent for the real Claude Code and Codex CLIs.

One HTTP server on 127.0.0.1 speaks what each CLI calls:

* the Anthropic Messages API (Claude Code): ``POST /v1/messages`` streamed as SSE
  (``message_start``, ``content_block_*`` for ``text`` and ``tool_use`` blocks,
  ``message_delta`` with the stop reason, ``message_stop``) or answered whole, and
  ``POST /v1/messages/count_tokens``;
* the OpenAI Responses API (Codex): ``POST /v1/responses`` streamed as SSE
  (``response.created``, ``response.output_item.added`` / ``.done`` for ``message``,
  ``function_call`` and ``custom_tool_call`` items such as ``apply_patch``,
  ``response.completed`` with usage);
* the Gemini API (Gemini CLI): ``POST /v1beta/models/{model}:streamGenerateContent``
  (``?alt=sse``: one ``data:`` event holding the whole candidate, ``functionCall``
  parts for tools) and ``:generateContent`` answered whole (its side calls);
* the OpenAI Chat Completions API (GitHub Copilot CLI's BYOK provider):
  ``POST /v1/chat/completions`` streamed as ``chat.completion.chunk`` events (a
  ``delta`` with ``content`` or ``tool_calls``, then ``finish_reason`` and usage,
  then ``data: [DONE]``) or answered whole;
* anything else: a JSON 404 at once, never a hang.

Each request is read back into a :class:`Conversation` — the user's prompts, the
continuations a Stop hook sent back (Claude Code's ``Stop hook feedback:``, Codex's
``<hook_prompt>``, Gemini CLI's bare reason: DoneCheck's ``[DoneCheck — review round``;
Copilot CLI's reason after its ``<current_datetime>`` line),
every tool call with its result, the agent's earlier answers —
and a *policy* (a plain function of that conversation) decides the next
:class:`Action`, as an agent would: run a command, edit or read a file, hand work to
a sub-agent, or answer. The server turns the action into each API's own shape, with
the tools the CLI offered in that request (``Bash``/``Edit``/``Read``/``Agent`` for
Claude Code; ``exec_command`` and the freeform ``apply_patch`` for Codex;
``run_shell_command``/``replace``/``read_file`` for Gemini CLI; ``bash``/``edit``/
``view`` for Copilot CLI).

Requests without tools (a CLI's side calls: titles, summaries) get a short text.
Every request and the action chosen are kept in :attr:`AgentModel.log`.
"""

from __future__ import annotations

import http.server
import itertools
import json
import re
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "Action",
    "AgentModel",
    "Answer",
    "Conversation",
    "Delegate",
    "EditFile",
    "ReadFile",
    "Shell",
    "ToolStep",
    "UseSkill",
]


# ------------------------------------------------------------------ actions


@dataclass(frozen=True)
class Shell:
    command: str
    background: bool = False
    """Run it in the background (Claude Code's ``run_in_background``): the agent is
    told when it ends, in a ``<task-notification>``."""


@dataclass(frozen=True)
class EditFile:
    path: str  # relative to the workspace
    old: str
    new: str


@dataclass(frozen=True)
class ReadFile:
    path: str  # relative to the workspace


@dataclass(frozen=True)
class Delegate:
    """Hand a job to a sub-agent (Claude Code's ``Agent`` tool): in the background
    (its default since 2.1: the agent is notified when it finishes) or waited for."""

    prompt: str
    description: str = "Run the test suite"
    background: bool = True


@dataclass(frozen=True)
class UseSkill:
    """Invoke a skill (Claude Code's ``Skill`` tool): the CLI then injects the
    skill's SKILL.md into the conversation as a synthetic user message."""

    name: str


@dataclass(frozen=True)
class Answer:
    text: str


Action = Shell | EditFile | ReadFile | Delegate | UseSkill | Answer


# ------------------------------------------------------------- conversation


@dataclass(frozen=True)
class ToolStep:
    name: str
    input: Any
    output: str
    error: bool = False

    @property
    def command(self) -> str:
        """The shell command line of a shell call ('' for other tools)."""
        if isinstance(self.input, dict):
            found = self.input.get("command") or self.input.get("cmd")
            if isinstance(found, list):
                return " ".join(str(part) for part in found)
            return str(found or "")
        return ""


@dataclass
class Conversation:
    """What the agent has seen so far, in order."""

    api: Literal["anthropic", "openai", "gemini", "chat"]
    tools: frozenset[str]
    events: list[tuple[str, Any]] = field(default_factory=list)
    """``("prompt", text)``, ``("feedback", text)`` (a Stop hook's continuation),
    ``("notification", text)`` (a background sub-agent finished), ``("tool", ToolStep)``,
    ``("answer", text)``."""
    sidechain: bool = False
    """A sub-agent's conversation: its first prompt is one this model delegated."""

    @property
    def prompts(self) -> list[str]:
        return [v for k, v in self.events if k == "prompt"]

    @property
    def feedback(self) -> list[str]:
        return [v for k, v in self.events if k == "feedback"]

    @property
    def steps(self) -> list[ToolStep]:
        return [v for k, v in self.events if k == "tool"]

    @property
    def notifications(self) -> list[str]:
        return [v for k, v in self.events if k == "notification"]

    @property
    def answers(self) -> list[str]:
        return [v for k, v in self.events if k == "answer"]

    def since_input(self) -> list[tuple[str, Any]]:
        """The events after the latest prompt or feedback."""
        for n in range(len(self.events) - 1, -1, -1):
            if self.events[n][0] in {"prompt", "feedback"}:
                return self.events[n + 1 :]
        return list(self.events)

    def latest_input(self) -> tuple[str, str]:
        for kind, value in reversed(self.events):
            if kind in {"prompt", "feedback"}:
                return kind, value
        return "prompt", ""

    def runs(self, pattern: str) -> list[ToolStep]:
        """Shell calls whose command matches ``pattern`` (a regular expression)."""
        return [s for s in self.steps if s.command and re.search(pattern, s.command)]


# Text a client injects into the user's turn that is not the user's words.
_INJECTED = re.compile(
    r"^\s*(?:<system-reminder>|<environment_context>|<user_instructions>|# AGENTS\.md"
    r"|<command-name>|<local-command-|<turn_aborted>|Caveat: |<permissions instructions>"
    r"|<skill|<apps_instructions>|<collaboration_mode>"
    r"|<session_context>|System: Potential loop detected)",
)
_FEEDBACK = re.compile(
    r"^\s*<hook_prompt\b|Stop hook feedback:|Stop hook additional context:"
    r"|\A\s*\[DoneCheck — review round",
    re.M,
)
_DATETIME = re.compile(r"\A\s*<current_datetime>[^<]*</current_datetime>\s*")
"""The line Copilot CLI puts before every user message (a prompt, a Stop hook's
reason): taken off before the text is read."""
"""A Stop hook's continuation: Codex's ``<hook_prompt>`` user message; Claude Code's
``Stop hook feedback:`` (a block's reason) or ``Stop hook additional context:``, both
inside a ``<system-reminder>``; Gemini CLI's user turn that is the reason itself
(DoneCheck's checklist, which opens ``[DoneCheck — review round``)."""


def _user_text(conversation: Conversation, text: str) -> None:
    if not text.strip():
        return
    if _FEEDBACK.search(text):
        conversation.events.append(("feedback", text))
    elif "<task-notification>" in text:
        conversation.events.append(("notification", text))
    elif not _INJECTED.match(text):
        conversation.events.append(("prompt", text))


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def read_anthropic(body: dict[str, Any]) -> Conversation:
    tools = frozenset(str(t.get("name")) for t in body.get("tools") or [])
    conversation = Conversation("anthropic", tools)
    calls: dict[str, tuple[str, Any]] = {}
    for message in body.get("messages") or []:
        role, content = message.get("role"), message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks or []:
            kind = block.get("type")
            if role == "user" and kind == "text":
                _user_text(conversation, str(block.get("text", "")))
            elif role == "user" and kind == "tool_result":
                name, given = calls.get(str(block.get("tool_use_id")), ("?", {}))
                conversation.events.append(
                    (
                        "tool",
                        ToolStep(
                            name,
                            given,
                            _block_text(block.get("content")),
                            bool(block.get("is_error")),
                        ),
                    )
                )
            elif role == "assistant" and kind == "tool_use":
                calls[str(block.get("id"))] = (str(block.get("name")), block.get("input"))
            elif role == "assistant" and kind == "text" and str(block.get("text", "")).strip():
                conversation.events.append(("answer", str(block["text"])))
    return conversation


def read_responses(body: dict[str, Any]) -> Conversation:
    tools = frozenset(str(t.get("name") or t.get("type")) for t in body.get("tools") or [])
    conversation = Conversation("openai", tools)
    calls: dict[str, tuple[str, Any]] = {}
    for item in body.get("input") or []:
        kind = item.get("type")
        if kind == "message" and item.get("role") == "user":
            for part in item.get("content") or []:
                _user_text(conversation, str(part.get("text", "")))
        elif kind == "message" and item.get("role") == "assistant":
            text = _block_text(item.get("content"))
            if text.strip():
                conversation.events.append(("answer", text))
        elif kind == "function_call":
            try:
                given = json.loads(item.get("arguments") or "{}")
            except ValueError:
                given = item.get("arguments")
            calls[str(item.get("call_id"))] = (str(item.get("name")), given)
        elif kind == "custom_tool_call":
            calls[str(item.get("call_id"))] = (str(item.get("name")), item.get("input"))
        elif kind in {"function_call_output", "custom_tool_call_output"}:
            name, given = calls.get(str(item.get("call_id")), ("?", {}))
            output = item.get("output")
            if isinstance(output, dict):
                output = output.get("content") or output.get("output") or json.dumps(output)
            text = _block_text(output)
            conversation.events.append(("tool", ToolStep(name, given, text, _exit_failed(text))))
    return conversation


def read_gemini(body: dict[str, Any]) -> Conversation:
    """A Gemini ``generateContent`` request: ``contents`` of ``user`` and ``model``
    turns, whose parts are ``text``, ``functionCall`` and ``functionResponse``."""
    tools = frozenset(
        str(d.get("name"))
        for t in body.get("tools") or []
        for d in t.get("functionDeclarations") or []
    )
    conversation = Conversation("gemini", tools)
    calls: list[tuple[str, Any]] = []
    for content in body.get("contents") or []:
        role = content.get("role")
        for part in content.get("parts") or []:
            if "functionCall" in part:
                call = part["functionCall"]
                calls.append((str(call.get("name")), call.get("args") or {}))
            elif "functionResponse" in part:
                response = part["functionResponse"]
                name = str(response.get("name"))
                found = next((n for n, (k, _) in enumerate(calls) if k == name), None)
                given = calls.pop(found)[1] if found is not None else {}
                out = response.get("response") or {}
                if isinstance(out, dict):
                    out = out.get("output", out.get("error", ""))
                text = str(out)
                conversation.events.append(
                    ("tool", ToolStep(name, given, text, _exit_failed(text)))
                )
            elif "text" in part and not part.get("thought"):
                if role == "user":
                    _user_text(conversation, str(part["text"]))
                elif str(part["text"]).strip():
                    conversation.events.append(("answer", str(part["text"])))
    return conversation


def read_chat(body: dict[str, Any]) -> Conversation:
    """An OpenAI Chat Completions request (Copilot CLI, OpenCode): ``messages`` of ``system``,
    ``user``, ``assistant`` (``content``, ``tool_calls``) and ``tool`` roles."""
    tools = frozenset(
        str((t.get("function") or {}).get("name") or t.get("name")) for t in body.get("tools") or []
    )
    conversation = Conversation("chat", tools)
    calls: dict[str, tuple[str, Any]] = {}
    for message in body.get("messages") or []:
        role, content = message.get("role"), message.get("content")
        if role == "user":
            _user_text(conversation, _DATETIME.sub("", _block_text(content), count=1))
        elif role == "assistant":
            text = _block_text(content)
            if text.strip():
                conversation.events.append(("answer", text))
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                try:
                    given = json.loads(function.get("arguments") or "{}")
                except ValueError:
                    given = function.get("arguments")
                calls[str(call.get("id"))] = (str(function.get("name")), given)
        elif role == "tool":
            name, given = calls.get(str(message.get("tool_call_id")), ("?", {}))
            text = _block_text(content)
            conversation.events.append(("tool", ToolStep(name, given, text, _exit_failed(text))))
    return conversation


def _exit_failed(output: str) -> bool:
    found = re.search(
        r"(?:Process exited with code|Exit [cC]ode:?|completed with exit code)\s*(\d+)", output
    )
    return bool(found and found.group(1) != "0")


# ------------------------------------------------------------------- server


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A CLI that hangs up (it exits, or gives up on a stream) is not an error."""


Policy = Callable[[Conversation], Action]


class AgentModel:
    """The scripted model server. ``policy`` decides each step of the agent;
    ``workspace`` is the folder the agent works in (edits name files in it)."""

    def __init__(self, policy: Policy, workspace: Path, *, model: str = "scripted") -> None:
        self.policy = policy
        self.workspace = workspace
        self.model = model
        self.log: list[dict[str, Any]] = []
        self.delegated: list[str] = []
        self.continuations: list[str] = []
        """Every Stop-hook continuation the agent received, in order, each once."""
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> AgentModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    # ------------------------------------------------------------ decisions

    def decide(self, conversation: Conversation) -> Action:
        if conversation.prompts and conversation.prompts[0] in self.delegated:
            conversation.sidechain = True
        with self._lock:
            for text in conversation.feedback:
                if text not in self.continuations:
                    self.continuations.append(text)
        action = self.policy(conversation)
        if isinstance(action, Delegate):
            self.delegated.append(action.prompt)
        return action

    def transcript(self) -> str:
        """The log, one line per request: for a failing test's message."""
        return "\n".join(
            f"{n}. {entry['path']} {entry.get('input', '')!r:.200} -> {entry.get('action')!r:.300}"
            for n, entry in enumerate(self.log, 1)
        )

    def _next_id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}_{next(self._ids):04d}{secrets.token_hex(6)}"

    # ------------------------------------------------------------- anthropic

    def anthropic(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The content blocks of the next assistant message, and its stop reason."""
        if not body.get("tools"):
            return [{"type": "text", "text": "OK"}], "end_turn"
        conversation = read_anthropic(body)
        action = self.decide(conversation)
        self._record("/v1/messages", conversation, action)
        if isinstance(action, Answer):
            return [{"type": "text", "text": action.text}], "end_turn"
        name, given = self._claude_tool(action, conversation.tools)
        block = {"type": "tool_use", "id": self._next_id("toolu"), "name": name, "input": given}
        return [block], "tool_use"

    def _claude_tool(self, action: Action, tools: frozenset[str]) -> tuple[str, dict[str, Any]]:
        if isinstance(action, Shell):
            given = {"command": action.command, "description": "Run a command"}
            if action.background:
                given["run_in_background"] = True
            return "Bash", given
        if isinstance(action, EditFile):
            return "Edit", {
                "file_path": str(self.workspace / action.path),
                "old_string": action.old,
                "new_string": action.new,
            }
        if isinstance(action, ReadFile):
            return "Read", {"file_path": str(self.workspace / action.path)}
        if isinstance(action, Delegate):
            name = "Agent" if "Agent" in tools else "Task"
            given: dict[str, Any] = {
                "description": action.description,
                "prompt": action.prompt,
                "subagent_type": "general-purpose",
            }
            if not action.background:
                given["run_in_background"] = False
            return name, given
        if isinstance(action, UseSkill):
            return "Skill", {"skill": action.name}
        raise TypeError(f"no Claude Code tool for {action!r}")

    # -------------------------------------------------------------- responses

    def responses(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The output items of the next response."""
        if not body.get("tools"):
            return [self._message("OK")]
        conversation = read_responses(body)
        action = self.decide(conversation)
        self._record("/v1/responses", conversation, action)
        if isinstance(action, Answer):
            return [self._message(action.text)]
        if isinstance(action, EditFile) and "apply_patch" in conversation.tools:
            patch = (
                "*** Begin Patch\n"
                f"*** Update File: {action.path}\n"
                "@@\n"
                + "".join(f"-{line}\n" for line in action.old.splitlines())
                + "".join(f"+{line}\n" for line in action.new.splitlines())
                + "*** End Patch\n"
            )
            return [
                {
                    "type": "custom_tool_call",
                    "id": self._next_id("ctc"),
                    "call_id": self._next_id("call"),
                    "name": "apply_patch",
                    "input": patch,
                    "status": "completed",
                }
            ]
        if isinstance(action, ReadFile):
            action = Shell(f"cat {action.path}")
        if not isinstance(action, Shell):
            raise TypeError(f"no Codex tool for {action!r}")
        if "exec_command" in conversation.tools:
            name, given = "exec_command", {"cmd": action.command}
        else:
            name, given = "shell", {"command": ["bash", "-lc", action.command]}
        return [
            {
                "type": "function_call",
                "id": self._next_id("fc"),
                "call_id": self._next_id("call"),
                "name": name,
                "arguments": json.dumps(given),
                "status": "completed",
            }
        ]

    # ----------------------------------------------------------------- gemini

    def gemini(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The parts of the next model turn. A request without tools is one of the
        CLI's side calls: JSON ones (``responseMimeType``) get ``{}``, others "OK"."""
        if not body.get("tools"):
            config = body.get("generationConfig") or {}
            if config.get("responseMimeType") == "application/json":
                return [{"text": "{}"}]
            return [{"text": "OK"}]
        conversation = read_gemini(body)
        action = self.decide(conversation)
        self._record("/v1beta/models", conversation, action)
        if isinstance(action, Answer):
            return [{"text": action.text}]
        if isinstance(action, Shell):
            given: dict[str, Any] = {"command": action.command, "description": "Run a command"}
            if action.background:
                given["is_background"] = True
            name = "run_shell_command"
        elif isinstance(action, EditFile):
            name = "replace"
            given = {
                "file_path": str(self.workspace / action.path),
                "instruction": "Make the change.",
                "old_string": action.old,
                "new_string": action.new,
            }
        elif isinstance(action, ReadFile):
            name, given = "read_file", {"file_path": str(self.workspace / action.path)}
        else:
            raise TypeError(f"no Gemini CLI tool for {action!r}")
        return [{"functionCall": {"name": name, "args": given}}]

    # ------------------------------------------------------- chat completions

    def chat(self, body: dict[str, Any]) -> dict[str, Any]:
        """The next assistant message (``content`` or ``tool_calls``)."""
        if not body.get("tools"):
            return {"role": "assistant", "content": "OK"}
        conversation = read_chat(body)
        action = self.decide(conversation)
        self._record("/v1/chat/completions", conversation, action)
        if isinstance(action, Answer):
            return {"role": "assistant", "content": action.text}
        opencode = "read" in conversation.tools  # OpenCode's tools; else Copilot CLI's
        if isinstance(action, Shell):
            name, given = "bash", {"command": action.command, "description": "Run a command"}
        elif isinstance(action, EditFile) and opencode:
            name = "edit"
            given = {
                "filePath": str(self.workspace / action.path),
                "oldString": action.old,
                "newString": action.new,
            }
        elif isinstance(action, EditFile):
            name = "edit"
            given = {
                "path": str(self.workspace / action.path),
                "old_str": action.old,
                "new_str": action.new,
            }
        elif isinstance(action, Delegate) and opencode:  # OpenCode's task tool: waited for
            name = "task"
            given = {
                "description": action.description,
                "prompt": action.prompt,
                "subagent_type": "general",
            }
        elif isinstance(action, ReadFile):
            name = "read" if opencode else "view"
            given = {("filePath" if opencode else "path"): str(self.workspace / action.path)}
        else:
            raise TypeError(f"no {'OpenCode' if opencode else 'Copilot CLI'} tool for {action!r}")
        call = {
            "index": 0,
            "id": self._next_id("call"),
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(given)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}

    def _message(self, text: str) -> dict[str, Any]:
        return {
            "type": "message",
            "id": self._next_id("msg"),
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }

    def _record(self, path: str, conversation: Conversation, action: Action) -> None:
        kind, text = conversation.latest_input()
        with self._lock:
            self.log.append(
                {
                    "path": path,
                    "input": f"{kind}: {text[:160]}",
                    "steps": len(conversation.steps),
                    "sidechain": conversation.sidechain,
                    "notifications": len(conversation.notifications),
                    "action": action,
                }
            )

    # ---------------------------------------------------------------- http

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        model = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._json(404, {"error": {"type": "not_found", "message": self.path}})

            do_HEAD = do_GET

            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(size) or b"{}")
                except ValueError:
                    self._json(400, {"error": {"type": "invalid_request", "message": "not JSON"}})
                    return
                path = self.path.split("?", 1)[0]
                try:
                    if path == "/v1/messages/count_tokens":
                        words = len(json.dumps(body)) // 4
                        self._json(200, {"input_tokens": max(1, words)})
                    elif path == "/v1/messages":
                        self._anthropic(body)
                    elif path == "/v1/responses":
                        self._responses(body)
                    elif path == "/v1/chat/completions":
                        self._chat(body)
                    elif path.startswith("/v1beta/models/") and ":" in path:
                        self._gemini(body, path.rsplit(":", 1)[1])
                    else:
                        self._json(404, {"error": {"type": "not_found", "message": path}})
                except Exception as exc:  # a policy's bug: say it, do not hang the CLI
                    model.log.append({"path": path, "action": f"error: {exc!r}"})
                    self._json(500, {"error": {"type": "api_error", "message": repr(exc)}})

            def _json(self, status: int, value: Any) -> None:
                raw = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _sse(self, events: list[tuple[str, dict[str, Any]]]) -> None:
                raw = "".join(
                    f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _anthropic(self, body: dict[str, Any]) -> None:
                blocks, stop = model.anthropic(body)
                message_id = model._next_id("msg")
                usage = {"input_tokens": 50, "output_tokens": 10}
                if not body.get("stream"):
                    self._json(
                        200,
                        {
                            "id": message_id,
                            "type": "message",
                            "role": "assistant",
                            "model": body.get("model", model.model),
                            "content": blocks,
                            "stop_reason": stop,
                            "stop_sequence": None,
                            "usage": usage,
                        },
                    )
                    return
                events: list[tuple[str, dict[str, Any]]] = [
                    (
                        "message_start",
                        {
                            "type": "message_start",
                            "message": {
                                "id": message_id,
                                "type": "message",
                                "role": "assistant",
                                "model": body.get("model", model.model),
                                "content": [],
                                "stop_reason": None,
                                "stop_sequence": None,
                                "usage": {"input_tokens": 50, "output_tokens": 1},
                            },
                        },
                    )
                ]
                for index, block in enumerate(blocks):
                    if block["type"] == "text":
                        start = {"type": "text", "text": ""}
                        delta = {"type": "text_delta", "text": block["text"]}
                    else:
                        start = {**block, "input": {}}
                        delta = {
                            "type": "input_json_delta",
                            "partial_json": json.dumps(block["input"]),
                        }
                    events += [
                        (
                            "content_block_start",
                            {"type": "content_block_start", "index": index, "content_block": start},
                        ),
                        (
                            "content_block_delta",
                            {"type": "content_block_delta", "index": index, "delta": delta},
                        ),
                        ("content_block_stop", {"type": "content_block_stop", "index": index}),
                    ]
                events += [
                    (
                        "message_delta",
                        {
                            "type": "message_delta",
                            "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": 10},
                        },
                    ),
                    ("message_stop", {"type": "message_stop"}),
                ]
                self._sse(events)

            def _responses(self, body: dict[str, Any]) -> None:
                items = model.responses(body)
                response_id = model._next_id("resp")
                events: list[tuple[str, dict[str, Any]]] = [
                    (
                        "response.created",
                        {
                            "type": "response.created",
                            "response": {"id": response_id, "status": "in_progress", "output": []},
                        },
                    )
                ]
                for index, item in enumerate(items):
                    events.append(
                        (
                            "response.output_item.added",
                            {
                                "type": "response.output_item.added",
                                "output_index": index,
                                "item": item,
                            },
                        )
                    )
                    events.append(
                        (
                            "response.output_item.done",
                            {
                                "type": "response.output_item.done",
                                "output_index": index,
                                "item": item,
                            },
                        )
                    )
                usage = {
                    "input_tokens": 50,
                    "input_tokens_details": {"cached_tokens": 0},
                    "output_tokens": 10,
                    "output_tokens_details": {"reasoning_tokens": 0},
                    "total_tokens": 60,
                }
                events.append(
                    (
                        "response.completed",
                        {
                            "type": "response.completed",
                            "response": {
                                "id": response_id,
                                "status": "completed",
                                "output": items,
                                "usage": usage,
                            },
                        },
                    )
                )
                self._sse(events)

            def _chat(self, body: dict[str, Any]) -> None:
                message = model.chat(body)
                finish = "tool_calls" if message.get("tool_calls") else "stop"
                head = {
                    "id": model._next_id("chatcmpl"),
                    "created": 1,
                    "model": body.get("model", model.model),
                }
                usage = {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
                if not body.get("stream"):
                    choice = {"index": 0, "message": message, "finish_reason": finish}
                    self._json(
                        200,
                        {**head, "object": "chat.completion", "choices": [choice], "usage": usage},
                    )
                    return
                chunks = [
                    {"index": 0, "delta": message, "finish_reason": None},
                    {"index": 0, "delta": {}, "finish_reason": finish},
                ]
                events = [
                    {**head, "object": "chat.completion.chunk", "choices": [c]} for c in chunks
                ]
                events[-1]["usage"] = usage
                raw = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
                encoded = raw.encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(encoded)))
                self.end_headers()
                self.wfile.write(encoded)

            def _gemini(self, body: dict[str, Any], method: str) -> None:
                if method == "countTokens":
                    self._json(200, {"totalTokens": max(1, len(json.dumps(body)) // 4)})
                    return
                parts = model.gemini(body)
                reply = {
                    "candidates": [
                        {
                            "content": {"role": "model", "parts": parts},
                            "finishReason": "STOP",
                            "index": 0,
                        }
                    ],
                    "usageMetadata": {
                        "promptTokenCount": 50,
                        "candidatesTokenCount": 10,
                        "totalTokenCount": 60,
                    },
                    "modelVersion": model.model,
                    "responseId": model._next_id("resp"),
                }
                if method != "streamGenerateContent":
                    self._json(200, reply)
                    return
                raw = f"data: {json.dumps(reply)}\r\n\r\n".encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
