"""What the seeds ask for, through the public session API (issue 29 item 1): each test
is a story a user could run, and fails without the change it names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.actors.messages import Deliver, Report, Steer
from donecheck.runtime import DoneCheck
from donecheck.runtime.report import card_text


@pytest.fixture(scope="module")
def dc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    with DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("seeds")) as app:
        yield app


def _locked_pdf(folder: Path) -> Path:
    from donecheck.parsers.mupdf import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The deadline for the migration is March 3.")
    path = folder / "spec.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    return path


def test_an_encrypted_pdf_opened_as_raw_bytes_is_never_read(dc: DoneCheck, tmp_path: Path) -> None:
    pdf = _locked_pdf(tmp_path)
    request = "Summarise the attached spec: what is the deadline?"
    with dc.open_session(request, attachments=[pdf]) as session:
        call = session.tool_call("Read", {"file_path": str(pdf)})
        session.tool_result(call, output=pdf.read_bytes()[:400].decode("latin-1"), exit_code=0)
        first = session.turn_stopping("I read spec.pdf. The deadline for the migration is March 3.")
        assert isinstance(first, Steer), first
        assert "cannot have read its content" in first.message
        assert "ask the user for a readable copy (or its password)" in first.message
        # the honest answer that follows ends the loop, reported, not passed
        last = session.turn_stopping(
            "[DoneCheck A2] I could not read spec.pdf: it is encrypted and needs a password,"
            " so I cannot say what the deadline is. Please send the password."
        )
        assert isinstance(last, Report) and not isinstance(last, Deliver)
        card = session.report()
    assert card.decision == "blocked"
    assert "encrypted" in card_text(card, session="s")


def test_a_premise_of_the_pre_analysis_is_checked_against_the_sources(tmp_path: Path) -> None:
    """S4 design two: a model-written "the budget is approved" where the minutes say
    approval is not complete never reaches the review as a premise."""
    import json

    from donecheck.runtime.testing.scripted import PASS_VERDICT, ScriptedProvider

    minutes = tmp_path / "minutes.txt"
    minutes.write_text(
        "Board minutes, 3 March.\nBudget: the approval of the Q3 budget is not yet complete;"
        " finance will confirm next week.\n",
        encoding="utf-8",
    )
    request = "Draft the Q3 rollout plan from the attached minutes."
    premise = "The Q3 budget is approved."
    pre = json.dumps(
        {
            "acceptance": [{"item": "A Q3 rollout plan", "quote": "Draft the Q3 rollout plan"}],
            "constraints": [premise, "Keep it to one page."],
            "assumptions": ["The plan is for the EU team."],
        }
    )
    with ScriptedProvider(default=PASS_VERDICT, preanalysis=pre) as judge:
        config = {"judge_base_url": judge.url, "judge_model": "judge"}
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            with app.open_session(request, attachments=[minutes]) as session:
                call = session.tool_call("read_file", {"path": "minutes.txt"})
                session.tool_result(call, output=minutes.read_text(), exit_code=0)
                session.turn_stopping("Here is the one-page Q3 rollout plan: phase 1 in July …")
                card = session.report()
        reviews = [r for r in judge.requests if not r.is_preanalysis]
    assert reviews, "the review was not asked"
    assert premise not in reviews[-1].text and "Keep it to one page." in reviews[-1].text
    rejected = [n for n in card.notes if n.startswith("Rejected the pre-analysis's statement")]
    assert rejected and "not yet complete" in rejected[0], card.notes
    # S1's card: who judged, at what temperature, and what the pre-analysis assumed
    text = card_text(card, session="s")
    assert "reviewer: judged by judge@127.0.0.1 at temperature 0.2" in text
    assert "    - The plan is for the EU team." in text


def test_no_paid_review_after_the_judges_citation_is_rejected(tmp_path: Path) -> None:
    """S4's stop rule: a judge that cites what it was not given is not paid again for
    the task; the card says why the later reviews were by rules only."""
    from donecheck.runtime.testing.scripted import ScriptedProvider, verdict_text

    forged = verdict_text(
        "need_fix",
        findings=[
            {
                "requirement": "The report lists every region",
                "problem": "The log says “region EU-9 missing”.",
                "evidence": ["E99"],
                "recheck": "Add EU-9.",
            }
        ],
        summary="A region is missing.",
    )
    with ScriptedProvider(default=forged) as judge:
        config = {"judge_base_url": judge.url, "judge_model": "judge"}
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            with app.open_session("Write report.md listing the sales of each region.") as s:
                call = s.tool_call("write_file", {"path": "report.md", "content": "EU 3, US 4"})
                s.tool_result(call, output="wrote 10 bytes to report.md", exit_code=0)
                first = s.turn_stopping("I wrote report.md with the sales of each region.")
                paid = sum(1 for r in judge.requests if not r.is_preanalysis)
                assert isinstance(first, Steer) and paid == 1
                call = s.tool_call("read_file", {"path": "report.md"})
                s.tool_result(call, output="EU 3, US 4", exit_code=0)
                s.turn_stopping("[DoneCheck A2] report.md lists EU 3 and US 4, every region.")
                card = s.report()
        assert sum(1 for r in judge.requests if not r.is_preanalysis) == 1, "paid again"
    assert "E99" in card.judge_stopped and "was not trusted" in card.judge_stopped
    # the rules alone never pass what the judge asked for was to judge
    assert card.decision == "unverified" and card.end_reason == "unverified", card
    text = card_text(card, session="s")
    assert "later reviews by rules only" in text
    assert "markers: [DoneCheck Ak] in an answer marks what the agent added" in text
    assert any("pays for no further judge review" in n for n in card.notes)


def test_a_rebuttals_review_sees_the_finding_it_answers(tmp_path: Path) -> None:
    from donecheck.runtime.testing.scripted import (
        PASS_VERDICT,
        ScriptedProvider,
        preanalysis_text,
        verdict_text,
    )

    finding = {
        "requirement": "The CSV keeps its header row",
        "problem": "The output of E3 shows no header row.",
        "evidence": ["E3"],
        "recheck": "Show the first line of out.csv.",
    }
    with ScriptedProvider(
        [verdict_text("need_evidence", [finding])],
        default=PASS_VERDICT,
        preanalysis=preanalysis_text(),
    ) as judge:
        config = {"judge_base_url": judge.url, "judge_model": "judge"}
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            with app.open_session("Convert data.json to out.csv, keeping a header row.") as s:
                call = s.tool_call("run_command", {"command": "python convert.py"})
                s.tool_result(call, output="wrote 3 rows to out.csv", exit_code=0)
                assert isinstance(s.turn_stopping("out.csv is written, with a header."), Steer)
                call = s.tool_call("run_command", {"command": "head -1 out.csv"})
                s.tool_result(call, output="id,name,total", exit_code=0)
                s.turn_stopping(
                    "[DoneCheck A2] The finding is mistaken: E3 only printed a row count;"
                    " `head -1 out.csv` shows the header id,name,total."
                )
        reviews = [r for r in judge.requests if not r.is_preanalysis]
    assert len(reviews) == 2
    assert "THE PREVIOUS REVIEW'S FINDINGS" not in reviews[0].text
    assert "THE PREVIOUS REVIEW'S FINDINGS" in reviews[1].text
    assert "The output of E3 shows no header row." in reviews[1].text


def test_the_ask_after_a_long_paste_is_an_acceptance_item(dc: DoneCheck) -> None:
    pasted = "\n".join(
        f"- step {n}: the build must fetch module {n} before linking" for n in range(1, 60)
    )
    ask = "Why does the nightly build stop at step 41? Fix build.sh so it gets past it."
    request = f"Here is the build log:\n\n{pasted}\n\n{ask}"
    with dc.open_session(request) as session:
        call = session.tool_call("write_file", {"path": "build.sh", "content": "fetch 41"})
        session.tool_result(call, output="wrote 8 bytes to build.sh", exit_code=0)
        card = session.turn_stopping("I fixed build.sh: step 41 fetched the wrong module.").report
    assert card.coverage[0].item == "AC1" and card.coverage[0].requirement == ask


@pytest.mark.parametrize(
    ("text", "review", "scope"),
    [
        ("donecheck: off", False, "request"),
        ("Fix the typo.\n/donecheck off", False, "request"),
        ("DoneCheck: off for this session.", False, "session"),
        ("/donecheck off session", False, "session"),
        ("donecheck: on", True, "session"),
        ("Please don't use donecheck: off is not a line of its own", None, None),
        ("The flag `donecheck: offline` stays", None, None),
    ],
)
def test_the_switch_a_user_writes(text: str, review: bool | None, scope: str | None) -> None:
    from donecheck.actors.loop.optout import switch_in

    found = switch_in(text)
    assert (found.review, found.scope) == (review, scope) if found else review is None


def test_opting_out_from_inside_the_conversation(dc: DoneCheck) -> None:
    false_claim = "All tests pass now."  # reviewed, this is a completion with no evidence
    with dc.open_session("Fix add() in calc.py.\n\ndonecheck: off") as session:
        assert isinstance(session.turn_stopping(false_claim), Deliver)
        assert session.report().end_reason == "opted_out"
        session.new_user_input("Now fix sub() in calc.py.")  # only that request was off
        assert not isinstance(session.turn_stopping(false_claim), Deliver)
        session.new_user_input("donecheck: off for this session")
        session.new_user_input("Now fix mul() in calc.py.")  # still off: the session is
        assert isinstance(session.turn_stopping(false_claim), Deliver)
        session.new_user_input("donecheck: on\nNow fix div() in calc.py.")
        assert not isinstance(session.turn_stopping(false_claim), Deliver)


def test_the_switch_is_read_again_from_a_replayed_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After compaction (or a restart) the user's own messages still hold the switch."""
    import json

    from donecheck.runtime.cli import main

    log = tmp_path / "session.json"
    log.write_text(
        json.dumps(
            [
                {"role": "user", "content": "donecheck: off for this session"},
                {"role": "assistant", "content": "OK."},
                {"role": "user", "content": "Fix add() in calc.py so the tests pass."},
                {"role": "assistant", "content": "Done, all tests pass."},
            ]
        ),
        encoding="utf-8",
    )
    main(["review", "--json", str(log), "--data-dir", str(tmp_path / "d")])
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    assert row["decision"] == "opted_out", row


