"""Claude Code: its hooks, its answers, its settings, its logs.

* **Hooks** (``.claude/settings.json`` of a project, ``settings.local.json`` for this
  checkout only, or ``~/.claude/settings.json``): ``SessionStart`` (names the session
  for the pytest plugin), ``UserPromptSubmit``, ``PostToolUse`` and
  ``PostToolUseFailure`` (a failing tool call arrives only as the latter), ``Stop``,
  ``SessionEnd``, as ``command`` hooks (``donecheck hook``) or ``http`` hooks to a
  running ``donecheck serve``. Or all of them as a plugin (:data:`PLUGIN`).
* **Payloads**: ``tool_response`` is an object (Bash ``{stdout, stderr, interrupted}``,
  Read ``{file: {content}}``, Edit ``{structuredPatch}``); a failure's ``error`` text
  says ``Exit code N``; ``Stop`` carries ``last_assistant_message`` and
  ``background_tasks``.
* **Going on**: ``hookSpecificOutput.additionalContext`` on Stop (its ``decision:
  block`` is shown to the user as an error); the model then sees ``Stop hook
  feedback:`` / ``Stop hook additional context:`` and the checklist.
* **Its own cap**: 8 consecutive blocks (``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``), reset by
  any tool call.
* **Logs**: the session JSONL and ``claude -p --output-format stream-json``
  (:mod:`donecheck.runtime.transcripts.claude`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from donecheck.runtime.clients.base import HookEvent, ToolEvent, exit_code_in, settings_hooks

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["ADAPTER", "EVENTS", "PLUGIN", "ClaudeCode"]

EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SessionEnd",
)
_KINDS: dict[str, HookEvent] = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PostToolUse": "tool",
    "PostToolUseFailure": "tool",
    "Stop": "stop",
    "SessionEnd": "end",
}
_MATCHED = frozenset({"PostToolUse", "PostToolUseFailure"})
"""Events whose groups take a tool matcher: DoneCheck wants every tool."""
STOP_TIMEOUT_S = 600
"""A Stop hook waits for the gates and the review (Claude Code's default is 60 s)."""
PLUGIN = Path(__file__).resolve().parents[1] / "claude_plugin"
"""DoneCheck as a Claude Code plugin: ``claude --plugin-dir PLUGIN`` loads its hooks
(``hooks/hooks.json``, the same hooks the installer writes, ``donecheck`` from PATH)."""


class ClaudeCode:
    name = "claude-code"
    title = "Claude Code"
    prefix = "claude"
    block_cap: int | None = 8
    continuations = (
        r"Stop\ hook\ feedback:  # a Stop hook's block reason, as the model sees it",
        r"Stop\ hook\ additional\ context:  # a Stop hook's additionalContext",
    )
    injected = (
        r"<task-notification>  # a background sub-agent finished",
        r"<system-reminder>  # reminders, notices, hook context",
        r"<command-(?:name|message|args)>  # a slash command's echo",
        r"<local-command-std(?:out|err)>  # a local command's output",
        r"Caveat:\ The\ messages\ below  # the caveat before local commands",
        r"\[Request\ interrupted\ by\ user  # the user pressed Esc (or a hook stopped it)",
    )
    forms = ("command", "http")
    scopes = ("user", "project", "local")

    # ------------------------------------------------------------- payloads

    def event(self, payload: Mapping[str, Any]) -> HookEvent:
        return _KINDS.get(str(payload.get("hook_event_name")), "")

    def tool(self, payload: Mapping[str, Any]) -> ToolEvent:
        from donecheck.runtime.transcripts.claude import response_images, tool_output

        given = payload.get("tool_input")
        response = payload.get("tool_response")
        if payload.get("hook_event_name") == "PostToolUseFailure":
            text, code = tool_output(payload.get("error"))
            if code is None:
                code = exit_code_in(text)
            if payload.get("is_interrupt"):
                text += "\n[interrupted]"
            ok: bool | None = False
        else:
            text, code = tool_output(response)
            ok = None
        call_id = payload.get("tool_use_id")
        return ToolEvent(
            name=str(payload.get("tool_name", "?")),
            arguments=given if isinstance(given, dict) else {},
            call_id=call_id if isinstance(call_id, str) and call_id else None,
            output=text,
            ok=ok,
            exit_code=code,
            images=response_images(response),
        )

    def answer(self, payload: Mapping[str, Any]) -> str:
        found = payload.get("last_assistant_message")
        return found if isinstance(found, str) else ""

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        tasks = payload.get("background_tasks")
        return [
            str(t.get("description") or t.get("id") or "a sub-agent")
            for t in (tasks if isinstance(tasks, list) else [])
            if isinstance(t, dict) and t.get("status") == "running"
        ]

    # ---------------------------------------------------------------- answers

    def steer(self, message: str, note: str) -> dict[str, Any]:
        return {
            "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": message},
            "systemMessage": note,
        }

    def let_stop(self, note: str) -> dict[str, Any]:
        return {"systemMessage": note}

    def checklist_of(self, output: Mapping[str, Any]) -> str | None:
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict) and specific.get("hookEventName") == "Stop":
            found = specific.get("additionalContext")
            return str(found) if found else None
        return None

    # ------------------------------------------------------------------- logs

    def load_log(self, path: str | Path) -> Transcript:
        from donecheck.runtime.transcripts.claude import load_claude_jsonl

        return load_claude_jsonl(path)

    # ---------------------------------------------------------------- install

    def settings_path(self, scope: str, workspace: Path) -> Path:
        if scope == "user":
            home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
                os.path.expanduser("~"), ".claude"
            )
            return Path(home) / "settings.json"
        name = "settings.local.json" if scope == "local" else "settings.json"
        return workspace / ".claude" / name

    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        def handler(event: str) -> dict[str, Any]:
            found: dict[str, Any]
            if form == "http" and event != "SessionStart":  # SessionStart writes a local file
                found = {"type": "http", "url": url.rstrip("/") + f"/v1/hooks/{self.name}"}
            else:
                found = {"type": "command", "command": command}
            if event == "Stop":
                found["timeout"] = STOP_TIMEOUT_S
            return found

        return settings_hooks(EVENTS, handler, _MATCHED)

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        from donecheck.runtime.install import keep_before, restore_before

        if args.uninstall:
            restore_before(path, write, say)
            return 0
        keep_before(path)
        write()
        if args.form == "http":
            say(
                "http hooks reach DoneCheck only while 'donecheck serve' runs; a turn is "
                "never blocked because it is down."
            )
        return 0


ADAPTER = ClaudeCode()
