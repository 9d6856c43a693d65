"""Which files the agent's tool calls write, and the file snapshots the ledger holds."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from donecheck.actors.actions.shellwords import steps, strip_wrappers
from donecheck.actors.messages import Edit, FileSnapshot, LedgerEntry, Operation

__all__ = [
    "edits_of",
    "last_edit_seq",
    "script_runs",
    "snapshots",
]

_RUNS_SCRIPTS = re.compile(
    r"^(?:python[\d.]*|pypy[\d.]*|bash|sh|zsh|dash|node|nodejs|ruby|perl|php|bun|tsx|ts-node)$"
)
"""Programs whose first operand is a script they run (``python gen.py``)."""


@functools.lru_cache(maxsize=8192)
def _scripts(command: str) -> tuple[str, ...]:
    """The files a shell command runs as programs: ``python gen.py``, ``bash
    setup.sh``, ``./make.sh``, ``/tmp/x/run.sh``, ``deno run x.ts``."""
    found: list[str] = []
    for step in steps(command):
        argv = list(strip_wrappers(step.raw, keep_path=True))
        if not argv:
            continue
        program = argv[0].replace("\\", "/")
        head = program.rsplit("/", 1)[-1]
        if head == "deno" and argv[1:2] == ["run"]:
            argv = argv[1:]
            head = "deno"
        if _RUNS_SCRIPTS.match(head) or head == "deno":
            for arg in argv[1:]:
                if arg in {"-c", "-m", "-e", "--eval", "-p", "--print", "-"}:
                    break  # inline code, a module, standard input: no script file
                if not arg.startswith("-"):
                    found.append(arg)
                    break
        elif program.startswith(("./", "../", "/")):
            found.append(program)
    return tuple(dict.fromkeys(found))


def scripts_of(command: str) -> tuple[str, ...]:
    """The script files a shell command runs (``python gen.py``, ``./make.sh``)."""
    return _scripts(command)


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
