"""Evidence ranks by origin: a runner's own report or a gate DoneCheck ran outranks
what a tool's output says (issue 17). Pure: ledgers built by hand, rules and combine."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.evidence.fingerprint import fingerprint
from donecheck.actors.evidence.pairing import Pairing, edits, operations
from donecheck.actors.evidence.view import build_view
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.messages import (
    CheckReport,
    EvidenceRequest,
    FailedTest,
    LedgerEntry,
    ToolCall,
    ToolResult,
    ViewRequest,
)
from donecheck.actors.review.rules import review_by_rules
from donecheck.runtime.testing.scripted import verdict_text
from tests.unit.helpers import LedgerBuilder
from tests.unit.test_combine import combined

CLAIM = "Fixed add() in calc.py; all tests pass now and nothing else was touched."
ASK = EvidenceRequest(
    session_id="s", request_id="r", request="Fix add() in calc.py.", prompt=True, approvals=True
)


class Timed(LedgerBuilder):
    """A ledger whose events carry wall-clock times, as hooks record them."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000.0

    def run_at(
        self, command: str, code: int | None, output: str, took: float = 2.0, hook: bool = False
    ) -> int:
        """A shell call made now, its result ``took`` seconds later; returns the result
        seq. ``hook``: recorded as a post-tool hook does, call and result together
        when the run is over."""
        self._n += 1
        call_id = f"c{self._n}"
        self.now += took if hook else 0
        self._add(
            ToolCall(
                session_id="s",
                call_id=call_id,
                name="bash",
                arguments={"command": command},
                at=self.now,
            )
        )
        self.now += 0 if hook else took
        seq = self._add(
            ToolResult(session_id="s", call_id=call_id, output=output, exit_code=code, at=self.now)
        )
        self.now += 1
        return seq

    def report(self, ok: bool | None, **fields: Any) -> int:
        """A runner report of a run that ended just now (or at ``started_at`` + duration)."""
        fields.setdefault("command", "pytest -q")
        fields.setdefault("started_at", self.now - 1.5)
        fields.setdefault("duration_s", 1.0)
        fields.setdefault("origin", "runner")
        fields.setdefault("name", "pytest" if fields["origin"] == "runner" else "tests")
        if ok is False:
            fields.setdefault("failed", 1)
            fields.setdefault("passed", 2)
            fields.setdefault(
                "failures",
                (FailedTest(node="tests/test_calc.py::test_add", message="assert 3 == 4"),),
            )
        elif ok:
            fields.setdefault("passed", 3)
        return self._add(CheckReport(session_id="s", ok=ok, at=self.now, **fields))

    def edit(self) -> None:
        self.write("calc.py")


def test_a_masked_run_whose_runner_report_failed_is_need_fix_citing_the_report() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    report = ledger.report(False, started_at=ledger.now + 0.2)  # arrives while the tool runs
    ledger.run_at("pytest -q || true", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request(CLAIM))
    assert verdict.decision == "need_fix"
    (finding,) = [f for f in verdict.findings if f.rule == "failed_check"]
    assert finding.evidence == (f"E{report}",)
    assert "runner's own report" in finding.problem
    assert "said it passed" in finding.problem
    assert "tests/test_calc.py::test_add" in verdict.cited[f"E{report}"]


def test_a_faked_passing_output_is_overruled_by_the_runner() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    start = ledger.now + 0.1
    ledger.report(False, started_at=start)
    ledger.run_at("FAKE_PASS=1 pytest -q", 0, "3 passed in 0.1s")
    assert review_by_rules(ledger.request(CLAIM)).decision == "need_fix"
    # ... and no judge passes it
    assert combined(ledger.request(CLAIM), verdict_text("pass")).decision == "need_fix"  # type: ignore[union-attr]


