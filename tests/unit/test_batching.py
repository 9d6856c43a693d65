"""The outbox that sends many callers' messages to one actor as one call, and the
batch endpoints of the ledger and the budget accountant behind it."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.batching import Batcher, batcher
from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.config import Config
from donecheck.actors.errors import StoreError
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.messages import (
    BudgetQuery,
    Grant,
    Reserve,
    SessionClosed,
    UsageSummary,
    ViewRequest,
    encode_events,
    view_decoder,
)
from tests.unit.test_ledger import Broken, call, result


class Destination:
    """A fake actor: answers ``message * 10`` (an exception for negatives) after a
    pause, and remembers each call's messages."""

    def __init__(self, pause_s: float = 0.001, fail_calls: int = 0) -> None:
        self.calls: list[list[int]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.pause_s = pause_s
        self.fail_calls = fail_calls

    async def send(self, messages: list[int]) -> list[int | Exception]:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.pause_s)
            self.calls.append(list(messages))
            if self.fail_calls:
                self.fail_calls -= 1
                raise ConnectionError("the actor died")
            return [ValueError(f"bad {m}") if m < 0 else m * 10 for m in messages]
        finally:
            self.in_flight -= 1


def test_an_idle_destination_gets_a_message_at_once_and_the_rest_wait_together() -> None:
    async def scenario() -> tuple[Destination, list[int]]:
        dest = Destination(pause_s=0.02)
        outbox: Batcher[int, int] = Batcher(dest.send)
        first = asyncio.ensure_future(outbox.submit(1))
        await asyncio.sleep(0.005)  # the first call is in flight now
        rest = [asyncio.ensure_future(outbox.submit(n)) for n in range(2, 7)]
        return dest, [await first, *[await r for r in rest]]

    dest, replies = asyncio.run(scenario())
    assert replies == [10, 20, 30, 40, 50, 60]
    assert dest.calls == [[1], [2, 3, 4, 5, 6]]
    assert dest.most_in_flight == 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=-5, max_value=50), min_size=1, max_size=60),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=0, max_value=2**16),
)
def test_each_caller_gets_its_own_reply_in_order_whatever_the_timing(
    messages: list[int], max_batch: int, seed: int
) -> None:
    rng = random.Random(seed)
    delays = [rng.choice([0.0, 0.0, 0.0005, 0.001]) for _ in messages]

    async def scenario() -> tuple[Destination, list[object]]:
        dest = Destination(pause_s=0.0005)
        outbox: Batcher[int, int] = Batcher(dest.send, max_batch=max_batch)

        async def one(message: int, delay: float) -> object:
            await asyncio.sleep(delay)
            try:
                return await outbox.submit(message)
            except ValueError as exc:
                return exc

        tasks = []
        for message, delay in zip(messages, delays, strict=True):
            tasks.append(asyncio.ensure_future(one(message, 0)))
            await asyncio.sleep(delay)
        return dest, [await t for t in tasks]

    dest, replies = asyncio.run(scenario())
    for message, reply in zip(messages, replies, strict=True):
        if message < 0:  # an error is raised to its own caller only
            assert isinstance(reply, ValueError) and str(reply) == f"bad {message}"
        else:
            assert reply == message * 10
    # sent in the order submitted, never more than max_batch at once, one call at a time
    assert [m for batch in dest.calls for m in batch] == messages
    assert all(1 <= len(batch) <= max_batch for batch in dest.calls)
    assert dest.most_in_flight == 1


def test_a_call_that_fails_fails_the_messages_it_carried_and_no_others() -> None:
    async def scenario() -> list[object]:
        dest = Destination(pause_s=0.01, fail_calls=1)
        outbox: Batcher[int, int] = Batcher(dest.send)

        async def one(n: int) -> object:
            try:
                return await outbox.submit(n)
            except ConnectionError as exc:
                return exc

        first = asyncio.ensure_future(one(1))
        await asyncio.sleep(0.002)
        second = asyncio.ensure_future(one(2))
        return [await first, await second]

    failed, answered = asyncio.run(scenario())
    assert isinstance(failed, ConnectionError)
    assert answered == 20


def test_a_reply_count_that_does_not_match_fails_the_call_not_the_caller_forever() -> None:
    async def short(messages: list[int]) -> list[int]:
        return [1]

    async def scenario() -> None:
        outbox: Batcher[int, int] = Batcher(short)
        results = await asyncio.gather(
            outbox.submit(1), outbox.submit(2), outbox.submit(3), return_exceptions=True
        )
        assert all(isinstance(r, RuntimeError) for r in results)  # answered, not hung
        assert await outbox.submit(4) == 1  # and the outbox still works

    asyncio.run(asyncio.wait_for(scenario(), 5))


def test_a_caller_that_gave_up_is_not_sent() -> None:
    async def scenario() -> Destination:
        dest = Destination(pause_s=0.02)
        outbox: Batcher[int, int] = Batcher(dest.send)
        first = asyncio.ensure_future(outbox.submit(1))
        await asyncio.sleep(0.005)
        gave_up = asyncio.ensure_future(outbox.submit(2))
        kept = asyncio.ensure_future(outbox.submit(3))
        await asyncio.sleep(0)
        gave_up.cancel()
        assert await first == 10 and await kept == 30
        return dest

    assert asyncio.run(scenario()).calls == [[1], [3]]


