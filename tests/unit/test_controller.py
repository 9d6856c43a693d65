"""The controller with in-process peers (same classes as in a deployment) and a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.clock import FakeClock
from donecheck.actors.config import Config
from donecheck.actors.controller import CompletionController
from donecheck.actors.errors import UnknownSessionError
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.local import LocalLedgers, LocalReviewers
from donecheck.actors.messages import (
    Ack,
    Cancel,
    Deliver,
    MainCallRecorded,
    Material,
    MilestoneCheck,
    NoVerdict,
    Policy,
    Report,
    ReportQuery,
    ReviewRequest,
    ReviewResult,
    SessionClosed,
    SessionOpened,
    SetPolicy,
    Steer,
    ToolCall,
    ToolResult,
    TurnStopping,
    UserInput,
    Verdict,
    ViewRequest,
)
from donecheck.actors.peers import LocalBudgets, ReviewerPort
from donecheck.actors.reviewer import Reviewer
from donecheck.actors.store import SqliteStore

CLAIM = "I fixed add() in the calculator and all tests pass now; nothing else changed in the repo."


class GatedReviewer:
    """Holds every review until ``gate`` is set (to cancel one in flight)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.started = asyncio.Event()
        self.calls = 0
        self.ledgers: LocalLedgers | None = None  # make() hands it the controller's

    async def review(self, request: ReviewRequest) -> ReviewResult:
        self.calls += 1
        self.started.set()
        await self.gate.wait()
        return await Reviewer(ledger=self.ledgers).review(request)

    async def prepare(self, request: ReviewRequest) -> Ack:
        return await Reviewer(ledger=self.ledgers).prepare(request)


class FailingReviewer:
    async def review(self, request: ReviewRequest) -> ReviewResult:
        raise ConnectionError("reviewer actor died")

    async def prepare(self, request: ReviewRequest) -> Ack:
        raise ConnectionError("reviewer actor died")


class CountingReviewer(Reviewer):
    calls = 0

    async def review(self, request: ReviewRequest) -> ReviewResult:
        CountingReviewer.calls += 1
        return await super().review(request)


def make(
    reviewer: ReviewerPort | Callable[[LocalLedgers], ReviewerPort] | None = None, **config: Any
) -> tuple[CompletionController, LocalLedgers, FakeClock]:
    """A controller over two ledger shards; ``reviewer`` (or what it makes of the
    shards) asks them for its evidence, as deployed."""
    clock = FakeClock()
    ledgers = LocalLedgers([EvidenceLedger(0), EvidenceLedger(1)])
    if isinstance(reviewer, GatedReviewer):
        reviewer.ledgers = ledgers
    elif callable(reviewer):
        reviewer = reviewer(ledgers)
    controller = CompletionController(
        config=Config(**config),
        ledger=ledgers,
        reviewer=reviewer or LocalReviewers([Reviewer(ledger=ledgers)]),
        clock=clock,
    )
    return controller, ledgers, clock


def run(coro_fn: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro_fn())


async def open_session(
    c: CompletionController, ledgers: LocalLedgers, sid: str = "s1", policy: Policy | None = None
) -> None:
    opened = SessionOpened(
        session_id=sid, request_id="r1", request="Fix add() in calc.py", policy=policy or Policy()
    )
    await ledgers.append([opened])
    await c.handle(opened)


async def pytest_run(
    ledgers: LocalLedgers, call_id: str, exit_code: int, sid: str = "s1", *, edit: bool = True
) -> None:
    """An edit of calc.py (the request asks to fix it), then a pytest run."""
    write = [
        ToolCall(
            session_id=sid,
            call_id=f"{call_id}-w",
            name="write_file",
            arguments={"path": "calc.py", "content": f"# {call_id}"},
            event_id=f"{call_id}-wc",
        ),
        ToolResult(
            session_id=sid,
            call_id=f"{call_id}-w",
            output="ok",
            exit_code=0,
            event_id=f"{call_id}-wr",
        ),
    ]
    await ledgers.append(
        [
            *(write if edit else []),
            ToolCall(
                session_id=sid,
                call_id=call_id,
                name="bash",
                arguments={"command": "pytest"},
                event_id=f"{call_id}-c",
            ),
            ToolResult(
                session_id=sid,
                call_id=call_id,
                output="=== 1 failed, 2 passed in 0.1s ==="
                if exit_code
                else "=== 3 passed in 0.1s ===",
                exit_code=exit_code,
                event_id=f"{call_id}-r",
            ),
        ]
    )


