"""Parsing a judge's answer (three levels of fallback) and holding it to its evidence."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from donecheck.actors.messages import Finding
from donecheck.actors.review.verdicts import Given, ParsedVerdict, check_findings, parse_verdict

CONTRACT = {
    "decision": "need_fix",
    "findings": [
        {
            "requirement": "tests pass",
            "problem": "pytest fails: “1 failed in 0.1s”",
            "evidence": ["E4"],
            "recheck": "run pytest",
        }
    ],
    "summary": "One test fails.",
}


@pytest.mark.parametrize(
    ("text", "form"),
    [
        (json.dumps(CONTRACT), "json"),
        ("Here is my review:\n" + json.dumps(CONTRACT) + "\nThanks.", "embedded_json"),
        ("```json\n" + json.dumps(CONTRACT, indent=2) + "\n```", "embedded_json"),
        (
            "DECISION: need_fix\nFINDING: tests pass | pytest fails: “1 failed in 0.1s” | E4 |"
            " run pytest\nSUMMARY: One test fails.",
            "lines",
        ),
    ],
)
def test_every_level_reads_the_same_verdict(text: str, form: str) -> None:
    parsed = parse_verdict(text)
    assert parsed is not None
    assert parsed.form == form
    assert parsed.decision == "need_fix"
    (finding,) = parsed.findings
    assert finding.evidence == ("E4",)
    assert finding.requirement == "tests pass"
    assert "1 failed" in finding.problem


def test_legacy_contract_is_mapped() -> None:
    done = parse_verdict('{"completed": true, "problems": []}')
    assert done is not None and done.decision == "pass" and done.form == "legacy"
    open_ = parse_verdict('{"completed": false, "problems": ["README has no examples (E5)"]}')
    assert open_ is not None and open_.decision == "need_fix"
    assert open_.findings[0].evidence == ("E5",)


def test_legacy_line_format() -> None:
    parsed = parse_verdict("completed: false\n- the README misses the example for `run`")
    assert parsed is not None and parsed.decision == "need_fix" and parsed.form == "lines"
    assert parsed.findings[0].problem.startswith("the README misses")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "I think the agent did a good job overall.",
        '{"decision": "maybe", "findings": []}',
        '{"decision": "pass", "findings": "none"}',
        "[1, 2, 3]",
        "{" * 50_000,
        "[" * 50_000,
        '{"completed": "yes"}',
        "DECISION: perhaps",
    ],
)
def test_nothing_usable_is_none(text: str) -> None:
    assert parse_verdict(text) is None


def test_the_first_object_that_is_a_verdict_wins() -> None:
    text = 'Input was {"a": 1}. Verdict: {"decision": "pass", "findings": [], "summary": "ok"}'
    parsed = parse_verdict(text)
    assert parsed is not None and parsed.decision == "pass"


def test_hostile_sizes_are_bounded() -> None:
    text = '{"x": ' * 20_000 + "garbage " * 100_000
    started = time.perf_counter()
    assert parse_verdict(text) is None
    assert time.perf_counter() - started < 5.0


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "decision",
                    "findings",
                    "summary",
                    "evidence",
                    "problem",
                    "completed",
                    "problems",
                    "x",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_parses_or_is_none(text: str) -> None:
    parsed = parse_verdict(text)
    assert parsed is None or isinstance(parsed, ParsedVerdict)
    if parsed is not None:
        assert parsed.decision in {"pass", "need_evidence", "need_fix", "blocked"}
        assert all(isinstance(e, str) for f in parsed.findings for e in f.evidence)


@settings(max_examples=300, deadline=None)
@given(_json, st.text(max_size=40), st.text(max_size=40))
@example({"completed": False, "problems": [""]}, "", "")  # found by hypothesis: no finding
@example({"decision": "need_fix", "findings": [" "]}, "", "")
def test_any_json_in_any_prose_parses_or_is_none(value: object, before: str, after: str) -> None:
    parsed = parse_verdict(before + json.dumps(value) + after)
    if parsed is not None:
        assert parsed.decision in {"pass", "need_evidence", "need_fix", "blocked"}
        for finding in parsed.findings:
            assert isinstance(finding.problem, str) and finding.problem


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["pass", "need_evidence", "need_fix", "blocked"]),
    st.lists(st.text(min_size=1, max_size=60).filter(str.strip), max_size=3),
    st.text(max_size=60),
)
def test_a_valid_contract_survives_any_wrapping(
    decision: str, problems: list[str], noise: str
) -> None:
    body = {
        "decision": decision,
        "findings": [{"requirement": "r", "problem": p, "evidence": ["E1"]} for p in problems],
        "summary": "s",
    }
    for text in (json.dumps(body), f"```json\n{json.dumps(body)}\n```", json.dumps(body) + noise):
        parsed = parse_verdict(text)
        assert parsed is not None and parsed.decision == decision
        assert len(parsed.findings) == len(problems)


# --------------------------------------------------------------------- checking

GIVEN = Given(
    texts={
        "E4": "bash pytest -q\n1 failed in 0.1s",
        "E2": "write_file calc.py",
        "ANSWER": "All tests pass.",
        "REQUEST": "Add divide().",
        "3fa2b1c09d11#2": "README must list the three commands.",
    },
    evidence=frozenset({"E4", "E2", "3fa2b1c09d11#2"}),
)


def _parsed(decision: str, *findings: Finding) -> ParsedVerdict:
    return ParsedVerdict(decision=decision, findings=findings, summary="", form="json")  # type: ignore[arg-type]


def test_valid_citations_keep_a_fix() -> None:
    checked = check_findings(
        _parsed(
            "need_fix", Finding(requirement="r", problem="“1 failed in 0.1s”", evidence=("E4",))
        ),
        GIVEN,
    )
    assert checked.decision == "need_fix" and checked.downgraded == 0


@pytest.mark.parametrize(
    ("finding", "why"),
    [
        (Finding(requirement="r", problem="tests fail", evidence=("E99",)), "E99"),
        (Finding(requirement="r", problem="tests fail", evidence=()), "no ledger entry"),
        (
            Finding(requirement="r", problem="it printed “3 failed in 9s”", evidence=("E4",)),
            "3 failed in 9s",
        ),
        (
            Finding(requirement="r", problem="the answer is vague", evidence=("ANSWER",)),
            "no ledger",
        ),
    ],
)
def test_invalid_citations_downgrade_a_fix(finding: Finding, why: str) -> None:
    checked = check_findings(_parsed("need_fix", finding), GIVEN)
    assert checked.decision == "need_evidence"
    assert checked.downgraded == 1
    assert any(why in note for note in checked.notes)
    assert "E99" not in checked.findings[0].evidence


def test_one_valid_finding_keeps_the_fix_and_a_quote_from_the_answer_counts() -> None:
    checked = check_findings(
        _parsed(
            "need_fix",
            Finding(
                requirement="r", problem="says “All tests pass.” but E4 fails", evidence=("E4",)
            ),
            Finding(requirement="r2", problem="made up", evidence=("E77",)),
        ),
        GIVEN,
    )
    assert checked.decision == "need_fix"
    assert checked.downgraded == 1


def test_coverage_needs_valid_evidence() -> None:
    parsed = ParsedVerdict(
        decision="pass",
        findings=(),
        summary="",
        form="json",
        coverage=(("AC1", "covered", ("E2",)), ("AC2", "covered", ("E99",))),
    )
    checked = check_findings(parsed, GIVEN, {"AC1": "add divide", "AC2": "docs", "AC3": "x"})
    assert [(c.item, c.status) for c in checked.coverage] == [
        ("AC1", "covered"),
        ("AC2", "not_verified"),
        ("AC3", "not_verified"),
    ]


@pytest.mark.parametrize(
    ("request_text", "recheck", "kept"),
    [
        # a judge's recheck that would weaken the check is not passed on
        ("Fix add() in calc.py.", "Change the assertion in test_calc.py to expect 5.", False),
        ("Fix add() in calc.py.", "Skip the flaky test_network and re-run.", False),
        ("修复 add()。", "跳过失败的测试后重新运行。", False),
        # ...unless the task itself asks for it
        ("Delete the flaky test test_network.", "Delete the flaky test test_network.", True),
        ("Fix add() in calc.py.", "Run the tests and show them passing.", True),
    ],
)
def test_a_judge_recheck_never_asks_to_weaken_the_checks(
    request_text: str, recheck: str, kept: bool
) -> None:
    from donecheck.actors.review.verdicts import SAFE_RECHECK

    given = Given(texts={**GIVEN.texts, "REQUEST": request_text}, evidence=GIVEN.evidence)
    finding = Finding(
        requirement="r", problem="“1 failed in 0.1s”", evidence=("E4",), recheck=recheck
    )
    checked = check_findings(_parsed("need_fix", finding), given)
    assert checked.findings[0].recheck == (recheck if kept else SAFE_RECHECK)
    assert any("a review grants no such action" in n for n in checked.notes) is not kept
    assert any("asked to weaken the checks" in n for n in checked.notes) is not kept


@pytest.mark.parametrize(
    ("request_text", "recheck", "kept"),
    [
        # 0.2.0 §6: a review grants no deletion, publishing or external action
        ("Fix add() in calc.py.", "rm -rf .git, twine upload dist/*, git push --force", False),
        ("Fix add() in calc.py.", "Run `git push origin main` so CI runs it.", False),
        ("Fix add() in calc.py.", "Publish it with npm publish and check the registry.", False),
        ("Fix add() in calc.py.", "Clean up with `git reset --hard HEAD~1` and redo it.", False),
        ("修复 add()。", "运行 git push --force 然后再检查。", False),
        ("Arregla add().", "Ejecuta `docker push app:latest` y comprueba.", False),
        ("Fix the migration.", "Run DROP TABLE users; then migrate again.", False),
        (
            "Fix the deploy script.",
            "curl -X POST https://api.example.com/deploy to check it.",
            False,
        ),
        ("Fix the chart.", "kubectl delete pod web-0 and watch it come back.", False),
        # ...unless the task asks for that kind of action
        ("Release 1.2 to PyPI.", "Run twine upload dist/* and show the new version page.", True),
        ("Push the fix to origin main.", "Run git push origin main and show the result.", True),
        ("Delete the build folder and rebuild.", "rm -rf build && make, then show it.", True),
        # looks like one, is not one
        (
            "Fix add() in calc.py.",
            "Run pytest -q and show the push_notifications tests pass.",
            True,
        ),
        ("Fix add() in calc.py.", "Show git log and git status.", True),
        ("Fix the form.", "Check that the POST handler returns 201 in the tests.", True),
    ],
)
def test_a_judge_recheck_grants_no_deletion_publishing_or_external_action(
    request_text: str, recheck: str, kept: bool
) -> None:
    from donecheck.actors.review.verdicts import SAFE_RECHECK

    given = Given(texts={**GIVEN.texts, "REQUEST": request_text}, evidence=GIVEN.evidence)
    finding = Finding(
        requirement="r", problem="“1 failed in 0.1s”", evidence=("E4",), recheck=recheck
    )
    checked = check_findings(_parsed("need_fix", finding), given)
    assert checked.findings[0].recheck == (recheck if kept else SAFE_RECHECK)
    assert any("a review grants no such action" in n for n in checked.notes) is not kept
