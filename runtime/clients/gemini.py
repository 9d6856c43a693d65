"""Gemini CLI: its hooks, its answers, its settings and folder trust, its logs.

Facts of ``@google/gemini-cli`` 0.61.0, read in its bundle and recorded from the real
CLI (``tests/clients/recorded/gemini-*``):

* **Hooks** (``settings.json`` of the user, ``$GEMINI_CLI_HOME/.gemini/`` or
  ``~/.gemini/``, or of the project, ``<workspace>/.gemini/``): ``BeforeAgent`` (the
  prompt), ``AfterTool``, ``AfterAgent`` (the stop), ``SessionEnd``, as ``command``
  hooks (``timeout`` in milliseconds, 60 s by default). Gemini CLI runs hooks — the
  user's as well as the project's — only in a trusted folder; headless, an untrusted
  folder exits 55 unless ``GEMINI_CLI_TRUST_WORKSPACE=true`` (both scopes' hooks run)
  or ``--skip-trust`` (the user's run, the project's are skipped without a word).
* **Payloads**: every event carries ``session_id``, ``transcript_path`` (the chat
  log), ``cwd``, ``hook_event_name``, ``timestamp``. ``AfterTool``: ``tool_name``,
  ``tool_input``, ``tool_response {llmContent, returnDisplay, error}`` and no call
  id (one is made of the call and the hook's ``timestamp``); the shell tool's exit
  status is only text (``Exit Code: N``, left out when it is 0). ``AfterAgent``:
  ``prompt`` (always the turn's first prompt), ``prompt_response`` (every answer of
  the turn so far, joined by newlines — the answer under review is the last, read
  from the chat log), ``stop_hook_active``.
* **Going on**: ``{"decision": "block", "reason": checklist}``; the next user turn is
  exactly the reason (and ``BeforeAgent`` fires for it): DoneCheck's checklist is
  told apart by its own opening (:mod:`~donecheck.runtime.transcripts.roles`).
  Gemini CLI has no cap on consecutive blocks: DoneCheck's is the only one.
* **Logs**: the chat JSONL (:mod:`donecheck.runtime.transcripts.gemini`).
"""

from __future__ import annotations

import argparse
import json
import os
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
from donecheck.runtime.install import backup_path, keep_before, restore_before

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = [
    "ADAPTER",
    "EVENTS",
    "Gemini",
    "backup_path",
    "workspace_trusted",
]  # backup_path: install

EVENTS = ("BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd")
_KINDS: dict[str, HookEvent] = {
    "SessionStart": "start",  # not installed: DoneCheck has nothing to do there
    "BeforeAgent": "prompt",
    "AfterTool": "tool",
    "AfterAgent": "stop",
    "SessionEnd": "end",
}
_MATCHED = frozenset({"AfterTool"})
STOP_TIMEOUT_MS = 600_000
"""An AfterAgent hook waits for the gates and the review (Gemini CLI's default is 60 s)."""
_NO_TEXT = "[no response text]"
"""What Gemini CLI sends as ``prompt_response`` when the turn said nothing."""


