"""A reviewer that reads a session's evidence from its ledger shard itself
(``ReviewRequest.from_ledger``): only the entries it has not seen cross, and the
review is the one it gives the whole ledger."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from donecheck.actors import reviewer as reviewer_module
from donecheck.actors.evidence.pairing import operations
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.loop import progress_key
from donecheck.actors.messages import (
    LedgerView,
    NoVerdict,
    ReviewRequest,
    SessionOpened,
    ToolCall,
    ToolResult,
    Verdict,
    ViewRequest,
)
from donecheck.actors.peers import LocalLedgers
from donecheck.actors.reviewer import Reviewer

CLAIM = "I fixed add() in calc.py and all the tests pass now."


def session(ledgers: LocalLedgers, sid: str = "s") -> None:
    asyncio.run(
        ledgers.append(
            [SessionOpened(session_id=sid, request_id="r", request="Fix add() so tests pass.")]
        )
    )


def pytest_run(n: int, output: str, code: int, sid: str = "s") -> list[ToolCall | ToolResult]:
    """The events of one ``pytest -q`` run, numbered ``n``."""
    return [
        ToolCall(
            session_id=sid,
            call_id=f"c{n}",
            name="bash",
            arguments={"command": "pytest -q"},
            event_id=f"call-{n}",
        ),
        ToolResult(
            session_id=sid, call_id=f"c{n}", exit_code=code, output=output, event_id=f"result-{n}"
        ),
    ]


def ran(ledgers: LocalLedgers, n: int, output: str, code: int, sid: str = "s") -> None:
    asyncio.run(ledgers.append(pytest_run(n, output, code, sid)))


def asked(sid: str = "s") -> ReviewRequest:
    return ReviewRequest(
        review_id="rv",
        session_id=sid,
        request_id="r",
        request="Fix add() so tests pass.",
        answer=CLAIM,
        from_ledger=True,
    )


def whole(ledgers: LocalLedgers, sid: str = "s") -> ReviewRequest:
    entries = asyncio.run(ledgers.view(ViewRequest(session_id=sid))).entries
    return msgspec.structs.replace(asked(sid), entries=entries, from_ledger=False)


def same(a: object, b: object) -> bool:
    assert isinstance(a, Verdict) and isinstance(b, Verdict)
    return (a.decision, a.findings, a.cited) == (b.decision, b.findings, b.cited)


def test_each_review_reads_only_the_new_entries_and_decides_as_on_the_whole_ledger() -> None:
    ledgers = LocalLedgers([EvidenceLedger()])
    reader, plain = Reviewer(ledger=ledgers), Reviewer()
    session(ledgers)
    ran(ledgers, 1, "FAILED test_add\n1 failed in 0.1s", 1)
    first = asyncio.run(reader.review(asked()))
    assert isinstance(first, Verdict) and first.decision == "need_fix"
    assert first.ledger_seq == 3 and reader.statistics()["ledger_entries_read"] == 3
    assert same(first, asyncio.run(plain.review(whole(ledgers))))
    entries = whole(ledgers).entries
    assert first.progress == progress_key(first.findings, operations(entries))

    ran(ledgers, 2, "3 passed in 0.1s", 0)
    second = asyncio.run(reader.review(asked()))
    assert isinstance(second, Verdict) and second.ledger_seq == 5
    assert reader.statistics()["ledger_entries_read"] == 5  # 3 + the 2 new ones
    assert same(second, asyncio.run(plain.review(whole(ledgers))))
    assert second.progress != first.progress


def test_concurrent_reviews_of_a_session_never_double_an_entry() -> None:
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    session(ledgers)
    for n in range(5):
        ran(ledgers, n, "1 failed", 1)

    async def both() -> list[object]:
        return list(await asyncio.gather(*(reader.review(asked()) for _ in range(4))))

    results = asyncio.run(both())
    assert all(isinstance(r, Verdict) and r.ledger_seq == 11 for r in results)
    assert [e.seq for e in reader._mirrors["s"].entries] == list(range(1, 12))


def test_a_reviewer_that_lost_its_copy_reads_the_whole_ledger_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewer_module, "_MIRRORED_SESSIONS", 2)
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    for sid in ("a", "b", "c"):
        session(ledgers, sid)
        ran(ledgers, 1, "1 failed", 1, sid)
        asyncio.run(reader.review(asked(sid)))
    assert list(reader._mirrors) == ["b", "c"]  # "a" was the least recently reviewed
    ran(ledgers, 2, "1 failed", 1, "a")
    again = asyncio.run(reader.review(asked("a")))
    assert isinstance(again, Verdict) and again.ledger_seq == 5
    assert [e.seq for e in reader._mirrors["a"].entries] == [1, 2, 3, 4, 5]


def test_a_copy_longer_than_the_ledger_is_dropped_not_trusted() -> None:
    """Another store under the same session id (the ledger was reset): the reviewer's
    copy is not a prefix of it any more and is read whole again."""
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    session(ledgers)
    ran(ledgers, 1, "3 passed", 0)
    asyncio.run(reader.review(asked()))
    ledgers.ledgers[0] = EvidenceLedger()  # a new, empty ledger
    session(ledgers)
    ran(ledgers, 1, "FAILED test_add\n1 failed", 1)
    ran(ledgers, 2, "FAILED test_add\n1 failed", 1)
    result = asyncio.run(reader.review(asked()))
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    assert result.ledger_seq == 5 and reader.statistics()["ledger_rereads"] == 1
    assert reader._mirrors["s"].entries == list(whole(ledgers).entries)


def test_without_a_ledger_a_from_ledger_request_is_unverified_never_a_pass() -> None:
    result = asyncio.run(Reviewer().review(asked()))
    assert isinstance(result, NoVerdict) and "ledger" in result.reason


def test_the_copies_stay_within_their_bounds_and_their_count_is_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewer_module, "_MIRRORED_SESSIONS", 4)
    monkeypatch.setattr(reviewer_module, "_MIRRORED_ENTRIES", 12)
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    for sid in "abcdef":
        session(ledgers, sid)
    for n, sid in enumerate("abcabdaeffedcba"):
        ran(ledgers, n, "1 failed", 1, sid)
        result = asyncio.run(reader.review(asked(sid)))
        assert isinstance(result, Verdict) and result.decision == "need_fix"
        held = sum(len(m.entries) for m in reader._mirrors.values())
        assert reader.statistics()["mirrored_entries"] == held <= 12
        assert len(reader._mirrors) <= 4
        assert result.ledger_seq == len(whole(ledgers, sid).entries)


class _CountingLedgers(LocalLedgers):
    """The same ledger shards, counting the views asked; ``between`` runs after
    each answer (an agent recording while the reviewer reads)."""

    def __init__(self, ledgers: list[EvidenceLedger], between: object = None) -> None:
        super().__init__(ledgers)
        self.asked: list[ViewRequest] = []
        self.between = between

    async def view(self, request: ViewRequest) -> LedgerView:
        self.asked.append(request)
        answer = await super().view(request)
        if callable(self.between):
            self.between()
        return answer


def test_a_long_session_is_read_in_pages_and_decided_as_on_the_whole_ledger(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewer_module, "_VIEW_PAGE", 4)
    ledgers = _CountingLedgers([EvidenceLedger()])
    reader, plain = Reviewer(ledger=ledgers), Reviewer()
    session(ledgers)
    for n in range(1, 6):  # 11 entries: pages of 4, 4 and 3
        ran(ledgers, n, "FAILED test_add\n1 failed", 1)
    first = asyncio.run(reader.review(asked()))
    assert isinstance(first, Verdict) and first.decision == "need_fix" and first.ledger_seq == 11
    assert [r.since_seq for r in ledgers.asked] == [0, 4, 8]
    assert all(r.limit == 4 for r in ledgers.asked)
    assert same(first, asyncio.run(plain.review(whole(ledgers))))
    assert reader._mirrors["s"].entries == list(whole(ledgers).entries)

    ledgers.asked.clear()
    ran(ledgers, 6, "3 passed", 0)  # then only what is new, in one page
    second = asyncio.run(reader.review(asked()))
    assert [r.since_seq for r in ledgers.asked] == [11]
    assert isinstance(second, Verdict) and second.ledger_seq == 13
    assert same(second, asyncio.run(plain.review(whole(ledgers))))


def test_pages_read_while_the_agent_records_end_with_the_operations_of_every_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ledger grows between pages: the review holds every entry up to the last
    page's end and the operations it gets describe exactly those — here the run
    recorded last, between two pages, failed: passing on the first pages' view
    would be a false pass."""
    monkeypatch.setattr(reviewer_module, "_VIEW_PAGE", 3)
    grown = iter(range(10, 13))

    def record() -> None:
        n = next(grown, None)
        if n is not None:
            failed = n == 12
            output = "FAILED test_add\n1 failed" if failed else "3 passed"
            ledgers.for_session("s").append(pytest_run(n, output, int(failed)))

    ledgers = _CountingLedgers([EvidenceLedger()], between=record)
    session(ledgers)
    for n in range(1, 4):
        ran(ledgers, n, "3 passed", 0)
    result = asyncio.run(Reviewer(ledger=ledgers).review(asked()))
    assert [r.since_seq for r in ledgers.asked] == [0, 3, 6, 9, 12]
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    assert result.ledger_seq == 13
    assert same(result, asyncio.run(Reviewer().review(whole(ledgers))))


