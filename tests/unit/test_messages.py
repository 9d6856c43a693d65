"""Every message round-trips through msgpack and pickle (Ray ships arguments with cloudpickle)."""

from __future__ import annotations

import inspect
import pickle

import msgspec
import pytest

from donecheck.actors import messages as m

BLOCK = m.Block(source_id="abc123#0", index=0, kind="table", text="| a |", rows=(("a",),), page=1)
MATERIAL = m.Material(
    sha256="sha256:" + "a" * 64,
    declared_name="spec.pdf",
    detected_type="application/pdf",
    status="partial",
    reason="page limit",
    blocks=(BLOCK,),
    previews=(
        m.Preview(
            source_id="abc123#p1",
            media_type="image/png",
            width=2,
            height=2,
            data=b"\x89PNG",
            page=1,
        ),
    ),
    stats={"pages": 3.0},
    recipe_version="r1",
    warnings=("name mismatch",),
)
CALL = m.ToolCall(
    session_id="s",
    call_id="c1",
    name="bash",
    arguments={"command": "pytest"},
    at=1.5,
    event_id="e1",
)
FINDING = m.Finding(
    requirement="tests pass",
    problem="failed",
    evidence=("E2",),
    recheck="rerun",
    rule="failed_check",
)
COVERAGE = m.Coverage(
    item="AC1", requirement="add divide()", status="covered", evidence=("E2",), note="n"
)
ACCEPTANCE = m.Acceptance(
    request_id="r",
    items=(m.AcceptanceItem(id="AC1", text="a", source="request"),),
    constraints=("do not touch b.py",),
    assumptions=("Python 3.11",),
    understanding="add a",
    method="judge",
    waiting=("spec.pdf",),
    notes=("n",),
)
CARD = m.ReportCard(
    session_id="s",
    request_id="r",
    chain=(m.AnswerLink(label="A1", decision="need_fix"),),
    rounds_used=1,
    max_rounds=2,
    end_reason="round_limit",
    decision="need_fix",
    findings=(FINDING,),
    cited={"E2": "pytest → exit 1"},
    notes=("n",),
    unverified=("u",),
    raw_reviews=("{}",),
    usage=m.UsageSummary(session_id="s", main_calls=3, aux_calls={"review": 2}, aux_tokens=10),
    coverage=(COVERAGE,),
)
VERDICT = m.Verdict(
    review_id="rv",
    decision="need_fix",
    findings=(FINDING,),
    summary="s",
    raw_text="{}",
    cited={"E2": "x"},
    coverage=(COVERAGE,),
    usage=CARD.usage,
)

PYTEST = m.Operation(
    key="shell:pytest", tool="bash", call_seq=4, command="pytest", check="pytest", ok=False
)
WEAKENED = m.WeakenedRun(
    passed=PYTEST,
    failed=PYTEST,
    changes=(m.SuiteChange(seq=5, path="test_a.py", role="test", reasons=("`assert True`",)),),
    why="E5 changed `test_a.py`: `assert True`",
)
VIEW = m.EvidenceView(
    session_id="s",
    request_id="r",
    last_seq=9,
    fingerprint="fp:1",
    progress="abc",
    scope=m.Scope(start=3, earlier=True, starts=(1, 3), why="it continues"),
    acted=True,
    materials=(MATERIAL,),
    failed=(m.FailedCheck(run=PYTEST, summary="1 failed", weakened=WEAKENED),),
    weakened=(WEAKENED,),
    errors=(m.UnresolvedError(op=PYTEST, summary="boom", targets="a.py"),),
    passing={"test": (m.PassingRun(op=PYTEST, names=frozenset({"test_a.py"})),)},
    nothing={"test": PYTEST},
    last_edit=m.Edit(seq=3, tool="write_file", path="a.py", ok=True),
    looked=(("a.py", "E2"),),
    approvals=(
        m.ApprovalStatement(approved=True, units=frozenset({"budget"}), cite="E2", sentence="ok"),
    ),
    truncated=("writes: the latest 5000 of 6000",),
    texts={"E4": "pytest\n1 failed"},
    tool_results={"c1": ("E7", "shot")},
)