def test_a_runner_pass_alone_does_not_settle_a_call_that_showed_nothing() -> None:
    """Issue 25: a passing report posted during a call that printed nothing is the
    only account of a pass — and anyone on the host can send one. It proves nothing."""
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(True, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q | tail -3 || true", 0, "")
    ops = operations(ledger.entries)
    (run,) = [op for op in ops if op.check]
    assert (run.ok, run.origin) == (None, "runner")
    assert "a report alone proves nothing" in run.caveat
    assert review_by_rules(ledger.request(CLAIM)).decision == "need_evidence"


def test_a_runner_pass_settles_a_masked_run_whose_output_shows_it() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(True, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q | tail -3 || true", 0, "...\n3 passed in 0.1s")
    (run,) = [op for op in operations(ledger.entries) if op.check]
    assert (run.ok, run.origin, run.status_source) == (True, "runner", "runner")
    assert review_by_rules(ledger.request(CLAIM)).decision == "pass"


def test_a_runner_pass_does_not_overturn_a_failure_the_output_shows() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(True, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q", 1, "FAILED tests/t.py::test_a\n1 failed, 2 passed in 0.1s")
    assert review_by_rules(ledger.request(CLAIM)).decision == "need_fix"


def test_a_runner_pass_of_a_narrower_run_does_not_stand_for_the_whole_suite() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(True, command="pytest -q tests/test_one.py", started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q || true", 0, "")  # the call ran everything, masked
    run = next(op for op in operations(ledger.entries) if op.tool == "bash")
    assert run.origin == "agent" and run.ok is None
    assert review_by_rules(ledger.request(CLAIM)).decision != "pass"


def test_a_later_tool_output_does_not_resolve_a_runner_failure() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(False, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q", 1, "1 failed, 2 passed in 0.1s")
    # the agent re-runs with the reporter turned off and prints a pass
    ledger.run_at("pytest -q -p no:donecheck", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request(CLAIM))
    assert verdict.decision == "need_fix"


def test_a_later_runner_pass_resolves_a_runner_failure() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.report(False, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q", 1, "1 failed, 2 passed in 0.1s")
    ledger.edit()
    ledger.now += 5
    ledger.report(True, started_at=ledger.now + 0.1)
    ledger.run_at("pytest -q", 0, "3 passed in 0.1s")
    assert review_by_rules(ledger.request(CLAIM)).decision == "pass"


def test_a_report_no_call_ran_counts_when_it_fails_and_never_when_it_passes() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.now += 5
    ledger.run_at("pytest -q", 1, "1 failed, 2 passed in 0.1s")
    ledger.now += 100
    ledger.report(True)  # sent by someone, not by any call's run
    verdict = review_by_rules(ledger.request(CLAIM))
    assert verdict.decision == "need_fix"

    alone = Timed()
    alone.edit()
    alone.now += 100
    alone.report(True)
    assert review_by_rules(alone.request(CLAIM)).decision == "need_evidence"

    failing = Timed()
    failing.edit()
    failing.now += 100
    seq = failing.report(False)
    verdict = review_by_rules(failing.request(CLAIM))
    assert verdict.decision == "need_fix"
    assert verdict.findings[0].evidence == (f"E{seq}",)


def test_a_failed_gate_is_need_fix_and_no_judge_passes_it() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.run_at("pytest -q", 0, "3 passed in 0.1s")
    seq = ledger.report(
        False,
        origin="donecheck",
        name="lint",
        command="ruff check .",
        failures=(),
        failed=0,
        passed=0,
        exit_code=1,
        host="box",
        workspace="/w",
        output="a.py:1:1: F401 unused import\nFound 1 error.",
    )
    verdict = review_by_rules(ledger.request(CLAIM))
    assert verdict.decision == "need_fix"
    assert "gate DoneCheck ran" in verdict.findings[0].problem
    assert verdict.findings[0].evidence == (f"E{seq}",)
    judged = combined(ledger.request(CLAIM), verdict_text("pass"))
    assert judged.decision == "need_fix"  # type: ignore[union-attr]
    run = next(r for r in verdict.runs if r.evidence == f"E{seq}")
    assert (run.origin, run.outcome, run.where) == ("donecheck", "failed", "box:/w")


def test_a_passing_gate_resolves_an_earlier_failure_it_covers() -> None:
    ledger = Timed()
    ledger.run_at("pytest -q tests/test_calc.py", 1, "1 failed in 0.1s")
    ledger.edit()
    ledger.report(True, origin="donecheck", name="tests", command="pytest -q")
    assert review_by_rules(ledger.request(CLAIM)).decision == "pass"


def test_a_gate_that_timed_out_is_not_a_pass() -> None:
    ledger = Timed()
    ledger.edit()
    ledger.run_at("pytest -q", 0, "3 passed in 0.1s")
    ledger.report(
        False, origin="donecheck", command="pytest -q", detail="timed out after 600 s", failures=()
    )
    assert review_by_rules(ledger.request(CLAIM)).decision == "need_fix"


def test_a_report_forged_before_the_run_does_not_match_it() -> None:
    """The agent posts a passing report from one call, then runs the suite masked in
    the next: the report arrived before that run began (DoneCheck's clock, whatever
    times the report states), so it matches nothing and passes nothing."""
    for forged_in_same_call in (False, True):
        ledger = Timed()
        ledger.edit()
        ledger.now += 5
        ledger.report(False)  # the real run, earlier
        ledger.run_at("pytest -q", 1, "1 failed, 2 passed in 0.1s", hook=True)
        ledger.edit()
        ledger.now += 5
        if forged_in_same_call:
            # curl and the run in one command: only the reporter switch tells
            ledger.report(True, started_at=ledger.now + 1, duration_s=1)
            ledger.run_at(
                "curl -d @fake.json $URL; pytest -q -p no:donecheck || true", 0, "", hook=True
            )
        else:
            ledger.report(True, started_at=ledger.now + 10, duration_s=1)
            ledger.run_at("curl -s -d @report.json http://127.0.0.1:8765/v1/x", 0, "{}", hook=True)
            ledger.now += 3
            ledger.run_at("pytest -q || true", 0, "", hook=True)
        verdict = review_by_rules(ledger.request(CLAIM))
        assert verdict.decision != "pass", forged_in_same_call
        last = [op for op in operations(ledger.entries) if op.tool == "bash"][-1]
        assert last.origin == "agent" and last.ok is None


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q -p no:donecheck",
        "DONECHECK_SESSION= pytest -q",
        "env -u DONECHECK_SESSION pytest -q",
        "unset DONECHECK_SESSION; pytest -q",
    ],
)
def test_a_run_with_the_reporter_off_matches_no_report(command: str) -> None:
    ledger = Timed()
    ledger.report(True, started_at=ledger.now + 0.1)
    ledger.run_at(command + " || true", 0, "")
    last = [op for op in operations(ledger.entries) if op.tool == "bash"][-1]
    assert last.origin == "agent" and last.ok is None


# ----------------------------------------------------------------- properties

_OUTPUTS = [
    (0, "3 passed in 0.1s"),
    (1, "1 failed, 2 passed in 0.1s"),
    (0, ""),
    (None, "3 passed in 0.2s"),
    (5, "no tests ran in 0.01s"),
    (0, "Exit code: 0"),
]
_COMMANDS = [
    "pytest -q",
    "pytest -q || true",
    "python -m pytest",
    "pytest -q | tail -2",
    "pytest -q tests/a.py",
]

_step = st.one_of(
    st.tuples(st.just("run"), st.sampled_from(_COMMANDS), st.sampled_from(_OUTPUTS)),
    st.tuples(st.just("edit"), st.none(), st.none()),
    st.tuples(st.just("report"), st.sampled_from(_COMMANDS[::2]), st.booleans()),
    st.tuples(st.just("gap"), st.none(), st.floats(0, 30)),
)


def _build(steps: list[tuple[str, Any, Any]]) -> Timed:
    ledger = Timed()
    for kind, command, value in steps:
        if kind == "run":
            ledger.run_at(command, *value)
        elif kind == "edit":
            ledger.edit()
        elif kind == "report":
            ledger.report(value, command=command.replace(" || true", ""))
        else:
            ledger.now += value
    return ledger


@settings(max_examples=300, deadline=None)
@given(st.lists(_step, max_size=12), st.sampled_from(["runner", "donecheck"]))
def test_a_failing_report_last_is_never_a_pass(
    steps: list[tuple[str, Any, Any]], origin: str
) -> None:
    """Whatever the agent ran and printed before, when the last word on the checks is a
    failing runner or gate report, neither the rules nor a judge's ``pass`` pass it."""
    ledger = _build(steps)
    ledger.now += 50
    ledger.report(False, origin=origin, command="pytest -q")
    request = ledger.request(CLAIM)
    assert review_by_rules(request).decision != "pass"
    assert combined(request, verdict_text("pass")).decision != "pass"  # type: ignore[union-attr]


@settings(max_examples=300, deadline=None)
@given(st.lists(_step, max_size=12))
def test_a_runner_report_never_turns_a_failure_into_a_pass_without_a_new_run(
    steps: list[tuple[str, Any, Any]],
) -> None:
    """Reports added to a ledger whose latest full run failed (shown by its output) never
    make it pass unless a later run of the suite passed with its own report."""
    ledger = _build(steps)
    ledger.edit()
    ledger.run_at("pytest -q", 1, "1 failed, 2 passed in 0.1s")
    ledger.now += 40
    ledger.report(True)  # a pass no call ran
    assert review_by_rules(ledger.request(CLAIM)).decision == "need_fix"


def test_a_junit_report_recorded_in_the_same_command_settles_that_run() -> None:
    """``npm test; donecheck record-junit junit.xml``: the line's status is the
    recorder's (masked), and the report, arriving while the call runs, tells it."""
    line = "npm test; donecheck record-junit junit.xml --command 'npm test'"
    for ok, expected, jest in (
        (True, "pass", "Tests:       3 passed, 3 total"),
        (False, "need_fix", "Tests:       1 failed, 2 passed, 3 total"),
    ):
        ledger = Timed()
        ledger.edit()
        ledger.now += 5
        ledger.report(ok, name="jest", command="npm test", started_at=ledger.now + 0.1)
        ledger.run_at(line, 0, f"{jest}\nrecorded junit.xml in s: 3 passed")
        run = next(op for op in operations(ledger.entries) if op.tool == "bash")
        assert run.origin == "runner" and run.ok is ok
        assert review_by_rules(ledger.request(CLAIM)).decision == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(_step, max_size=14), st.lists(st.integers(0, 60), max_size=5))
def test_pairing_fed_piece_by_piece_is_pairing_the_whole_ledger(
    steps: list[tuple[str, Any, Any]], cuts: list[int]
) -> None:
    """The ledger pairs only what a view has not seen (issue 16): fed in any pieces,
    with reports, repeated ids and results of unknown calls, the operations are those
    of one pass over the whole ledger."""
    ledger = _build(steps)
    entries = list(ledger.entries)
    seq = len(entries)
    for event in (  # a repeated call id, and a result no call asked for
        ToolCall(session_id="s", call_id="dup", name="bash", arguments={"command": "pytest"}),
        ToolCall(session_id="s", call_id="dup", name="bash", arguments={"command": "ls"}),
        ToolResult(session_id="s", call_id="dup", exit_code=1, output="1 failed"),
        ToolResult(session_id="s", call_id="nobody", exit_code=2, output="error"),
    ):
        seq += 1
        entries.append(LedgerEntry(seq=seq, event=event))
    pairing = Pairing()
    start = 0
    for cut in sorted(min(c, len(entries)) for c in cuts):
        pairing.feed(entries[start:cut])
        start = cut
        assert pairing.operations() == operations(entries[:cut])
    pairing.feed(entries[start:])
    assert pairing.operations() == operations(entries)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_step, max_size=14),
    st.lists(st.integers(1, 8), min_size=1, max_size=6),
    st.lists(st.booleans(), max_size=6),
)
def test_a_ledger_appended_in_any_batches_views_what_one_pass_gives(
    steps: list[tuple[str, Any, Any]], sizes: list[int], looks: list[bool]
) -> None:
    """The ledger pairs and hashes entries as it appends them (while they are in the
    CPU's cache): whatever the batches, and views asked between them or not, a view
    holds the operations, writes and fingerprint of one pass over the whole log."""
    built = list(_build(steps).entries)
    events = [msgspec.structs.replace(e.event, event_id=f"x{i}") for i, e in enumerate(built)]
    ledger = EvidenceLedger()
    start = 0
    for n, size in enumerate(sizes * (len(events) // max(1, sum(sizes)) + 1)):
        if start >= len(events):
            break
        ledger.append(events[start : start + size])
        start += size
        if n < len(looks) and looks[n]:
            ledger.evidence(ASK)
    view = ledger.view(ViewRequest(session_id="s", include=("entries", "edits")))
    once = build_view(view.entries, ASK)
    assert ledger.evidence(ASK) == msgspec.structs.replace(once, fingerprint=view.fingerprint)
    assert list(view.edits) == edits(view.entries)
    assert view.fingerprint == fingerprint(view.entries)
    assert [e.event for e in view.entries] == events
    # one session id string for a batch's events, not one each
    first = view.entries[: sizes[0]]
    assert len({id(e.event.session_id) for e in first}) == (1 if first else 0)
