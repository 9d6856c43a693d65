"""``donecheck install``: DoneCheck's hooks merged into an agent CLI's settings.

What each CLI's settings file is, which events DoneCheck hooks and how a hook handler
looks, and what else a CLI needs for the hooks to run (Codex's trust) is the CLI's
adapter's (:mod:`donecheck.runtime.clients`); this module merges them into a settings
file and takes them out again, for every CLI alike.

The settings file keeps everything that is not DoneCheck's: the user's own hooks
(even on the same events), permissions, every other key. DoneCheck's hook handlers
are told apart by what they run — a command that runs ``donecheck hook``, or an
``http`` hook whose URL ends in ``/v1/hooks/<agent>`` — so installing twice changes
nothing (the file is not even rewritten: Codex keys a hook's trust to its
definition) and ``--uninstall`` removes exactly them.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from donecheck.actors.errors import InputError
from donecheck.runtime.clients import adapter, names

__all__ = [
    "Change",
    "backup_path",
    "hooks_for",
    "is_ours",
    "keep_before",
    "merge",
    "restore_before",
    "settings_path",
    "unmerge",
]

_OURS_COMMAND = re.compile(r"(?:^|[/\s\"'])donecheck(?:\.exe)?[\"']?\s+hook\b")
_OURS_URL = re.compile(r"/v1/hooks/(?:" + "|".join(re.escape(n) for n in names()) + r")/?$")


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


def hooks_for(client: str, form: str, command: str, url: str) -> dict[str, list[Any]]:
    """DoneCheck's hook groups for ``client``, by event. ``command`` runs the hook
    client (``…/donecheck hook``), ``url`` is the service's base URL."""
    found = adapter(client)
    if form not in found.forms:
        raise InputError(
            f"{found.title} runs {' or '.join(found.forms)} hooks only: use --form {found.forms[0]}"
        )
    return found.hooks(form, command, url)


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


def settings_path(client: str, scope: str, workspace: Path) -> Path:
    found = adapter(client)
    if scope not in found.scopes:
        raise InputError(
            f"{found.title} has no {scope} scope: use --scope {' or --scope '.join(found.scopes)}"
        )
    return found.settings_path(scope, workspace)


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


def summarise(changes: Iterable[Change]) -> list[str]:
    return [f"  {c.action:<9} {c.event}: {c.handler}" for c in changes]


# ------------------------------------------------- byte for byte on uninstall


def backup_path(settings: Path) -> Path:
    """Where the installer keeps the settings file as it was before DoneCheck's hooks
    went in, so ``--uninstall`` puts it back byte for byte (or removes a file it
    created)."""
    return settings.with_name(settings.name + ".donecheck-backup")


def keep_before(path: Path) -> None:
    """Keep the settings file as it is now (or that there was none) — unless it holds
    DoneCheck's hooks already: then it is not the file before them, and an install
    that changes nothing writes nothing."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raw = None
    if raw is not None:
        try:
            table = json.loads(raw or b"{}").get("hooks")
        except (ValueError, AttributeError):
            table = None
        groups = table.values() if isinstance(table, dict) else []
        if any(
            is_ours(h)
            for g in groups
            for group in (g if isinstance(g, list) else [])
            for h in (group.get("hooks") or [] if isinstance(group, dict) else [])
        ):
            return
    record = {"existed": raw is not None, "bytes": base64.b64encode(raw or b"").decode()}
    backup = backup_path(path)
    backup.parent.mkdir(parents=True, exist_ok=True)
    backup.write_text(json.dumps(record) + "\n", encoding="utf-8")


def _without_empty_hooks(settings: Any) -> Any:
    """``settings`` without hook events that list nothing, nor an empty hooks table:
    what taking DoneCheck's hooks out of ``{"hooks": {"Stop": []}}`` leaves says the same."""
    if not isinstance(settings, dict) or not isinstance(settings.get("hooks"), dict):
        return settings
    table = {event: groups for event, groups in settings["hooks"].items() if groups != []}
    rest = {key: value for key, value in settings.items() if key != "hooks"}
    return {**rest, "hooks": table} if table else rest


def restore_before(path: Path, write: Callable[[], None], say: Callable[[str], None]) -> None:
    """Put the file back as it was before DoneCheck's hooks went in — when, without
    them, it says what it said then; else take only DoneCheck's hooks out."""
    backup = backup_path(path)
    try:
        record = json.loads(backup.read_text(encoding="utf-8"))
        existed = bool(record["existed"])
        before = base64.b64decode(record["bytes"])
    except (OSError, ValueError, KeyError, TypeError):
        write()
        return
    now = unmerge(read_settings(path), path)[0] if path.exists() else {}
    try:
        then = json.loads(before.decode("utf-8") or "{}") if existed else {}
    except ValueError:
        then = None
    if _without_empty_hooks(now) == _without_empty_hooks(then):
        if existed:
            path.write_bytes(before)
            say(f"{path}: restored as it was before DoneCheck's hooks went in")
        elif path.exists():
            path.unlink()
            say(f"{path}: removed (DoneCheck's installer had created it)")
    else:
        write()
        say(f"{path}: changed since DoneCheck's hooks went in: only they were taken out")
    backup.unlink(missing_ok=True)
