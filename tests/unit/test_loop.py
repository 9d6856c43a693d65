"""next_action as a table: (state, result, limits, time, progress) → (state, action)."""

from __future__ import annotations

import msgspec
import pytest

from donecheck.actors.loop import Limits, TaskState, next_action, progress_key
from donecheck.actors.messages import (
    AnswerLink,
    Deliver,
    Finding,
    NoVerdict,
    Operation,
    Report,
    Steer,
    Verdict,
)

FIX = Finding(
    requirement="`pytest` passes",
    problem="failed",
    evidence=("E2",),
    recheck="rerun",
    rule="failed_check",
)
NEED = Finding(requirement="claim backed", problem="no run", rule="unproven_claim")
LIMITS = Limits(max_rounds=2, round_window_s=300.0)


def state(**kw: object) -> TaskState:
    base = TaskState(session_id="s", request_id="r", request="Fix the add() bug")
    return msgspec.structs.replace(base, **kw)


def verdict(decision: str, *findings: Finding) -> Verdict:
    return Verdict(review_id="rv", decision=decision, findings=findings)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("before", "result", "now", "progress", "action", "end", "rounds"),
    [
        # first review
        (state(), verdict("pass"), 0.0, "p", Deliver, "pass", 0),
        (state(), verdict("need_fix", FIX), 0.0, "p", Steer, None, 1),
        (state(), verdict("need_evidence", NEED), 0.0, "p", Steer, None, 1),
        (state(), verdict("blocked"), 0.0, "p", Report, "blocked", 0),
        (state(), NoVerdict(review_id="rv", reason="timeout"), 0.0, "p", Report, "unverified", 0),
        # later rounds
        (
            state(
                rounds_used=1,
                first_review_at=0.0,
                last_progress="a",
                chain=(AnswerLink(label="A1", decision="need_fix"),),
            ),
            verdict("pass"),
            60.0,
            "b",
            Deliver,
            "pass",
            1,
        ),
        (
            state(
                rounds_used=1,
                first_review_at=0.0,
                last_progress="a",
                chain=(AnswerLink(label="A1", decision="need_fix"),),
            ),
            verdict("need_fix", FIX),
            60.0,
            "b",
            Steer,
            None,
            2,
        ),
        # round limit: 2 rounds after the first review were used
        (
            state(rounds_used=2, first_review_at=0.0, last_progress="a"),
            verdict("need_fix", FIX),
            60.0,
            "b",
            Report,
            "round_limit",
            2,
        ),
        # time window: no round starts 300 s after the first review
        (
            state(rounds_used=1, first_review_at=0.0, last_progress="a"),
            verdict("need_fix", FIX),
            300.0,
            "b",
            Report,
            "time_limit",
            1,
        ),
        (
            state(rounds_used=1, first_review_at=0.0, last_progress="a"),
            verdict("need_fix", FIX),
            299.9,
            "b",
            Steer,
            None,
            2,
        ),
        # same findings, unchanged evidence
        (
            state(rounds_used=1, first_review_at=0.0, last_progress="same"),
            verdict("need_fix", FIX),
            10.0,
            "same",
            Report,
            "no_progress",
            1,
        ),
        # a failed review never loops and never passes, whatever round
        (
            state(rounds_used=1, first_review_at=0.0),
            NoVerdict(review_id="rv", reason="500"),
            10.0,
            "x",
            Report,
            "unverified",
            1,
        ),
        # past the aux budget the judge is not called: the rules decide alone, and
        # their findings steer as usual ...
        (
            state(),
            msgspec.structs.replace(verdict("need_fix", FIX), budget_denied="cap 200000"),
            0.0,
            "p",
            Steer,
            None,
            1,
        ),
        # ... but their pass is not one: the configured judge never saw the answer
        (
            state(rounds_used=1, first_review_at=0.0, last_progress="a"),
            msgspec.structs.replace(verdict("pass"), budget_denied="cap 200000"),
            10.0,
            "b",
            Report,
            "budget",
            1,
        ),
        (
            state(),
            NoVerdict(review_id="rv", reason="denied", budget_denied="unknown usage"),
            0.0,
            "p",
            Report,
            "unverified",
            0,
        ),
    ],
)
def test_next_action(before, result, now, progress, action, end, rounds) -> None:
    after, act = next_action(before, result, LIMITS, now=now, progress=progress)
    assert type(act) is action
    assert after.end_reason == end
    assert after.rounds_used == rounds
    assert act.report.end_reason == end
    assert after.chain[-1].label == f"A{len(before.chain) + 1}"


def test_zero_rounds_reports_at_once() -> None:
    _, act = next_action(state(), verdict("need_fix", FIX), Limits(max_rounds=0), 0.0, "p")
    assert isinstance(act, Report) and act.reason == "round_limit"


def test_chain_and_card() -> None:
    s1, a1 = next_action(state(), verdict("need_fix", FIX), LIMITS, 0.0, "a")
    _, a2 = next_action(s1, verdict("pass"), LIMITS, 30.0, "b")
    assert [f"{c.label} {c.decision}" for c in a2.report.chain] == ["A1 need_fix", "A2 pass"]
    assert a2.report.rounds_used == 1 and a2.report.decision == "pass"
    assert isinstance(a1, Steer) and a1.round == 1


def test_steer_message_is_a_checklist_from_donecheck() -> None:
    _, act = next_action(state(), verdict("need_fix", FIX, NEED), LIMITS, 0.0, "p")
    assert isinstance(act, Steer)
    text = act.message
    assert "from DoneCheck, not from the user" in text
    assert "Fix the add() bug" in text  # keeps the task
    assert "grants no new permissions" in text
    assert "[DoneCheck A2]" in text  # round marker for what the agent adds
    assert "Fix these defects" in text and "Gather this evidence" in text
    assert "E2" in text and "rerun" in text


