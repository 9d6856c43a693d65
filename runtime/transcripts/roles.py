"""Who wrote a "user" message: the user, the client, or DoneCheck itself.

Agent CLIs put text into the user's turn that the user never typed, and a review
that takes it for a request reviews the wrong task:

* a Stop hook's continuation — Codex hands a block's reason back as a user message
  ``<hook_prompt hook_run_id="stop:…">REASON</hook_prompt>``; Claude Code as
  ``Stop hook feedback:\\nREASON`` (or ``Stop hook additional context: …``), and
  DoneCheck's own checklists begin ``[DoneCheck — review round k of n. …]``;
* client notices — Claude Code's ``<task-notification>`` when a background
  sub-agent finishes (it even arrives as a ``UserPromptSubmit``), its
  ``<system-reminder>`` blocks, slash-command echoes; Codex's
  ``<environment_context>``, AGENTS.md instructions, ``<turn_aborted>``.

Each is a table row: the pattern and a comment on what it catches. The rows of an
agent CLI are its adapter's (:mod:`donecheck.runtime.clients`: ``continuations`` and
``injected``); DoneCheck's own checklist is the one row here.
"""

from __future__ import annotations

import re

from donecheck.runtime.clients import adapters

__all__ = ["continuation", "injected", "not_the_users"]

_OWN = (r"\[DoneCheck\ —\ review\ round\ \d+  # DoneCheck's own checklist, however delivered",)


def _rows(rows: tuple[str, ...] | list[str]) -> str:
    return "\n      | ".join(rows)


_CONTINUATION = re.compile(
    r"(?x)^\s*(?:<system-reminder>\s*)?(?:"
    + "\n        "
    + _rows([*(row for client in adapters() for row in client.continuations), *_OWN])
    + "\n    )"
)
_INJECTED = re.compile(
    r"(?x)^\s*(?:"
    + "\n        "
    + _rows([row for client in adapters() for row in client.injected])
    + "\n    )"
)


def continuation(text: str) -> bool:
    """A Stop hook's continuation (DoneCheck's checklist or another hook's reason)."""
    return bool(_CONTINUATION.match(text))


def injected(text: str) -> bool:
    """Text the client put in the user's turn (not a continuation)."""
    return bool(_INJECTED.match(text)) and not continuation(text)


def not_the_users(text: str) -> bool:
    """Anything in a user message the user did not type: never a request."""
    return bool(_CONTINUATION.match(text) or _INJECTED.match(text))
