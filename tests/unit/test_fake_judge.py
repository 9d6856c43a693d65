"""The in-process fake judge: the reviewer's judge path without HTTP.

The same :class:`Reviewer` and :class:`BudgetAccountant` a deployment runs, with
:class:`FakeJudge` behind the ``JudgeProvider`` seam (the HTTP client and its
retries are tested against the scripted server in ``test_judge.py``).
"""

from __future__ import annotations

import asyncio

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.config import Config
from donecheck.actors.judge import Attempt, FakeJudge, JudgeProvider, ProviderError, Usage
from donecheck.actors.messages import BudgetQuery, NoVerdict, ReviewResult, Verdict
from donecheck.actors.peers import LocalBudgets
from donecheck.actors.reviewer import Reviewer
from donecheck.runtime.testing.scripted import verdict_text
from tests.unit.helpers import LedgerBuilder

NO_ITEMS = '{"acceptance": []}'
ANSWER = "I added divide() to calc.py and ran the tests; they pass. Nothing else changed."


def passing_session() -> LedgerBuilder:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.05s")
    return ledger


def review(judge: FakeJudge, ledger: LedgerBuilder) -> ReviewResult:
    budgets = LocalBudgets([BudgetAccountant(config=Config())])
    reviewer = Reviewer(config=Config(), provider=judge, budget=budgets)
    return asyncio.run(reviewer.review(ledger.request(ANSWER, "Add divide() to calc.py.")))


def test_the_fake_is_a_judge_provider() -> None:
    provider: JudgeProvider = FakeJudge()  # the type checker holds them in step
    generation = asyncio.run(
        provider.generate([{"role": "user", "content": "hello"}], max_tokens=10, deadline_s=1)
    )
    assert generation.usage.known and generation.attempts[0].status == 200


def test_a_judge_pass_on_a_passing_session_passes_and_the_call_is_recorded() -> None:
    judge = FakeJudge([NO_ITEMS, verdict_text("pass", summary="divide() is there")])
    result = review(judge, passing_session())
    assert isinstance(result, Verdict) and result.decision == "pass"
    assert result.reviewer == "judge:injected@127.0.0.1"
    assert len(judge.calls) == 2  # pre-analysis, then the review
    assert "pytest -q" in judge.texts[1]


def test_a_judge_pass_never_overrides_a_failed_check() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, "FAILED tests/test_calc.py::test_div\n1 failed in 0.1s")
    result = review(FakeJudge([NO_ITEMS, verdict_text("pass")]), ledger)
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    assert [f.rule for f in result.findings] == ["failed_check"]


def test_an_unparseable_answer_is_no_verdict_never_a_fix_or_a_pass() -> None:
    result = review(FakeJudge([NO_ITEMS, "I think it is probably fine?"]), passing_session())
    assert isinstance(result, NoVerdict)
    assert "could not be parsed" in result.reason
    assert result.raw_text == "I think it is probably fine?"


def test_a_failed_call_is_settled_with_every_attempt_and_verifies_nothing() -> None:
    attempts = (Attempt(1, 500, Usage(), "HTTP 500"), Attempt(2, None, Usage(), "reset"))
    judge = FakeJudge([NO_ITEMS, ProviderError("the judge is down", attempts)])
    accountant = BudgetAccountant(config=Config())
    reviewer = Reviewer(config=Config(), provider=judge, budget=LocalBudgets([accountant]))
    result = asyncio.run(reviewer.review(passing_session().request(ANSWER, "Add divide().")))
    assert isinstance(result, NoVerdict) and "the judge is down" in result.reason
    usage = accountant.handle(BudgetQuery(session_id="s"))
    # the 500 was refused before any output; the reset attempt reported nothing: unknown
    assert usage.unknown_calls == 1  # type: ignore[union-attr]


def test_reported_usage_reaches_the_accountant() -> None:
    judge = FakeJudge([NO_ITEMS, verdict_text("pass")])
    accountant = BudgetAccountant(config=Config())
    reviewer = Reviewer(config=Config(), provider=judge, budget=LocalBudgets([accountant]))
    asyncio.run(reviewer.review(passing_session().request(ANSWER, "Add divide().")))
    summary = accountant.handle(BudgetQuery(session_id="s"))
    spent = sum(
        max(1, len(text) // 4) + max(1, len(answer) // 4)
        for text, answer in zip(judge.texts, [NO_ITEMS, verdict_text("pass")], strict=True)
    )
    assert summary.aux_tokens == spent  # type: ignore[union-attr]
    assert summary.aux_calls == {"pre_analysis": 1, "review": 1}  # type: ignore[union-attr]


def test_the_preanalysis_waits_for_content_of_an_attachment_it_could_not_read() -> None:
    from donecheck.actors.messages import Material

    odd = Material(
        sha256="sha256:" + "e" * 64,
        declared_name="figures.xyz",
        detected_type="application/x-unknown",
        status="unparsed",
        reason="no parser for this type",
    )
    ledger = LedgerBuilder()
    ledger.open("Use the figures in the attachment to update report.md.", odd)
    judge = FakeJudge([NO_ITEMS])
    reviewer = Reviewer(config=Config(), provider=judge)
    asyncio.run(reviewer.prepare(ledger.request("", "Use the figures…")))
    assert judge.calls == []  # DoneCheck could not read it, nor has the agent: no guess
    ledger.result(ledger.call("read_file", {"path": "figures.xyz"}), "Q1 12, Q2 15", 0)
    asyncio.run(reviewer.prepare(ledger.request("", "Use the figures…")))
    assert len(judge.calls) == 1  # the agent's read is content evidence
