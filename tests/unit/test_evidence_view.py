"""The evidence view: the ledger works out what a review needs where the log lives,
and the reviewer reads that view — no log entry crosses, no copy is kept, and the
review is the one the whole log gives."""

from __future__ import annotations

import asyncio

import msgspec

from donecheck.actors.evidence.view import CAPS, build_view
from donecheck.actors.ledger import EvidenceLedger
from donecheck.actors.local import LocalLedgers
from donecheck.actors.loop import progress_key
from donecheck.actors.messages import (
    EvidenceRequest,
    EvidenceView,
    NoVerdict,
    ReviewRequest,
    SessionOpened,
    ToolCall,
    ToolResult,
    Verdict,
    ViewRequest,
    encode,
    encode_events,
)
from donecheck.actors.reviewer import Reviewer

CLAIM = "I fixed add() in calc.py and all the tests pass now."
REQUEST = "Fix add() so tests pass."


def session(ledgers: LocalLedgers, sid: str = "s") -> None:
    asyncio.run(ledgers.append([SessionOpened(session_id=sid, request_id="r", request=REQUEST)]))


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


def fixed(ledgers: LocalLedgers, n: int, sid: str = "s") -> None:
    """An edit of ``calc.py`` (two entries): a failing check that passes after it was
    fixed, not merely run again."""
    asyncio.run(
        ledgers.append(
            [
                ToolCall(
                    session_id=sid,
                    call_id=f"w{n}",
                    name="Edit",
                    arguments={"file_path": "calc.py", "old_string": "-", "new_string": "+"},
                    event_id=f"call-w{n}",
                ),
                ToolResult(session_id=sid, call_id=f"w{n}", output="ok", event_id=f"result-w{n}"),
            ]
        )
    )


def asked(sid: str = "s") -> ReviewRequest:
    return ReviewRequest(
        review_id="rv", session_id=sid, request_id="r", request=REQUEST, answer=CLAIM
    )


def ask(sid: str = "s") -> EvidenceRequest:
    return EvidenceRequest(session_id=sid, request_id="r", request=REQUEST)


def on_whole_log(ledgers: LocalLedgers, sid: str = "s") -> ReviewRequest:
    """The same review, its view built in one pass over the whole log."""
    entries = asyncio.run(ledgers.view(ViewRequest(session_id=sid))).entries
    return msgspec.structs.replace(asked(sid), view=build_view(entries, ask(sid)))


def same(a: object, b: object) -> bool:
    assert isinstance(a, Verdict) and isinstance(b, Verdict)
    return (a.decision, a.findings, a.cited, a.coverage) == (
        b.decision,
        b.findings,
        b.cited,
        b.coverage,
    )


def test_a_review_reads_the_ledgers_view_and_decides_as_on_the_whole_log() -> None:
    ledgers = LocalLedgers([EvidenceLedger()])
    reader, plain = Reviewer(ledger=ledgers), Reviewer()
    session(ledgers)
    ran(ledgers, 1, "FAILED test_add\n1 failed in 0.1s", 1)
    first = asyncio.run(reader.review(asked()))
    assert isinstance(first, Verdict) and first.decision == "need_fix"
    assert first.ledger_seq == 3 and reader.statistics()["evidence_views"] == 1
    assert same(first, asyncio.run(plain.review(on_whole_log(ledgers))))
    view = on_whole_log(ledgers).view
    assert view is not None and first.progress == progress_key(first.findings, view.progress)

    ran(ledgers, 2, "3 passed in 0.1s", 0)  # with nothing done since the failure
    second = asyncio.run(reader.review(asked()))
    assert isinstance(second, Verdict) and second.decision == "need_fix"
    assert {f.rule for f in second.findings} == {"weakened_check", "unwritten_file"}
    assert second.ledger_seq == 5 and second.progress != first.progress
    assert same(second, asyncio.run(plain.review(on_whole_log(ledgers))))
    fixed(ledgers, 3)
    ran(ledgers, 3, "3 passed in 0.1s", 0)
    third = asyncio.run(reader.review(asked()))
    assert isinstance(third, Verdict) and third.decision == "pass", third.findings
    assert third.ledger_seq == 9
    assert same(third, asyncio.run(plain.review(on_whole_log(ledgers))))