def test_fix_then_pass() -> None:
    async def body() -> None:
        c, ledgers, clock = make()
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        first = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(first, Steer) and first.round == 1
        await pytest_run(ledgers, "b", 0)
        clock.advance(30)
        second = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " [DoneCheck A2]"))
        assert isinstance(second, Deliver)
        assert [f"{x.label} {x.decision}" for x in second.report.chain] == [
            "A1 need_fix",
            "A2 pass",
        ]

    run(body)


def test_duplicate_stop_event_reviews_once() -> None:
    async def body() -> None:
        CountingReviewer.calls = 0
        c, ledgers, _ = make(lambda ledgers: LocalReviewers([CountingReviewer(ledger=ledgers)]))
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        stop = TurnStopping(session_id="s1", answer=CLAIM, event_id="stop-1")
        first, second = await asyncio.gather(c.handle(stop), c.handle(stop))
        third = await c.handle(stop)
        assert first == second == third
        assert CountingReviewer.calls == 1
        assert c.statistics()["duplicates"] == 2

    run(body)


def test_the_same_answer_in_a_new_stop_is_reviewed_again_and_the_loop_ends() -> None:
    async def body() -> None:
        CountingReviewer.calls = 0
        c, ledgers, _ = make(lambda ledgers: LocalReviewers([CountingReviewer(ledger=ledgers)]))
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        first = await c.handle(TurnStopping(session_id="s1", answer=CLAIM, event_id="e1"))
        assert isinstance(first, Steer) and first.round == 1
        # the agent repeats itself without doing anything: a new stop, no progress
        again = await c.handle(TurnStopping(session_id="s1", answer=CLAIM, event_id="e2"))
        assert isinstance(again, Report) and again.reason == "no_progress"
        assert [x.label for x in again.report.chain] == ["A1", "A2"]
        assert CountingReviewer.calls == 2
        # and the loop stays over: further stops get the same ending, unreviewed
        later = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(later, Report) and later.reason == "no_progress"
        assert CountingReviewer.calls == 2

    run(body)


def test_trivial_answer_is_skipped_and_opt_out_delivers() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        chat = SessionOpened(session_id="s0", request_id="r0", request="Say hello to the team.")
        await ledgers.append([chat])
        await c.handle(chat)
        action = await c.handle(TurnStopping(session_id="s0", answer="Hello, team!"))
        assert isinstance(action, Deliver) and action.report.decision == "skipped"
        # "Done." claims completion, and the request names a file: reviewed, not skipped
        await open_session(c, ledgers)
        action = await c.handle(TurnStopping(session_id="s1", answer="Done."))
        assert isinstance(action, Steer) and action.report.decision == "need_evidence"
        await open_session(c, ledgers, "s2", Policy(review=False))
        action = await c.handle(TurnStopping(session_id="s2", answer=CLAIM))
        assert isinstance(action, Deliver) and action.report.end_reason == "opted_out"

    run(body)


def test_failed_review_is_unverified_not_pass_not_loop() -> None:
    async def body() -> None:
        c, ledgers, _ = make(FailingReviewer())
        await open_session(c, ledgers)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Report) and action.reason == "unverified"
        assert "reviewer actor died" in action.report.notes[-1]

    run(body)


def test_cancel_stops_an_in_flight_review_and_discards_it() -> None:
    async def body() -> None:
        gated = GatedReviewer()
        c, ledgers, _ = make(gated)
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        stopping = asyncio.ensure_future(c.handle(TurnStopping(session_id="s1", answer=CLAIM)))
        await gated.started.wait()
        ack = await c.handle(Cancel(session_id="s1"))
        assert ack.detail == "cancelled an in-flight review"
        action = await asyncio.wait_for(stopping, 1)
        assert isinstance(action, Report) and action.reason == "cancelled"
        gated.gate.set()
        card = await c.handle(ReportQuery(session_id="s1"))
        assert card.end_reason == "cancelled" and card.chain == ()
        assert c.statistics()["discarded"] == 1

    run(body)