def _home() -> Path:
    return Path(os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~")) / ".gemini"


def workspace_trusted(workspace: Path) -> bool | None:
    """What Gemini CLI's ``trustedFolders.json`` says of ``workspace``: trusted,
    not trusted, or ``None`` (no rule: Gemini CLI asks)."""
    given = os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    path = Path(given) if given else _home() / "trustedFolders.json"
    try:
        rules = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(rules, dict):
        return None
    target = os.path.realpath(workspace)
    best, verdict = -1, None
    for rule, level in rules.items():
        base = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        base = os.path.realpath(base)
        if (target == base or target.startswith(base.rstrip(os.sep) + os.sep)) and len(rule) > best:
            best = len(rule)
            verdict = {"TRUST_FOLDER": True, "TRUST_PARENT": True, "DO_NOT_TRUST": False}.get(
                str(level)
            )
    return verdict


class Gemini(BlockAnswers):
    blocking = frozenset({"block", "deny"})
    name = "gemini"
    title = "Gemini CLI"
    prefix = "gemini"
    block_cap: int | None = None
    continuations: tuple[str, ...] = ()
    """Gemini CLI hands a block's reason back as the user turn itself, with no marker
    of its own: DoneCheck's checklist is known by its opening (the one row every
    client shares, :mod:`~donecheck.runtime.transcripts.roles`)."""
    injected = (
        r"<session_context>  # the session's opening context: date, OS, folders",
        r"System:\ Potential\ loop\ detected  # its loop detector's nudge",
        r"<hook_context>  # a hook's additionalContext",
    )
    forms = ("command",)
    scopes = ("user", "project")

    # ------------------------------------------------------------- payloads

    def event(self, payload: Mapping[str, Any]) -> HookEvent:
        return _KINDS.get(str(payload.get("hook_event_name")), "")

    def tool(self, payload: Mapping[str, Any]) -> ToolEvent:
        from donecheck.runtime.transcripts.gemini import tool_text

        name = str(payload.get("tool_name", "?"))
        given = payload.get("tool_input")
        response = payload.get("tool_response")
        response = response if isinstance(response, dict) else {"llmContent": response}
        text, code = tool_text(name, response.get("llmContent"))
        error = response.get("error")
        ok: bool | None = None
        if isinstance(error, dict) and error:
            ok = False
            message = str(error.get("message") or "")
            if message and message not in text:
                text = f"{text}\n{message}" if text else message
        arguments = given if isinstance(given, dict) else {}
        return ToolEvent(
            name=name,
            arguments=arguments,
            call_id=timed_call_id(payload, name, arguments),
            output=text,
            ok=ok,
            exit_code=code,
        )

    def answer(self, payload: Mapping[str, Any]) -> str:
        """The turn's last answer: ``prompt_response`` joins every answer since the
        turn's prompt (a blocked stop's too), so the last one is read from the chat
        log, which Gemini CLI writes before the hook runs; the whole text when the log
        does not end it."""
        said = payload.get("prompt_response")
        if not isinstance(said, str) or said.strip() == _NO_TEXT:
            return ""
        last = _last_answer(payload.get("transcript_path"))
        if last.strip() and _words(said).endswith(_words(last)):
            return last
        return said

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        return []

    # answers (steer, let_stop, checklist_of): BlockAnswers

    # ------------------------------------------------------------------- logs

    def load_log(self, path: str | Path) -> Transcript:
        from donecheck.runtime.transcripts.gemini import load_gemini

        return load_gemini(path)

    # ---------------------------------------------------------------- install

    def settings_path(self, scope: str, workspace: Path) -> Path:
        if scope == "project":
            return workspace / ".gemini" / "settings.json"
        return _home() / "settings.json"

    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        return agent_command_hooks(
            self.name, command, EVENTS, _MATCHED, ("AfterAgent", STOP_TIMEOUT_MS)
        )

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        """Write the hooks, keeping the file as it was so that ``--uninstall`` puts
        it back byte for byte; say what Gemini CLI's folder trust asks of the user."""
        if args.uninstall:
            restore_before(path, write, say)
            return 0
        keep_before(path)
        write()
        user, project = (
            self.settings_path("user", workspace),
            self.settings_path("project", workspace),
        )
        for found in dict.fromkeys([user, project]):
            why = _hooks_off(found)
            if why:
                say(f"{found}: {why}: Gemini CLI runs none of DoneCheck's hooks while it is there.")
        trusted = workspace_trusted(workspace)
        if trusted is True:
            return 0
        said = "is not trusted" if trusted is False else "is not trusted yet"
        if args.scope == "project":
            say(
                f"Gemini CLI reads {path} only in a trusted folder, and {workspace} {said}: "
                "trust it when Gemini CLI asks (or with /permissions); headless runs "
                "('gemini -p') need GEMINI_CLI_TRUST_WORKSPACE=true (with --skip-trust the "
                "project's hooks are skipped without a word)."
            )
        else:
            say(
                f"Gemini CLI runs hooks only in a trusted folder ({workspace} {said}): trust "
                "a folder when Gemini CLI asks; headless runs ('gemini -p') need "
                "GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust, or they exit 55."
            )
        return 0


def _hooks_off(path: Path) -> str:
    """What in the settings file at ``path`` keeps DoneCheck's hooks from running
    (``hooksConfig.enabled: false``, or DoneCheck's command in ``hooksConfig.disabled``),
    or ``""``."""
    from donecheck.runtime.install import is_ours

    try:
        config = json.loads(path.read_text(encoding="utf-8")).get("hooksConfig")
    except (OSError, ValueError, AttributeError):
        return ""
    if not isinstance(config, dict):
        return ""
    if config.get("enabled") is False:
        return "hooksConfig.enabled is false"
    disabled = config.get("disabled")
    for name in disabled if isinstance(disabled, list) else []:
        if is_ours({"type": "command", "command": str(name)}):
            return f"hooksConfig.disabled names {name!r}"
    return ""


def _words(text: str) -> str:
    return " ".join(text.split())


def _last_answer(path: Any) -> str:
    """The last answer in the chat log at ``path`` (``""`` when it cannot be read)."""
    from donecheck.actors.errors import TranscriptError
    from donecheck.runtime.transcripts.gemini import load_gemini

    if not isinstance(path, str) or not path or not os.path.isfile(path):
        return ""
    try:
        return load_gemini(path).answer
    except TranscriptError:
        return ""


ADAPTER = Gemini()
