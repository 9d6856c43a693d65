"""What the session-log readers of the agent CLIs share (Gemini CLI's chat log, Copilot
CLI's ``events.jsonl``, OpenCode's export): the turns of one conversation, read in
order — the user's request, later user messages, calls and the latest answer."""

from __future__ import annotations

from donecheck.runtime.transcripts.openai import Step
from donecheck.runtime.transcripts.pairing import Pairing
from donecheck.runtime.transcripts.roles import not_the_users

__all__ = ["TurnReader"]


class TurnReader:
    """A log read turn by turn: its request (the user's first words, and more of them
    before the agent did or said anything), its steps, the answer so far."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.request: list[str] = []
        self.steps: list[Step] = []
        self.answer = ""
        self.opened = False
        self.acted = False
        self.pairing = Pairing()

    def said(self, text: str) -> None:
        """A user message: the request while the agent has not answered or acted yet,
        else a later message of the user's (a step); the CLI's own context and
        DoneCheck's continuation are neither."""
        if not text.strip() or not_the_users(text):
            return
        if not self.opened or (not self.acted and not self.answer):
            self.request.append(text)
            self.opened = True
            return
        self.steps.append(Step(kind="user", text=text))
        self.answer = ""
        self.acted = False
