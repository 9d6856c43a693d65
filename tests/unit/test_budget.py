from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from donecheck.actors.budget import BudgetAccountant, Caps, SessionUsage, _usage_decoder, grant
from donecheck.actors.config import Config
from donecheck.actors.messages import (
    BudgetQuery,
    Deny,
    Grant,
    MainCallRecorded,
    Reserve,
    UsageReport,
)
from donecheck.actors.store import SqliteStore

CAPS = Caps(call_output_tokens=1_000, call_timeout_s=150, session_tokens=10_000)


def reserve(
    prompt: int, output: int = 5_000, rid: str = "r1", session: str = "s", tenant: str | None = None
) -> Reserve:
    return Reserve(
        reservation_id=rid,
        session_id=session,
        kind="review",
        prompt_tokens=prompt,
        max_output_tokens=output,
        tenant=tenant,
    )


def settle(rid: str, session: str = "s", used: int | None = 1_000, **extra: object) -> UsageReport:
    return UsageReport(
        reservation_id=rid,
        session_id=session,
        kind="review",
        input_tokens=None if used is None else used - 100,
        output_tokens=None if used is None else 100,
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("usage", "request_", "granted", "reason"),
    [
        (SessionUsage(), reserve(1_000), True, ""),
        (SessionUsage(tokens=8_000), reserve(1_000), True, ""),  # 8000 + 1000 + 1000 = cap
        (SessionUsage(tokens=8_001), reserve(1_000), False, "session aux budget"),
        (SessionUsage(tokens=5_000, reservations={"x": 4_000}), reserve(500), False, "reserved"),
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


def test_a_tenant_cap_spans_its_sessions() -> None:
    acc = BudgetAccountant(config=Config(aux_max_output_tokens=1_000, tenant_aux_token_cap=5_000))
    answers = [
        acc.handle(reserve(1_000, rid=f"r{i}", session=f"s{i}", tenant="acme")) for i in range(4)
    ]
    assert [isinstance(a, Grant) for a in answers] == [True, True, False, False]
    assert "tenant 'acme'" in answers[2].reason  # type: ignore[union-attr]
    # another tenant, and a session without one, are not held back
    assert isinstance(acc.handle(reserve(1_000, rid="o", session="o", tenant="other")), Grant)
    assert isinstance(acc.handle(reserve(1_000, rid="n", session="n")), Grant)
    # settling frees the reservation and counts what was used
    acc.handle(settle("r0", "s0", used=500))
    assert isinstance(acc.handle(reserve(1_000, rid="r9", session="s9", tenant="acme")), Grant)


def test_the_global_cap_is_split_across_shards() -> None:
    config = Config(aux_max_output_tokens=1_000, global_aux_token_cap=8_000, budget_shards=2)
    acc = BudgetAccountant(config=config, shard=1)
    answers = [acc.handle(reserve(1_000, rid=f"r{i}", session=f"s{i}")) for i in range(3)]
    assert [isinstance(a, Grant) for a in answers] == [True, True, False]
    assert "global" in answers[2].reason  # type: ignore[union-attr]


def test_spent_budget_and_held_reservations_survive_a_restart(tmp_path: Path) -> None:
    config = Config(session_aux_token_cap=10_000, aux_max_output_tokens=1_000)
    store = SqliteStore(tmp_path, "budget-0")
    acc = BudgetAccountant(config=config, store=store)
    for rid in ("a", "b", "c"):
        assert isinstance(acc.handle(reserve(1_000, rid=rid)), Grant)
    acc.handle(settle("a", used=3_000))
    acc.handle(MainCallRecorded(session_id="s", count=2))
    store.close()

    again = BudgetAccountant(config=config, store=SqliteStore(tmp_path, "budget-0"))
    summary = again.handle(BudgetQuery(session_id="s"))
    assert summary.aux_tokens == 3_000 and summary.main_calls == 2  # type: ignore[union-attr]
    assert summary.reserved_tokens == 4_000  # type: ignore[union-attr]  # b and c still held
    assert again.statistics()["reservations"] == 2
    # 3,000 used + 4,000 held + 2,000 for a new call = 9,000: fits; one more does not
    assert isinstance(again.handle(reserve(1_000, rid="d")), Grant)
    assert isinstance(again.handle(reserve(1_000, rid="e")), Deny)
    again.handle(settle("b", used=1_000))
    assert again.statistics()["reservations"] == 2  # c and d


def test_start_up_loads_no_session_and_memory_stays_bounded(tmp_path: Path) -> None:
    """Issue 16: sessions load when touched (start-up does not grow with the past),
    at most ``state_cached_sessions`` stay in memory — never one that holds a
    reservation — and one that was dropped comes back whole from the store."""
    config = Config(
        session_aux_token_cap=10_000, aux_max_output_tokens=1_000, state_cached_sessions=10
    )
    store = SqliteStore(tmp_path, "budget-0")
    acc = BudgetAccountant(config=config, store=store)
    assert isinstance(acc.handle(reserve(1_000, rid="held", session="keep")), Grant)
    for n in range(60):
        acc.handle(reserve(1_000, rid=f"r{n}", session=f"s{n}"))
        acc.handle(settle(f"r{n}", session=f"s{n}", used=100 + n))
    facts = acc.statistics()
    assert facts["sessions"] <= 10 and facts["reservations"] == 1
    assert "keep" in acc._sessions  # holds a reservation: stays, however old
    summary = acc.handle(BudgetQuery(session_id="s0"))  # dropped long ago: reloaded
    assert summary.aux_tokens == 100  # type: ignore[union-attr]
    store.close()

    again = BudgetAccountant(config=config, store=SqliteStore(tmp_path, "budget-0"))
    assert again.statistics()["sessions"] == 0  # nothing loaded at start-up
    summary = again.handle(BudgetQuery(session_id="keep"))
    assert summary.reserved_tokens == 2_000  # type: ignore[union-attr]
    assert again.statistics()["loaded_sessions"] == 1


def test_concurrent_reservations_never_overrun_a_cap(tmp_path: Path) -> None:
    """200 reservations at once through the async path (group-committed writes)."""
    config = Config(session_aux_token_cap=50_000, aux_max_output_tokens=1_000)
    acc = BudgetAccountant(config=config, store=SqliteStore(tmp_path, "budget-0"))

    async def run() -> list[object]:
        return await asyncio.gather(
            *(acc.handle_async(reserve(1_500, rid=f"r{i}")) for i in range(200))
        )

    answers = asyncio.run(run())
    granted = [a for a in answers if isinstance(a, Grant)]
    assert len(granted) == 20  # 20 × 2,500 = the cap, exactly
    summary = acc.handle(BudgetQuery(session_id="s"))
    assert summary.reserved_tokens == 50_000  # type: ignore[union-attr]
    assert acc.statistics()["commits"] < len(granted)  # writes were grouped


def test_retried_messages_count_once() -> None:
    acc = BudgetAccountant(config=Config(session_aux_token_cap=10_000, aux_max_output_tokens=1_000))
    first = acc.handle(reserve(1_000, rid="a"))
    assert acc.handle(reserve(1_000, rid="a")) == first  # a retry holds nothing more
    assert acc.handle(BudgetQuery(session_id="s")).reserved_tokens == 2_000  # type: ignore[union-attr]
    acc.handle(settle("a", used=1_500))
    acc.handle(settle("a", used=1_500))  # the same settlement again
    summary = acc.handle(BudgetQuery(session_id="s"))
    assert summary.aux_tokens == 1_500 and summary.aux_calls == {"review": 1}  # type: ignore[union-attr]


class _Crash(Exception):
    """The accountant's process dies while writing."""


class _CrashingStore(SqliteStore):
    """A real SQLite store whose ``crash_at``-th write never commits."""

    def __init__(self, folder: Path, name: str, crash_at: int | None) -> None:
        super().__init__(folder, name)
        self.crash_at = crash_at
        self.writes = 0

    def put_states(self, kind: str, items: object) -> None:  # type: ignore[override]
        self.writes += 1
        if self.writes == self.crash_at:
            raise _Crash(f"crash at write {self.writes}")
        super().put_states(kind, items)  # type: ignore[arg-type]


def _tenant_script() -> list[Reserve | UsageReport]:
    """Reservations of 2,000 across five sessions of one tenant, some settled."""
    script: list[Reserve | UsageReport] = []
    for i in range(14):
        session = f"s{i % 5}"
        script.append(reserve(1_000, output=1_000, rid=f"r{i}", session=session, tenant="acme"))
        if i % 3 == 2:
            script.append(
                UsageReport(
                    reservation_id=f"r{i - 1}",
                    session_id=f"s{(i - 1) % 5}",
                    kind="review",
                    input_tokens=900,
                    output_tokens=300,
                    tenant="acme",
                )
            )
    return script


def _consistent(folder: Path, config: Config) -> None:
    """Reloaded from the store: the tenant's pool is exactly its sessions' sum."""
    store = SqliteStore(folder, "budget-0")
    fresh = BudgetAccountant(config=config, store=store)
    stored = [_usage_decoder.decode(data) for _, data in store.list_state("budget-0", "session:")]
    sessions = {n: usage for n, usage in enumerate(stored) if usage.tenant == "acme"}
    pool = fresh._tenants.get("acme")
    held = {rid: n for usage in sessions.values() for rid, n in usage.reservations.items()}
    assert pool is not None
    assert pool.reservations == held
    assert pool.tokens == sum(usage.tokens for usage in sessions.values())
    assert pool.committed <= 20_000


@pytest.mark.parametrize("path", ["sync", "async"])
def test_a_crash_at_every_store_write_never_splits_a_message(tmp_path: Path, path: str) -> None:
    """Crash the accountant at write k (for every k), restart it from the store,
    retry the message that was not acknowledged, finish the script: the tenant's
    pool always equals what its sessions hold, and the cap is never passed."""
    config = Config(aux_max_output_tokens=1_000, tenant_aux_token_cap=20_000)
    script = _tenant_script()

    def run(folder: Path, crash_at: int | None) -> int:
        store = _CrashingStore(folder, "budget-0", crash_at)
        acc = BudgetAccountant(config=config, store=store)
        for message in script:
            for _ in range(2):  # at most one crash, so at most one retry
                try:
                    if path == "sync":
                        acc.handle(message)
                    else:
                        asyncio.run(acc.handle_async(message))
                    break
                except _Crash:
                    store.close()  # the process is gone; a new one restores
                    store = _CrashingStore(folder, "budget-0", None)
                    acc = BudgetAccountant(config=config, store=store)
        writes = store.writes
        store.close()
        _consistent(folder, config)
        return writes

    total = run(tmp_path / "clean", None)
    assert total >= 10  # denied reservations write nothing
    for crash_at in range(1, total + 1):
        run(tmp_path / f"crash-{crash_at}", crash_at)


def test_usage_is_validated_negative_refused_beyond_the_grant_an_overrun() -> None:
    acc = BudgetAccountant(config=Config(session_aux_token_cap=50_000, aux_max_output_tokens=1_000))
    assert isinstance(acc.handle(reserve(1_000, output=1_000, rid="a")), Grant)
    negative = UsageReport(
        reservation_id="a", session_id="s", kind="review", input_tokens=-5_000, output_tokens=10
    )
    settled = acc.handle(negative)
    summary = acc.handle(BudgetQuery(session_id="s"))
    assert settled.unknown  # type: ignore[union-attr]
    assert summary.aux_tokens == 0 and summary.invalid_reports == 1  # type: ignore[union-attr]
    assert summary.reserved_tokens == 0  # type: ignore[union-attr]  # final: released
    # a refused report counts as unreported usage: it cannot free budget for more calls
    assert isinstance(acc.handle(reserve(1_000, output=1_000, rid="b")), Deny)
    assert isinstance(acc.handle(reserve(1_000, output=1_000, rid="c", session="t")), Grant)
    acc.handle(
        UsageReport(
            reservation_id="c", session_id="t", kind="review", input_tokens=900, output_tokens=4_000
        )
    )
    summary = acc.handle(BudgetQuery(session_id="t"))
    assert summary.overruns == 1 and summary.overrun_tokens == 3_000  # type: ignore[union-attr]
    assert summary.aux_tokens == 4_900  # type: ignore[union-attr]  # spent is spent


def test_the_chaos_fault_knob_fails_writes_and_only_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chaos benchmarks' store faults (``tests/support/chaos.py``): writes fail,
    reads pass through; without the rate set, a worker's stores are the real ones."""
    from donecheck.actors import store as store_module
    from donecheck.actors.errors import StoreError
    from tests.support.chaos import STORE_FAULT_RATE_ENV, inject_store_faults

    monkeypatch.setattr(store_module, "open_store", store_module.open_store)  # undone after
    monkeypatch.delenv(STORE_FAULT_RATE_ENV, raising=False)
    inject_store_faults()
    assert not hasattr(store_module.open_store(f"sqlite://{tmp_path}", "budget-1"), "injected")
    monkeypatch.setenv(STORE_FAULT_RATE_ENV, "1")
    inject_store_faults()
    store = store_module.StoreLocation(f"sqlite://{tmp_path}", "budget-0").open()
    with pytest.raises(StoreError, match="injected fault"):
        store.put_states("budget-0", [("k", b"v")])
    assert store.list_state("budget-0") == []  # reads pass through


# ------------------------------------------------- the decision, a pure function


def _reserve(rid: str = "r1", prompt: int = 1_000) -> Reserve:
    return Reserve(
        reservation_id=rid, session_id="s", kind="review", prompt_tokens=prompt,
        max_output_tokens=4_000,
    )  # fmt: skip


def _report(
    rid: str = "r1", attempt: int = 1, final: bool = True, **counts: int | None
) -> UsageReport:
    return UsageReport(
        reservation_id=rid, session_id="s", kind="review", attempt=attempt, final=final,
        input_tokens=counts.get("input", 900), output_tokens=counts.get("output", 100),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("steps", "reply", "tokens", "reserved", "counted"),
    [
        ([_reserve()], "Grant", 0, 5_000, "granted"),
        ([_reserve(prompt=300_000)], "Deny", 0, 0, "denied"),
        ([_reserve(), _report()], "Settled", 1_000, 0, "settled"),
        ([_reserve(), _report(final=False)], "Settled", 1_000, 5_000, "settled"),
        ([_reserve(), _report(), _report()], "Settled", 1_000, 0, ""),  # retried: once
        ([_reserve(), _report(input=-5)], "Settled", 0, 0, "settled"),  # refused counts
    ],
)
def test_account_by_table(
    steps: list[Reserve | UsageReport], reply: str, tokens: int, reserved: int, counted: str
) -> None:
    from donecheck.actors.budget import Pool, account

    caps, usage, shard = Caps(global_tokens=1_000_000), SessionUsage(), Pool()
    for msg in steps:
        before = (usage, msgspec.structs.asdict(usage), shard, msgspec.structs.asdict(shard))
        done = account(msg, usage, caps, None, shard)
        # nothing is changed in place: the state in is as it was
        assert msgspec.structs.asdict(before[0]) == before[1]
        assert msgspec.structs.asdict(before[2]) == before[3]
        usage, shard = done.usage, done.shard or shard
    assert type(done.reply).__name__ == reply
    assert (usage.tokens, usage.reserved, done.counted) == (tokens, reserved, counted)
    assert shard.committed == tokens + reserved  # the shard's pool follows the session
