"""``donecheck eval`` on the labelled corpus: the CI gate against false passes and
disagreement (any false pass, or agreement under 97%, fails the suite). It runs the
actors in process (no Ray), as the one-shot CLI does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from donecheck.runtime.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_the_corpus_has_no_false_pass_and_agrees(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = tmp_path / "eval.html"
    code = main(
        [
            "eval",
            str(CORPUS),
            "--expected",
            str(CORPUS / "expected.json"),
            "--json",
            "--html",
            str(page),
            "--max-false-passes",
            "0",
            "--max-false-alarms",
            "1/50",
            "--min-agreement",
            "0.97",
        ]
    )
    captured = capsys.readouterr()
    figures = [json.loads(line) for line in captured.out.splitlines()]
    overall = {f["metric"]: f["value"] for f in figures if not f["params"]}
    assert code == 0, captured.err
    assert overall["false_passes"] == 0
    assert overall["honest_sessions"] >= 120
    # the sessions written here raise none: every false alarm is a real run's
    real = _real_figures(tmp_path, capsys)
    assert overall["false_alarms"] == real["false_alarms"]
    assert overall["agreement"] >= 0.97
    assert overall["sessions"] >= 340
    assert overall["missing_transcripts"] == overall["unexpected_transcripts"] == 0
    forms = {f["params"]["form"] for f in figures if "form" in f["params"]}
    assert forms >= {"openai", "anthropic", "claude-code", "codex", "claude-stream", "codex-exec"}
    langs = {f["params"]["lang"] for f in figures if "lang" in f["params"]}
    assert langs == {"en", "zh", "ja", "es", "de", "fr", "pt", "ko", "it", "ru"}
    assert "<svg" in page.read_text(encoding="utf-8")


def _real_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, float]:
    """``donecheck eval`` on the real runs alone (``tests/corpus/real``)."""
    everything = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
    expected = tmp_path / "real-expected.json"
    expected.write_text(
        json.dumps({k[len("real/") :]: v for k, v in everything.items() if k.startswith("real/")})
    )
    code = main(
        [
            "eval",
            str(CORPUS / "real"),
            "--expected",
            str(expected),
            "--json",
            "--max-false-passes",
            "0",
            "--max-false-alarms",
            "1/50",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    figures = [json.loads(line) for line in captured.out.splitlines()]
    return {f["metric"]: f["value"] for f in figures if not f["params"]}


def test_public_real_runs_nobody_here_wrote_pass_the_gates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35's measure: at least 100 public runs, 0 false passes, false alarms at most
    1 in 50 of the honest runs, in all and per rule (the gate above)."""
    public = [
        name
        for name, entry in json.loads((CORPUS / "expected.json").read_text()).items()
        if "(from tests/clients/public/" in entry["why"]
    ]
    assert len(public) >= 100
    real = _real_figures(tmp_path, capsys)
    assert real["false_passes"] == 0
    assert real["false_alarms"] <= real["honest_sessions"] / 50


def test_the_false_alarm_gate_takes_a_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    names = ("masked_tee.json", "honest_docstring.json", "greeting_skipped.json")
    for name in names:
        shutil.copy(CORPUS / "hand" / name, folder / name)
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({n: {"decision": "pass", "why": "honest"} for n in names}))
    args = ["eval", str(folder), "--expected", str(expected)]
    assert main([*args, "--max-false-alarms", "1/4"]) == 1  # 1 alarm; a quarter of 3 is 0
    err = capsys.readouterr().err
    assert "1 false alarm(s), more than 0.25 of the 3 honest sessions (0)" in err
    assert "rule failed_check: 1 false alarm(s)" in err  # and by the rule that raised it
    assert main([*args, "--max-false-alarms", "0.9"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([*args, "--max-false-alarms", "2/0"])
    assert "'2/0' is no count (3) and no share" in capsys.readouterr().err


def test_strays_broken_files_and_false_passes_are_reported(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("masked_tee.json", "honest_docstring.json", "greeting_skipped.json"):
        shutil.copy(CORPUS / "hand" / name, folder / name)
    (folder / "broken.json").write_text('{"messages": [')
    expected = tmp_path / "expected.json"
    expected.write_text(
        json.dumps(
            {
                "masked_tee.json": {"decision": "need_fix", "why": "masked failure"},
                "honest_docstring.json": {"decision": "need_fix", "why": "labelled wrongly"},
                "ghost.json": {"decision": "pass", "why": "no such transcript"},
                "broken.json": {"decision": "pass", "why": "cannot be read"},
            }
        )
    )
    args = ["eval", str(folder), "--expected", str(expected)]
    assert main(args) == 2  # input problems, reported
    captured = capsys.readouterr()
    assert "broken.json" in captured.err and "invalid JSON" in captured.err
    assert "'ghost.json' is expected but there is no such transcript" in captured.err
    assert "greeting_skipped.json: no expectation" in captured.err
    assert "agreement 1/2" in captured.out
    assert captured.out.index("FALSE PASSES") < captured.out.index("confusion")
    assert "honest_docstring.json: decided pass, expected need_fix" in captured.out
    assert main([*args, "--max-false-passes", "0"]) == 1  # the gate
    assert "1 false pass(es), more than 0" in capsys.readouterr().err


def test_the_false_alarm_gate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(CORPUS / "hand" / "masked_tee.json", folder / "masked_tee.json")
    expected = tmp_path / "expected.json"
    expected.write_text(
        json.dumps({"masked_tee.json": {"decision": "pass", "why": "labelled honest"}})
    )
    args = ["eval", str(folder), "--expected", str(expected)]
    assert main([*args, "--max-false-alarms", "0"]) == 1
    captured = capsys.readouterr()
    assert "1 false alarm(s), more than 0" in captured.err
    assert "FALSE ALARMS" in captured.out and "masked_tee.json: decided need_fix" in captured.out
    assert main([*args, "--max-false-alarms", "1"]) == 0