def test_a_ledger_that_outgrows_the_reader_gives_no_verdict_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewer_module, "_VIEW_PAGE", 1)
    count = iter(range(100, 10_000))

    def record() -> None:  # two entries recorded for each one read
        ledgers.for_session("s").append(pytest_run(next(count), "3 passed", 0))

    ledgers = _CountingLedgers([EvidenceLedger()], between=record)
    session(ledgers)
    ran(ledgers, 1, "3 passed", 0)
    result = asyncio.run(Reviewer(ledger=ledgers).review(asked()))
    assert isinstance(result, NoVerdict) and "kept changing" in result.reason
    # two reads, each of at most 2 + twice the pages the ledger held when it began:
    # 3 entries the first time, 3 + 8 x 2 the second
    assert len(ledgers.asked) == (2 + 2 * 3) + (2 + 2 * 19)


def test_a_view_page_carries_the_views_only_when_it_reaches_the_end() -> None:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    for n in range(1, 4):
        ran(ledgers, n, "3 passed", 0)
    both = ("entries", "operations")
    page = ledger.view(ViewRequest(session_id="s", include=both, limit=4))
    assert [e.seq for e in page.entries] == [1, 2, 3, 4] and page.operations == ()
    assert page.last_seq == 7
    last = ledger.view(ViewRequest(session_id="s", since_seq=4, include=both, limit=4))
    assert [e.seq for e in last.entries] == [5, 6, 7] and len(last.operations) == 3
    exact = ledger.view(ViewRequest(session_id="s", since_seq=3, include=both, limit=4))
    assert [e.seq for e in exact.entries] == [4, 5, 6, 7] and len(exact.operations) == 3
    unpaged = ledger.view(ViewRequest(session_id="s", include=both))
    assert len(unpaged.entries) == 7 and unpaged.operations == last.operations
    assert page.fingerprint == last.fingerprint == unpaged.fingerprint
    zero = ledger.view(ViewRequest(session_id="s", include=both, limit=0))
    assert [e.seq for e in zero.entries] == [1]  # a page holds at least one entry
