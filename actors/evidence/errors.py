"""Unresolved errors: a command that does work, or a file write, whose latest attempt
failed and that nothing later redid successfully.

A probe (a command that only looks: ``ls``, ``grep``, ``git status``, ``python -c
"import x"``) failing says "not there", not "broken", and is never one; nor is a
failing command whose output says nothing was to be done ("nothing to commit").
A later attempt redoes the work when it is the same operation, runs the same
program on the same first argument, or — for a file tool — writes the same path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from donecheck.actors.evidence.runner import output_summary
from donecheck.actors.evidence.shell import simple_commands
from donecheck.actors.messages import Edit, Operation, ToolResult, UnresolvedError
from donecheck.actors.review.claims import path_matches

__all__ = ["unresolved_errors"]

_PROBES = frozenset(
    """ls dir cat head tail less more grep egrep fgrep rg ag ack find fd which where whereis
    type command test [ [[ stat file wc diff cmp echo printf pwd cd tree du df env printenv
    uname whoami id date ps pgrep lsof readlink realpath basename dirname true false sleep
    kill pkill killall rm rmdir mkdir sort uniq cut tr jq awk sed xxd od hexdump nl tac
    sha256sum md5sum locate man help history""".split()
)
_GIT_PROBES = frozenset(
    """status log diff show branch rev-parse remote ls-files blame grep describe config stash
    tag fetch shortlog reflog""".split()
)
_VERSION_FLAGS = {"--version", "-V", "-v", "version", "--help", "-h", "help"}
_INLINE_CODE = {"-c", "-e", "--eval", "-p", "--print"}
_BENIGN_OUTPUT = re.compile(r"(?i)nothing to commit|already up[- ]to[- ]date|no changes added")


def _is_probe(argv: Sequence[str]) -> bool:
    """A command that only looks (or whose failure only says "not there")."""
    head = argv[0].rsplit("/", 1)[-1].lower() if argv else ""
    rest = list(argv[1:])
    if not head or head in _PROBES:
        return True
    if head == "git" and rest and rest[0] in _GIT_PROBES:
        return True
    if head in {"pip", "pip3", "npm", "pnpm", "yarn", "cargo", "go", "uv", "poetry"} and rest:
        if rest[0] in {"show", "list", "ls", "freeze", "view", "info", "outdated", "search", "env"}:
            return True
    if any(arg in _VERSION_FLAGS for arg in rest[:2]):
        return True
    return bool(rest) and rest[0] in _INLINE_CODE  # python -c "import x", node -e …


def _signature(command: str) -> tuple[str, ...] | None:
    """(program, first argument) of the command's first working segment."""
    for argv in simple_commands(command):
        if argv and not _is_probe(argv):
            head = argv[0].rsplit("/", 1)[-1].lower()
            first = next((a for a in argv[1:] if not a.startswith("-")), "")
            return (head, first)
    return None


def unresolved_errors(
    ops: Sequence[Operation], edits: Sequence[Edit], results: dict[int, ToolResult]
) -> list[UnresolvedError]:
    """The latest unresolved failure of each operation, in ledger order (``ops`` and
    ``edits`` of the request; ``results`` by seq)."""
    written: dict[int, list[str | None]] = {}
    for edit in edits:
        written.setdefault(edit.seq, []).append(edit.path)
    latest: dict[str, Operation] = {}
    for i, op in enumerate(ops):
        if op.ok is not False or op.check is not None or op.result_seq is None:
            continue
        result = results.get(op.result_seq)
        if result is not None and _BENIGN_OUTPUT.search(result.output[-2_000:]):
            continue
        paths = [p for p in written.get(op.call_seq, []) if p]
        signature = None
        if op.command is not None:
            argvs = [a for a in simple_commands(op.command) if a]
            if not argvs or all(_is_probe(a) for a in argvs):
                continue
            signature = _signature(op.command)
        elif not paths:
            continue  # a tool DoneCheck does not know: its failure may be harmless
        resolved = False
        for later in ops[i + 1 :]:
            if later.ok is False:
                continue
            if later.ok is None and not (paths and later.command is None):
                continue  # unknown status: only a file tool's quiet rewrite of the path
            if later.key == op.key:
                resolved = True
            elif signature is not None and later.command is not None:
                resolved = _signature(later.command) == signature
            elif paths:
                resolved = any(
                    path_matches(p, q) for p in paths for q in written.get(later.call_seq, []) if q
                )
            if resolved:
                break
        if not resolved:
            latest[op.key] = op
    found = []
    for op in sorted(latest.values(), key=lambda o: o.call_seq):
        result = results.get(op.result_seq) if op.result_seq is not None else None
        found.append(
            UnresolvedError(
                op=op,
                summary=output_summary(result.output) if result is not None else "",
                targets=", ".join(e.path for e in edits if e.seq == op.call_seq and e.path),
            )
        )
    return found