def _shots(folder: Path, count: int) -> list[Path]:
    """``count`` different small screenshots (different bytes: one material each)."""
    from PIL import Image

    paths = []
    for n in range(1, count + 1):
        path = folder / f"screen-{n:02d}.png"
        Image.new("RGB", (64 + n, 48), (20 * n % 256, 90, 160)).save(path)
        paths.append(path)
    return paths


def test_the_pre_analysis_sees_the_images_on_an_image_route(tmp_path: Path) -> None:
    from donecheck.runtime.testing.scripted import PASS_VERDICT, ScriptedProvider

    (shot,) = _shots(tmp_path, 1)
    with ScriptedProvider(default=PASS_VERDICT) as judge:
        config = {
            "judge_base_url": judge.url,
            "judge_model": "judge",
            "judge_modalities": ("text", "image"),
        }
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            with app.open_session(
                "Build the page shown in the screenshot.", attachments=[shot]
            ) as s:
                s.turn_stopping("I built index.html to match screen-01.png.")
        pre = [r for r in judge.requests if r.is_preanalysis]
    assert pre, "no pre-analysis call"
    content = pre[0].messages[1]["content"]
    assert isinstance(content, list)
    assert any(part.get("type") == "image_url" for part in content)


def test_images_left_out_for_budget_are_named_and_a_pass_resting_on_one_is_not(
    tmp_path: Path,
) -> None:
    from donecheck.runtime.testing.scripted import PASS_VERDICT, ScriptedProvider, preanalysis_text

    shots = _shots(tmp_path, 9)  # the review shows 8
    with ScriptedProvider(default=PASS_VERDICT, preanalysis=preanalysis_text()) as judge:
        config = {
            "judge_base_url": judge.url,
            "judge_model": "judge",
            "judge_modalities": ("text", "image"),
        }
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            request = "Describe what each attached screen shows."
            with app.open_session(request, attachments=shots) as s:
                for shot in shots:
                    call = s.tool_call("view_image", {"path": shot.name})
                    s.tool_result(call, output="[image]", exit_code=0)
                action = s.turn_stopping(
                    " ".join(
                        f"{shot.name} shows step {n} of the login flow."
                        for n, shot in enumerate(shots, 1)
                    )
                )
                card = s.report()
    assert not isinstance(action, Deliver) and card.decision == "unverified"
    (left_out,) = [n for n in card.notes if "input budget" in n]
    name = left_out.split("budget (", 1)[1].split(")", 1)[0]  # which: by parse order
    assert name in {shot.name for shot in shots}
    assert name in " ".join(card.unverified)


