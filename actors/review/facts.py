"""What one review reads from the ledger, computed once and shared by every step.

:class:`Facts` pairs tool calls with their results (:func:`operations`), finds
the writes (:func:`edits`), the recorded materials and which of them the agent
read (:func:`read_evidence`). The rules, the prompt and the reviewer all read
the same instance, so one review walks the ledger once.

Operations and writes are those of the request under review (:mod:`.scope`):
from its own start, or the whole session when it depends on earlier work.
Materials and reads are the session's: attachments stay attached.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from donecheck.actors.evidence.integrity import Weakened, weakened
from donecheck.actors.evidence.integrity import changes as test_changes
from donecheck.actors.evidence.pairing import operations
from donecheck.actors.evidence.reads import read_evidence
from donecheck.actors.evidence.scope import Scope, scope_of
from donecheck.actors.evidence.writes import edits_of
from donecheck.actors.messages import (
    CheckReport,
    Edit,
    LedgerEntry,
    Material,
    MaterialRecorded,
    Operation,
    ReadEvidence,
    ReviewRequest,
    SessionOpened,
    ToolResult,
)
from donecheck.actors.review.claims import asks_to_change, category_of_check, names_as_verifier
from donecheck.actors.review.preanalysis import material_key, materials_of

__all__ = ["Facts"]


def _asked(request: str) -> Callable[[str], bool]:
    """Whether the request asks for a file to be changed (not only named as what a
    check runs): its test changes are then the agent's work, not a weakening."""

    def asked(path: str) -> bool:
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        return (
            name.lower() in request.lower()
            and asks_to_change(request, name)
            and not names_as_verifier(request, name)
        )

    return asked


def _demoted(op: Operation, why: Weakened) -> Operation:
    return msgspec.structs.replace(
        op,
        ok=None,
        status_source="weakened",
        caveat=f"it passed only after the tests were weakened ({why.why})"
        if why.failed is not None
        else f"it did not run the real test runner ({why.why})",
    )


@dataclass(frozen=True, slots=True)
class Facts:
    """What the rules read from one review request, computed once."""

    request: ReviewRequest
    ops: list[Operation]
    results: dict[int, ToolResult]
    edits: list[Edit]
    writes: list[Edit]
    materials: dict[str, Material]
    """The user's materials by content hash; images tools returned by
    ``tool:<call id>:<hash>`` (:func:`~.preanalysis.material_key`)."""
    reads: dict[str, ReadEvidence]
    scope: Scope
    reports: dict[int, CheckReport]
    """Runner and gate reports by ledger seq."""
    weakened: dict[int, Weakened] = field(default_factory=dict)
    """Passing runs (by call seq) that came only after the tests were weakened
    (:mod:`.integrity`); in :attr:`ops` they prove nothing."""

    @classmethod
    def of(cls, request: ReviewRequest) -> Facts:
        entries: Sequence[LedgerEntry] = request.entries
        given = request.operations
        session_ops = list(given) if given is not None else operations(entries)
        scope = scope_of(entries, request.request_id, request.request, session_ops)
        ops = [op for op in session_ops if scope.includes(op.call_seq)]
        scoped_edits = [e for e in edits_of(session_ops) if scope.includes(e.seq)]
        results = {e.seq: e.event for e in entries if isinstance(e.event, ToolResult)}
        reports = {e.seq: e.event for e in entries if isinstance(e.event, CheckReport)}
        found = test_changes(entries, ops, results, _asked(request.request))
        weak = weakened(ops, found, results, reports)
        if weak:  # a pass that follows weakened tests shows nothing: it proves nothing
            ops = [_demoted(op, weak[op.call_seq]) if op.call_seq in weak else op for op in ops]
        return cls(
            request=request,
            ops=ops,
            results=results,
            edits=scoped_edits,
            writes=[e for e in scoped_edits if e.ok is not False],
            materials={material_key(m): m for m in materials_of(entries)},
            reads={r.sha256: r for r in read_evidence(entries, session_ops)},
            scope=scope,
            reports=reports,
            weakened=weak,
        )

    def entries_in_scope(self) -> list[LedgerEntry]:
        """The request's ledger entries (with the session's materials)."""
        scope = self.scope
        return [
            e
            for e in self.request.entries
            if scope.includes(e.seq) or isinstance(e.event, SessionOpened | MaterialRecorded)
        ]

    def tagged(self, cited: dict[str, str]) -> dict[str, str]:
        """Descriptions of cited ids, each ledger entry labelled with its request
        (``[R1]``) when the session has several."""
        if not self.scope.several:
            return cited
        return {
            eid: f"[{self.scope.label(int(eid[1:]))}] {text}"
            if eid[:1] == "E" and eid[1:].isdigit() and not text.startswith("[R")
            else text
            for eid, text in cited.items()
        }

    @property
    def last_edit(self) -> Edit | None:
        return self.writes[-1] if self.writes else None

    def passing_after_last_edit(self) -> dict[str, list[Operation]]:
        """Check category → passing runs after the last edit, for the categories whose
        latest run since then passed: a later masked run (its outcome unknown) undoes
        the showing — it may have failed — while a hollow one (nothing ran) does not."""
        after = self.last_edit.seq if self.last_edit is not None else 0
        shown: dict[str, list[Operation]] = {}
        for op in self.ops:
            if op.check is None or op.call_seq <= after or op.result_seq is None:
                continue
            if op.ok is None and op.status_source != "masked":
                continue  # hollow, or no status at all: says nothing either way
            if op.ok is True and op.tool == "runner":
                continue  # a runner report that no call ran shows nothing
            for category in category_of_check(op.check):
                if op.ok is True:
                    shown.setdefault(category, []).append(op)
                else:
                    shown.pop(category, None)  # failed or masked since the pass
        return shown
