"""Secrets an agent's tools printed never go to the judge's provider or into a report."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.actors.messages import Finding, ReportCard
from donecheck.actors.review.preanalysis import preanalysis_messages
from donecheck.actors.review.prompt import build_review_prompt
from donecheck.actors.review.rules import acceptance_of
from donecheck.runtime.report import card_html, card_json, card_text
from tests.unit.helpers import LedgerBuilder

KEY = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX0123"
LINES = f"OPENAI_API_KEY={KEY}\nDATABASE_URL=postgresql://app:hunter2secret@db/app\n"


def test_the_judge_prompt_masks_keys_a_tool_printed() -> None:
    ledger = LedgerBuilder()
    ledger.run("cat .env", 0, LINES)
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    request = ledger.request("Fixed the config loader; all tests pass now, nothing else changed.")
    view = request.view
    assert view is not None
    prompt = build_review_prompt(view, request, acceptance_of(request, view), sees_images=False)
    sent = json.dumps(prompt.messages)
    assert KEY not in sent and "hunter2secret" not in sent
    assert "OPENAI_API_KEY=***" in sent  # masked, not dropped: the judge sees a key was there
    pre = json.dumps(preanalysis_messages(f"Use token={KEY} to call the API."))
    assert KEY not in pre


def test_reports_mask_keys_in_every_form() -> None:
    card = ReportCard(
        session_id="s",
        request_id="r",
        decision="need_fix",
        findings=(
            Finding(
                requirement="`cat .env` is not shown",
                problem=f"The output printed {KEY}",
                evidence=("E2",),
            ),
        ),
        cited={"E2": f"`cat .env` → exit 0: OPENAI_API_KEY={KEY}"},
    )
    for shown in (
        json.dumps(card_json(card, session="s")),
        card_text(card, session="s"),
        card_html([("s", card, [])]),
    ):
        assert KEY not in shown and "sk-***" in shown


_PIECES = st.sampled_from(
    [
        "sk-",
        "rk-",
        "SK-",
        "Bearer ",
        "bearer ",
        "api_key=",
        "Token: ",
        "password='",
        "://u:",
        "@",
        "abcdefghijklmnop",
        "0123456789",
        " ",
        "\n",
        '"',
        "secret=",
        "x",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_precheck_never_changes_what_is_masked(text: str) -> None:
    from donecheck.actors.redact import _SECRETS, redact

    expected = text
    for pattern, replacement in _SECRETS:
        expected = pattern.sub(replacement, expected)
    assert redact(text) == expected