def test_new_input_invalidates_a_pending_steer() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        assert isinstance(await c.handle(TurnStopping(session_id="s1", answer=CLAIM)), Steer)
        await c.handle(UserInput(session_id="s1", request_id="r2", text="Now add mul()."))
        card = await c.handle(ReportQuery(session_id="s1"))
        assert card.request_id == "r2" and card.chain == ()
        old = await c.handle(ReportQuery(session_id="s1", request_id="r1"))
        assert old.end_reason == "cancelled"
        # the same answer text is reviewed again for the new task, not replayed
        await pytest_run(ledgers, "b", 0)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Deliver) and action.request_id == "r2"

    run(body)


def test_round_limit_from_policy() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers, policy=Policy(max_rounds=1))
        for n in range(3):
            await pytest_run(ledgers, f"x{n}", 1)
            await ledgers.append(
                [
                    ToolCall(
                        session_id="s1",
                        call_id=f"w{n}",
                        name="write_file",
                        arguments={"path": "calc.py", "content": str(n)},
                    )
                ]
            )
            action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + str(n)))
            if isinstance(action, Report):
                break
        assert isinstance(action, Report) and action.reason == "round_limit"
        assert action.report.rounds_used == 1

    run(body)


def test_no_progress_stops_early() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        assert isinstance(await c.handle(TurnStopping(session_id="s1", answer=CLAIM)), Steer)
        await pytest_run(ledgers, "b", 1, edit=False)  # re-ran, same failure, nothing edited
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " Really."))
        assert isinstance(action, Report) and action.reason == "no_progress"

    run(body)


def test_time_window_with_fake_clock() -> None:
    async def body() -> None:
        c, ledgers, clock = make()
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        assert isinstance(await c.handle(TurnStopping(session_id="s1", answer=CLAIM)), Steer)
        await ledgers.append(
            [
                ToolCall(
                    session_id="s1",
                    call_id="w",
                    name="write_file",
                    arguments={"path": "calc.py", "content": "y"},
                )
            ]
        )
        await pytest_run(ledgers, "b", 1)
        clock.advance(301)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " Again."))
        assert isinstance(action, Report) and action.reason == "time_limit"

    run(body)


def test_materials_reach_the_ledger_before_the_review() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers)

        async def parsed() -> Material:
            await asyncio.sleep(0.01)
            return Material(
                sha256="sha256:1",
                declared_name="a.txt",
                detected_type="text/plain",
                status="parsed",
            )

        async def crashed() -> Material:
            raise RuntimeError("parser process died")

        c.attach_materials(
            "s1", [("sha256:1", "a.txt", parsed()), ("sha256:2", "b.pdf", crashed())]
        )
        await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        view = await ledgers.view(ViewRequest(session_id="s1"))
        materials = [e.event.material for e in view.entries if hasattr(e.event, "material")]
        assert sorted((m.declared_name, m.status) for m in materials) == [
            ("a.txt", "parsed"),
            ("b.pdf", "failed"),
        ]
        assert "parser process died" in next(m.reason for m in materials if m.status == "failed")

    run(body)


def test_unknown_and_closed_sessions() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        with pytest.raises(UnknownSessionError):
            await c.handle(TurnStopping(session_id="nope", answer=CLAIM))
        await open_session(c, ledgers)
        card = await c.handle(SessionClosed(session_id="s1"))
        assert card.session_id == "s1"
        with pytest.raises(UnknownSessionError):
            await c.handle(ReportQuery(session_id="s1"))
        with pytest.raises(UnknownSessionError, match="closed"):
            await c.handle(TurnStopping(session_id="s1", answer=CLAIM))

    run(body)


def test_bad_stops_get_a_reason_and_lose_nothing() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        before = len((await ledgers.view(ViewRequest(session_id="s1"))).entries)
        empty = await c.handle(TurnStopping(session_id="s1", answer="  "))
        assert isinstance(empty, Report) and empty.reason == "unverified"
        assert "empty" in empty.report.notes[-1]
        # said, not ended: the next stop is reviewed as usual
        assert isinstance(await c.handle(TurnStopping(session_id="s1", answer=CLAIM)), Steer)
        await c.handle(Cancel(session_id="s1"))
        after = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " again"))
        assert isinstance(after, Report) and after.reason == "cancelled"
        assert len((await ledgers.view(ViewRequest(session_id="s1"))).entries) == before

    run(body)


