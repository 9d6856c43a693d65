"""`donecheck eval`'s parts without Ray: transcript forms told from content, the
expected file, the scoring, and the corpus kept in step with its scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donecheck.actors.errors import InputError, TranscriptError
from donecheck.runtime.evaluate import Expected, Observed, load_expected, score
from donecheck.runtime.transcripts.detect import detect_form, load_transcript
from tests.corpus import generate, hand, real

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.mark.parametrize(
    ("name", "form"),
    [
        ("generated/honest_fix.en.openai.json", "openai"),
        ("generated/honest_fix.en.repeated-ids.json", "openai"),
        ("generated/honest_fix.en.legacy.json", "openai"),
        ("generated/honest_fix.en.anthropic.json", "anthropic"),
        ("generated/honest_fix.en.claude-code.jsonl", "claude-code"),
    ],
)
def test_the_form_is_told_from_content(name: str, form: str, tmp_path: Path) -> None:
    # a misleading suffix changes nothing
    copy = tmp_path / ("x.jsonl" if name.endswith(".json") else "x.json")
    copy.write_bytes((CORPUS / name).read_bytes())
    transcript = load_transcript(copy)
    assert transcript.form == form
    assert transcript.answer and transcript.steps


def test_one_message_per_line_is_a_form(tmp_path: Path) -> None:
    lines = [
        {"role": "user", "content": "Fix it."},
        {"role": "assistant", "content": "Fixed."},
    ]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines))
    assert load_transcript(path).form == "openai-jsonl"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("", "file is empty"),
        ("{not json", "invalid JSON"),
        ('{"foo": 1}', "not a transcript"),
        ("[1, 2]", "message 1 is a int"),
    ],
)
def test_a_file_that_is_no_transcript_says_what_is_wrong(
    content: str, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(TranscriptError, match=problem) as raised:
        load_transcript(path)
    assert str(path) in str(raised.value)


def test_detect_form_of_plain_text() -> None:
    assert detect_form("hello") == ("", None)


def _obs(name: str, decision: str, rules: tuple[str, ...] = (), lang: str = "en") -> Observed:
    return Observed(name=name, form="openai", lang=lang, decision=decision, rules=rules)


def test_scoring_puts_false_passes_first_and_reports_strays() -> None:
    expected = {
        "a.json": Expected("pass", "honest"),
        "b.json": Expected("need_fix", "failed run", rules=("failed_check",)),
        "c.json": Expected("need_evidence", "never ran", lang="zh"),
        "gone.json": Expected("pass"),
    }
    observed = [
        _obs("a.json", "pass"),
        _obs("b.json", "pass"),  # a false pass
        _obs("c.json", "skipped", lang="en"),  # let through: a false pass too
        _obs("extra.json", "pass"),
    ]
    result = score(observed, expected, ["broken.json: invalid JSON"], ["broken.json"])
    assert result.total == 3 and result.agreed == 1
    assert [o.name for o, _ in result.false_passes] == ["b.json", "c.json"]
    assert result.missing == ["gone.json"] and result.unexpected == ["extra.json"]
    assert result.confusion()[("need_fix", "pass")] == 1
    (rule,) = [r for r in result.rules() if r.rule == "failed_check"]
    assert (rule.fired, rule.labelled, rule.recall) == (0, 1, 0.0)
    assert {name for name, *_ in result.breakdown("lang")} == {"en", "zh"}
    text = result.text()
    assert text.index("FALSE PASSES") < text.index("confusion")
    assert "gone.json" in text and "extra.json" in text and "broken.json" in text
    figures = result.figures()
    assert all(set(f) == {"bench", "metric", "value", "unit", "params"} for f in figures)
    assert {"metric": "false_passes", "value": 2} in [
        {"metric": f["metric"], "value": f["value"]} for f in figures if not f["params"]
    ]
    page = result.html()
    assert page.startswith("<!doctype html>") and "<svg" in page and "b.json" in page


def test_an_honest_session_steered_or_stopped_is_a_false_alarm() -> None:
    expected = {
        "a": Expected("pass", "honest"),
        "b": Expected("pass", "honest"),
        "c": Expected("skipped", "trivial"),
        "d": Expected("need_fix", "failed"),
    }
    observed = [
        _obs("a", "need_evidence", ("uncovered_item",)),  # steered: a false alarm
        _obs("b", "pass"),
        _obs("c", "blocked"),  # stopped: a false alarm too
        _obs("d", "blocked"),  # another decision, not a false alarm
    ]
    result = score(observed, expected)
    assert [o.name for o, _ in result.false_alarms] == ["a", "c"]
    assert not result.false_passes
    text = result.text()
    assert "false alarms 2" in text and text.index("FALSE ALARMS") < text.index("confusion")
    overall = {f["metric"]: f["value"] for f in result.figures() if not f["params"]}
    assert overall["false_alarms"] == 2 and overall["honest_sessions"] == 3
    assert "False alarms (honest sessions steered or stopped): 2" in result.html()
    # per rule, against the honest sessions: the rule that steered "a" has one; a rule
    # that fired only beside a let-through decision, or on a failing session, has none
    rules = {r.rule: r.false_alarms for r in result.rules()}
    assert rules == {"uncovered_item": 1}
    assert "false alarms (of 3 honest sessions)" in text
    per_rule = [f for f in result.figures() if f["metric"] == "rule_false_alarms"]
    assert per_rule == [
        {
            "bench": "eval",
            "metric": "rule_false_alarms",
            "value": 1,
            "unit": "count",
            "params": {"rule": "uncovered_item", "honest": 3},
        }
    ]


def test_a_rule_beside_a_pass_is_no_false_alarm() -> None:
    result = score(
        [_obs("a", "pass", ("uncovered_item",)), _obs("b", "need_fix", ("failed_check",))],
        {"a": Expected("pass"), "b": Expected("need_fix")},
    )
    assert {r.rule: r.false_alarms for r in result.rules()} == {
        "failed_check": 0,
        "uncovered_item": 0,
    }


def test_an_unlabelled_rule_is_scored_by_the_decision() -> None:
    result = score(
        [_obs("a", "need_fix", ("failed_check",)), _obs("b", "need_fix", ("failed_check",))],
        {"a": Expected("need_fix"), "b": Expected("pass")},
    )
    (rule,) = result.rules()
    assert (rule.fired, rule.correct, rule.precision, rule.recall) == (2, 1, 0.5, None)


def test_the_expected_file_names_its_problems(tmp_path: Path) -> None:
    path = tmp_path / "expected.json"
    path.write_text(
        json.dumps(
            {
                "a.json": {"decision": "pass", "why": "ok"},
                "b.json": {"decision": "maybe"},
                "c.json": {"decision": "pass", "rules": "failed_check"},
            }
        )
    )
    expected, problems = load_expected(path)
    assert list(expected) == ["a.json"]
    assert len(problems) == 2 and "'b.json'" in problems[0] and "'c.json'" in problems[1]
    path.write_text("[]")
    with pytest.raises(InputError, match="JSON object"):
        load_expected(path)
    with pytest.raises(InputError, match="no such file"):
        load_expected(tmp_path / "missing.json")


def test_the_corpus_is_large_and_in_step_with_its_scripts() -> None:
    assert generate.main(["--check"]) == 0, "run tests/corpus/generate.py"
    assert hand.main(["--check"]) == 0, "run tests/corpus/hand.py"
    assert real.main(["--check"]) == 0, "run tests/corpus/real.py"
    expected = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
    generated = [k for k in expected if k.startswith("generated/")]
    written = [k for k in expected if k.startswith("hand/")]
    recorded = [k for k in expected if k.startswith("real/")]
    assert len(generated) >= 300 and len(written) >= 40 and len(recorded) >= 15
    honest = [k for k in recorded if expected[k]["decision"] in {"pass", "skipped"}]
    assert len(honest) >= 10  # sessions nobody here wrote, that must not be steered
    assert all(v["why"] for v in expected.values())
    honest = [k for k in written if expected[k]["decision"] == "pass"]
    assert len(honest) >= 10
