"""What an agent's tool calls do, read from one table: the action model.

Every decision reads :class:`~.model.Action` s, never a tool's name or argument
keys. The layers, from the bottom:

========================  ==========================================================
:mod:`.model`             :class:`Action` and :class:`Touch` (what a call did to a file)
:mod:`.shellwords`        the one shell lexer: simple commands, redirections, heredocs
:mod:`.sed`               ``sed`` scripts read and applied to a text
:mod:`.patches`           V4A, unified diff and SEARCH/REPLACE patches, per file
:mod:`.shellfiles`        what a shell line does to files: a row per program
:mod:`.dialects`          a row per agent tool; :func:`read_action` reads a call
========================  ==========================================================

:class:`ActionReader` reads a session's calls in order, keeping what one call
leaves for the next (the file SWE-agent's editor has open).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from donecheck.actors.actions.dialects import (
    AGENTS,
    ROWS,
    Row,
    as_call,
    command_text,
    read_action,
    render,
)
from donecheck.actors.actions.model import CHANGES, SHOWS, Action, Kind, Op, Touch
from donecheck.actors.actions.shellfiles import shell_touches

__all__ = [
    "AGENTS",
    "CHANGES",
    "ROWS",
    "SHOWS",
    "Action",
    "ActionReader",
    "Kind",
    "Op",
    "Row",
    "Touch",
    "as_call",
    "command_text",
    "read_action",
    "render",
    "shell_touches",
]


class ActionReader:
    """:func:`read_action` over a session's calls in order: a call that opens a file
    for a windowed editor (SWE-agent's ``open``) names the file a later path-less
    line edit acts on."""

    __slots__ = ("opened",)

    def __init__(self) -> None:
        self.opened: str | None = None

    def read(self, name: str, arguments: Mapping[str, Any] | str) -> Action:
        action = read_action(name, arguments, self.opened)
        if action.opens is not None:
            self.opened = action.opens
        return action
