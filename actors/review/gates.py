"""The hard gates: rules whose findings are defects to fix.

A finding of one of these rules is a defect the agent must fix, and no judge
``pass`` overrides it. Every other finding asks for evidence — run this, show
that — without presuming the work is wrong.
"""

from __future__ import annotations

from donecheck.actors.messages import Decision, Finding

__all__ = ["FIX_RULES", "is_defect"]

FIX_RULES = frozenset({"failed_check", "weakened_check", "unresolved_error", "approval_claim"})
"""Rules whose findings need a fix; the others ask for evidence."""


def is_defect(finding: Finding, decision: Decision) -> bool:
    """Whether ``finding`` of a verdict that decided ``decision`` is a defect to fix:
    a hard gate fired, or a judge finding of a ``need_fix`` verdict cites evidence."""
    if decision != "need_fix":
        return False
    return finding.rule in FIX_RULES or (finding.rule is None and bool(finding.evidence))
