"""What one review reads from the ledger, computed once and shared by every step.

:class:`Facts` pairs tool calls with their results (:func:`operations`), finds
the writes (:func:`edits`), the recorded materials and which of them the agent
read (:func:`read_evidence`). The rules, the prompt and the reviewer all read
the same instance, so one review walks the ledger once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from donecheck.actors.messages import (
    Edit,
    LedgerEntry,
    Material,
    Operation,
    ReadEvidence,
    ReviewRequest,
    ToolResult,
)
from donecheck.actors.review.claims import category_of_check
from donecheck.actors.review.evidence import edits, operations
from donecheck.actors.review.preanalysis import materials_of
from donecheck.actors.review.reads import read_evidence

__all__ = ["Facts"]


@dataclass(frozen=True, slots=True)
class Facts:
    """What the rules read from one review request, computed once."""

    request: ReviewRequest
    ops: list[Operation]
    results: dict[int, ToolResult]
    edits: list[Edit]
    writes: list[Edit]
    materials: dict[str, Material]
    reads: dict[str, ReadEvidence]

    @classmethod
    def of(cls, request: ReviewRequest) -> Facts:
        entries: Sequence[LedgerEntry] = request.entries
        ops = operations(entries)
        all_edits = edits(entries)
        return cls(
            request=request,
            ops=ops,
            results={e.seq: e.event for e in entries if isinstance(e.event, ToolResult)},
            edits=all_edits,
            writes=[e for e in all_edits if e.ok is not False],
            materials={m.sha256: m for m in materials_of(entries)},
            reads={r.sha256: r for r in read_evidence(entries, ops)},
        )

    @property
    def last_edit(self) -> Edit | None:
        return self.writes[-1] if self.writes else None

    def passing_after_last_edit(self) -> dict[str, list[Operation]]:
        """Check category → passing runs after the last edit."""
        after = self.last_edit.seq if self.last_edit is not None else 0
        shown: dict[str, list[Operation]] = {}
        for op in self.ops:
            if op.check is not None and op.ok is True and op.call_seq > after:
                for category in category_of_check(op.check):
                    shown.setdefault(category, []).append(op)
        return shown
