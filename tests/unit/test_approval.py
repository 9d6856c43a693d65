"""The approval guard: a claim is backed only by a source about the same subject,
and a source saying the approval is pending or refused contradicts it."""

from __future__ import annotations

import pytest

from donecheck.actors.messages import Block, Material
from donecheck.actors.review.rules import review_by_rules
from donecheck.actors.words.approval import Source, check_approval, claim_contexts
from tests.unit.approval_table import APPROVALS, PENDING_APRIL
from tests.unit.helpers import LedgerBuilder


@pytest.mark.parametrize(("answer", "sources", "outcome"), APPROVALS)
def test_approval_table(answer: str, sources: tuple[str, ...], outcome: str) -> None:
    claims = list(claim_contexts(answer))
    if outcome == "none":
        assert claims == []
        return
    assert len(claims) == 1, claims
    claim, context = claims[0]
    cited = [Source(f"S{i}", text) for i, text in enumerate(sources)]
    checked = check_approval(claim, cited, context)
    assert checked.status == outcome, checked


def test_the_table_is_large_in_both_languages() -> None:
    english = [a for a, _, _ in APPROVALS if a.isascii()]
    assert len(APPROVALS) >= 80
    assert len(english) >= 40 and len(APPROVALS) - len(english) >= 30


def test_a_contradicting_attachment_block_is_cited_and_asks_for_a_fix() -> None:
    block = Block(source_id="budget.txt#b1", index=0, text=PENDING_APRIL)
    budget = Material(
        sha256="sha256:" + "b" * 64,
        declared_name="budget.txt",
        detected_type="text/plain",
        status="parsed",
        blocks=(block,),
    )
    ledger = LedgerBuilder()
    ledger.open("Summarise the budget request in budget.txt.", budget)
    verdict = review_by_rules(ledger.request("Summary done. The budget was approved."))
    (finding,) = [f for f in verdict.findings if f.rule == "approval_claim"]
    assert verdict.decision == "need_fix"
    assert finding.evidence == ("budget.txt#b1",)
    assert "decision is expected at the April meeting" in finding.problem
