"""GitHub Copilot CLI: its hooks, its answers, its hook files and folder trust, its logs.

Facts of ``@github/copilot`` 1.0.102, found by driving the real CLI and recorded from
it (``tests/clients/recorded/copilot-*``):

* **Hooks**: every ``*.json`` in ``$COPILOT_HOME/hooks/`` (the user's; ``COPILOT_HOME``
  is ``~/.copilot`` by default) and in the repository's ``.github/hooks/`` (the
  project's). Copilot CLI reads two layouts and two payload dialects, chosen by how
  an event is spelled: camelCase (``agentStop``, ``postToolUse``: ``sessionId``,
  ``transcriptPath``, a millisecond ``timestamp``, no event name) or PascalCase
  (``Stop``, ``PostToolUse``: ``hook_event_name``, ``session_id``, ``transcript_path``,
  an ISO ``timestamp``) — DoneCheck installs the PascalCase events, in the groups
  Claude Code's settings use (``{"hooks": [{"type": "command", "command": …,
  "timeout": s}]}``), which it reads as well. The project's hooks run only in a
  trusted folder (``trustedFolders`` of ``$COPILOT_HOME/config.json``, the
  ``--trust-folder`` flag, or ``COPILOT_ALLOW_ALL=true``) and are skipped without a
  word otherwise; the user's run everywhere.
* **Payloads**: ``UserPromptSubmit`` (``prompt``), ``PostToolUse`` (``tool_name`` —
  ``Bash`` for the shell —, ``tool_input``, ``tool_result {result_type,
  text_result_for_llm}``, no call id: one is made of the call and the hook's
  ``timestamp``; the shell's exit status only as text, ``<shellId: N completed
  with exit code K>``), ``Stop`` (``transcript_path``, ``stop_reason``,
  ``stop_hook_active``; **no assistant text**: the answer is the last
  ``assistant.message`` of the session's ``events.jsonl``, written before the hook
  runs), ``SessionEnd`` (``reason``).
* **Going on**: ``{"decision": "block", "reason": R}`` on stdout with exit status 0
  (exit 2 only logs a warning); R comes back as a user message (``UserPromptSubmit``
  fires for it, its ``prompt`` exactly R) that the model sees as
  ``<current_datetime>…</current_datetime>`` + a blank line + R. Copilot CLI lets
  **8** stops in a row be blocked, then ends the turn (tool calls between do not
  reset it); DoneCheck's round limit (``max_rounds`` + 1 reviews) ends a task first.
* **Logs**: ``events.jsonl`` (:mod:`donecheck.runtime.transcripts.copilot`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from donecheck.runtime.clients.base import (
    BlockAnswers,
    HookEvent,
    ToolEvent,
    agent_command_hooks,
    timed_call_id,
)

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["ADAPTER", "EVENTS", "Copilot", "copilot_home", "workspace_trusted"]

EVENTS = ("UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd")
_KINDS: dict[str, HookEvent] = {
    "SessionStart": "start",  # not installed: DoneCheck has nothing to do there
    "UserPromptSubmit": "prompt",
    "PostToolUse": "tool",
    "Stop": "stop",
    "SessionEnd": "end",
}
_MATCHED = frozenset({"PostToolUse"})
STOP_TIMEOUT_S = 600
"""A Stop hook waits for the gates and the review."""
HOOKS_FILE = "donecheck.json"
"""DoneCheck's own file among the hook files Copilot CLI reads."""
LOG_WAIT_S = 5.0
"""How long a Stop waits for ``events.jsonl`` to catch up with the stop."""
_FAILED = frozenset({"failure", "error", "rejected", "denied"})


def copilot_home() -> Path:
    return Path(os.environ.get("COPILOT_HOME") or os.path.expanduser("~/.copilot"))


def workspace_trusted(workspace: Path) -> bool:
    """Whether ``trustedFolders`` in Copilot CLI's ``config.json`` holds ``workspace``
    or a folder above it (the file opens with ``//`` comment lines)."""
    try:
        text = (copilot_home() / "config.json").read_text(encoding="utf-8")
        config = json.loads(re.sub(r"(?m)^\s*//.*$", "", text) or "{}")
    except (OSError, ValueError):
        return False
    folders = config.get("trustedFolders") if isinstance(config, dict) else None
    target = os.path.realpath(workspace)
    for folder in folders if isinstance(folders, list) else []:
        base = os.path.realpath(str(folder))
        if target == base or target.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