def test_need_evidence_does_not_presume_a_defect() -> None:
    _, act = next_action(state(), verdict("need_evidence", NEED), LIMITS, 0.0, "p")
    assert isinstance(act, Steer)
    assert "Fix these defects" not in act.message
    assert "does not mean the implementation is wrong" in act.message


def test_progress_key_compares_latest_result_per_operation() -> None:
    from donecheck.actors.evidence.view import progress_digest

    def op(ok: bool, seq: int) -> Operation:
        return Operation(key="shell:pytest", tool="bash", call_seq=seq, ok=ok)

    def key(findings: list[Finding], ops: list[Operation]) -> str:
        return progress_key(findings, progress_digest(ops, []))

    failed_then_passed = key([FIX], [op(False, 1), op(True, 3)])
    passed_then_failed = key([FIX], [op(True, 1), op(False, 3)])
    failed_twice = key([FIX], [op(False, 1), op(False, 3)])
    assert failed_then_passed != passed_then_failed
    assert passed_then_failed == failed_twice == key([FIX], [op(False, 9)])
    assert key([FIX], []) != key([NEED], [])


def test_budget_is_an_end_reason_never_a_decision() -> None:
    denied = msgspec.structs.replace(verdict("pass"), budget_denied="cap 200000")
    after, act = next_action(state(), denied, LIMITS, 0.0, "p")
    assert isinstance(act, Report) and act.reason == "budget"
    assert [c.decision for c in after.chain] == ["unverified"]
    assert act.report.decision == "unverified"


def test_the_last_round_says_so_and_carries_earlier_answers() -> None:
    s1, a1 = next_action(state(answers=("A one",)), verdict("need_fix", FIX), LIMITS, 0.0, "a")
    assert isinstance(a1, Steer) and "last round" not in a1.message
    assert "answers so far" not in a1.message  # only one answer: the agent just gave it
    s1 = msgspec.structs.replace(s1, answers=("A one", "A two " + "x" * 20_000))
    _, a2 = next_action(s1, verdict("need_fix", FIX), LIMITS, 10.0, "b")
    assert isinstance(a2, Steer) and a2.round == 2 == LIMITS.max_rounds
    assert "This is the last round" in a2.message
    assert "--- A1 ---\nA one" in a2.message and "--- A2 ---" in a2.message
    assert len(a2.message) < 12_000 + 3_000  # the answers within their 12,000 characters


def test_reviews_count_every_review_and_judge_errors_reach_the_card() -> None:
    failed = msgspec.structs.replace(verdict("need_fix", FIX), judge_errors=("refused",))
    s1, _ = next_action(state(), failed, LIMITS, 0.0, "a")
    s2, a2 = next_action(s1, verdict("pass"), LIMITS, 5.0, "b")
    assert s2.reviews == 2 and a2.report.reviews == 2 and a2.report.rechecks == 1
    assert a2.report.judge_errors == ("refused",)


def test_a_changed_snapshot_is_progress() -> None:
    from donecheck.actors.evidence.view import progress_digest
    from donecheck.actors.messages import FileSnapshot

    def key(sha: str) -> str:
        snap = FileSnapshot(session_id="s", path="/w/calc.py", sha256=sha, size=10)
        return progress_key([FIX], progress_digest([], [snap]))

    assert key("a") != key("b")
    assert key("a") == key("a")


def test_a_checklist_says_not_to_weaken_the_checks() -> None:
    _, act = next_action(state(), verdict("need_fix", FIX, NEED), LIMITS, 0.0, "p")
    assert isinstance(act, Steer)
    assert "Do not weaken what verifies the work" in act.message


# ---- what a checklist carries (the seeds' fix protocol: the original request, the
# latest answer whole, 12,000 characters of answers in all)


def _steer(request: str, answers: tuple[str, ...]) -> str:
    from donecheck.actors.review.checklist import steer_message

    return steer_message(
        verdict=verdict("need_fix", FIX),
        request=request,
        reviewed_label=f"A{len(answers)}",
        round_no=1,
        max_rounds=2,
        answers=answers,
    )


@pytest.mark.parametrize(
    ("request_len", "whole"),
    [(200, True), (1_000, True), (11_000, True), (50_000, False)],
)
def test_the_checklist_carries_the_original_request(request_len: int, whole: bool) -> None:
    request = "Build the report. " + "r" * (request_len - 30) + " Then run the tests."
    message = _steer(request, ("Done.",))
    if whole:
        assert request in message
    else:  # a pasted dump: its head and its tail, the last ask kept
        assert request not in message and "characters of the request omitted" in message
        assert request[:2_000] in message and message.count("Then run the tests.") == 1
    if request_len > 300:  # a short one is whole on the task line
        # what to fix comes before it, so a client's length cap cuts the request first
        assert message.index("Fix these defects:") < message.rindex("Build the report.")


@pytest.mark.parametrize(("latest_len", "cut"), [(8_500, False), (11_000, False), (30_000, True)])
def test_the_latest_answer_is_whole_within_the_budget(latest_len: int, cut: bool) -> None:
    from donecheck.actors.review.checklist import ANSWERS_BUDGET, earlier_answers

    latest = "L" * latest_len
    shown = earlier_answers(["first " * 100, latest])
    assert [n for n, _ in shown] == [1, 2]
    assert (shown[-1][1] == latest) is not cut
    assert sum(len(t) for _, t in shown) <= ANSWERS_BUDGET + 100  # the cut markers
