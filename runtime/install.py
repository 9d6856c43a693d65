"""``donecheck install``: DoneCheck's hooks merged into Claude Code's or Codex's settings.

The settings file keeps everything that is not DoneCheck's: the user's own hooks
(even on the same events), permissions, every other key. DoneCheck's hook handlers
are told apart by what they run — a command that runs ``donecheck hook``, or an
``http`` hook whose URL ends in ``/v1/hooks/claude-code`` or ``/v1/hooks/codex`` —
so installing twice changes nothing (the file is not even rewritten: Codex keys a
hook's trust to its definition) and ``--uninstall`` removes exactly them.

Claude Code (``.claude/settings.json`` of a project, ``.claude/settings.local.json``
for this checkout only, or ``~/.claude/settings.json``): ``SessionStart`` (names the
session for the pytest plugin), ``UserPromptSubmit``, ``PostToolUse`` and
``PostToolUseFailure`` (a failing tool call arrives only as the latter),
``Stop``, ``SessionEnd`` (a turn the user interrupted is cancelled), as ``command``
hooks (``donecheck hook``) or ``http`` hooks to a running ``donecheck serve``.

Codex (``$CODEX_HOME/hooks.json`` or ``<repo>/.codex/hooks.json``): ``UserPromptSubmit``,
``PostToolUse``, ``Stop``, ``Interrupt``, ``SessionEnd``, as ``command`` hooks (Codex has
no other form). Codex runs a hook only once the user has trusted its exact definition;
the installer records that trust for DoneCheck's own hooks through Codex's app server
(``hooks/list`` gives each hook's current hash, ``config/batchWrite`` stores it), the
way Codex's ``/hooks`` screen does, unless ``--no-trust`` says the user will review
them there.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from donecheck.actors.errors import InputError

__all__ = [
    "PLUGIN",
    "Change",
    "Client",
    "codex_trust",
    "hooks_for",
    "is_ours",
    "merge",
    "settings_path",
    "unmerge",
]

Client = Literal["claude-code", "codex"]
Form = Literal["command", "http"]
Scope = Literal["user", "project", "local"]

PLUGIN = Path(__file__).resolve().parent / "claude_plugin"
"""DoneCheck as a Claude Code plugin: ``claude --plugin-dir PLUGIN`` loads its hooks
(``hooks/hooks.json``, the same hooks the installer writes, ``donecheck`` from PATH)."""

_OURS_COMMAND = re.compile(r"(?:^|[/\s\"'])donecheck(?:\.exe)?[\"']?\s+hook\b")
_OURS_URL = re.compile(r"/v1/hooks/(?:claude-code|codex)/?$")

STOP_TIMEOUT_S = 600
"""A Stop hook waits for the gates and the review: Claude Code's and Codex's default
(60 s and 600 s) would cut a slow judge short on the one side."""

CLAUDE_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SessionEnd",
)
CODEX_EVENTS = ("UserPromptSubmit", "PostToolUse", "Stop", "Interrupt", "SessionEnd")
_MATCHED = {"PostToolUse", "PostToolUseFailure"}
"""Events whose groups take a tool matcher: DoneCheck wants every tool."""


@dataclass(frozen=True, slots=True)
class Change:
    event: str
    action: Literal["added", "updated", "removed", "unchanged"]
    handler: str


def is_ours(handler: Any) -> bool:
    """Is this hook handler DoneCheck's?"""
    if not isinstance(handler, dict):
        return False
    if handler.get("type") == "http":
        return bool(_OURS_URL.search(str(handler.get("url", ""))))
    return bool(_OURS_COMMAND.search(str(handler.get("command", ""))))


def _describe(handler: dict[str, Any]) -> str:
    return str(handler.get("url") or handler.get("command") or handler)


def hooks_for(client: Client, form: Form, command: str, url: str) -> dict[str, list[Any]]:
    """DoneCheck's hook groups for ``client``, by event. ``command`` runs the hook
    client (``…/donecheck hook``), ``url`` is the service's base URL."""
    if client == "codex":
        if form != "command":
            raise InputError("Codex runs command hooks only: use --form command")
        agent = f"{command} --agent codex"
        groups: dict[str, list[Any]] = {}
        for event in CODEX_EVENTS:
            handler: dict[str, Any] = {"type": "command", "command": agent}
            if event == "Stop":
                handler["timeout"] = STOP_TIMEOUT_S
            groups[event] = [{"hooks": [handler]}]
        return groups
    groups = {}
    for event in CLAUDE_EVENTS:
        if form == "http" and event != "SessionStart":  # SessionStart writes a local file
            handler = {"type": "http", "url": url.rstrip("/") + "/v1/hooks/claude-code"}
        else:
            handler = {"type": "command", "command": command}
        if event == "Stop":
            handler["timeout"] = STOP_TIMEOUT_S
        group: dict[str, Any] = {"hooks": [handler]}
        if event in _MATCHED:
            group = {"matcher": "*", **group}
        groups[event] = [group]
    return groups


