"""The budget accountant killed while 250 reservations are in flight: the session
cap holds (benchmarks/budget_crash.py runs 20 of these; here 2)."""

from __future__ import annotations

import pytest

from benchmarks.budget_crash import one_run
from donecheck.runtime import DoneCheck

pytestmark = pytest.mark.ray


def test_kills_of_the_accountant_during_a_burst_never_overrun_a_cap(dc: DoneCheck) -> None:
    for _ in range(2):
        outcome = one_run(dc, reservations=250, kills=5)
        assert outcome.kills == 5
        assert not outcome.overrun, outcome
        assert outcome.granted <= 5 and outcome.reserved <= outcome.cap
        assert outcome.failed_calls == 0  # every call answered after the restarts
