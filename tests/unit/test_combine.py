"""The judge's verdict and the rules' findings as one result: a pure function, by table."""

from __future__ import annotations

import json

import pytest

from donecheck.actors.messages import NoVerdict, ReviewRequest, Verdict
from donecheck.actors.review.combine import combine
from donecheck.actors.review.prompt import build_review_prompt
from donecheck.actors.review.rules import acceptance_of, review_by_rules
from donecheck.actors.review.verdicts import parse_verdict
from donecheck.runtime.testing.scripted import verdict_text
from tests.unit.helpers import LedgerBuilder

ANSWER = "I added divide() to calc.py and ran the tests; everything is in place now."


def passing() -> ReviewRequest:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.05s")
    return ledger.request(ANSWER, "Add divide() to calc.py.")


def failing() -> ReviewRequest:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, "FAILED tests/test_calc.py::test_div\n1 failed in 0.1s")
    return ledger.request(ANSWER, "Add divide() to calc.py.")


def admitted() -> ReviewRequest:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 1, "FAILED tests/test_calc.py::test_div\n1 failed in 0.1s")
    return ledger.request(
        "test_div still fails: divide() needs the decimal context I could not find.",
        "Add divide() to calc.py.",
    )


def combined(request: ReviewRequest, judge_text: str) -> Verdict | NoVerdict:
    view = request.view
    assert view is not None
    rules = review_by_rules(request)
    acceptance = acceptance_of(request, view)
    prompt = build_review_prompt(view, request, acceptance, sees_images=False)
    parsed = parse_verdict(judge_text)
    return combine(request, view, rules, prompt, acceptance, parsed, raw=judge_text, judge="m@h")


FAIL_FINDING = {
    "requirement": "divide() works",
    "problem": "the division test fails",
    "evidence": ["E4"],
    "recheck": "rerun pytest",
}


@pytest.mark.parametrize(
    ("session", "judge", "expected"),
    [
        # (ledger, the judge's answer, the combined decision or "no verdict")
        (passing, verdict_text("pass"), "pass"),
        (passing, verdict_text("need_evidence", summary="show the run"), "need_evidence"),
        (passing, "no idea, really", "no verdict"),  # unparseable: never a pass or a fix
        (failing, verdict_text("pass"), "need_fix"),  # a hard gate beats a judge pass
        (failing, verdict_text("blocked"), "need_fix"),  # ... and a judge "blocked"
        (failing, "no idea, really", "need_fix"),  # the rules' findings stand
        (failing, verdict_text("need_fix", [FAIL_FINDING]), "need_fix"),
        # the agent says the test still fails: the rules report, and a judge pass or
        # "blocked" does not turn it into a steer (nor a pass); the judge's fix does
        (admitted, verdict_text("pass"), "blocked"),
        (admitted, verdict_text("blocked"), "blocked"),
        (admitted, verdict_text("need_fix", [FAIL_FINDING]), "need_fix"),
        (
            passing,
            verdict_text("pass", summary="The PR was approved by the lead."),
            "need_evidence",
        ),
    ],
)
def test_combine(session: object, judge: str, expected: str) -> None:
    result = combined(session(), judge)  # type: ignore[operator]
    got = result.decision if isinstance(result, Verdict) else "no verdict"
    assert got == expected


def test_a_judge_finding_that_repeats_a_rule_finding_is_listed_once() -> None:
    result = combined(failing(), verdict_text("need_fix", [FAIL_FINDING]))
    assert isinstance(result, Verdict)
    assert [f.rule for f in result.findings] == ["failed_check"]  # same evidence: merged
    assert result.reviewer == "judge:m@h"


def test_the_judge_settles_an_uncovered_file_item_but_not_a_check_item() -> None:
    ledger = LedgerBuilder()
    ledger.open("1. Summarise notes.md in two lines.\n2. Make sure the tests pass.")
    ledger.result(ledger.call("bash", {"command": "python show.py notes.md"}), "the notes", 0)
    request = ledger.request("I read notes.md; everything is done.")
    rules_only = review_by_rules(request)
    assert [f.rule for f in rules_only.findings].count("uncovered_item") == 2
    judge = json.dumps(
        {
            "decision": "pass",
            "findings": [],
            "coverage": [
                {"item": "AC1", "status": "covered", "evidence": ["E3"]},
            ],
            "summary": "done",
        }
    )
    result = combined(request, judge)
    assert isinstance(result, Verdict) and result.decision == "need_evidence"
    left = [f.requirement for f in result.findings if f.rule == "uncovered_item"]
    assert len(left) == 1 and "tests" in left[0]  # the check item stands
