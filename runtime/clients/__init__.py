"""The agent CLIs DoneCheck plugs into: one module per CLI, behind one Protocol.

Everything DoneCheck knows about an agent CLI is in its module — how its hook payloads
map to DoneCheck's events, the answer that makes it go on or lets it stop, where its
settings live and how DoneCheck's hooks are installed and taken out, how its logs are
read, how its continuation of a blocked stop looks, its session prefix and its own cap
on consecutive blocks (:class:`~.base.ClientAdapter`). The hook endpoint, the CLI's
choices, the installer and the service all read this registry; adding an agent is one
module here, one line in :data:`MODULES` and its tool rows in
:mod:`donecheck.actors.actions.dialects`.

The modules import nothing heavy at import time (the ``donecheck hook`` client, run
for every tool call, reads this registry too).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from donecheck.runtime.clients.base import ClientAdapter

__all__ = ["MODULES", "adapter", "adapters", "names"]

MODULES: dict[str, str] = {
    # the name users type (`donecheck install <name>`, `/v1/hooks/<name>`): its module
    "claude-code": "claude_code",
    "codex": "codex",
    "gemini": "gemini",
    "copilot": "copilot",
    "opencode": "opencode",
}


def names() -> tuple[str, ...]:
    """The agent CLIs DoneCheck plugs into, as users name them."""
    return tuple(MODULES)


@cache
def adapter(name: str) -> ClientAdapter:
    """The adapter of agent CLI ``name``; :class:`KeyError` for one not registered."""
    if name not in MODULES:
        raise KeyError(f"no agent CLI named {name!r} (known: {', '.join(MODULES)})")
    module = importlib.import_module(f"{__name__}.{MODULES[name]}")
    found: ClientAdapter = module.ADAPTER
    return found


def adapters() -> tuple[ClientAdapter, ...]:
    """Every registered adapter, in registration order."""
    return tuple(adapter(name) for name in MODULES)
