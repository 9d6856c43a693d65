"""Which part of a session's ledger a request is reviewed on.

Each request is reviewed on the ledger from its own start — the seeds' "this
round's tool ledger" — plus the materials still attached. An earlier request's
work counts only when the new request depends on it: it continues it ("now make
the tests pass", "继续") or it names a kind of check that an earlier request left
failing — unless it sets that work aside ("forget the test for now", "先不管测试").
So a new task ("write CHANGELOG.md") is never steered to fix the last task's
failing test, and a follow-up ("the tests still fail, fix them") is.

Requests are labelled ``R1``, ``R2`` … in session order; a report says which
request each cited entry belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from donecheck.actors.messages import Operation, Scope
from donecheck.actors.words.claims import category_of_check, mentioned_categories, set_aside
from donecheck.actors.words.lang import PACKS

__all__ = ["Scope", "scope_of"]

# A request that continues the earlier work, or sets it aside: each pack's rows.
_CONTINUES = re.compile(
    "|".join(f"(?:{pattern})" for pack in PACKS for pattern in pack.continuations), re.I
)


def scope_of(
    starts: Sequence[tuple[int, str]], request_id: str, request: str, ops: Sequence[Operation]
) -> Scope:
    """The scope of request ``request_id`` (its text ``request``), given where each
    request of the session began (``starts``: seq, request id) and the session's
    operations ``ops``."""
    seqs = [seq for seq, _ in starts]
    start = next((seq for seq, rid in reversed(starts) if rid == request_id), 0)
    if start <= (seqs[0] if seqs else 0):
        return Scope(start=start, earlier=False, starts=tuple(seqs))
    asked = set_aside(request)  # "forget the failing test": naming it is no continuation
    cue = _CONTINUES.search(asked)
    if cue:
        return Scope(
            start=start,
            earlier=True,
            starts=tuple(seqs),
            why=f"it continues earlier work (“{cue.group(0)}”)",
        )
    failing = _unresolved_categories([op for op in ops if op.call_seq < start])
    named = mentioned_categories(asked) & failing
    if named:
        what = ", ".join(sorted(named))
        return Scope(
            start=start,
            earlier=True,
            starts=tuple(seqs),
            why=f"it asks about {what}, which failed earlier",
        )
    return Scope(start=start, earlier=False, starts=tuple(seqs))


def _unresolved_categories(ops: Sequence[Operation]) -> set[str]:
    """Check categories whose latest run in ``ops`` failed."""
    latest: dict[str, bool | None] = {}
    for op in ops:
        if op.check is not None and op.result_seq is not None and op.ok is not None:
            for category in category_of_check(op.check):
                latest[category] = op.ok
    return {category for category, ok in latest.items() if ok is False}
