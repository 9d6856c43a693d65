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

Each is a table row: the pattern and a comment on what it catches.
"""

from __future__ import annotations

import re

__all__ = ["continuation", "injected", "not_the_users"]

_CONTINUATION = re.compile(
    r"""(?x)
    ^\s*(?:<system-reminder>\s*)?(?:
        <hook_prompt\b                      # Codex: a Stop hook's block reason
      | Stop\ hook\ feedback:               # Claude Code: a Stop hook's block reason
      | Stop\ hook\ additional\ context:    # Claude Code: a Stop hook's additionalContext
      | \[DoneCheck\ —\ review\ round\ \d+  # DoneCheck's own checklist, however delivered
    )
    """
)
_INJECTED = re.compile(
    r"""(?x)
    ^\s*(?:
        <task-notification>          # Claude Code: a background sub-agent finished
      | <system-reminder>            # Claude Code: reminders, notices, hook context
      | <command-(?:name|message|args)>  # Claude Code: a slash command's echo
      | <local-command-std(?:out|err)>   # Claude Code: a local command's output
      | Caveat:\ The\ messages\ below  # Claude Code: the caveat before local commands
      | \[Request\ interrupted\ by\ user  # Claude Code: the user pressed Esc (or a hook stopped it)
      | <environment_context>        # Codex: cwd, sandbox, shell
      | <user_instructions>          # Codex: AGENTS.md, older form
      | \#\ AGENTS\.md\ instructions   # Codex: AGENTS.md
      | <INSTRUCTIONS>               # Codex: AGENTS.md body
      | <permissions\b               # Codex: approval policy notes
      | <user_shell_command>         # Codex: a command the user ran with !
      | <turn_aborted>               # Codex: the user interrupted the last turn
    )
    """
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