def test_no_verdict_result_passes_through() -> None:
    class Unparseable:
        async def review(self, request: ReviewRequest) -> ReviewResult:
            return NoVerdict(review_id=request.review_id, reason="unparseable", raw_text="???")

    async def body() -> None:
        c, ledgers, _ = make(Unparseable())
        await open_session(c, ledgers)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Report) and action.reason == "unverified"
        assert action.report.raw_reviews == ("???",)

    run(body)


# ------------------------------------------------------------ durable state, policy, usage


def durable(
    tmp: Path,
    clock: FakeClock,
    ledgers: LocalLedgers,
    budget: LocalBudgets | None = None,
    **cfg: Any,
) -> CompletionController:
    """A controller over a SQLite store; a second one on the same folder is a restart."""
    return CompletionController(
        config=Config(**cfg),
        ledger=ledgers,
        reviewer=LocalReviewers([Reviewer(ledger=ledgers)]),
        budget=budget,
        store=SqliteStore(tmp, "controller-0"),
        clock=clock,
    )


def test_a_restart_keeps_rounds_chain_and_the_consumed_verdict(tmp_path: Path) -> None:
    async def body() -> None:
        clock = FakeClock()
        ledgers = LocalLedgers([EvidenceLedger(0), EvidenceLedger(1)])
        c = durable(tmp_path, clock, ledgers)
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        stop = TurnStopping(session_id="s1", answer=CLAIM, event_id="stop-a1")
        first = await c.handle(stop)
        assert isinstance(first, Steer) and first.round == 1

        again = durable(tmp_path, clock, ledgers)  # the actor restarted
        # the same stop event is not reviewed or steered twice across the restart
        assert await again.handle(stop) == first
        await ledgers.append(  # an edit: the next review sees progress
            [
                ToolCall(
                    session_id="s1", call_id="w", name="write_file", arguments={"path": "a.py"}
                ),
                ToolResult(session_id="s1", call_id="w", output="ok", exit_code=0),
            ]
        )
        await pytest_run(ledgers, "b", 1)
        second = await again.handle(TurnStopping(session_id="s1", answer=CLAIM + " (retry)"))
        assert isinstance(second, Steer) and second.round == 2  # not round 1 again
        third = await again.handle(TurnStopping(session_id="s1", answer=CLAIM + " (again)"))
        assert isinstance(third, Report) and third.reason in {"round_limit", "no_progress"}
        assert again.statistics()["restored"] == 1

    run(body)


def test_sessions_in_memory_are_bounded_and_a_dropped_one_keeps_its_rounds(
    tmp_path: Path,
) -> None:
    """Issue 16: past ``state_cached_sessions`` the least recently used idle sessions
    leave memory; touching one reloads it (off the event loop) with its round count."""

    async def body() -> None:
        clock = FakeClock()
        ledgers = LocalLedgers([EvidenceLedger(0), EvidenceLedger(1)])
        c = durable(tmp_path, clock, ledgers, state_cached_sessions=4)
        for n in range(12):
            sid = f"s{n}"
            await open_session(c, ledgers, sid)
            await pytest_run(ledgers, f"a{n}", 1, sid)
            first = await c.handle(TurnStopping(session_id=sid, answer=CLAIM))
            assert isinstance(first, Steer) and first.round == 1
        facts = c.statistics()
        assert facts["sessions"] <= 4 and facts["dropped"] >= 8
        assert "s0" not in c._sessions
        await pytest_run(ledgers, "b0", 1, "s0")
        second = await c.handle(TurnStopping(session_id="s0", answer=CLAIM + " (retry)"))
        assert isinstance(second, Steer) and second.round == 2  # its rounds came back
        assert c.statistics()["restored"] >= 1

    run(body)


