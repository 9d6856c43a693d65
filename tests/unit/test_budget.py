from __future__ import annotations

import pytest

from donecheck.actors.budget import BudgetAccountant, Caps, SessionUsage, grant
from donecheck.runtime.config import Config
from donecheck.runtime.messages import (
    BudgetQuery,
    Deny,
    Grant,
    MainCallRecorded,
    Reserve,
    UsageReport,
)

CAPS = Caps(call_output_tokens=1_000, call_timeout_s=150, session_tokens=10_000)


def reserve(prompt: int, output: int = 5_000, rid: str = "r1") -> Reserve:
    return Reserve(
        reservation_id=rid,
        session_id="s",
        kind="review",
        prompt_tokens=prompt,
        max_output_tokens=output,
    )


@pytest.mark.parametrize(
    ("usage", "request_", "granted", "reason"),
    [
        (SessionUsage(), reserve(1_000), True, ""),
        (SessionUsage(tokens=8_000), reserve(1_000), True, ""),  # 8000 + 1000 + 1000 = cap
        (SessionUsage(tokens=8_001), reserve(1_000), False, "session aux budget"),
        (SessionUsage(tokens=5_000, reserved=4_000), reserve(500), False, "reserved"),
        (SessionUsage(unknown_calls=1), reserve(10), False, "reported no usage"),
        (SessionUsage(), reserve(-1), False, "invalid"),
    ],
)
def test_grant(usage: SessionUsage, request_: Reserve, granted: bool, reason: str) -> None:
    answer = grant(usage, request_, CAPS)
    assert isinstance(answer, Grant) is granted
    if isinstance(answer, Grant):
        assert answer.max_output_tokens == 1_000  # capped per call
        assert answer.deadline_s == 150
    else:
        assert isinstance(answer, Deny) and reason in answer.reason


def test_unknown_usage_may_be_allowed_by_policy() -> None:
    caps = Caps(session_tokens=10_000, stop_on_unknown=False)
    assert isinstance(grant(SessionUsage(unknown_calls=2), reserve(10), caps), Grant)


def test_accountant_reserve_settle_and_summary() -> None:
    acc = BudgetAccountant(config=Config(session_aux_token_cap=10_000, aux_max_output_tokens=1_000))
    assert isinstance(acc.handle(reserve(1_000, rid="a")), Grant)
    assert isinstance(acc.handle(reserve(1_000, rid="b")), Grant)
    assert acc.statistics()["reservations"] == 2
    # a retried attempt is settled too; only the final one releases the reservation
    acc.handle(
        UsageReport(
            reservation_id="a",
            session_id="s",
            kind="review",
            attempt=1,
            input_tokens=900,
            output_tokens=100,
            final=False,
        )
    )
    acc.handle(
        UsageReport(
            reservation_id="a",
            session_id="s",
            kind="review",
            attempt=2,
            input_tokens=900,
            output_tokens=200,
        )
    )
    settled = acc.handle(
        UsageReport(
            reservation_id="b", session_id="s", kind="review", input_tokens=None, output_tokens=None
        )
    )
    assert settled.unknown is True  # type: ignore[union-attr]
    acc.handle(MainCallRecorded(session_id="s", count=4))
    summary = acc.handle(BudgetQuery(session_id="s"))
    assert summary.aux_tokens == 2_100  # type: ignore[union-attr]
    assert summary.unknown_calls == 1  # type: ignore[union-attr]
    assert summary.aux_calls == {"review": 2}  # type: ignore[union-attr]
    assert summary.rechecks == 1 and summary.main_calls == 4  # type: ignore[union-attr]
    assert summary.cost_calls == 4 + 2 + 1  # type: ignore[union-attr]
    assert acc.statistics()["reservations"] == 0
    # unknown usage stops further aux calls by default, never counted as zero
    assert isinstance(acc.handle(reserve(1, rid="c")), Deny)


def test_reservations_cannot_overrun_together() -> None:
    acc = BudgetAccountant(config=Config(session_aux_token_cap=10_000, aux_max_output_tokens=1_000))
    answers = [acc.handle(reserve(1_000, rid=str(i))) for i in range(20)]
    granted = [a for a in answers if isinstance(a, Grant)]
    assert len(granted) == 5  # 5 × (1000 prompt + 1000 answer) = the cap