def test_the_reviewer_keeps_no_copy_of_any_log() -> None:
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    for sid in "abc":
        session(ledgers, sid)
        ran(ledgers, 1, "1 failed", 1, sid)
        asyncio.run(reader.review(asked(sid)))
    held = {name for name, value in vars(reader).items() if isinstance(value, dict | list)}
    sizes = {name: len(getattr(reader, name)) for name in held}
    # rules-only: no verdict cache, no acceptance cache, nothing kept per session
    assert all(size == 0 for name, size in sizes.items() if name not in {"_stats", "_timing"})


def test_the_ledger_works_a_view_out_once_until_the_log_grows() -> None:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    ran(ledgers, 1, "1 failed", 1)
    first = ledger.evidence(ask())
    assert ledger.evidence(ask()) is first  # asked again: not worked out twice
    assert ledger.evidence(msgspec.structs.replace(ask(), prompt=True)) is not first
    fixed(ledgers, 2)
    ran(ledgers, 2, "3 passed", 0)
    grown = ledger.evidence(ask())
    assert grown.last_seq == 7 and grown.failed == () and first.failed != ()


def test_a_ledger_reset_under_the_same_session_is_read_as_it_is_now() -> None:
    """Another store under the same session id: the review holds nothing of the old
    log, so it reviews the new one as it is."""
    ledgers = LocalLedgers([EvidenceLedger()])
    reader = Reviewer(ledger=ledgers)
    session(ledgers)
    ran(ledgers, 1, "3 passed", 0)
    before = asyncio.run(reader.review(asked()))
    assert isinstance(before, Verdict) and before.decision != "need_fix"
    ledgers.ledgers[0] = EvidenceLedger()  # a new, empty ledger
    session(ledgers)
    ran(ledgers, 1, "FAILED test_add\n1 failed", 1)
    result = asyncio.run(reader.review(asked()))
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    assert result.ledger_seq == 3


def test_without_a_ledger_or_a_view_a_review_is_unverified_never_a_pass() -> None:
    result = asyncio.run(Reviewer().review(asked()))
    assert isinstance(result, NoVerdict) and "ledger" in result.reason


def test_concurrent_reviews_of_a_session_share_one_view() -> None:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    reader = Reviewer(ledger=ledgers)
    session(ledgers)
    for n in range(5):
        ran(ledgers, n, "1 failed", 1)

    async def both() -> list[object]:
        return list(await asyncio.gather(*(reader.review(asked()) for _ in range(4))))

    results = asyncio.run(both())
    assert all(isinstance(r, Verdict) and r.ledger_seq == 11 for r in results)
    assert ledger.statistics()["evidence"] == 4


def test_the_view_of_a_long_session_is_bounded_not_the_size_of_its_log() -> None:
    """Failing runs of distinct commands with 2 KB of output each, as many files
    written: the log grows with them, the view stays a bounded message whose caps
    say what they cut — and a cut never hides that a check failed."""
    sizes = [_view_and_log(n) for n in (300, 900)]
    (small_view, small_log), (large_view, large_log) = sizes
    assert large_log > 2.5 * small_log
    assert large_view < 1.5 * small_view < 3_000_000


def _view_and_log(runs: int) -> tuple[int, int]:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    noise = "x" * 2_000
    events: list[ToolCall | ToolResult] = []
    for n in range(runs):
        events += [
            ToolCall(
                session_id="s",
                call_id=f"w{n}",
                name="write_file",
                arguments={"path": f"src/m{n}.py", "content": noise},
            ),
            ToolResult(session_id="s", call_id=f"w{n}", output="ok", ok=True),
            ToolCall(
                session_id="s",
                call_id=f"t{n}",
                name="bash",
                arguments={"command": f"pytest -q tests/test_m{n}.py"},
            ),
            ToolResult(
                session_id="s",
                call_id=f"t{n}",
                exit_code=1,
                output=f"FAILED tests/test_m{n}.py::test_x\n{noise}\n1 failed in 0.1s",
            ),
        ]
    ledger.append(events)
    log_bytes = len(encode_events(events))
    view = ledger.evidence(msgspec.structs.replace(ask(), prompt=True))
    assert len(view.failed) == CAPS["failed"] and len(view.writes) == runs
    assert any(t.startswith("failed:") for t in view.truncated)
    result = asyncio.run(Reviewer(ledger=ledgers).review(asked()))
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    return len(encode(view)), log_bytes