def test_opt_out_for_a_request_or_the_session(tmp_path: Path) -> None:
    async def body() -> None:
        clock = FakeClock()
        ledgers = LocalLedgers([EvidenceLedger(0), EvidenceLedger(1)])
        c = durable(tmp_path, clock, ledgers)
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        ack = await c.handle(SetPolicy(session_id="s1", review=False, scope="request"))
        assert "off for request r1" in ack.detail
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Deliver) and action.report.end_reason == "opted_out"
        # the next request is reviewed again
        await c.handle(UserInput(session_id="s1", request_id="r2", text="Now fix sub()."))
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " Also sub()."))
        assert isinstance(action, Steer)
        # a session-wide opt-out survives a restart (and so a context compaction)
        await c.handle(SetPolicy(session_id="s1", review=False, scope="session"))
        again = durable(tmp_path, clock, ledgers)
        await again.handle(UserInput(session_id="s1", request_id="r3", text="And mul()."))
        action = await again.handle(TurnStopping(session_id="s1", answer=CLAIM + " And mul()."))
        assert action.report.end_reason == "opted_out"
        assert "turned off for this session" in action.report.notes[-1]

    run(body)


def test_the_card_carries_usage_and_cost() -> None:
    async def body() -> None:
        accountant = BudgetAccountant(config=Config())
        budgets = LocalBudgets([accountant])
        clock = FakeClock()
        ledgers = LocalLedgers([EvidenceLedger(0)])
        c = CompletionController(
            config=Config(),
            ledger=ledgers,
            reviewer=LocalReviewers([Reviewer(ledger=ledgers)]),
            budget=budgets,
            clock=clock,
        )
        await open_session(c, ledgers)
        accountant.handle(MainCallRecorded(session_id="s1", count=3))
        await pytest_run(ledgers, "a", 0)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Deliver)
        usage = action.report.usage
        assert usage is not None and usage.main_calls == 3 and usage.cost_calls == 5

    run(body)


def test_milestone_checks_are_off_by_default_and_once_per_request() -> None:
    async def body() -> None:
        c, ledgers, _ = make()
        await open_session(c, ledgers)
        off = await c.handle(MilestoneCheck(session_id="s1"))
        assert off == Ack(session_id="s1", detail="milestone checks are off")

        CountingReviewer.calls = 0
        c, ledgers, _ = make(
            lambda ledgers: LocalReviewers([CountingReviewer(ledger=ledgers)]),
            milestone_checks=True,
        )
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        verdict = await c.handle(
            MilestoneCheck(session_id="s1", note="Implemented add(); the tests run next.")
        )
        assert isinstance(verdict, Verdict) and verdict.decision == "need_fix"
        again = await c.handle(MilestoneCheck(session_id="s1"))
        assert isinstance(again, Ack) and "used already" in again.detail
        assert CountingReviewer.calls == 1
        # advisory: the loop has not started, the stop is reviewed as round 0
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Steer) and action.round == 1
        assert [x.label for x in action.report.chain] == ["A1"]

    run(body)


def test_a_denied_budget_lets_the_rules_steer_and_never_passes() -> None:
    class Denied(Reviewer):
        async def review(self, request: ReviewRequest) -> ReviewResult:
            verdict = await super().review(request)
            assert isinstance(verdict, Verdict)
            return msgspec.structs.replace(verdict, budget_denied="session aux budget: cap 10")

    async def body() -> None:
        c, ledgers, _ = make(lambda ledgers: Denied(ledger=ledgers))
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(action, Steer)  # the failing test goes back to the agent
        assert "aux budget refused the judge" in action.report.notes[-1]
        await pytest_run(ledgers, "b", 0)
        action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " [DoneCheck A2]"))
        assert isinstance(action, Report) and action.reason == "budget"
        assert action.report.decision == "unverified" and action.report.unverified

    run(body)


def test_need_evidence_then_pass() -> None:
    async def body() -> None:
        c, ledgers, clock = make()
        await open_session(c, ledgers)
        await ledgers.append(
            [
                ToolCall(
                    session_id="s1", call_id="w", name="write_file", arguments={"path": "a.py"}
                ),
                ToolResult(session_id="s1", call_id="w", output="ok", exit_code=0),
            ]
        )
        first = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
        assert isinstance(first, Steer)
        assert first.report.decision == "need_evidence"
        assert "does not mean the implementation is wrong" in first.message
        await pytest_run(ledgers, "a", 0)
        clock.advance(20)
        second = await c.handle(TurnStopping(session_id="s1", answer=CLAIM + " [DoneCheck A2]"))
        assert isinstance(second, Deliver)
        assert [f"{x.label} {x.decision}" for x in second.report.chain] == [
            "A1 need_evidence",
            "A2 pass",
        ]

    run(body)


