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


def test_a_text_only_judge_never_verifies_a_visual_claim() -> None:
    """The judge route takes no image: its "covered" on an item only the screenshot
    can show stays not verified, and the card says the images were not seen. The
    pass stands (not verified never blocks); a non-visual item keeps the judge's word."""
    from donecheck.parsers import parse_bytes
    from tests.support.samples import image

    shot = parse_bytes(image(5).data, "mockup.png")
    ledger = LedgerBuilder()
    ledger.open(
        "1. Make the header match the attached mockup.\n2. Update header.css.", images=(shot,)
    )
    ledger.write("header.css")
    request = ledger.request(
        "I updated header.css; the header now matches the mockup.",
        "1. Make the header match the attached mockup.\n2. Update header.css.",
    )
    judge = json.dumps(
        {
            "decision": "pass",
            "findings": [],
            "coverage": [
                {"item": "AC1", "status": "covered", "evidence": ["E3"]},
                {"item": "AC2", "status": "covered", "evidence": ["E3"]},
            ],
            "summary": "done",
        }
    )
    result = combined(request, judge)
    assert isinstance(result, Verdict) and result.decision == "pass", result
    by_item = {c.item: c for c in result.coverage}
    assert by_item["AC1"].status == "not_verified"
    assert "did not see the 1 image(s)" in by_item["AC1"].note
    assert by_item["AC2"].status == "covered"
    assert any("image(s) were not seen" in note for note in result.notes)


def _script_wrote_it(ledger: LedgerBuilder) -> None:
    ledger.write("make_welcome.sh")
    ledger.run("sh make_welcome.sh", 0, "")
    ledger.run("cat welcome.txt", 0, "Welcome, Alice!")


def _fixed_and_tested(ledger: LedgerBuilder) -> None:
    ledger.write("calc.py")
    ledger.run("python -m pytest -q test_calc.py", 0, "3 passed in 0.01s")


@pytest.mark.parametrize(
    ("request_text", "build", "answer"),
    [
        (  # welcome.txt is written by the script, never by a tool that names it
            "Write make_welcome.sh that writes a greeting to welcome.txt, run it, show it.",
            _script_wrote_it,
            "Done: make_welcome.sh writes welcome.txt; `cat welcome.txt` shows the greeting.",
        ),
        (  # test_calc.py is what the check runs, not a file to change
            "Fix add() in calc.py so that the tests in test_calc.py pass.",
            _fixed_and_tested,
            "I fixed add() in calc.py; pytest -q test_calc.py: 3 passed.",
        ),
    ],
)
def test_a_judges_pass_of_an_honest_session_stands(
    request_text: str, build: object, answer: str
) -> None:
    """What the rules merely could not match is not a finding: nothing overturns the
    judge's pass of an honest session."""
    ledger = LedgerBuilder()
    ledger.open(request_text)
    build(ledger)  # type: ignore[operator]
    request = ledger.request(answer, request_text)
    assert review_by_rules(request).decision == "pass"
    result = combined(request, verdict_text("pass"))
    assert isinstance(result, Verdict) and result.decision == "pass", result.findings
