"""Which files the agent's tool calls write, and the file snapshots the ledger holds."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from donecheck.actors.messages import Edit, FileSnapshot, LedgerEntry, Operation, ToolCall

__all__ = [
    "EDITOR_TOOLS",
    "PATH_KEYS",
    "edits_of",
    "last_edit_seq",
    "script_runs",
    "snapshots",
    "write_paths",
]

_WRITE_TOOLS = {
    "write",
    "write_file",
    "create_file",
    "edit",
    "edit_file",
    "multiedit",
    "multi_edit",
    "str_replace",
    "replace_in_file",
    "insert",
    "insert_text",
    "apply_patch",
    "patch",
    "notebookedit",
    "notebook_edit",
    "append_file",
    "append_to_file",
    "delete_file",
    "move_file",
    "rename_file",
    "create",
    "overwrite_file",
    "save_file",
    "update_file",
}
EDITOR_TOOLS = {"str_replace_editor", "str_replace_based_edit_tool", "text_editor"}
"""Editor tools that read (``command: view``) or write, depending on their command."""
_EDITOR_WRITES = {"create", "str_replace", "insert", "undo_edit"}
PATH_KEYS = (
    "path",
    "file_path",
    "filepath",
    "filename",
    "file",
    "target_file",
    "notebook_path",
    "target",
    "destination",
)
"""Argument names under which file tools take the path they act on."""
_PATCH_PATHS = re.compile(r"(?m)^(?:\*\*\* (?:Add|Update|Delete) File: |\+\+\+ (?:b/)?)(\S+)")
_SHELL_WRITE = re.compile(
    r"""(?x)
    (?:^|[^0-9&>])>>?[ \t]*(?!&|/dev/null)(?P<redir>"[^"]*"|'[^']*'|[^\s;&|]+)   # > file, >> file
    | \btee\s+(?:-a\s+)?(?P<tee>"[^"]*"|'[^']*'|[^\s;&|]+)
    | \b(?:sed|perl)\s+(?:-[a-zA-Z]*i[a-zA-Z]*\S*)\s.*?
      (?P<sed>"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:$|[;&|])
    | \b(?P<verb>git\s+apply|git\s+checkout|git\s+restore|patch\b|cp\b|mv\b|rm\b|touch\b)
    """
)


def write_paths(call: ToolCall, command: str | None) -> list[str | None] | None:
    """Paths a call writes (``None`` inside the list for an unnamed target)."""
    if command is not None:
        shell = _shell_write_paths(command)
        return list(shell) if shell else None
    name = call.name.lower()
    args = call.arguments if isinstance(call.arguments, dict) else {}
    if name in EDITOR_TOOLS:
        if args.get("command") not in _EDITOR_WRITES:
            return None
    elif name not in _WRITE_TOOLS:
        return None
    for key in PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return [value]
    patch = args.get("patch") or args.get("input") or args.get("diff")
    if isinstance(call.arguments, str):
        patch = call.arguments
    if isinstance(patch, str):
        found: list[str | None] = list(dict.fromkeys(_PATCH_PATHS.findall(patch)))
        if found:
            return found
    return [None]


_HEREDOC = re.compile(
    r"""<<-?[ \t]*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n.*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|\Z)""", re.S
)


_FILE_VERB = re.compile(r"\b(?:tee|cp|mv|touch|rm)\b")
_IN_PLACE = re.compile(r"\b(?:sed|perl)\s+-[a-zA-Z]*i")


def shell_code(command: str) -> str:
    """``command`` with what is text, not shell, blanked out: here-document bodies
    (``git commit -m "$(cat <<'EOF' … <a@b.c>\nEOF)"``) and the inside of quoted
    strings, but a quoted redirection target (``> "out file.txt"``) and a quoted
    argument of a file verb stay. The length is kept, so offsets still match."""
    if "'" not in command and '"' not in command and "<<" not in command:
        return command  # nothing but shell
    command = _HEREDOC.sub(
        lambda m: m.group(0)[: m.start(2) - m.start() + len(m.group(2))].ljust(len(m.group(0))),
        command,
    )
    out = list(command)
    quote = ""
    keep = False
    for i, ch in enumerate(command):
        if quote:
            if ch == quote and (quote == "'" or command[i - 1] != "\\"):
                quote = ""
            elif not keep and ch != "\n":
                out[i] = " "
        elif ch in "'\"":
            quote = ch
            before = command[:i].rstrip(" \t")
            segment = re.split(r"[;&|\n]", before)[-1]
            keep = (
                before.endswith(">")
                or _FILE_VERB.search(segment) is not None
                # sed -i 's/a/b/' "my file.py": the script is text, the file is not
                or (_IN_PLACE.search(segment) is not None and ("'" in segment or '"' in segment))
            )
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def _shell_write_paths(command: str) -> tuple[str | None, ...]:
    """The paths a shell command writes (``None`` for a write verb's unnamed target)."""
    paths: list[str | None] = []
    for match in _SHELL_WRITE.finditer(shell_code(command)):
        path = match.group("redir") or match.group("tee") or match.group("sed")
        if path is not None and path.strip("'\" "):
            paths.append(path.strip("'\""))
        elif match.group("verb"):
            paths.append(None)
    return tuple(dict.fromkeys(paths))


_RUN_SCRIPT = re.compile(
    r"""(?x)(?:^|[;&|(]\s*|\bthen\s+|\bdo\s+)
    (?:sudo\s+)?(?:(?:python[\d.]*|bash|sh|zsh|node|ruby|perl|php|deno\s+run|bun|tsx|ts-node)
    \s+(?:-[^\s-]\S*\s+)*(?P<script>[^\s;&|-][^\s;&|]*)
    | (?P<exe>\.{0,2}/[^\s;&|]+))"""
)


@functools.lru_cache(maxsize=8192)
def _scripts(command: str) -> tuple[str, ...]:
    """The files a shell command runs as programs: ``python gen.py``, ``bash
    setup.sh``, ``./make.sh``, ``/tmp/x/run.sh``."""
    found = [m.group("script") or m.group("exe") for m in _RUN_SCRIPT.finditer(command)]
    return tuple(dict.fromkeys(p.strip("'\"") for p in found if p))


def _base(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def script_runs(ops: Iterable[Operation], written: Iterable[Edit]) -> list[int]:
    """Call seqs of the commands that ran, without failing, a script the agent wrote
    before: such a script may write files no command names (``bash setup.sh``
    writing ``/home/alice/welcome.txt``). A check (``pytest``) is not one."""
    writes = [(e.seq, _base(e.path)) for e in written if e.path is not None]
    out = []
    for op in ops:
        if op.command is None or op.check is not None or op.ok is False:
            continue
        names = {_base(p) for p in _scripts(op.command)}
        if any(seq < op.call_seq and name in names for seq, name in writes):
            out.append(op.call_seq)
    return out


def edits_of(ops: Iterable[Operation]) -> list[Edit]:
    """:func:`edits` from the entries' :func:`operations` (each call's written paths
    were read when it was paired: nothing is parsed again)."""
    return [
        Edit(
            seq=op.call_seq,
            tool=op.tool,
            path=path,
            ok=op.ok if op.result_seq is not None else None,
            at=op.at,
        )
        for op in ops
        for path in op.writes
    ]


def last_edit_seq(ops: Iterable[Operation]) -> int | None:
    """Sequence number of the latest write that did not fail, if any (``ops`` are
    :func:`operations` of the entries)."""
    seqs = [e.seq for e in edits_of(ops) if e.ok is not False]
    return max(seqs) if seqs else None


def snapshots(entries: Iterable[LedgerEntry], max_targets: int) -> tuple[list[FileSnapshot], int]:
    """The latest snapshot of each of the first ``max_targets`` paths, and how many
    further paths were not watched (DoneCheck does not watch a whole workspace)."""
    latest: dict[str, FileSnapshot] = {}
    ignored: set[str] = set()
    for entry in entries:
        event = entry.event
        if not isinstance(event, FileSnapshot):
            continue
        if event.path in latest or len(latest) < max_targets:
            latest[event.path] = event
        else:
            ignored.add(event.path)
    return list(latest.values()), len(ignored)