class Copilot(BlockAnswers):
    shows_note = False
    name = "copilot"
    title = "GitHub Copilot CLI"
    prefix = "copilot"
    block_cap: int | None = 8
    continuations: tuple[str, ...] = (
        r"<current_datetime>[^<]*</current_datetime>\s*\[DoneCheck\ —\ review\ round\ \d+"
        r"  # a blocked stop's reason (DoneCheck's checklist) as Copilot CLI's model sees it",
    )
    """Copilot CLI hands a block's reason back as a user message that is the reason
    itself (in its log and its ``UserPromptSubmit``), which the model sees after a
    ``<current_datetime>`` line — as it sees every user message, so only DoneCheck's
    own checklist behind that line is a continuation."""
    injected: tuple[str, ...] = ()
    forms = ("command",)
    scopes = ("user", "project")

    # ------------------------------------------------------------- payloads

    def event(self, payload: Mapping[str, Any]) -> HookEvent:
        return _KINDS.get(str(payload.get("hook_event_name")), "")

    def tool(self, payload: Mapping[str, Any]) -> ToolEvent:
        from donecheck.runtime.transcripts.copilot import tool_text

        name = str(payload.get("tool_name", "?"))
        given = payload.get("tool_input")
        result = payload.get("tool_result")
        result = result if isinstance(result, dict) else {"text_result_for_llm": result}
        text, code = tool_text(name, result.get("text_result_for_llm"))
        arguments = given if isinstance(given, dict) else {}
        return ToolEvent(
            name=name,
            arguments=arguments,
            call_id=timed_call_id(payload, name, arguments),
            output=text,
            ok=False if str(result.get("result_type")) in _FAILED else None,
            exit_code=code,
        )

    def answer(self, payload: Mapping[str, Any]) -> str:
        """The stop payload has no text: the last answer in ``events.jsonl`` (``""``
        when it cannot be read). Copilot CLI writes the file behind its events: the
        answer is read once the file holds this stop's own ``hook.start`` (up to
        :data:`LOG_WAIT_S`), so that every event before it is in."""
        from donecheck.actors.errors import TranscriptError
        from donecheck.runtime.transcripts.copilot import load_copilot, stop_logged

        path = payload.get("transcript_path")
        if not isinstance(path, str) or not path:
            return ""
        deadline = time.monotonic() + LOG_WAIT_S
        while not os.path.isfile(path):  # a new session's log may not be written yet
            if time.monotonic() >= deadline:
                return ""
            time.sleep(0.05)
        moment = _millis(payload.get("timestamp"))
        while moment is not None and time.monotonic() < deadline:
            try:
                if stop_logged(Path(path).read_text(encoding="utf-8"), moment):
                    break
            except (OSError, UnicodeDecodeError):
                break
            time.sleep(0.05)
        try:
            return load_copilot(path).answer
        except TranscriptError:
            return ""

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        return []

    # answers (steer, let_stop, checklist_of): BlockAnswers

    # ------------------------------------------------------------------- logs

    def load_log(self, path: str | Path) -> Transcript:
        from donecheck.runtime.transcripts.copilot import load_copilot

        return load_copilot(path)

    # ---------------------------------------------------------------- install

    def settings_path(self, scope: str, workspace: Path) -> Path:
        if scope == "project":
            return workspace / ".github" / "hooks" / HOOKS_FILE
        return copilot_home() / "hooks" / HOOKS_FILE

    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        return agent_command_hooks(self.name, command, EVENTS, _MATCHED, ("Stop", STOP_TIMEOUT_S))

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        """Write the hook file, keeping what was there so that ``--uninstall`` puts it
        back byte for byte (or removes the file it created, as for Gemini CLI); say
        what Copilot CLI's folder trust asks of the user."""
        from donecheck.runtime.install import keep_before, restore_before

        if args.uninstall:
            restore_before(path, write, say)
            return 0
        keep_before(path)
        write()
        if args.scope != "project" or workspace_trusted(workspace):
            return 0
        say(
            f"GitHub Copilot CLI runs the hooks in {path.parent} only in a trusted folder, "
            f"and {workspace} is not trusted yet (it is not in trustedFolders of "
            f"{copilot_home() / 'config.json'}): choose to trust it when Copilot CLI asks; "
            "headless runs ('copilot -p') need --trust-folder or COPILOT_ALLOW_ALL=true, or "
            "the hooks are skipped without a word. '--scope user' hooks run in every folder."
        )
        return 0


def _millis(stamp: Any) -> int | None:
    """A PascalCase payload's ISO ``timestamp`` (``…T23:25:55.108Z``) in milliseconds,
    as the log's camelCase ``hook.start`` input carries it; an int as it is."""
    if isinstance(stamp, int) and not isinstance(stamp, bool):
        return stamp
    if not isinstance(stamp, str) or not stamp:
        return None
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return round(moment.timestamp() * 1000)


ADAPTER = Copilot()
