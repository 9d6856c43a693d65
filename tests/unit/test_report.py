"""Report cards as text, JSON and HTML."""

from __future__ import annotations

from donecheck.actors.messages import (
    AnswerLink,
    Coverage,
    Finding,
    ReportCard,
    UsageSummary,
)
from donecheck.runtime.report import card_html, card_json, card_text

CARD = ReportCard(
    session_id="s",
    request_id="r",
    chain=(AnswerLink(label="A1", decision="need_fix"), AnswerLink(label="A2", decision="pass")),
    rounds_used=1,
    max_rounds=2,
    end_reason="pass",
    decision="pass",
    findings=(
        Finding(
            requirement="<b>README</b> lists commands",
            problem="missing `serve`",
            evidence=("E5", "3fa2b1c09d11#2"),
            recheck="show the file",
        ),
        Finding(
            requirement="tests pass", problem="E7 failed", evidence=("E7",), rule="failed_check"
        ),
    ),
    cited={"E5": "write_file README.md", "E7": "pytest → exit 1"},
    quotes={"3fa2b1c09d11#2": "README must list the three commands <script>x</script>"},
    coverage=(
        Coverage(item="AC1", requirement="list commands", status="covered", evidence=("E5",)),
    ),
    unverified=("AC2: the screenshot was not seen",),
    raw_reviews=('{"decision": "need_fix"}',),
    usage=UsageSummary(
        session_id="s",
        main_calls=5,
        aux_calls={"review": 2, "pre_analysis": 1},
        aux_tokens=4_000,
        rechecks=1,
        cap=200_000,
    ),
)


def test_text_shows_chain_rounds_quotes_usage() -> None:
    text = card_text(CARD, session="demo")
    assert "chain: A1 need_fix → A2 pass" in text
    assert "rounds: 1 of 2" in text
    assert "source 3fa2b1c09d11#2 says: “README must list" in text
    assert "cost N + 2 + R = 5 + 2 + 1 = 8 calls" in text
    assert "unverified: AC2" in text


def test_json_labels_judgements_and_keeps_sources_apart() -> None:
    data = card_json(CARD, session="demo")
    assert [f["judged_by"] for f in data["findings"]] == ["judge model", "rule failed_check"]
    assert data["sources_say"] == dict(CARD.quotes)
    assert data["usage"]["cost_calls"] == 8


def test_html_is_escaped_and_self_contained() -> None:
    page = card_html([("demo <1>", CARD, ["a <warning>"])])
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "&lt;b&gt;README&lt;/b&gt;" in page
    assert "demo &lt;1&gt;" in page and "warning: a &lt;warning&gt;" in page
    assert "What the materials say (quoted verbatim)" in page
    assert "Findings (judgements)" in page and "judgement by judge model" in page
    assert "<link" not in page and "http" not in page  # nothing fetched from anywhere
    assert "1 session(s): 1 pass" in page


def test_a_card_stands_alone_with_its_request_and_answer_bounded() -> None:
    import msgspec

    from donecheck.actors.loop.state import CARD_ANSWER_CHARS, TaskState, card_of

    request = "Fix `add()` in calc.py. " + "Context line. " * 200 + "Then run `pytest -q`."
    answer = "Done: " + "details " * 500 + "and all tests pass."
    state = TaskState(session_id="s", request_id="r", request=request, answers=("A", answer))
    card = card_of(msgspec.structs.replace(state, chain=CARD.chain), 2)
    assert card.request.startswith("Fix `add()` in calc.py.") and card.request.endswith(
        "Then run `pytest -q`."
    )
    assert len(card.answer) <= CARD_ANSWER_CHARS and card.answer.endswith("all tests pass.")
    text = card_text(card, session="s")
    assert "\n  request: Fix `add()`" in text and "\n  answer (A2): Done:" in text
    page = card_html([("s", card, [])])
    assert "<code>add()</code>" in page and "<code>pytest -q</code>" in page
    assert "Final answer (A2):" in page