SAMPLES: list[m.Message] = [
    m.Policy(review=False, max_rounds=3, round_window_s=10.0),
    m.AttachmentRef(sha256="sha256:" + "b" * 64, name="a.txt", size=3, media_type="text/plain"),
    m.ImageRef(sha256="sha256:" + "c" * 64, name="shot.png", size=9, role="preview"),
    BLOCK,
    MATERIAL.previews[0],
    MATERIAL,
    FINDING,
    m.SessionOpened(
        session_id="s",
        request_id="r",
        request="do it",
        attachments=(m.AttachmentRef(sha256="sha256:1", name="a", size=1),),
        images=(m.ImageRef(sha256="sha256:2", name="i.png", size=1),),
        policy=m.Policy(review=False),
        at=1.0,
        event_id="e0",
    ),
    m.UserInput(session_id="s", request_id="r2", text="more", at=2.0, event_id="e9"),
    CALL,
    m.ToolCall(session_id="s", call_id="c2", name="bash", arguments="raw text"),
    m.ToolResult(
        session_id="s",
        call_id="c1",
        output="1 failed",
        ok=False,
        exit_code=1,
        truncated=True,
        at=2.0,
        event_id="e2",
    ),
    m.FileSnapshot(session_id="s", path="/w/a.py", sha256="sha256:3", size=10, mtime=3.0),
    m.WorkspaceState(
        session_id="s",
        root="/w",
        moment="start",
        files=(m.WorkspaceFile(path="test_a.py", sha256="ab", text="x", committed=True),),
        missed="",
    ),
    m.WorkspaceFile(path="conftest.py", sha256="cd"),
    m.MaterialRecorded(session_id="s", material=MATERIAL, event_id="e3"),
    m.SessionClosed(session_id="s", event_id="e4"),
    m.CheckReport(
        session_id="s",
        origin="runner",
        name="pytest",
        command="pytest -q",
        ok=False,
        exit_code=1,
        collected=3,
        passed=2,
        failed=1,
        failures=(m.FailedTest(node="tests/t.py::test_a", message="assert 1 == 2"),),
        started_at=1.0,
        duration_s=0.5,
    ),
    m.FailedTest(node="t.py::x"),
    m.ReportedRun(
        evidence="E3", origin="donecheck", name="lint", command="ruff check .", outcome="failed"
    ),
    m.LedgerEntry(seq=1, event=CALL),
    m.Operation(
        key="shell:pytest",
        tool="bash",
        call_seq=1,
        command="pytest",
        check="pytest",
        result_seq=2,
        ok=False,
        exit_code=1,
        status_source="exit_code",
    ),
    m.Edit(seq=3, tool="write_file", path="a.py", ok=True),
    m.ViewRequest(session_id="s", since_seq=2, include=("entries", "edits"), limit=10),
    m.Check(
        key="shell:pytest",
        kind="pytest",
        command="pytest",
        runs=2,
        ok=False,
        exit_code=1,
        status_source="exit_code",
        latest="E4",
        resolved=False,
        stale=False,
    ),
    m.ReadEvidence(
        sha256="sha256:1",
        name="spec.pdf",
        status="partial",
        how=("part printed with `head`",),
        evidence=("E6",),
    ),
    m.Excerpt(text="[E4] bash `pytest` → FAILED", shown=("E4",), omitted=3),
    m.AppendAck(seqs=(1, 2), duplicates=1),
    m.LedgerView(
        session_id="s",
        entries=(m.LedgerEntry(seq=1, event=CALL),),
        fingerprint="fp:1",
        last_seq=9,
        edits=(m.Edit(seq=3, tool="write_file", path="a.py", ok=True),),
    ),
    VIEW.scope,
    WEAKENED.changes[0],
    WEAKENED,
    VIEW.failed[0],
    VIEW.errors[0],
    VIEW.passing["test"][0],
    VIEW.approvals[0],
    m.ParseRequest(
        sha256="sha256:1", declared_name="a.pdf", size=10, path="/tmp/a.pdf", role="reference"
    ),
    m.ReviewRequest(
        review_id="rv",
        session_id="s",
        request_id="r",
        request="do it",
        answer="done",
        acceptance=ACCEPTANCE,
        round=1,
        view=VIEW,
    ),
    m.EvidenceRequest(session_id="s", request_id="r", request="do it", prompt=True),
    VIEW,
    VERDICT,
    ACCEPTANCE,
    ACCEPTANCE.items[0],
    COVERAGE,
    m.NoVerdict(review_id="rv", reason="unparseable", raw_text="???", usage=CARD.usage),
    m.TurnStopping(session_id="s", answer="done", at=3.0),
    m.Cancel(session_id="s", reason="user", at=4.0),
    m.ReportQuery(session_id="s", request_id="r"),
    m.TaskQuery(session_id="s"),
    m.TaskInfo(session_id="s", request_id="r", closed=True),
    m.SessionSummary(
        session_id="s", request="Fix it.", decision="pass", rounds_used=1, updated_at=1.5
    ),
    m.SetPolicy(session_id="s", review=False, scope="session"),
    m.MilestoneCheck(session_id="s", note="halfway"),
    m.AnswerLink(label="A1", decision="pass"),
    m.UsageSummary(
        session_id="s",
        main_calls=1,
        aux_calls={"review": 1},
        aux_tokens=5,
        unknown_calls=1,
        rechecks=1,
    ),
    CARD,
    m.Deliver(session_id="s", request_id="r", report=CARD),
    m.Steer(session_id="s", request_id="r", round=1, message="fix", report=CARD),
    m.Report(session_id="s", request_id="r", reason="blocked", report=CARD),
    m.Ack(session_id="s", detail="ok"),
    m.Reserve(
        reservation_id="b1",
        session_id="s",
        kind="review",
        prompt_tokens=10,
        max_output_tokens=20,
        tenant="t",
    ),
    m.Grant(reservation_id="b1", max_output_tokens=20, deadline_s=150.0),
    m.Deny(reservation_id="b1", reason="cap"),
    m.UsageReport(
        reservation_id="b1",
        session_id="s",
        kind="review",
        attempt=2,
        input_tokens=None,
        output_tokens=3,
        cache_hit_tokens=1,
        final=False,
    ),
    m.Settled(reservation_id="b1", session_tokens=30, unknown=True, usage=CARD.usage),
    m.MainCallRecorded(session_id="s", count=2),
    m.BudgetQuery(session_id="s"),
]