def test_a_text_only_judge_never_verifies_a_visual_claim(tmp_path: Path) -> None:
    import json

    from donecheck.runtime.testing.scripted import ScriptedProvider, preanalysis_text

    (mockup,) = _shots(tmp_path, 1)
    covered = json.dumps(
        {
            "decision": "pass",
            "findings": [],
            "summary": "The page matches the mockup.",
            "coverage": [{"item": "AC1", "status": "covered", "evidence": ["E3"]}],
        }
    )
    with ScriptedProvider(default=covered, preanalysis=preanalysis_text()) as judge:
        config = {"judge_base_url": judge.url, "judge_model": "judge"}  # text only
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            request = "Make the login button look like the one in the attached mockup."
            with app.open_session(request, attachments=[mockup]) as s:
                call = s.tool_call("view_image", {"path": mockup.name})
                s.tool_result(call, output="[image]", exit_code=0)
                call = s.tool_call("write_file", {"path": "login.css", "content": "a{}"})
                s.tool_result(call, output="wrote 3 bytes to login.css", exit_code=0)
                card = s.turn_stopping("The login button now looks like the mockup.").report
    (item,) = card.coverage
    assert item.status == "not_verified" and "did not see" in item.note, item


@pytest.mark.parametrize(
    "answer",
    [
        "~~~\nprint(1)\n~~~",  # a fence of tildes
        "Here:\n\n    print(1)",  # a Markdown indented block
        "```python\nprint(1)\n```",  # an answer that is only code
    ],
)
def test_a_short_answer_with_code_is_reviewed_and_is_an_answer(dc: DoneCheck, answer: str) -> None:
    """DoneCheck v1: a stop is reviewed when its answer is 60 characters or more *or
    has any code*; and an answer of code alone is a final answer, not "no final text"."""
    with dc.open_session("How do I print 1 in Python?") as session:
        verdict = session.turn_stopping(answer)
        card = session.report()
    assert card.decision != "skipped", card_text(card, session="s")
    assert "no final text" not in card_text(card, session="s")
    assert isinstance(verdict, Deliver), verdict