def test_a_page_of_entries_holds_at_least_one_and_says_where_the_log_ends() -> None:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    for n in range(1, 4):
        ran(ledgers, n, "3 passed", 0)
    page = ledger.view(ViewRequest(session_id="s", limit=4))
    assert [e.seq for e in page.entries] == [1, 2, 3, 4] and page.last_seq == 7
    last = ledger.view(ViewRequest(session_id="s", since_seq=4, limit=4))
    assert [e.seq for e in last.entries] == [5, 6, 7]
    assert page.fingerprint == last.fingerprint
    zero = ledger.view(ViewRequest(session_id="s", limit=0))
    assert [e.seq for e in zero.entries] == [1]  # a page holds at least one entry


def test_a_view_built_by_the_ledger_and_one_built_from_the_entries_agree() -> None:
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    ran(ledgers, 1, "FAILED test_add\n1 failed", 1)
    ran(ledgers, 2, "3 passed", 0)
    entries = ledger.view(ViewRequest(session_id="s")).entries
    served: EvidenceView = ledger.evidence(ask())
    assert served == msgspec.structs.replace(
        build_view(entries, ask()), fingerprint=served.fingerprint
    )
    assert served.fingerprint == ledger.view(ViewRequest(session_id="s")).fingerprint


def test_approval_statements_are_read_only_for_a_claim_of_approval() -> None:
    """Reading every source for approval statements costs a pass over the log's
    text: the reviewer asks for them only when the answer (or a judge) states an
    approval — and then a source that says otherwise is found."""
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    asyncio.run(
        ledgers.append(
            [
                ToolCall(
                    session_id="s", call_id="g", name="bash", arguments={"command": "gh pr view 7"}
                ),
                ToolResult(
                    session_id="s", call_id="g", exit_code=0, output="Review: approval pending"
                ),
            ]
        )
    )
    reader = Reviewer(ledger=ledgers)
    plain = asyncio.run(reader.review(asked()))
    views = ledger._sessions["s"].views
    assert isinstance(plain, Verdict) and views is not None
    assert [v.approvals for v in views.done.values()] == [()]  # not read: nothing to check
    claim = msgspec.structs.replace(asked(), answer="PR 7 was approved, so I merged it.")
    result = asyncio.run(reader.review(claim))
    assert isinstance(result, Verdict) and result.decision == "need_fix"
    (finding,) = [f for f in result.findings if f.rule == "approval_claim"]
    assert "approval pending" in finding.problem


def test_a_view_is_built_once_per_request_and_log_length() -> None:
    """A stop asks the ledger more than once (the trivial-stop check, the review, a
    judge's prompt parts, the approval statements): the view is worked out once, and
    each ask adds only what it needs to it. A grown log or another request builds
    anew."""
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    ran(ledgers, 1, "1 failed", 1)
    plain = ledger.evidence(ask())
    rich = ledger.evidence(
        msgspec.structs.replace(ask(), prompt=True, approvals=True, excerpt_chars=4_000)
    )
    again = ledger.evidence(ask())
    assert ledger.statistics()["views_built"] == 1
    assert again is plain and rich.failed == plain.failed and rich.excerpt is not None
    assert plain.excerpt is None and rich.checks and not plain.checks
    fixed(ledgers, 2)
    ran(ledgers, 2, "3 passed", 0)
    assert ledger.evidence(ask()).failed == ()
    assert ledger.statistics()["views_built"] == 2


def test_the_ledger_keeps_the_index_a_review_reads_as_entries_arrive() -> None:
    """No entry is read twice: after the first review the ledger feeds its index
    with each append, and an idle session (never reviewed) holds none."""
    ledger = EvidenceLedger()
    ledgers = LocalLedgers([ledger])
    session(ledgers)
    ran(ledgers, 1, "1 failed", 1)
    log = ledger._sessions["s"]
    assert log.index is None  # idle: nothing but the entries
    ledger.evidence(ask())
    assert log.index is not None and log.index.count == 3
    fixed(ledgers, 2)
    ran(ledgers, 2, "3 passed", 0)
    assert log.index.count == 7  # fed with the appends, before any review asks
    assert ledger.evidence(ask()).failed == ()
