"""OpenCode: its plugin, its answers, its plugin folder, its logs.

Facts of ``opencode-ai`` 1.18.33, read in its bundle and recorded from the real CLI
(``tests/clients/recorded/opencode-*``):

* **No hooks; a plugin.** OpenCode loads every ``plugin/*.js`` and ``plugins/*.js`` of
  its config folders — the user's (``$XDG_CONFIG_HOME/opencode/``, ``~/.config/
  opencode/`` by default) and the project's (``<workspace>/.opencode/``) — as an ES
  module whose exports are plugin functions returning hooks. DoneCheck's plugin
  (``donecheck.js``, shipped in ``donecheck/runtime/opencode_plugin/``) turns them into
  the payloads this adapter reads and runs ``donecheck hook --agent opencode`` with each,
  as the other CLIs' command hooks do:

  - ``chat.message`` → ``{"hook_event_name": "chat.message", "prompt"}`` (the prompt's
    own text parts; OpenCode's synthetic ones left out);
  - ``tool.execute.after`` → ``{"hook_event_name": "tool.execute.after", "tool",
    "call_id", "args", "output": {title, output, metadata}}``: the shell's exit
    status is ``metadata.exit``, a number, not text;
  - ``experimental.text.complete`` → ``{"hook_event_name": "text.complete",
    "message_id", "text"}``: awaited before the agent loop decides to stop, it fires
    for every finished text part — the plugin leaves out text that a tool call follows
    in the same step (the message already holds the call);
  - ``session.error`` with ``MessageAbortedError`` (an aborted turn) → an interrupt.
    Headless ``opencode run`` given SIGINT exits at once, before any event reaches a
    plugin: there the task stays open, as with Copilot CLI; the TUI's abort is not
    exercised by the tests.

  Every payload carries ``session_id`` (a sub-agent's session is taken as the one that
  started it) and ``cwd``.
* **Going on**: OpenCode has no answer that keeps a turn going. When DoneCheck steers,
  the plugin posts the checklist to the same session (``client.session.promptAsync``)
  before the loop checks for a newer user message: the loop goes on with it, and the
  model sees exactly the checklist as a user message. DoneCheck's checklist is told
  apart by its own opening (:mod:`~donecheck.runtime.transcripts.roles`). OpenCode has
  no cap on consecutive continuations: DoneCheck's is the only one.
* **Logs**: ``opencode export <sessionID>`` and ``opencode run --format json``
  (:mod:`donecheck.runtime.transcripts.opencode`); the sessions themselves are in
  SQLite.
* **Start-up**: at every start OpenCode installs ``@opencode-ai/plugin`` into each
  config folder from the npm registry (offline it waits about 70 s) — whether or not a
  plugin is there; DoneCheck's plugin imports nothing but Node's own modules.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from donecheck.runtime.clients.base import BlockAnswers, HookEvent, ToolEvent

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["ADAPTER", "PLUGIN", "OpenCode", "plugin_text"]

PLUGIN = Path(__file__).resolve().parents[1] / "opencode_plugin" / "donecheck.js"
"""DoneCheck's OpenCode plugin as shipped (its command ``donecheck hook`` from PATH)."""
PLUGIN_FILE = "donecheck.js"
_MARK = "// DoneCheck's plugin for OpenCode"
_COMMAND_LINE = "// donecheck:command"
_KINDS: dict[str, HookEvent] = {
    "chat.message": "prompt",
    "tool.execute.after": "tool",
    "text.complete": "stop",
    "session.error": "interrupt",
}


def _config_home() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return Path(base) / "opencode"


def plugin_text(command: str) -> str:
    """The plugin as the installer writes it: its command set to ``command``."""
    lines = PLUGIN.read_text(encoding="utf-8").splitlines(keepends=True)
    for n, line in enumerate(lines):
        if _COMMAND_LINE in line and line.startswith("const COMMAND"):
            lines[n] = (
                f"const COMMAND = {json.dumps(command + ' --agent opencode')}; {_COMMAND_LINE}"
                " (set by the installer)\n"
            )
            break
    else:  # pragma: no cover - the shipped file is checked by the tests
        raise RuntimeError(f"{PLUGIN}: no COMMAND line to set")
    return "".join(lines)


