"""The review→fix loop as pure functions: state in, (state, action) out.

:func:`next_action` decides what a review result means for one task (one user
request of one session), given the loop's limits and the current time. It has no
I/O and reads no clock; the controller actor feeds it. It reads verdicts, never
the ledger or the rules (an import-linter contract keeps it so). Tested by
tables in ``tests/unit/test_loop.py``.

==================  ==========================================================
:mod:`.state`       :class:`TaskState`, :class:`Limits` and the report card
:mod:`.decide`      :func:`next_action` and the other steps of the loop
==================  ==========================================================
"""

from donecheck.actors.loop.decide import (
    REOPENS,
    end_without_review,
    ending_action,
    next_action,
    progress_key,
)
from donecheck.actors.loop.state import Limits, TaskState, card_of

__all__ = [
    "REOPENS",
    "Limits",
    "TaskState",
    "card_of",
    "end_without_review",
    "ending_action",
    "next_action",
    "progress_key",
]