def _hooks_table(settings: dict[str, Any], path: Path) -> dict[str, Any]:
    table = settings.setdefault("hooks", {})
    if not isinstance(table, dict):
        raise InputError(f"{path}: its 'hooks' is not an object; fix or remove it first")
    return table


def _without_ours(groups: Any) -> tuple[list[Any], list[dict[str, Any]]]:
    """The event's groups with DoneCheck's handlers taken out (a group left empty by
    that goes too), and the handlers taken out."""
    kept: list[Any] = []
    removed: list[dict[str, Any]] = []
    for group in groups if isinstance(groups, list) else []:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(handlers, list):
            kept.append(group)
            continue
        mine = [h for h in handlers if is_ours(h)]
        if not mine:
            kept.append(group)
            continue
        removed.extend(mine)
        rest = [h for h in handlers if not is_ours(h)]
        if rest:
            kept.append({**group, "hooks": rest})
    return kept, removed


def merge(
    settings: dict[str, Any], ours: dict[str, list[Any]], path: Path
) -> tuple[dict[str, Any], list[Change]]:
    """``settings`` with DoneCheck's hooks set to ``ours``: the user's hooks stay, in
    their order, and DoneCheck's group comes after them."""
    merged = copy.deepcopy(settings)
    table = _hooks_table(merged, path)
    changes: list[Change] = []
    for event, groups in ours.items():
        current = table.get(event, [])
        kept, removed = _without_ours(current)
        table[event] = [*kept, *copy.deepcopy(groups)]
        action: Literal["added", "updated", "unchanged"] = (
            "unchanged" if table[event] == current else "updated" if removed else "added"
        )
        described = ", ".join(_describe(h) for g in groups for h in g["hooks"])
        changes.append(Change(event, action, described))
    return merged, changes


def unmerge(settings: dict[str, Any], path: Path) -> tuple[dict[str, Any], list[Change]]:
    """``settings`` without DoneCheck's hooks (an event left with no group goes too)."""
    merged = copy.deepcopy(settings)
    table = merged.get("hooks")
    if not isinstance(table, dict):
        return merged, []
    changes: list[Change] = []
    for event in list(table):
        kept, removed = _without_ours(table[event])
        if not removed:
            continue
        changes.extend(Change(event, "removed", _describe(h)) for h in removed)
        if kept:
            table[event] = kept
        else:
            del table[event]
    if not table:
        del merged["hooks"]
    return merged, changes


def settings_path(client: Client, scope: Scope, workspace: Path) -> Path:
    if client == "codex":
        if scope == "local":
            raise InputError("Codex has no local scope: use --scope user or --scope project")
        if scope == "project":
            return workspace / ".codex" / "hooks.json"
        home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
        return Path(home) / "hooks.json"
    if scope == "user":
        home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
            os.path.expanduser("~"), ".claude"
        )
        return Path(home) / "settings.json"
    name = "settings.local.json" if scope == "local" else "settings.json"
    return workspace / ".claude" / name


def read_settings(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        value = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}); it was left as it is"
        ) from None
    if not isinstance(value, dict):
        raise InputError(f"{path}: not a JSON object; it was left as it is")
    return value


def write_settings(path: Path, settings: dict[str, Any]) -> bool:
    """Write ``settings`` atomically; ``False`` (and nothing written) when the file
    already says exactly that."""
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.donecheck-{os.getpid()}.tmp")
    temp.write_text(text, encoding="utf-8")
    if path.exists():
        os.chmod(temp, path.stat().st_mode & 0o777)
    os.replace(temp, path)
    return True


def hook_command() -> str:
    """How a hook runs ``donecheck hook``: this installation's own script by its full
    path (a hook's ``PATH`` is not the shell's), else ``donecheck`` from ``PATH``."""
    script = Path(sys.executable).with_name("donecheck")
    if script.is_file() and os.access(script, os.X_OK):
        return f"{_quoted(str(script))} hook"
    found = shutil.which("donecheck")
    return f"{_quoted(found)} hook" if found else "donecheck hook"


def _quoted(path: str) -> str:
    return f'"{path}"' if re.search(r"[\s'\"$`\\]", path) else path


# ---------------------------------------------------------------- Codex trust


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
    try:
        server = subprocess.Popen(
            [codex, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workspace,
            text=True,
        )
    except OSError as exc:
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


def summarise(changes: Iterable[Change]) -> list[str]:
    return [f"  {c.action:<9} {c.event}: {c.handler}" for c in changes]
