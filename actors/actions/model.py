"""The normalised action: what one tool call of any agent does, whatever it was called.

An :class:`Action` says what kind of thing a call did (ran a command, wrote, edited,
patched, read, deleted or moved files, searched, started a sub-agent, answered …)
and, as :class:`Touch` es, what it did to each file it names. Every decision reads
these; none looks at a tool's name or its argument keys.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import msgspec

__all__ = ["CHANGES", "SHOWS", "Action", "Kind", "Op", "Touch"]

Kind: TypeAlias = Literal[
    "run",  # a shell command
    "write",  # a whole file written
    "edit",  # text in a file replaced
    "multi-edit",  # several replacements in one file
    "patch",  # a patch of one or more files
    "read",  # a file's content shown to the agent
    "view",  # an image or a rendered file shown to the agent
    "delete",
    "move",
    "copy",
    "search",  # a search over files (grep, glob, find)
    "list",  # a folder listed
    "output",  # the output of a background command fetched
    "sub-agent",  # another agent started with a prompt
    "answer",  # the final answer given through a tool (attempt_completion, finish)
    "ask",  # a question to the user
    "plan",  # a to-do list or plan, nothing done
    "web",  # a web page fetched or searched
    "other",
]
Op: TypeAlias = Literal[
    "write",  # the whole file: ``new`` its content (None: not known)
    "append",  # ``new`` added at its end (None: not known)
    "edit",  # ``old`` replaced by ``new``; with ``lines``, those lines replaced by ``new``
    "sed",  # a sed script (``new``) applied in place; ``extended``: ERE
    "delete",
    "restore",  # put back from version control: ``source`` the revision ("" HEAD/index)
    "touch",  # created if missing; content unchanged
    "read",  # its content shown whole
    "partial",  # part of its content shown
    "metadata",  # only its size, type, listing or checksum shown
]
CHANGES: frozenset[str] = frozenset(
    {"write", "append", "edit", "sed", "delete", "restore", "touch"}
)
"""Ops that change a file (or may: ``touch``)."""
SHOWS: frozenset[str] = frozenset({"read", "partial", "metadata"})
"""Ops that show something of a file to the agent."""


class Touch(msgspec.Struct, frozen=True):
    """What one action did to one file."""

    path: str | None
    """The file as the call named it (``None``: files it does not name — ``git
    stash``, ``git reset --hard``, a patch whose files are not given)."""
    op: Op
    old: str | None = None
    new: str | None = None
    source: str | None = None
    """Where the new content came from: the file copied or moved from, or the
    revision a restore took it from."""
    lines: tuple[int, int] | None = None
    """The 1-based line range an edit replaced, when it names lines not text."""
    extended: bool = False
    """``sed -E``: the script's regular expressions are extended ones."""
    via: str = ""
    """The program of a shell line that did it (``cat``, ``sed``), for the card."""

    @property
    def changes(self) -> bool:
        return self.op in CHANGES


class Action(msgspec.Struct, frozen=True, kw_only=True):
    """What one tool call did, read from its name and arguments by the dialect table
    (:mod:`.dialects`) — or, for a tool no row names, from the shape of its
    arguments (``inferred``)."""

    kind: Kind
    tool: str
    """The tool's name as called."""
    dialect: str = ""
    """The agent whose table row read it (``""``: inferred)."""
    inferred: bool = False
    """No row names this tool: its kind was read from the shape of its arguments."""
    command: str | None = None
    """The shell command it ran (``run``)."""
    touches: tuple[Touch, ...] = ()
    text: str = ""
    """An answer's, a question's or a sub-agent prompt's text."""
    opens: str | None = None
    """The file it opened for later path-less line edits (SWE-agent's ``open``)."""
    task: str = ""
    """The background task whose output it fetched (an ``output`` call)."""

    @property
    def writes(self) -> tuple[str | None, ...]:
        """The paths it changes, in order (``None`` for files it does not name)."""
        return tuple(dict.fromkeys(t.path for t in self.touches if t.op in CHANGES))

    @property
    def changes_files(self) -> bool:
        return any(t.op in CHANGES for t in self.touches)

    @property
    def shown(self) -> tuple[str, ...]:
        """The paths whose content (whole or in part) it showed."""
        return tuple(
            dict.fromkeys(t.path for t in self.touches if t.op in {"read", "partial"} and t.path)
        )