def test_one_batcher_per_loop_and_key() -> None:
    async def two() -> tuple[object, object, object]:
        dest = Destination()
        return batcher("a", dest.send), batcher("a", dest.send), batcher("b", dest.send)

    a1, a2, b = asyncio.run(two())
    assert a1 is a2 and a1 is not b
    c, _, _ = asyncio.run(two())  # a new loop: a new batcher (futures belong to a loop)
    assert c is not a1
    with pytest.raises(ValueError, match="max_batch"):
        Batcher(Destination().send, max_batch=0)


# ------------------------------------------------------------- ledger batches


def test_the_ledger_stores_several_callers_batches_in_one_call() -> None:
    ledger = EvidenceLedger()
    ledger.append([call(1, sid="a")])
    acks = ledger.append_many(
        [
            encode_events([call(2, sid="a"), result(2, sid="a")]),
            encode_events([call(1, sid="b")]),
            encode_events([call(2, sid="a"), call(3, sid="a")]),  # a retry, then a new one
            encode_events([call(1, sid="b")]),  # the same event from another caller
        ]
    )
    assert [a.seqs for a in acks] == [(2, 3), (1,), (2, 4), (1,)]
    assert [a.duplicates for a in acks] == [0, 0, 1, 1]
    entries = ledger.view(ViewRequest(session_id="a")).entries
    assert [e.seq for e in entries] == [1, 2, 3, 4]
    assert ledger.statistics()["calls"] == 2 and ledger.statistics()["batches"] == 2


def test_a_failed_transaction_acknowledges_none_of_the_callers() -> None:
    ledger = EvidenceLedger(store=Broken())
    with pytest.raises(StoreError, match="disk full"):
        ledger.append_many([encode_events([call(1, sid="a")]), encode_events([call(1, sid="b")])])
    assert ledger.view(ViewRequest(session_id="a")).entries == ()
    assert ledger.view(ViewRequest(session_id="b")).entries == ()


def test_a_batch_of_more_sessions_than_the_cache_holds_keeps_every_entry() -> None:
    ledger = EvidenceLedger(cached_sessions=2)
    ledger.append_many([encode_events([call(1, sid=f"s{n}")]) for n in range(6)])
    ledger.append_many([encode_events([call(2, sid=f"s{n}")]) for n in range(6)])
    for n in range(6):
        entries = ledger.view(ViewRequest(session_id=f"s{n}")).entries
        assert [e.seq for e in entries] == [1, 2]
    assert ledger.statistics()["cached_sessions"] <= 2


def test_views_in_one_call_answer_each_request() -> None:
    ledger = EvidenceLedger()
    ledger.append([call(1, sid="a"), result(1, sid="a", code=1), SessionClosed(session_id="b")])
    answers = ledger.view_many(
        [
            ViewRequest(session_id="a", include=("entries", "edits")),
            ViewRequest(session_id="b"),
            ViewRequest(session_id="nobody"),
        ]
    )
    views = [view_decoder.decode(a) for a in answers if isinstance(a, bytes)]
    assert [v.last_seq for v in views] == [2, 1, 0]


# ------------------------------------------------------------- budget batches


def test_the_budget_answers_each_message_of_a_batch_on_its_own() -> None:
    accountant = BudgetAccountant(config=Config())
    reserve = Reserve(
        reservation_id="rs-1", session_id="s", kind="review", prompt_tokens=10, max_output_tokens=5
    )

    async def scenario() -> list[object]:
        return await accountant.handle_many(
            [reserve, ViewRequest(session_id="s"), BudgetQuery(session_id="s")]  # type: ignore[list-item]
        )

    granted, wrong, usage = asyncio.run(scenario())
    assert isinstance(granted, Grant)
    assert isinstance(wrong, Exception)  # not a budget message: its caller learns why
    assert isinstance(usage, UsageSummary) and usage.reserved_tokens == 15
    assert accountant.statistics()["calls"] == 1


def test_an_actor_s_own_error_reaches_the_caller_unwrapped() -> None:
    """What a ledger raises inside a batched call from another actor arrives as the
    DoneCheck error it is (the chaos soak saw ``RayTaskError(StoreError)``)."""
    import ray.exceptions

    from donecheck.actors.calls import aget, translate
    from donecheck.actors.errors import ActorUnavailableError

    store_error = StoreError("sqlite:///x", "disk full")
    wrapped = ray.exceptions.RayTaskError("append_many", "traceback", store_error)

    import concurrent.futures

    from donecheck.actors.inprocess import LocalRef

    failed: concurrent.futures.Future[None] = concurrent.futures.Future()
    failed.set_exception(wrapped)
    with pytest.raises(StoreError) as caught:
        asyncio.run(aget(LocalRef(failed), actor="ledger", timeout_s=None))
    assert caught.value is store_error
    late = translate(TimeoutError(), "budget", None)
    assert isinstance(late, ActorUnavailableError) and "no answer in time" in str(late)
    other = translate(wrapped.__class__("f", "tb", KeyError("x")), "ledger", None)
    assert isinstance(other, ActorUnavailableError) and "KeyError" in str(other)


def test_serial_ids_are_unique_and_differ_between_processes() -> None:
    import subprocess
    import sys

    from donecheck.actors.ids import serial_id

    ours = {serial_id("rs-") for _ in range(10_000)}
    assert len(ours) == 10_000 and all(i.startswith("rs-") for i in ours)
    code = "from donecheck.actors.ids import serial_id; print(serial_id('rs-'))"
    theirs = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert theirs not in ours and theirs[:19] != next(iter(ours))[:19]  # another process part