def _message_classes() -> set[type]:
    return {
        cls
        for _, cls in inspect.getmembers(m, inspect.isclass)
        if issubclass(cls, m.Message) and cls is not m.Message
    }


def test_samples_cover_every_message_class() -> None:
    missing = _message_classes() - {type(s) for s in SAMPLES}
    assert not missing, f"add a sample for {sorted(c.__name__ for c in missing)}"


@pytest.mark.parametrize("message", SAMPLES, ids=lambda s: type(s).__name__)
def test_round_trip_msgpack(message: m.Message) -> None:
    typed = msgspec.msgpack.decode(m.encode(message), type=type(message))
    assert typed == message


@pytest.mark.parametrize("message", SAMPLES, ids=lambda s: type(s).__name__)
def test_round_trip_pickle(message: m.Message) -> None:
    assert pickle.loads(pickle.dumps(message)) == message


@pytest.mark.parametrize(
    "message",
    [s for s in SAMPLES if isinstance(s, m.LedgerEvent | m.ControllerAction | m.Verdict)],
    ids=lambda s: type(s).__name__,
)
def test_union_decoder_picks_the_class_by_tag(message: m.Message) -> None:
    decoded = m.decode(m.encode(message))
    assert type(decoded) is type(message)
    assert decoded == message


def test_messages_are_frozen_and_keyword_only() -> None:
    with pytest.raises(AttributeError):
        CALL.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        m.ToolCall("s", "c", "bash")  # type: ignore[misc]
    for cls in _message_classes():
        config = cls.__struct_config__
        assert config.frozen and config.tag == cls.__name__ and config.tag_field == "type"
        with pytest.raises(TypeError, match="positional"):
            cls("positional")


def test_decoding_a_wrong_type_fails_clearly() -> None:
    data = msgspec.msgpack.encode({"type": "ToolCall", "session_id": 1})
    with pytest.raises(msgspec.ValidationError, match="session_id"):
        m.decode(data)


def test_cost_is_n_plus_2_plus_r() -> None:
    assert m.UsageSummary(session_id="s", main_calls=5, rechecks=2).cost_calls == 9
