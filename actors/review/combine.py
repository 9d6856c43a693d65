"""The judge's verdict and the rules' findings as one review result.

:func:`combine` is pure: the rules' verdict, what the judge was shown (the
prompt), the task's acceptance items and the judge's parsed answer in; one
result out. The order of the guards:

1. the judge's findings held to the evidence it was shown
   (:func:`~donecheck.actors.review.verdicts.check_findings`);
2. the approval guard on the judge's own statements: an approval no source
   records is rejected, and a ``pass`` resting on one asks for evidence;
3. the rules on top: a hard gate (:mod:`.gates`) is never overridden by a judge
   ``pass``, and the more severe decision wins.

A judge answer that could not be parsed gives :func:`fallback`: the rules'
findings stand when there are any, else nothing is verified — never a pass,
never a fix the evidence does not show.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from donecheck.actors.messages import (
    Acceptance,
    Coverage,
    Decision,
    EvidenceView,
    Finding,
    NoVerdict,
    ReviewRequest,
    ReviewResult,
    Verdict,
)
from donecheck.actors.review.gates import FIX_RULES
from donecheck.actors.review.prompt import ReviewPrompt
from donecheck.actors.review.rules import RULES_NOTE, decision_of
from donecheck.actors.review.verdicts import ParsedVerdict, check_findings
from donecheck.actors.words.approval import rejection, unbacked_approvals
from donecheck.actors.words.claims import is_visual, mentioned_categories

__all__ = ["combine", "fallback", "noted"]

_SEVERITY: dict[Decision, int] = {"pass": 0, "need_evidence": 1, "blocked": 2, "need_fix": 3}


def combine(
    request: ReviewRequest,
    view: EvidenceView,
    rules: Verdict,
    prompt: ReviewPrompt,
    acceptance: Acceptance,
    parsed: ParsedVerdict | None,
    *,
    raw: str,
    judge: str,
) -> ReviewResult:
    """One result from the rules' verdict and the judge's answer (``parsed`` from
    ``raw``; ``None`` when it could not be parsed), the approval statements of the
    sources read from ``view``. ``judge`` labels the model."""
    if parsed is None:
        return fallback(rules, "The judge's answer could not be parsed as a verdict.", raw)
    items = {i.id: i.text for i in acceptance.items}
    checked = check_findings(parsed, prompt.given, items)
    notes = [
        f"Judged by {judge}; the rules' gates applied on top.",
        *acceptance.notes,
        *prompt.notes,
        *checked.notes,
    ]
    decision = checked.decision
    findings: list[Finding] = list(checked.findings)

    # the approval guard, on the judge's own statements: each must be backed by a
    # source that records approval of the same subject
    judged_text = " ".join(
        [parsed.summary, *(f.problem for f in findings), *(c.note for c in checked.coverage)]
    )
    unbacked = unbacked_approvals(judged_text, view.approvals)
    notes.extend(rejection(bad, "the judge's") for bad in unbacked)
    if unbacked and decision == "pass":
        first = unbacked[0]
        contradicted = first.status == "contradicted"
        decision = "need_fix" if contradicted else "need_evidence"
        findings.append(
            Finding(
                requirement="Approvals are stated only when a source records them",
                problem=f"The judge's pass rests on “{first.claim.sentence}”, which"
                + (f" {first.cite} contradicts." if contradicted else " no source records."),
                evidence=(first.cite,) if contradicted else (),
                recheck="Correct the statement to match the source."
                if contradicted
                else "Show the record of the approval.",
                rule="approval_claim",
            )
        )

    # a judge that saw no image verified no visual requirement, whatever it says
    coverage_judged = _unseen_images(checked.coverage, prompt, view)

    # the rules on top: hard gates and evidence checks. An item the rules found
    # uncovered is settled when the judge shows it covered, citing evidence — unless
    # it names a check: only a passing run shows that, and the rules saw none.
    judged = {c.item for c in coverage_judged if c.status == "covered" and c.evidence}

    def settled(finding: Finding) -> bool:
        item, _, text = finding.requirement.partition(": ")
        return item in judged and not mentioned_categories(text)

    kept = tuple(f for f in rules.findings if not (f.rule == "uncovered_item" and settled(f)))
    if len(kept) != len(rules.findings):
        rules = msgspec.structs.replace(rules, findings=kept, decision=decision_of(kept, FIX_RULES))
    gates = [f for f in rules.findings if f.rule in FIX_RULES]
    if gates and decision != "need_fix":
        notes.append(
            f"The judge said {decision}, but {len(gates)} hard gate(s) fired (a failed"
            " check, an unresolved error or an unbacked approval); they decide."
        )
    # a judge finding citing exactly what a rule finding cites says the same thing
    ruled = {frozenset(g.evidence) for g in rules.findings if g.evidence}
    merged = [*rules.findings, *(f for f in findings if frozenset(f.evidence) not in ruled)]
    decision = max(decision, rules.decision, key=lambda d: _SEVERITY[d])
    if (
        decision == "blocked"
        and rules.decision != "blocked"  # the rules report (an honest stop), not steer
        and any(f.rule in FIX_RULES for f in merged)
    ):
        decision = "need_fix"
    if decision == "pass":
        relied = _relied_on_unseen(request.answer, prompt)
        if relied:  # a pass resting on what the judge never saw verified nothing
            return NoVerdict(
                review_id=request.review_id,
                reason=f"the answer relies on {', '.join(relied)}, whose images the judge"
                " was not shown",
                raw_text=raw,
                notes=tuple(dict.fromkeys([*notes, *rules.notes])),
            )
    unseen = {c.item for c in coverage_judged if c.note.startswith(_UNSEEN)}
    coverage = _merge_coverage(coverage_judged, [c for c in rules.coverage if c.item not in unseen])
    rules_notes = [n for n in rules.notes if not n.startswith("Rules-only review")]
    summary = parsed.summary or rules.summary
    return Verdict(
        review_id=request.review_id,
        decision=decision,
        findings=tuple(merged),
        summary=summary,
        raw_text=raw,
        reviewer=f"judge:{judge}",
        notes=tuple(dict.fromkeys([*notes, *rules_notes])),
        cited={**_describe(prompt, merged), **rules.cited},
        coverage=coverage,
        quotes=_quotes(prompt, merged),
        runs=rules.runs,
        judge_rejected="; ".join(
            [*checked.rejected[:3], *(rejection(bad, "its") for bad in unbacked[:1])]
        ),
        assumptions=acceptance.assumptions,
    )


def _quotes(prompt: ReviewPrompt, findings: Sequence[Finding]) -> dict[str, str]:
    """What the cited material blocks literally say (not the judge's reading of them)."""
    quotes: dict[str, str] = {}
    for finding in findings:
        for eid in finding.evidence:
            if "#" in eid and eid in prompt.given.texts:
                text = prompt.given.texts[eid].strip()
                quotes[eid] = text if len(text) <= 400 else text[:399] + "…"
    return quotes


def noted(verdict: Verdict, note: str) -> Verdict:
    return msgspec.structs.replace(verdict, notes=(*verdict.notes, note))


def fallback(rules: Verdict, reason: str, raw: str = "") -> ReviewResult:
    """No judge verdict: the rules' findings stand if there are any, else nothing is
    verified — never a pass, never a fix the evidence does not show."""
    # a judge was asked: "rules-only review" would read as if none had been set up
    notes = tuple(n for n in rules.notes if n != RULES_NOTE)
    if rules.decision != "pass":
        return msgspec.structs.replace(
            rules,
            notes=(
                *notes,
                f"{reason.rstrip('.')}. The rules' findings stand; coverage was not judged.",
            ),
            raw_text=raw,
        )
    return NoVerdict(review_id=rules.review_id, reason=reason, raw_text=raw, notes=notes)


def _describe(prompt: ReviewPrompt, findings: Sequence[Finding]) -> dict[str, str]:
    cited: dict[str, str] = {}
    for finding in findings:
        for eid in finding.evidence:
            text = " ".join(prompt.given.texts.get(eid, "").split())
            cited[eid] = text if len(text) <= 160 else text[:159] + "…"
    return cited


_UNSEEN = "not verified: the judge did not see the"


def _unseen_images(
    coverage: Sequence[Coverage], prompt: ReviewPrompt, view: EvidenceView
) -> tuple[Coverage, ...]:
    """The judge's coverage, with every item it marked covered that only an image
    can show set back to not verified when images were kept from it (a route that
    declares no image input, or more images than it takes): a text-only judge
    never verified a visual claim."""
    if not prompt.images_withheld:
        return tuple(coverage)
    names = [
        m.declared_name.lower()
        for m in view.materials
        if m.detected_type.startswith("image/") and m.declared_name
    ]
    out = []
    for item in coverage:
        text = item.requirement.lower()
        if item.status == "covered" and (is_visual(text) or any(n in text for n in names)):
            item = msgspec.structs.replace(
                item,
                status="not_verified",
                note=f"{_UNSEEN} {prompt.images_withheld} image(s) this rests on"
                + (
                    " (left out for its input budget)"
                    if prompt.unseen
                    else " (its route takes no image input)"
                ),
            )
        out.append(item)
    return tuple(out)


def _relied_on_unseen(answer: str, prompt: ReviewPrompt) -> list[str]:
    """The unseen materials the answer names (by file name or its stem)."""
    lowered = answer.lower()
    found = []
    for name in prompt.unseen:
        stem = name.rsplit(".", 1)[0].lower()
        if name.lower() in lowered or (len(stem) >= 4 and stem in lowered):
            found.append(name)
    return found


def _merge_coverage(judge: Sequence[Coverage], rules: Sequence[Coverage]) -> tuple[Coverage, ...]:
    """The judge's coverage, with rules' matches filling items it left unverified."""
    by_item = {c.item: c for c in rules}
    merged = []
    for item in judge:
        if item.status == "not_verified" and by_item.get(item.item) is not None:
            merged.append(by_item[item.item] if by_item[item.item].status == "covered" else item)
        else:
            merged.append(item)
    return tuple(merged) if merged else tuple(rules)