class OpenCode(BlockAnswers):
    name = "opencode"
    title = "OpenCode"
    prefix = "opencode"
    block_cap: int | None = None
    continuations: tuple[str, ...] = ()
    """The plugin hands the checklist back as the user message itself: it is known by
    its opening (the one row every client shares)."""
    injected: tuple[str, ...] = ()
    forms = ("plugin",)
    scopes = ("user", "project")

    # ------------------------------------------------------------- payloads

    def event(self, payload: Mapping[str, Any]) -> HookEvent:
        return _KINDS.get(str(payload.get("hook_event_name")), "")

    def tool(self, payload: Mapping[str, Any]) -> ToolEvent:
        from donecheck.runtime.transcripts.opencode import tool_result

        given = payload.get("output")
        output = given if isinstance(given, dict) else {"output": given}
        text, ok, code = tool_result({"status": "completed", **output})
        arguments = payload.get("args")
        call_id = payload.get("call_id")
        return ToolEvent(
            name=str(payload.get("tool") or "?"),
            arguments=arguments if isinstance(arguments, dict | str) else {},
            call_id=call_id if isinstance(call_id, str) and call_id else None,
            output=text,
            ok=ok,
            exit_code=code,
        )

    def answer(self, payload: Mapping[str, Any]) -> str:
        text = payload.get("text")
        return text if isinstance(text, str) else ""

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        return []

    # answers (steer, let_stop, checklist_of): BlockAnswers

    # ------------------------------------------------------------------- logs

    def load_log(self, path: str | Path) -> Transcript:
        from donecheck.runtime.transcripts.opencode import load_opencode

        return load_opencode(path)

    # ---------------------------------------------------------------- install

    def settings_path(self, scope: str, workspace: Path) -> Path:
        folder = workspace / ".opencode" if scope == "project" else _config_home()
        return folder / "plugins" / PLUGIN_FILE

    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        return {}  # no hooks: a plugin (install_plugin)

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        write()
        return 0

    def install_plugin(
        self, args: argparse.Namespace, workspace: Path, command: str, say: Callable[[str], None]
    ) -> int:
        """Write (or, with ``--uninstall``, remove) DoneCheck's plugin file in OpenCode's
        plugin folder of the scope; a file of that name that is not DoneCheck's is left
        alone. The exit status."""
        path = self.settings_path(args.scope, workspace)
        try:
            found: str | None = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            found = None
        except (OSError, UnicodeDecodeError) as exc:
            _error(f"{path}: cannot be read ({exc}); nothing changed")
            return 2
        if found is not None and not found.startswith(_MARK):
            _error(
                f"{path} is not DoneCheck's plugin (it does not begin {_MARK!r}): left as "
                "it is; nothing changed"
            )
            return 2
        if args.uninstall:
            if found is None:
                say(f"{path}: no DoneCheck plugin to remove")
                return 0
            if not args.dry_run:
                path.unlink()
            done = "would be removed" if args.dry_run else "removed"
            say(f"{path}: {done} (DoneCheck's installer had created it)")
            return 0
        wanted = plugin_text(command)
        if found == wanted:
            say(f"{path}: DoneCheck's plugin is installed already; nothing changed")
        else:
            if not args.dry_run:
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = path.with_name(path.name + ".tmp")
                temp.write_text(wanted, encoding="utf-8")
                os.replace(temp, path)
            action = "updated" if found is not None else "added"
            say(f"{path}: {'would be ' if args.dry_run else ''}{action}: DoneCheck's plugin")
            say(f"  it runs: {command} --agent opencode")
        if not args.dry_run and found != wanted:
            say(
                "OpenCode loads the plugin at its next start. At every start OpenCode installs "
                "@opencode-ai/plugin into its config folder from the npm registry (offline it "
                "waits about 70 s, DoneCheck's plugin or not)."
            )
        return 0


def _error(message: str) -> None:
    print(f"donecheck: error: {message}", file=sys.stderr)


ADAPTER = OpenCode()