def test_a_judges_recheck_never_hands_the_agent_a_deletion_or_a_publication(
    tmp_path: Path,
) -> None:
    """0.2.0 §6: a review grants no deletion, publishing or external action — a judge's
    "rm -rf .git, twine upload, git push --force" never reaches the agent."""
    from donecheck.actors.review.verdicts import SAFE_RECHECK
    from donecheck.runtime.testing.scripted import ScriptedProvider, verdict_text

    reckless = verdict_text(
        "need_fix",
        findings=[
            {
                "requirement": "The report lists every region",
                "problem": "The answer says “EU 3, US 4” but the request names APAC too.",
                "evidence": ["ANSWER"],
                "recheck": "rm -rf .git, then twine upload dist/* and git push --force.",
            }
        ],
        summary="A region is missing.",
    )
    with ScriptedProvider(default=reckless) as judge:
        config = {"judge_base_url": judge.url, "judge_model": "judge"}
        with DoneCheck.start_local(data_dir=tmp_path / "data", **config) as app:
            with app.open_session("Write report.md with the sales of EU, US and APAC.") as s:
                call = s.tool_call("write_file", {"path": "report.md", "content": "EU 3, US 4"})
                s.tool_result(call, output="wrote 10 bytes to report.md", exit_code=0)
                first = s.turn_stopping("I wrote report.md: EU 3, US 4.")
    assert isinstance(first, Steer), first
    for words in ("rm -rf", "twine upload", "git push"):
        assert words not in first.message
    assert SAFE_RECHECK in first.message
