"""Report cards for people (text) and programs (JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from donecheck.runtime.messages import ReportCard

__all__ = ["card_json", "card_text"]

_REASONS = {
    "pass": "passed",
    "skipped": "not reviewed (short answer without code)",
    "round_limit": "round limit reached",
    "time_limit": "time limit reached",
    "budget": "aux budget exhausted",
    "no_progress": "no progress between rounds",
    "blocked": "blocked",
    "unverified": "could not verify",
    "cancelled": "cancelled",
    "opted_out": "DoneCheck turned off",
}


def card_json(card: ReportCard, *, session: str, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """One JSON-ready object per reviewed session."""
    return {
        "session": session,
        "decision": card.decision,
        "end_reason": card.end_reason,
        "chain": [f"{link.label} {link.decision}" for link in card.chain],
        "rounds_used": card.rounds_used,
        "findings": [
            {
                "requirement": f.requirement,
                "problem": f.problem,
                "evidence": list(f.evidence),
                "recheck": f.recheck,
            }
            for f in card.findings
        ],
        "cited": dict(card.cited),
        "acceptance": [
            {
                "item": c.item,
                "requirement": c.requirement,
                "status": c.status,
                "evidence": list(c.evidence),
                "note": c.note,
            }
            for c in card.coverage
        ],
        "unverified": list(card.unverified),
        "notes": list(card.notes),
        "warnings": list(warnings),
    }


def card_text(card: ReportCard, *, session: str, warnings: Sequence[str] = ()) -> str:
    """A few readable lines: decision, each finding with its evidence, notes."""
    decision = card.decision or "unverified"
    lines = [f"{decision:<13} {session}"]
    if card.chain and len(card.chain) > 1:
        lines.append("  chain: " + " → ".join(f"{c.label} {c.decision}" for c in card.chain))
    if card.end_reason and card.end_reason not in {"pass", None} and card.end_reason != decision:
        lines.append(f"  stopped: {_REASONS.get(card.end_reason, card.end_reason)}")
    for n, finding in enumerate(card.findings, 1):
        lines.append(f"  {n}. {finding.requirement}")
        lines.append(f"     {finding.problem}")
        for eid in finding.evidence:
            lines.append(f"     evidence {eid}: {card.cited.get(eid, '(see ledger)')}")
        if finding.recheck:
            lines.append(f"     recheck: {finding.recheck}")
    if card.coverage:
        lines.append("  acceptance:")
        for c in card.coverage:
            status = {"covered": "covered", "missing": "MISSING"}.get(c.status, "not verified")
            ids = f" [{', '.join(c.evidence)}]" if c.evidence else ""
            how = f" ({c.note})" if c.note and c.note != "not verified" else ""
            text = c.requirement if len(c.requirement) <= 80 else c.requirement[:79] + "…"
            lines.append(f"    {c.item} {status}{ids}{how}: {text}")
    for item in card.unverified:
        lines.append(f"  unverified: {item}")
    for note in card.notes:
        lines.append(f"  note: {note}")
    for warning in warnings:
        lines.append(f"  warning: {warning}")
    return "\n".join(lines)
