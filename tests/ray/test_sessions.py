"""The session API end to end through real actor processes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import ray

from donecheck.actors.messages import MaterialRecorded, ViewRequest
from donecheck.runtime import (
    AttachmentError,
    Deliver,
    DoneCheck,
    InputError,
    Policy,
    Report,
    SessionClosedError,
    Steer,
    UnknownSessionError,
)
from tests.ray.conftest import NAMESPACE

pytestmark = pytest.mark.ray

CLAIM = "I fixed add() in the calculator and all tests pass now; nothing else in the repo changed."
FAILED = "FAILED tests/test_calc.py::test_add - assert -1 == 5\n=== 1 failed, 2 passed in 0.04s ==="


def test_need_fix_then_deliver_after_the_check_passes(dc: DoneCheck) -> None:
    with dc.open_session("Fix add() in calc.py so the tests pass") as session:
        call = session.tool_call("bash", {"command": "pytest -q"})
        session.tool_result(call, output=FAILED)  # no exit code: read from the output
        action = session.turn_stopping(CLAIM, event_id="stop-a1")
        assert isinstance(action, Steer)
        (finding,) = [f for f in action.report.findings if f.rule == "failed_check"]
        assert finding.evidence == ("E3",)
        assert "1 failed, 2 passed" in action.report.cited["E3"]
        assert "from DoneCheck, not from the user" in action.message
        assert action.report.decision == "need_fix"

        # the same stop event again (a retried call): consumed once, same action
        assert session.turn_stopping(CLAIM, event_id="stop-a1") == action

        session.tool_call("write_file", {"path": "calc.py", "content": "..."}, call_id="w")
        session.tool_result("w", output="ok", ok=True)
        call = session.tool_call("bash", {"command": "pytest -q"})
        session.tool_result(call, output="3 passed in 0.02s", exit_code=0)
        final = session.turn_stopping("[DoneCheck A2] " + CLAIM)
        assert isinstance(final, Deliver)
        assert [f"{c.label} {c.decision}" for c in final.report.chain] == ["A1 need_fix", "A2 pass"]
        assert session.report().end_reason == "pass"


def test_async_sessions_in_parallel_spread_over_shards(dc: DoneCheck) -> None:
    async def one(i: int) -> str:
        session = await dc.open_session_async(f"task {i}")
        async with session:
            call = await session.tool_call("bash", {"command": "pytest"})
            said = "=== 1 failed in 0.1s ===" if i % 2 else "=== 3 passed in 0.1s ==="
            await session.tool_result(call, output=said, exit_code=i % 2)
            action = await session.turn_stopping(CLAIM)
            return type(action).__name__

    async def main() -> list[str]:
        return await asyncio.gather(*(one(i) for i in range(40)))

    results = asyncio.run(main())
    assert results == ["Deliver" if i % 2 == 0 else "Steer" for i in range(40)]
    stats = dc.statistics()
    per_controller = [stats[f"controller-{i}"]["reviews"] for i in range(2)]
    assert all(n > 0 for n in per_controller), per_controller
    per_ledger = [stats[f"ledger-{i}"]["appended"] for i in range(2)]
    assert all(n > 0 for n in per_ledger), per_ledger


def _png() -> bytes:
    import pymupdf

    return pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 4, 3), False).tobytes("png")


def test_attachments_are_parsed_and_recorded(dc: DoneCheck, tmp_path: Path) -> None:
    spec = tmp_path / "spec.txt"
    spec.write_text("1. The API must return JSON.\n2. Errors use status 400.\n")
    session = dc.open_session(
        "Implement the spec",
        attachments=[spec, ("blob.bin", b"\x00\x01\x02" * 10)],
        images=[("shot.png", _png())],
    )
    session.turn_stopping(
        "Implemented both points of the spec in api.py; see the diff above. ```ok```"
    )
    ledger = dc.deployment.ledger_for(session.session_id)
    view = ray.get(ledger.view.remote(ViewRequest(session_id=session.session_id)))
    materials = {
        e.event.material.declared_name: e.event.material
        for e in view.entries
        if isinstance(e.event, MaterialRecorded)
    }
    assert materials["spec.txt"].status == "parsed"
    assert "The API must return JSON." in materials["spec.txt"].blocks[0].text
    assert materials["blob.bin"].status in {"unparsed", "failed"}
    assert materials["shot.png"].detected_type == "image/png"
    session.close()


def test_attachment_limits_and_errors(dc: DoneCheck, tmp_path: Path) -> None:
    with pytest.raises(AttachmentError, match="no such file"):
        dc.open_session("x", attachments=[tmp_path / "missing.pdf"])
    with pytest.raises(AttachmentError, match="expected a path"):
        dc.open_session("x", attachments=[12345])


def test_cancel_new_input_and_report(dc: DoneCheck) -> None:
    session = dc.open_session("first request")
    call = session.tool_call("bash", {"command": "pytest"})
    session.tool_result(call, exit_code=1)
    assert isinstance(session.turn_stopping(CLAIM), Steer)
    first_request = session.request_id
    new_request = session.new_user_input("a different request")
    assert new_request != first_request and session.request_id == new_request
    assert session.report(first_request).end_reason == "cancelled"
    session.cancel()
    assert session.report().end_reason == "cancelled"
    assert isinstance(session.turn_stopping(CLAIM), Report)
    card = session.close()
    assert card.request_id == new_request
    with pytest.raises(SessionClosedError):
        session.tool_call("bash", {"command": "ls"})


def test_unknown_session_error_crosses_the_actor_boundary(dc: DoneCheck) -> None:
    with pytest.raises(UnknownSessionError, match="s-does-not-exist"):
        dc.session("s-does-not-exist")


def test_opt_out_and_skip(dc: DoneCheck) -> None:
    off = dc.open_session("x", policy=Policy(review=False))
    assert off.turn_stopping(CLAIM).report.end_reason == "opted_out"
    short = dc.open_session("Say hello.")
    assert short.turn_stopping("Hello!").report.decision == "skipped"
    with pytest.raises(InputError, match="empty"):
        short.turn_stopping("   ")


def test_reviewer_restarts_after_a_crash(dc: DoneCheck) -> None:
    for handle in dc.deployment.reviewers:
        ray.kill(handle, no_restart=False)
    session = dc.open_session("Fix it")
    call = session.tool_call("bash", {"command": "pytest"})
    session.tool_result(call, exit_code=1)
    action = session.turn_stopping(CLAIM)
    # while a reviewer restarts the review either waits for it or is reported
    # unverified; it is never a pass and never a crash of the session
    assert isinstance(action, Steer | Report)
    if isinstance(action, Report):
        assert action.reason == "unverified"
    session2 = dc.open_session("Fix it again")
    call = session2.tool_call("bash", {"command": "pytest"})
    session2.tool_result(call, exit_code=1)
    assert isinstance(session2.turn_stopping(CLAIM), Steer)


def test_a_second_driver_attaches_to_the_running_deployment(
    dc: DoneCheck, ray_address: str
) -> None:
    script = textwrap.dedent(f"""
        from donecheck.runtime import DoneCheck
        dc = DoneCheck.start(address="auto", namespace={NAMESPACE!r}, ledger_shards=7)
        s = dc.open_session("from another driver")
        c = s.tool_call("bash", {{"command": "pytest"}})
        s.tool_result(c, exit_code=1)
        print(s.session_id, type(s.turn_stopping({CLAIM!r})).__name__,
              dc.config.ledger_shards, flush=True)
        dc.shutdown()
    """)
    env = {**os.environ, "RAY_ADDRESS": ray_address}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stderr[-2000:]
    session_id, action, shards = done.stdout.split()
    assert action == "Steer"
    assert shards == "2"  # the attaching driver adopts the running layout
    # this driver sees the session the other one opened
    card = dc.session(session_id).report()
    assert card.decision == "need_fix"


def test_200_concurrent_reservations_never_overrun_the_cap(dc: DoneCheck) -> None:
    from donecheck.actors.messages import BudgetQuery, Grant, Reserve

    budget = dc.deployment.budget_for("s-reserve-race")
    refs = [
        budget.handle.remote(
            Reserve(
                reservation_id=f"race-{i}",
                session_id="s-reserve-race",
                kind="review",
                prompt_tokens=1_000,
                max_output_tokens=32_768,
            )
        )
        for i in range(200)
    ]
    answers = ray.get(refs, timeout=60)
    granted = [a for a in answers if isinstance(a, Grant)]
    # each needs 1,000 + 32,768 tokens; 5 fit under the 200,000 cap, a 6th would not
    assert len(granted) == 5
    usage = ray.get(budget.handle.remote(BudgetQuery(session_id="s-reserve-race")))
    assert usage.reserved_tokens == 5 * 33_768 <= usage.cap