def _judged(server_url: str) -> tuple[CompletionController, LocalLedgers, Reviewer]:
    config = Config(judge_base_url=server_url, judge_model="judge")
    ledgers = LocalLedgers([EvidenceLedger(0)])
    reviewer = Reviewer(config=config, ledger=ledgers)
    controller = CompletionController(
        config=config, ledger=ledgers, reviewer=LocalReviewers([reviewer]), clock=FakeClock()
    )
    return controller, ledgers, reviewer


async def _prepared(c: CompletionController, session_id: str) -> None:
    """Wait for the background pre-analysis of the session's task."""
    preparing = c._sessions[session_id].preparing
    assert preparing is not None
    await asyncio.wait_for(preparing, 10)


def _preanalysis(text: str) -> bool:
    return "You prepare the review" in text


def test_preanalysis_runs_while_the_agent_works_not_at_the_stop() -> None:
    from donecheck.runtime.testing.scripted import Reply, ScriptedProvider, verdict_text

    def responder(request: Any) -> Reply | None:
        return Reply(content='{"acceptance": []}') if _preanalysis(request.text) else None

    async def body() -> None:
        default = verdict_text("pass", summary="Done.")
        async with ScriptedProvider([], default=default, responder=responder) as server:
            c, ledgers, reviewer = _judged(server.url)
            try:
                await open_session(c, ledgers)
                # no stop yet: the pre-analysis is made in the background
                await _prepared(c, "s1")
                assert len(server.requests) == 1 and _preanalysis(server.requests[0].text)
                await pytest_run(ledgers, "a", 0)
                action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
                assert isinstance(action, Deliver)
                # the stop made one model call, the review; the pre-analysis was reused
                assert [_preanalysis(r.text) for r in server.requests] == [True, False]
                assert c.statistics()["prepared"] == 1
                # a new request is pre-analysed too, while the agent works on it
                await c.handle(UserInput(session_id="s1", request_id="r2", text="Also add mul()."))
                await _prepared(c, "s1")
                assert [_preanalysis(r.text) for r in server.requests] == [True, False, True]
                assert "Also add mul()." in server.requests[-1].text
                server.requests.clear()
                # opting out at open means no model call at all
                await open_session(c, ledgers, "s2", Policy(review=False))
                assert c._sessions["s2"].preparing is None
                assert server.requests == []
            finally:
                await reviewer.aclose()

    run(body)


def test_a_judged_stop_builds_its_evidence_view_once() -> None:
    """The trivial-stop check, the rules and the judge's prompt all read one view:
    the ledger works it out once per stop and adds the prompt's parts to it."""
    from donecheck.runtime.testing.scripted import Reply, ScriptedProvider, verdict_text

    def responder(request: Any) -> Reply | None:
        return Reply(content='{"acceptance": []}') if _preanalysis(request.text) else None

    async def body() -> None:
        default = verdict_text("pass", summary="Done.")
        async with ScriptedProvider([], default=default, responder=responder) as server:
            c, ledgers, reviewer = _judged(server.url)
            try:
                await open_session(c, ledgers)
                await _prepared(c, "s1")
                await pytest_run(ledgers, "a", 0)
                built = ledgers.ledgers[0].statistics()["views_built"]
                action = await c.handle(TurnStopping(session_id="s1", answer="OK."))
                assert isinstance(action, Deliver)
                stats = ledgers.ledgers[0].statistics()
                assert stats["views_built"] - built == 1
                assert stats["evidence"] >= 2  # asked twice: the trivial check, the review
            finally:
                await reviewer.aclose()

    run(body)


