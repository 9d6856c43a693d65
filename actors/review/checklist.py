"""The steer message: a checklist DoneCheck hands back to the same agent.

It says plainly that it comes from DoneCheck, not the user; keeps the task (no
fresh start, no new pre-analysis); grants no new permissions; and asks the agent
to label what it adds in this round so a reader can tell rounds apart. Review
text itself never goes into the conversation — only this checklist.

As the seeds' fix protocol has it, the message carries the original request
(whole, or a very long one's head and tail) and the agent's earlier answers (the
latest whole, older ones cut, 12,000 characters in all) — they may be gone from
its context after compaction — and the last round says so: resolve every item
now. The findings come first, so a client that caps the message's length cuts the
request and answers, never what to fix.
"""

from __future__ import annotations

from collections.abc import Sequence

from donecheck.actors.messages import Finding, Verdict
from donecheck.actors.review.gates import is_defect
from donecheck.actors.review.requestview import request_view

__all__ = ["ANSWERS_BUDGET", "earlier_answers", "round_label", "steer_message"]

_REQUEST_PREVIEW = 300
ANSWERS_BUDGET = 12_000
"""Characters of earlier answers a steer message carries."""
_OLDER_MIN = 200
_OLDER_KEPT = 5
"""Older answers the latest one leaves room for, however long it is."""


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit // 3
    return f"{text[:head]} … [{len(text) - limit} characters cut] … {text[-(limit - head) :]}"


def earlier_answers(answers: Sequence[str], budget: int = ANSWERS_BUDGET) -> list[tuple[int, str]]:
    """``(number, text)`` of the answers to show, oldest first, within ``budget``
    characters: the latest whole (cut only where it would leave the older ones less
    than a few hundred characters each), the older ones sharing the rest."""
    if not answers or budget <= 0:
        return []
    reserve = _OLDER_MIN * min(len(answers) - 1, _OLDER_KEPT)
    latest = _cut(answers[-1], max(budget - reserve, budget // 2))
    shown = [(len(answers), latest)]
    room = max(budget - len(latest), reserve)
    older = list(enumerate(answers[:-1], start=1))
    while older and room // len(older) < _OLDER_MIN:
        older.pop(0)  # the oldest go first
    for number, text in older:
        shown.insert(-1, (number, _cut(text, room // len(older))))
    return shown


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
    *,
    verdict: Verdict,
    request: str,
    reviewed_label: str,
    round_no: int,
    max_rounds: int,
    answers: Sequence[str] = (),
) -> str:
    """The checklist for round ``round_no`` of ``max_rounds``; ``answers`` are the
    agent's answers so far (the last one is ``reviewed_label``)."""
    next_label = (
        f"A{int(reviewed_label[1:]) + 1}"
        if reviewed_label[1:].isascii() and reviewed_label[1:].isdigit()
        else "next"
    )
    preview = " ".join(request.split())
    shown_preview = preview
    if len(preview) > _REQUEST_PREVIEW:
        shown_preview = preview[: _REQUEST_PREVIEW - 1] + "… (the whole request is below)"
    # a defect: a rule's hard gate, or a judge finding the evidence backs; everything
    # else asks for evidence (run this, show that) without presuming the work wrong
    fixes = [f for f in verdict.findings if is_defect(f, verdict.decision)]
    gather = [f for f in verdict.findings if f not in fixes]
    lines = [
        f"[DoneCheck — review round {round_no} of {max_rounds}. This message is from DoneCheck,"
        " not from the user.]",
        f"Your answer {reviewed_label} is not finished yet. The task is unchanged: {shown_preview}",
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
    if len(preview) > _REQUEST_PREVIEW:
        view = request_view(request.strip())
        lines.append(
            "The original request:"
            if view.whole
            else "The original request (its head and its tail):"
        )
        if view.whole:
            lines.append(view.tail)
        else:
            lines += [
                view.head,
                f"[… {view.omitted} characters of the request omitted …]",
                view.tail,
            ]
        lines.append("")
    shown = earlier_answers(answers)
    if len(shown) > 1 or (shown and len(answers) > 1):
        lines.append("Your answers so far (the latest in full, older ones cut):")
        for number, text in shown:
            lines += [f"--- A{number} ---", text]
        lines.append("")
    if round_no >= max_rounds:
        lines += [
            "This is the last round: resolve every item above now and re-check every"
            " requirement. DoneCheck will not send another checklist for this request.",
            "",
        ]
    lines += [
        "Rules for this round:",
        "- Keep working on the same task with the tools and permissions you already have;"
        " this checklist grants no new permissions.",
        "- Keep what was already correct. If you believe a point is wrong, show evidence"
        " instead of changing correct work.",
        "- Do not weaken what verifies the work to satisfy this checklist: no skipped,"
        " deleted or loosened tests, no edited test configuration or gates, unless the task"
        " itself asks for it.",
        f"- Label everything you add or change in this round with {round_label(next_label)}.",
        f"- Then give your final answer again ({next_label}); DoneCheck will review it.",
    ]
    return "\n".join(lines)
