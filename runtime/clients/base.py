"""The one seam every agent CLI adapter fills (:class:`ClientAdapter`), and the parts
two or more of them share."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

if TYPE_CHECKING:
    from donecheck.runtime.transcripts.openai import Transcript

__all__ = [
    "BlockAnswers",
    "ClientAdapter",
    "HookEvent",
    "ToolEvent",
    "agent_command_hooks",
    "exit_code_in",
    "settings_hooks",
    "timed_call_id",
]

HookEvent: TypeAlias = Literal["prompt", "tool", "stop", "interrupt", "end", "start", ""]
"""What a hook payload is to DoneCheck: a user's prompt, a finished tool call, a stop,
the user interrupting the turn, the session ending, the session starting — or ``""``,
an event DoneCheck does not act on."""


@dataclass(frozen=True, slots=True)
class ToolEvent:
    """One finished tool call, as a post-tool hook payload tells it."""

    name: str
    arguments: dict[str, Any] | str
    call_id: str | None
    """The client's own id of the call, when the payload carries one."""
    output: str
    ok: bool | None = None
    """``False`` when the client says the call failed; ``None`` when the exit status
    (or the output) has to say."""
    exit_code: int | None = None
    images: list[tuple[str, bytes]] = field(default_factory=list)
    """``(extension, bytes)`` of each image the tool returned."""


class ClientAdapter(Protocol):
    """Everything DoneCheck knows about one agent CLI."""

    name: str
    """As users name it: ``donecheck install <name>``, ``/v1/hooks/<name>``."""
    title: str
    prefix: str
    """DoneCheck's session id of one of its sessions is ``<prefix>-<its session id>``."""
    block_cap: int | None
    """The CLI's own cap on consecutive blocked stops (``None``: it has none, and
    DoneCheck's own :class:`~donecheck.runtime.hooks.BlockCap` is the only one)."""
    continuations: tuple[str, ...]
    """Regular expressions (verbose mode) of how the CLI hands a blocked stop's reason
    back to the model as a user message: DoneCheck's continuation, never a request."""
    injected: tuple[str, ...]
    """Regular expressions (verbose mode) of text the CLI puts into the user's turn
    that the user never typed (notices, context, echoes)."""
    forms: tuple[str, ...]
    """The hook forms ``donecheck install`` can write: ``command``, ``http``."""
    scopes: tuple[str, ...]
    """The settings scopes: ``user``, ``project``, ``local``."""

    # -- hook payloads
    def event(self, payload: Mapping[str, Any]) -> HookEvent: ...
    def tool(self, payload: Mapping[str, Any]) -> ToolEvent: ...
    def answer(self, payload: Mapping[str, Any]) -> str:
        """The assistant text a stop payload carries (``""``: none; the log has it)."""
        ...

    def waiting_on(self, payload: Mapping[str, Any]) -> list[str]:
        """What a stop payload says still runs (a background sub-agent): the turn that
        reads its result is reviewed, not this stop."""
        ...

    # -- answers
    def steer(self, message: str, note: str) -> dict[str, Any]:
        """The hook answer that makes the agent go on with ``message`` (the user sees
        ``note``)."""
        ...

    def let_stop(self, note: str) -> dict[str, Any]: ...
    def checklist_of(self, output: Mapping[str, Any]) -> str | None:
        """The checklist a hook answer of this client hands the agent, or ``None``."""
        ...

    # -- logs
    def load_log(self, path: str | Path) -> Transcript: ...

    # -- install
    def settings_path(self, scope: str, workspace: Path) -> Path: ...
    def hooks(self, form: str, command: str, url: str) -> dict[str, list[Any]]:
        """DoneCheck's hook groups, by event, in the client's settings format."""
        ...

    def finish_install(
        self,
        args: argparse.Namespace,
        path: Path,
        workspace: Path,
        write: Callable[[], None],
        say: Callable[[str], None],
    ) -> int:
        """Write the settings (``write``) and do what else the client needs for the
        hooks to run (a trust step), saying what it did; the exit status."""
        ...


class BlockAnswers:
    """The answers of a CLI whose stop hook keeps the agent going with ``{"decision":
    "block", "reason": checklist}`` (Codex, Gemini CLI, Copilot CLI, and DoneCheck's
    OpenCode plugin), DoneCheck's note to the user as ``systemMessage`` where the CLI
    shows one."""

    shows_note: bool = True
    blocking: frozenset[str] = frozenset({"block"})
    """The ``decision`` values that keep the agent going."""

    def steer(self, message: str, note: str) -> dict[str, Any]:
        found: dict[str, Any] = {"decision": "block", "reason": message}
        return {**found, "systemMessage": note} if self.shows_note else found

    def let_stop(self, note: str) -> dict[str, Any]:
        return {"systemMessage": note} if self.shows_note else {}

    def checklist_of(self, output: Mapping[str, Any]) -> str | None:
        if output.get("decision") in self.blocking:
            return str(output.get("reason") or "")
        return None


_EXIT_CODE = re.compile(r"^\s*(?:Error: )?Exit code:? (-?\d+)")


def exit_code_in(text: str) -> int | None:
    """An exit status a client wrote at the head of a failed call's text
    (``Exit code 1``, ``Error: Exit code: 2``)."""
    found = _EXIT_CODE.match(text)
    return int(found.group(1)) if found else None


def settings_hooks(
    events: tuple[str, ...],
    handler: Callable[[str], dict[str, Any]],
    matched: frozenset[str] = frozenset(),
) -> dict[str, list[Any]]:
    """Hook groups ``{event: [{"hooks": [handler]}]}`` — the shape Claude Code's and
    Codex's settings share — with a ``"*"`` matcher on the ``matched`` events."""
    groups: dict[str, list[Any]] = {}
    for event in events:
        group: dict[str, Any] = {"hooks": [handler(event)]}
        if event in matched:
            group = {"matcher": "*", **group}
        groups[event] = [group]
    return groups


def agent_command_hooks(
    agent: str,
    command: str,
    events: tuple[str, ...],
    matched: frozenset[str],
    stop: tuple[str, int],
) -> dict[str, list[Any]]:
    """:func:`settings_hooks` of ``command --agent <agent>`` command hooks, the stop
    event (``stop`` = its name and timeout, in the client's own unit) given time for the
    gates and the review."""
    line = f"{command} --agent {agent}"

    def handler(event: str) -> dict[str, Any]:
        found: dict[str, Any] = {"type": "command", "command": line}
        if event == stop[0]:
            found["timeout"] = stop[1]
        return found

    return settings_hooks(events, handler, matched)


def timed_call_id(payload: Mapping[str, Any], name: str, arguments: dict[str, Any]) -> str:
    """An id for a call the client names none for (Gemini CLI, Copilot CLI): the call
    and the moment its hook fired. The same delivery again keeps it; the same command
    run again (a test run after a fix) gets a new one, not taken for a repeat."""
    import hashlib
    import json

    raw = json.dumps(
        [payload.get("session_id"), payload.get("timestamp"), name, arguments],
        sort_keys=True,
        default=str,
    ).encode()
    return f"{name}-{hashlib.blake2b(raw, digest_size=8).hexdigest()}"
