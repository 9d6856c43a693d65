"""The steer message: a checklist DoneCheck hands back to the same agent.

It says plainly that it comes from DoneCheck, not the user; keeps the task (no
fresh start, no new pre-analysis); grants no new permissions; and asks the agent
to label what it adds in this round so a reader can tell rounds apart. Review
text itself never goes into the conversation — only this checklist.
"""

from __future__ import annotations

from donecheck.actors.messages import Finding, Verdict
from donecheck.actors.review.gates import is_defect

__all__ = ["round_label", "steer_message"]

_REQUEST_PREVIEW = 300


def round_label(answer_label: str) -> str:
    """The marker the agent puts on content added for answer ``A<k>``."""
    return f"[DoneCheck {answer_label}]"


def _item(n: int, finding: Finding, cited: dict[str, str]) -> list[str]:
    lines = [f"{n}. {finding.requirement}", f"   Problem: {finding.problem}"]
    if finding.evidence:
        refs = "; ".join(
            f"{eid} ({cited[eid]})" if eid in cited else eid for eid in finding.evidence
        )
        lines.append(f"   Evidence: {refs}")
    if finding.recheck:
        lines.append(f"   How it will be re-verified: {finding.recheck}")
    return lines


def steer_message(
    *, verdict: Verdict, request: str, reviewed_label: str, round_no: int, max_rounds: int
) -> str:
    next_label = f"A{int(reviewed_label[1:]) + 1}" if reviewed_label[1:].isdigit() else "next"
    preview = " ".join(request.split())
    if len(preview) > _REQUEST_PREVIEW:
        preview = preview[: _REQUEST_PREVIEW - 1] + "…"
    # a defect: a rule's hard gate, or a judge finding the evidence backs; everything
    # else asks for evidence (run this, show that) without presuming the work wrong
    fixes = [f for f in verdict.findings if is_defect(f, verdict.decision)]
    gather = [f for f in verdict.findings if f not in fixes]
    lines = [
        f"[DoneCheck — review round {round_no} of {max_rounds}. This message is from DoneCheck,"
        " not from the user.]",
        f"Your answer {reviewed_label} is not finished yet. The task is unchanged: {preview}",
        "",
    ]
    if fixes:
        lines.append("Fix these defects:")
        for n, finding in enumerate(fixes, 1):
            lines.extend(_item(n, finding, verdict.cited))
        lines.append("")
    if gather:
        lines.append(
            "Gather this evidence (run the checks and show their results; this does not mean"
            " the implementation is wrong):"
        )
        for n, finding in enumerate(gather, 1):
            lines.extend(_item(n, finding, verdict.cited))
        lines.append("")
    lines += [
        "Rules for this round:",
        "- Keep working on the same task with the tools and permissions you already have;"
        " this checklist grants no new permissions.",
        "- Keep what was already correct. If you believe a point is wrong, show evidence"
        " instead of changing correct work.",
        f"- Label everything you add or change in this round with {round_label(next_label)}.",
        f"- Then give your final answer again ({next_label}); DoneCheck will review it.",
    ]
    return "\n".join(lines)
