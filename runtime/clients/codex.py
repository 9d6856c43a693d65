"""Codex CLI: its hooks, its answers, its settings and trust, its logs.

* **Hooks** (``$CODEX_HOME/hooks.json`` or ``<repo>/.codex/hooks.json``):
  ``UserPromptSubmit``, ``PostToolUse``, ``Stop``, ``Interrupt``, ``SessionEnd``, as
  ``command`` hooks (Codex has no other form). Codex runs a hook only once the user
  has trusted its exact definition; the installer records that trust for DoneCheck's
  own hooks through Codex's app server (``hooks/list`` gives each hook's current
  hash, ``config/batchWrite`` stores it), the way Codex's ``/hooks`` screen does,
  unless ``--no-trust`` says the user will review them there.
* **Payloads**: the shell tool arrives as ``Bash`` with ``{"command": str}`` (or an
  argv list), ``apply_patch`` with the whole patch under ``command``;
  ``tool_response`` is a plain string with no exit status.
* **Going on**: ``{"decision": "block", "reason": checklist}``; the model sees it as a
  user message ``<hook_prompt hook_run_id="stop:…">…</hook_prompt>`` (no
  ``UserPromptSubmit``). Codex has no cap on consecutive blocks: DoneCheck's is the
  only one.
* **Logs**: rollouts (``~/.codex/sessions/**.jsonl``) and ``codex exec --json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from donecheck.runtime.clients.base import BlockAnswers, HookEvent, ToolEvent, settings_hooks

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = ["ADAPTER", "EVENTS", "Codex", "TrustError", "codex_trust"]

EVENTS = ("UserPromptSubmit", "PostToolUse", "Stop", "Interrupt", "SessionEnd")
_KINDS: dict[str, HookEvent] = {
    "UserPromptSubmit": "prompt",
    "PostToolUse": "tool",
    "Stop": "stop",
    "Interrupt": "interrupt",
    "SessionEnd": "end",
}
STOP_TIMEOUT_S = 600
"""A Stop hook waits for the gates and the review (Codex's default is 600 s)."""


class Codex(BlockAnswers):
    name = "codex"
    title = "Codex CLI"
    prefix = "codex"
    block_cap: int | None = None
    continuations = (r"<hook_prompt\b  # a Stop hook's block reason, as the model sees it",)
    injected = (
        r"<environment_context>  # cwd, sandbox, shell",
        r"<user_instructions>  # AGENTS.md, older form",
        r"\#\ AGENTS\.md\ instructions  # AGENTS.md",
        r"<INSTRUCTIONS>  # AGENTS.md body",
        r"<permissions\b  # approval policy notes",
        r"<user_shell_command>  # a command the user ran with !",
        r"<turn_aborted>  # the user interrupted the last turn",
    )
    forms = ("command",)
    scopes = ("user", "project")

    # ------------------------------------------------------------- payloads

    def event(self, payload: Mapping[str, Any]) -> HookEvent:
        return _KINDS.get(str(payload.get("hook_event_name")), "")

    def tool(self, payload: Mapping[str, Any]) -> ToolEvent:
        from donecheck.runtime.transcripts.claude import tool_output
        from donecheck.runtime.transcripts.codex import codex_arguments

        name = str(payload.get("tool_name", "?"))
        given = payload.get("tool_input")
        arguments: dict[str, Any] | str = given if isinstance(given, dict) else {}
        shaped = codex_arguments(name, arguments)  # an argv list made a command line
        arguments = shaped if isinstance(shaped, dict) else arguments
        text, code = tool_output(payload.get("tool_response"))  # a plain string: no status
        call_id = payload.get("tool_use_id")
        return ToolEvent(
            name=name,
            arguments=arguments,
            call_id=call_id if isinstance(call_id, str) and call_id else None,
            output=text,
            exit_code=code,
        )

    def answer(self, payload: Mapping[str, Any]) -> str:
        found = payload.get("last_assistant_message")
        return found if isinstance(found, str) else ""

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        return []

    # answers (steer, let_stop, checklist_of): BlockAnswers

    # ------------------------------------------------------------------- logs

    def load_log(self, path: str | Path) -> Transcript:
        from donecheck.runtime.transcripts.codex import load_codex

        return load_codex(path)

    # ---------------------------------------------------------------- install

    def settings_path(self, scope: str, workspace: Path) -> Path:
        if scope == "project":
            return workspace / ".codex" / "hooks.json"
        return _codex_home() / "hooks.json"

    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        agent = f"{command} --agent {self.name}"

        def handler(event: str) -> dict[str, Any]:
            found: dict[str, Any] = {"type": "command", "command": agent}
            if event == "Stop":
                found["timeout"] = STOP_TIMEOUT_S
            return found

        return settings_hooks(EVENTS, handler)

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        """Write the hooks and record Codex's trust in them (forget it before they are
        taken out, while Codex still lists them)."""
        from donecheck.runtime.install import keep_before, restore_before

        if args.uninstall:
            code = self._trust(args, path, workspace, say)
            restore_before(path, write, say)
            return code
        keep_before(path)
        write()
        return self._trust(args, path, workspace, say)

    def _trust(
        self, args: argparse.Namespace, path: Path, workspace: Path, say: Callable[[str], None]
    ) -> int:
        from donecheck.runtime.cli.common import error

        if args.scope == "project" and not args.uninstall:
            say(
                f"Codex loads {path} only in a trusted project: trust {workspace} when Codex "
                f"asks, or run 'codex exec --trust' there once."
            )
        if args.no_trust:
            if not args.uninstall:
                say(
                    "Codex runs a hook only after you trust it: open /hooks in Codex and trust "
                    "DoneCheck's hooks (untrusted hooks are skipped without a word)."
                )
            return 0
        codex = args.codex or shutil.which("codex")
        if codex is None:
            error(
                "codex is not on PATH (--codex PATH names it): the hooks are written but not "
                "trusted; open /hooks in Codex to trust them, or Codex skips them"
            )
            return 1
        try:
            keys, written = codex_trust(codex, path, workspace, untrust=args.uninstall)
        except TrustError as exc:
            error(
                f"the hooks are written but not trusted ({exc}); open /hooks in Codex to trust "
                "them, or Codex skips them"
            )
            return 1
        if args.uninstall:
            say(f"forgot Codex's trust in {written} DoneCheck hook(s)")
            config = _codex_home() / "config.toml"
            try:
                empty = not config.read_text(encoding="utf-8").strip()
            except OSError:
                empty = False
            if empty:  # it held only DoneCheck's trust: nothing of the user's is lost
                config.unlink()
                say(f"{config}: removed (it held nothing but DoneCheck's trust)")
        elif not written:
            say(f"Codex trusts DoneCheck's {len(keys)} hook(s) already")
        else:
            say(
                f"trusted {written} DoneCheck hook(s) in Codex's config.toml (hooks.state), "
                "as its /hooks screen would; 'donecheck install codex --uninstall' takes them out"
            )
        return 0


# ---------------------------------------------------------------- Codex trust


def _codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex"))


class TrustError(Exception):
    """Codex's app server could not be asked, or would not record the trust."""


def codex_trust(
    codex: str,
    hooks_file: Path,
    workspace: Path,
    *,
    untrust: bool = False,
    timeout_s: float = 60.0,
) -> tuple[list[str], int]:
    """Record (or, with ``untrust``, forget) the user's trust in DoneCheck's hooks of
    ``hooks_file``, through ``codex app-server`` — the API Codex's own ``/hooks``
    screen uses: ``hooks/list`` names each hook with its current hash, and
    ``config/batchWrite`` stores ``hooks.state."<key>".trusted_hash`` in the user's
    ``config.toml``. Only handlers that run ``donecheck hook`` are touched. Returns
    the keys of DoneCheck's hooks and how many of them were written (0: all were
    trusted already); raises :class:`TrustError` saying what went wrong."""
    import shutil
    import tempfile

    from donecheck.runtime.install import is_ours

    home = _codex_home()
    before = set(os.listdir(home)) if home.is_dir() else set()
    scratch = tempfile.mkdtemp(prefix="donecheck-codex-")
    try:
        server = subprocess.Popen(
            [codex, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workspace,
            text=True,
            env={**os.environ, "CODEX_SQLITE_HOME": scratch},  # its state, not the user's
        )
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise TrustError(f"cannot run {codex} app-server: {exc.strerror or exc}") from None
    try:
        rpc = _Rpc(server, timeout_s)
        rpc.call("initialize", {"clientInfo": {"name": "donecheck", "version": "1"}})
        rpc.notify("initialized")
        listed = rpc.call("hooks/list", {"cwds": [str(workspace)]})
        target = os.path.realpath(hooks_file)
        entries = [
            hook
            for entry in listed.get("data", [])
            for hook in entry.get("hooks", [])
            if os.path.realpath(str(hook.get("sourcePath", ""))) == target
            and is_ours({"type": "command", "command": hook.get("command", "")})
        ]
        edits: list[dict[str, Any]]
        if untrust:
            edits = [
                {
                    "keyPath": f"hooks.state.{json.dumps(h['key'])}",
                    "mergeStrategy": "replace",
                    "value": None,
                }
                for h in entries
            ]
        else:
            edits = [
                {
                    "keyPath": f"hooks.state.{json.dumps(h['key'])}",
                    "mergeStrategy": "upsert",
                    "value": {"trusted_hash": h["currentHash"]},
                }
                for h in entries
                if h.get("trustStatus") != "trusted"
            ]
        if edits:
            rpc.call("config/batchWrite", {"edits": edits})
        if not untrust:
            again = rpc.call("hooks/list", {"cwds": [str(workspace)]})
            left = [
                hook["key"]
                for entry in again.get("data", [])
                for hook in entry.get("hooks", [])
                if os.path.realpath(str(hook.get("sourcePath", ""))) == target
                and is_ours({"type": "command", "command": hook.get("command", "")})
                and hook.get("trustStatus") != "trusted"
            ]
            if left:
                raise TrustError(f"Codex still lists {len(left)} of them as not trusted")
        return [h["key"] for h in entries], len(edits)
    finally:
        if server.stdin:
            server.stdin.close()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(scratch, ignore_errors=True)
        _forget_app_server_state(home, before)


_KEPT = frozenset({"config.toml", "hooks.json", "hooks.json.donecheck-backup"})
"""What the installer itself writes in ``$CODEX_HOME``; the rest of what appears there
while the app server runs is the app server's own start-up (its skills, its id)."""


def _forget_app_server_state(home: Path, before: set[str]) -> None:
    """Take out of ``home`` what the app server DoneCheck started put there and was not
    there before — nothing of the user's, nor the settings DoneCheck wrote."""
    import shutil

    if not home.is_dir():
        return
    for name in set(os.listdir(home)) - before - _KEPT:
        path = home / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


class _Rpc:
    """JSON-RPC over the app server's stdio: one request at a time, each bounded."""

    def __init__(self, server: subprocess.Popen[str], timeout_s: float) -> None:
        self.server = server
        self.timeout_s = timeout_s
        self.next_id = 0

    def notify(self, method: str) -> None:
        self._send({"jsonrpc": "2.0", "method": method})

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        import selectors
        import time

        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.server.stdout is not None
        deadline = time.monotonic() + self.timeout_s
        with selectors.DefaultSelector() as selector:
            selector.register(self.server.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TrustError(f"codex app-server did not answer {method} in time")
                line = self.server.stdout.readline()
                if not line:
                    raise TrustError(f"codex app-server ended before answering {method}")
                try:
                    message = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if message.get("id") != self.next_id:
                    continue  # a notification
                if "error" in message:
                    detail = message["error"].get("message", message["error"])
                    raise TrustError(f"codex app-server refused {method}: {detail}")
                result = message.get("result")
                return result if isinstance(result, dict) else {}

    def _send(self, message: dict[str, Any]) -> None:
        assert self.server.stdin is not None
        try:
            self.server.stdin.write(json.dumps(message) + "\n")
            self.server.stdin.flush()
        except OSError as exc:
            raise TrustError(f"codex app-server is gone: {exc}") from None


ADAPTER = Codex()
