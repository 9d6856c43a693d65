"""Patches, read into what they do to each file: one reader for every patch form an
agent sends.

=========================  ===========================================================
form                       looks like
=========================  ===========================================================
apply_patch (V4A)          ``*** Begin Patch`` / ``*** Add|Update|Delete File: p`` /
                           ``*** Move to: q`` / ``@@`` hunks (Codex, OpenAI's tool,
                           OpenCode's ``patch``)
unified diff               ``--- a/p`` / ``+++ b/p`` / ``@@ -1,3 +1,3 @@`` (``git diff``,
                           ``diff -u``, ``git apply``, ``patch``), ``diff --git`` headers
                           with ``new file``, ``deleted file``, ``rename from|to``
SEARCH/REPLACE             ``<<<<<<< SEARCH`` / ``=======`` / ``>>>>>>> REPLACE`` (Aider,
                           the file named on the line before; Roo Code's ``apply_diff``
                           with ``:start_line:`` and ``-------``), Cline's
                           ``------- SEARCH`` / ``=======`` / ``+++++++ REPLACE``
=========================  ===========================================================

Each hunk becomes a :class:`~.model.Touch`: ``edit`` with the text it replaces
(context and removed lines) and the text that replaces it (context and added
lines), ``write`` for a new file (its content), ``delete``, and for a move a
``delete`` of the old path and a ``write`` of the new one. Paths are taken whole
(``docs/my notes.md``), git's quoting and ``a/``/``b/`` prefixes undone.
"""

from __future__ import annotations

import functools
import re

from donecheck.actors.actions.model import Touch

__all__ = ["is_patch", "patch_touches"]

_V4A_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$")
_V4A_MOVE = re.compile(r"^\*\*\* Move to: (.+?)\s*$")
_SEARCH = re.compile(r"^\s*(?:<{5,9}|-{5,9})\s*SEARCH\s*$")
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_REPLACE = re.compile(r"^\s*(?:>{5,9}|\+{5,9})\s*REPLACE\s*$")
_ROO_META = re.compile(r"^:(?:start|end)_line:\s*\d*\s*$")
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")
_MAX_TOUCHES = 500


def is_patch(text: str) -> bool:
    """Whether ``text`` is a patch in one of the forms this module reads."""
    return (
        "*** Begin Patch" in text
        or re.search(r"(?m)^\+\+\+ ", text) is not None
        or re.search(r"(?m)^(?:<{5,9}|-{5,9})\s*SEARCH\s*$", text) is not None
    )


def _unquote(path: str) -> str:
    path = path.strip()
    if len(path) >= 2 and path[0] == path[-1] == '"':
        try:
            path = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
            path = path.encode("latin-1").decode("utf-8")
        except (UnicodeDecodeError, UnicodeEncodeError):
            path = path[1:-1]
    return path


def _diff_path(rest: str) -> str | None:
    """The path of a ``---``/``+++`` line's rest: up to a tab (a timestamp follows),
    quotes undone, ``a/``/``b/`` stripped; ``None`` for ``/dev/null``."""
    path = _unquote(rest.split("\t", 1)[0].rstrip())
    if path == "/dev/null":
        return None
    if path.startswith(("a/", "b/")):
        path = path[2:]
    return path or None


def _hunk_line(line: str, old: list[str], new: list[str]) -> None:
    """One line of a hunk: removed (``-``), added (``+``), or context on both sides;
    ``\\ No newline at end of file`` and the like are neither."""
    if line.startswith("-"):
        old.append(line[1:])
    elif line.startswith("+"):
        new.append(line[1:])
    elif line.startswith(" ") or line == "":
        old.append(line[1:])
        new.append(line[1:])


def _v4a(lines: list[str]) -> list[Touch]:
    touches: list[Touch] = []
    path: str | None = None
    action = ""
    old: list[str] = []
    new: list[str] = []
    added: list[str] = []

    def flush_hunk() -> None:
        if path is not None and action == "Update" and (old or new) and old != new:
            touches.append(Touch(path, "edit", old="\n".join(old), new="\n".join(new)))
        old.clear()
        new.clear()

    def flush_file() -> None:
        flush_hunk()
        if path is not None and action == "Add":
            touches.append(Touch(path, "write", new="\n".join(added) + ("\n" if added else "")))
        elif path is not None and action == "Update" and not any(t.path == path for t in touches):
            touches.append(Touch(path, "edit"))  # named, its hunks not given
        added.clear()

    for line in lines:
        head = _V4A_FILE.match(line)
        if head is not None:
            flush_file()
            action, path = head.group(1), head.group(2).strip()
            if action == "Delete":
                touches.append(Touch(path, "delete"))
            continue
        moved = _V4A_MOVE.match(line)
        if moved is not None and path is not None:
            touches.append(Touch(path, "delete"))
            touches.append(Touch(moved.group(1).strip(), "write", source=path))
            path = moved.group(1).strip()
            continue
        if line.startswith(("*** End Patch", "*** Begin Patch", "*** End of File")):
            continue
        if action == "Add":
            if line.startswith("+"):
                added.append(line[1:])
            continue
        if action != "Update":
            continue
        if line.startswith("@@"):
            flush_hunk()
        else:
            _hunk_line(line, old, new)
    flush_file()
    return touches