def test_preanalysis_of_a_request_with_attachments_waits_for_their_content() -> None:
    from donecheck.actors.messages import AttachmentRef
    from donecheck.parsers import parse_bytes
    from donecheck.runtime.testing.scripted import Reply, ScriptedProvider

    spec = parse_bytes(b"- The README lists every command.\n", "spec.txt")

    def responder(request: Any) -> Reply | None:
        return Reply(content='{"acceptance": []}') if _preanalysis(request.text) else None

    async def body() -> None:
        async with ScriptedProvider([], responder=responder) as server:
            c, ledgers, reviewer = _judged(server.url)
            try:
                opened = SessionOpened(
                    session_id="s1",
                    request_id="r1",
                    request="Update the README per the attached spec.",
                    attachments=(AttachmentRef(sha256=spec.sha256, name="spec.txt", size=34),),
                )
                await ledgers.append([opened])
                await c.handle(opened)
                parsed: asyncio.Future[Material] = asyncio.get_running_loop().create_future()
                c.attach_materials("s1", [(spec.sha256, "spec.txt", parsed)])
                await asyncio.sleep(0.2)
                assert server.requests == []  # still parsing: nothing is guessed
                parsed.set_result(spec)
                await _prepared(c, "s1")
                assert len(server.requests) == 1
                assert "The README lists every command." in server.requests[0].text
            finally:
                await reviewer.aclose()

    run(body)


def test_a_judged_turn_gets_its_usage_from_the_settlement_not_a_query() -> None:
    from donecheck.actors.messages import BudgetQuery, UsageSummary
    from donecheck.runtime.testing.scripted import Reply, ScriptedProvider, verdict_text

    class CountingBudgets(LocalBudgets):
        queries = 0

        async def usage(self, query: BudgetQuery) -> UsageSummary:
            CountingBudgets.queries += 1
            return await super().usage(query)

    def responder(request: Any) -> Reply | None:
        return Reply(content='{"acceptance": []}') if _preanalysis(request.text) else None

    async def body() -> None:
        default = verdict_text("pass", summary="Done.")
        async with ScriptedProvider([], default=default, responder=responder) as server:
            config = Config(judge_base_url=server.url, judge_model="judge")
            budgets = CountingBudgets([BudgetAccountant(config=config)])
            ledgers = LocalLedgers([EvidenceLedger(0)])
            reviewer = Reviewer(config=config, budget=budgets, ledger=ledgers)
            c = CompletionController(
                config=config,
                ledger=ledgers,
                reviewer=LocalReviewers([reviewer]),
                budget=budgets,
                clock=FakeClock(),
            )
            try:
                await open_session(c, ledgers)
                await _prepared(c, "s1")
                await pytest_run(ledgers, "a", 0)
                action = await c.handle(TurnStopping(session_id="s1", answer=CLAIM))
                assert isinstance(action, Deliver)
                usage = action.report.usage
                assert usage is not None
                assert usage.aux_calls == {"pre_analysis": 1, "review": 1}
                assert CountingBudgets.queries == 0
                # a card asked for later still comes from the accountant
                card = await c.handle(ReportQuery(session_id="s1"))
                assert card.usage == usage and CountingBudgets.queries == 1
            finally:
                await reviewer.aclose()

    run(body)


def test_a_review_that_never_answers_times_out_as_unverified() -> None:
    """The review's deadline is on the controller's clock: advancing it past the
    deadline ends the stop at once (nothing sleeps), unverified, never a pass."""

    class Hung(Reviewer):
        async def review(self, request: ReviewRequest) -> ReviewResult:
            await asyncio.Event().wait()  # the reviewer is stuck
            raise AssertionError("unreachable")

    async def body() -> None:
        c, ledgers, clock = make(LocalReviewers([Hung()]))
        timeout = Config().review_timeout_s
        await open_session(c, ledgers)
        await pytest_run(ledgers, "a", 1)
        stop = asyncio.ensure_future(c.handle(TurnStopping(session_id="s1", answer=CLAIM)))
        await clock.until_sleeping()  # the controller is waiting on the review now
        clock.advance(timeout - 1)
        await asyncio.sleep(0)
        assert not stop.done()  # a second early: still waiting
        clock.advance(1)
        action = await asyncio.wait_for(stop, 5)
        assert isinstance(action, Report) and action.reason == "unverified"
        assert f"timed out after {timeout:g} s" in action.report.notes[-1]

    run(body)
