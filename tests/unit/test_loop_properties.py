"""The loop's guarantees as properties: whatever an agent does, in whatever order.

Hypothesis drives the real controller, ledger and rules-only reviewer (in process,
over one store that outlives restarts) through sequences of up to 15 stops,
interleaved with tool events — passing, failing, masked and hollow runs of the
required check, edits — new user input, cancels, restarts of the controller and
the ledger, retried stop events and time passing. After every step it checks:

1. **termination** — a task steers at most ``max_rounds`` times; a Steer never
   follows a Report of the same task; every Steer names a round within the limit;
2. **no false pass** — a ``Deliver`` with decision ``pass`` on a task that requires
   ``pytest`` only when the latest ``pytest`` run that showed anything is a real
   pass (not failed, not masked), after the last edit of the code;
3. **monotonic rounds** — a task's round count never goes down, across restarts.

Each example checks all three; ``EXAMPLES`` examples run in CI.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from donecheck.actors.clock import FakeClock
from donecheck.actors.config import Config
from donecheck.actors.controller import CompletionController
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.local import LocalLedgers, LocalReviewers
from donecheck.actors.messages import (
    Cancel,
    ControllerAction,
    Deliver,
    Report,
    SessionOpened,
    Steer,
    ToolCall,
    ToolResult,
    TurnStopping,
    UserInput,
)
from donecheck.actors.reviewer import Reviewer
from donecheck.actors.store import MemoryStore

EXAMPLES = int(os.environ.get("DONECHECK_PROPERTY_EXAMPLES", "2000"))
MAX_ROUNDS = 2
REQUIRED = "Fix add() in calc.py and make sure `pytest -q` passes."
FOLLOW_UP = "The tests still fail: make sure `pytest -q` passes now."
UNRELATED = "Write CHANGELOG.md with one line for this release."

# how a run of the required check can look: (command, exit code, output, what it shows:
# True a real pass, False a failure or a masked status, None nothing — a hollow run)
RUNS: dict[str, tuple[str, int, str, bool | None]] = {
    "pass": ("pytest -q", 0, "=== 3 passed in 0.1s ===", True),
    "fail": (
        "pytest -q",
        1,
        "FAILED tests/test_calc.py::test_add\n=== 1 failed in 0.1s ===",
        False,
    ),
    "masked": ("pytest -q || true", 0, "Exit code: 0", False),
    "masked_fail": ("pytest -q; exit 0", 0, "=== 1 failed, 2 passed in 0.1s ===", False),
    "masked_pass": ("pytest -q | tee log", 0, "=== 3 passed in 0.1s ===", True),
    "hollow": ("pytest --co -q", 0, "3 tests collected in 0.01s", None),
    "silent": ("pytest -q", 0, "", None),
    # the failing test alone passing shows nothing of the suite; failing, it fails
    "narrowed": ("pytest -q tests/test_calc.py::test_add", 0, "=== 1 passed in 0.1s ===", None),
    "narrowed_fail": ("pytest -q -k add", 1, "=== 1 failed, 2 deselected in 0.1s ===", False),
}
ANSWERS = [
    "I fixed add() in calc.py and all tests pass now.",
    "Done.",
    "Fixed. All tests pass.",
    "已完成，测试全部通过。",
    "I wrote CHANGELOG.md with one line for this release.",
    "Implementation complete and verified, ready to merge.",
]

step = st.one_of(
    st.tuples(st.just("run"), st.sampled_from(sorted(RUNS))),
    # a second result for the latest run's call: a repeated id, no new call
    st.tuples(st.just("again"), st.sampled_from(sorted(RUNS))),
    st.tuples(st.just("edit"), st.sampled_from(["calc.py", "CHANGELOG.md"])),
    st.tuples(st.just("stop"), st.sampled_from(range(len(ANSWERS)))),
    st.tuples(st.just("retry"), st.just(0)),  # the previous stop event, delivered again
    st.tuples(st.just("input"), st.sampled_from([REQUIRED, FOLLOW_UP, UNRELATED])),
    st.tuples(st.just("cancel"), st.just(0)),
    st.tuples(st.just("restart"), st.sampled_from(["controller", "ledger"])),
    st.tuples(st.just("wait"), st.sampled_from([10, 200])),
)


def _bounded(steps: list[tuple[str, object]]) -> bool:
    return sum(1 for kind, _ in steps if kind in {"stop", "retry"}) <= 15


@dataclass
class _Task:
    request: str
    steers: int = 0
    """Steers answered to distinct stop events (a retried event may repeat one)."""
    reported: bool = False
    rounds: int = 0


@dataclass
class World:
    """The system under test, and what the test knows happened."""

    store: MemoryStore = field(default_factory=MemoryStore)
    ledger_store: MemoryStore = field(default_factory=MemoryStore)
    clock: FakeClock = field(default_factory=FakeClock)
    n: int = 0
    request_id: str = "r0"
    tasks: dict[str, _Task] = field(default_factory=dict)
    runs: list[tuple[int, bool]] = field(default_factory=list)
    """(position, a real pass) of every run of the required check that showed
    anything (hollow runs, which ran nothing, are left out)."""
    edits: list[int] = field(default_factory=list)
    last_call: str = ""
    """The call id of the latest run."""
    last_stop: TurnStopping | None = None

    def __post_init__(self) -> None:
        self.ledgers = LocalLedgers([EvidenceLedger(0, store=self.ledger_store)])
        self.controller = self._controller()

    def _controller(self) -> CompletionController:
        return CompletionController(
            config=Config(max_rounds=MAX_ROUNDS, round_window_s=300.0),
            ledger=self.ledgers,
            reviewer=LocalReviewers([Reviewer(ledger=self.ledgers)]),  # as deployed
            store=self.store,
            clock=self.clock,
        )

    def tick(self) -> int:
        self.n += 1
        self.clock.advance(1)
        return self.n

    async def record(self, *events: object) -> None:
        await self.ledgers.append(list(events))  # type: ignore[arg-type]


async def apply(world: World, kind: str, arg: object) -> tuple[ControllerAction, bool] | None:
    """Apply one step; for a stop, the action and whether it was a retried event."""
    n = world.tick()
    if kind == "run":
        command, code, output, genuine = RUNS[str(arg)]
        await world.record(
            ToolCall(session_id="s", call_id=f"c{n}", name="bash", arguments={"command": command}),
            ToolResult(session_id="s", call_id=f"c{n}", output=output, exit_code=code),
        )
        if genuine is not None:
            world.runs.append((n, genuine))
        world.last_call = f"c{n}"
    elif kind == "again":
        if not world.last_call:
            return None
        _, code, output, _ = RUNS[str(arg)]
        await world.record(
            ToolResult(session_id="s", call_id=world.last_call, output=output, exit_code=code)
        )
        if code != 0 or "failed" in output:  # it shows a failure: that counts
            world.runs.append((n, False))  # (a pass under an old id shows nothing)
    elif kind == "edit":
        await world.record(
            ToolCall(
                session_id="s",
                call_id=f"c{n}",
                name="write_file",
                arguments={"path": str(arg), "content": f"# {n}"},
            ),
            ToolResult(session_id="s", call_id=f"c{n}", output="ok", exit_code=0),
        )
        if arg == "calc.py":
            world.edits.append(n)
    elif kind in {"stop", "retry"}:
        retried = kind == "retry" and world.last_stop is not None
        if retried and world.last_stop is not None:
            stop = world.last_stop
        else:
            answer = ANSWERS[int(arg)]  # type: ignore[call-overload]
            stop = TurnStopping(session_id="s", answer=answer, event_id=f"stop-{n}")
        world.last_stop = stop
        action = await world.controller.handle(stop)
        assert isinstance(action, Deliver | Steer | Report)
        return action, retried
    elif kind == "input":
        world.request_id = f"r{n}"
        event = UserInput(
            session_id="s", request_id=world.request_id, text=str(arg), event_id=f"in{n}"
        )
        await world.record(event)
        await world.controller.handle(event)
        world.tasks[world.request_id] = _Task(str(arg))
        world.last_stop = None
    elif kind == "cancel":
        await world.controller.handle(Cancel(session_id="s"))
    elif kind == "restart":
        if arg == "controller":
            world.controller = world._controller()
        else:
            world.ledgers.ledgers[0] = EvidenceLedger(0, store=world.ledger_store)
    elif kind == "wait":
        world.clock.advance(float(arg))  # type: ignore[arg-type]
    return None


def check(world: World, action: ControllerAction, retried: bool) -> None:
    task = world.tasks[action.request_id]
    card = action.report
    # 3. the round count never goes down
    assert card.rounds_used >= task.rounds, (task.rounds, card.rounds_used)
    task.rounds = card.rounds_used
    # 1. termination
    assert card.rounds_used <= MAX_ROUNDS
    if isinstance(action, Steer):
        assert not task.reported, "a steer after the loop reported its end"
        assert 1 <= action.round <= MAX_ROUNDS
        if not retried:  # every new stop is a stop: it steers at most max_rounds times
            task.steers += 1
            assert task.steers <= MAX_ROUNDS, "the loop did not end"
    elif isinstance(action, Report):
        task.reported = True
    # 2. no false pass
    if isinstance(action, Deliver) and card.decision == "pass" and "pytest" in task.request:
        assert world.runs, "a pass with no run of the required check"
        position, genuine = world.runs[-1]
        assert genuine, "a pass while the latest run of the required check failed or was masked"
        assert not world.edits or world.edits[-1] < position, "a pass on a run before an edit"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(step, max_size=40).filter(_bounded))
@example(  # a stop delivered again after a failing run must not re-deliver the old pass
    [("run", "pass"), ("input", FOLLOW_UP), ("stop", 1), ("run", "fail"), ("retry", 0)]
)
@example(  # a failing run's id answered again with a pass: the failure stands
    [("edit", "calc.py"), ("run", "fail"), ("again", "pass"), ("stop", 0)]
)
def test_the_loop_always_ends_never_passes_a_failed_check_and_never_loses_a_round(
    steps: list[tuple[str, object]],
) -> None:
    async def body() -> None:
        world = World()
        opened = SessionOpened(session_id="s", request_id="r0", request=REQUIRED, event_id="o")
        await world.record(opened)
        await world.controller.handle(opened)
        world.tasks["r0"] = _Task(REQUIRED)
        for kind, arg in steps:
            answered = await apply(world, kind, arg)
            if answered is not None:
                check(world, *answered)

    asyncio.run(body())