def _unified(lines: list[str]) -> list[Touch]:
    touches: list[Touch] = []
    source: str | None = None
    target: str | None = None
    header: dict[str, str] = {}
    old: list[str] = []
    new: list[str] = []
    in_hunk = False
    created = deleted = False

    def flush_hunk() -> None:
        if target is not None and not created and (old or new) and old != new:
            touches.append(Touch(target, "edit", old="\n".join(old), new="\n".join(new)))
        old.clear()
        new.clear()

    def flush_file() -> None:
        nonlocal created, deleted, source, target
        if created and target is not None:
            touches.append(Touch(target, "write", new="\n".join(new) + ("\n" if new else "")))
            new.clear()
        flush_hunk()
        if deleted and source is not None:
            touches.append(Touch(source, "delete"))
        elif "from" in header and "to" in header and not touches_of(header["to"]):
            touches.append(Touch(header["from"], "delete"))
            touches.append(Touch(header["to"], "write", source=header["from"]))
        created = deleted = False
        source = target = None
        header.clear()

    def touches_of(path: str) -> bool:
        return any(t.path == path for t in touches)

    for line in lines:
        if line.startswith("diff --git "):
            flush_file()
            in_hunk = False
            continue
        if line.startswith(("rename from ", "rename to ")):
            header["from" if line.startswith("rename from") else "to"] = _unquote(
                line.split(" ", 2)[2]
            )
            continue
        if line.startswith("--- ") and (not in_hunk or not old):
            if source is not None or target is not None:
                flush_file()
            source = _diff_path(line[4:])
            deleted = False
            in_hunk = False
            continue
        if line.startswith("+++ ") and not in_hunk:
            target = _diff_path(line[4:])
            created = source is None and target is not None
            deleted = target is None and source is not None
            continue
        if line.startswith("@@"):
            flush_hunk() if not created else None
            in_hunk = True
            continue
        if in_hunk:
            _hunk_line(line, old, new)
    flush_file()
    return touches


def _filename(line: str) -> str | None:
    """The file a line before a SEARCH block names, as Aider writes it (alone on its
    line; a trailing ``:``, a leading ``#``, backticks and asterisks around it are
    not part of it), or ``None``."""
    name = line.strip().rstrip(":").lstrip("#").strip().strip("`*").strip()
    if not name or (" " in name.strip() and "/" not in name) or len(name) > 300:
        return None
    return name if ("." in name or "/" in name) and not name.endswith(".") else None


def _search_replace(lines: list[str], path: str | None) -> list[Touch]:
    """SEARCH/REPLACE blocks; each block's file is the line before it that names one
    (Aider), else ``path`` (the tool's own path argument)."""
    touches: list[Touch] = []
    named = path
    state = ""
    old: list[str] = []
    new: list[str] = []
    previous = ""
    for line in lines:
        if state == "":
            if _SEARCH.match(line):
                given = _filename(previous)
                named = given if given is not None else path
                state = "search"
                old, new = [], []
            elif line.strip() and not _FENCE.match(line):
                previous = line.strip()
            continue
        if state == "search":
            if _DIVIDER.match(line):
                state = "replace"
            elif not (_ROO_META.match(line) or (not old and line.strip() == "-------")):
                old.append(line)
            continue
        if _REPLACE.match(line):
            if named is not None and old != new:
                touches.append(Touch(named, "edit", old="\n".join(old), new="\n".join(new)))
            state = ""
            continue
        new.append(line)
    return touches


@functools.lru_cache(maxsize=2048)
def patch_touches(text: str, path: str | None = None) -> tuple[Touch, ...]:
    """What the patch ``text`` does to each file, in order (``path``: the file a
    SEARCH/REPLACE tool names in another argument). Empty when ``text`` is in no
    form this module reads."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if "*** Begin Patch" in text or any(_V4A_FILE.match(x) for x in lines[:50]):
        found = _v4a(lines)
    elif any(_SEARCH.match(x) for x in lines):
        found = _search_replace(lines, path)
    else:
        found = _unified(lines)
    return tuple(found[:_MAX_TOUCHES])
