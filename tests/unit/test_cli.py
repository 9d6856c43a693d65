"""CLI behaviour that needs no Ray: usage errors, bad inputs, help, parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donecheck.runtime.cli import main


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "review" in out and "parse" in out
    with pytest.raises(SystemExit) as info:
        main(["review", "--help"])
    assert "Exit status: 0 reviewed, 2 usage or input error" in capsys.readouterr().out.replace(
        "\n", " "
    ).replace("  ", " ")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("donecheck ")


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["review"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert main(["review", "--concurrency", "0", "x.json"]) == 2
    assert "--concurrency must be at least 1" in capsys.readouterr().err


def test_only_bad_inputs_exit_2_without_starting_ray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ray.init is refused in unit tests: reaching it would fail this test
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [')
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    code = main(["review", str(broken), str(tmp_path / "missing.json"), str(empty_dir)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3
    assert any(
        line.startswith("donecheck: error: ") and "broken.json:1: invalid JSON" in line
        for line in err
    )
    assert any("missing.json: no such file or folder" in line for line in err)
    assert any("no transcripts (*.json, *.jsonl) in this folder" in line for line in err)


def test_parse_text_json_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["parse", str(notes)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("parsed") and "text/plain" in out and "hello" in out
    # one bad file does not stop the others; the exit status says one failed
    assert main(["parse", "--json", str(empty), str(notes)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(m["declared_name"], m["status"]) for m in lines] == [
        ("empty.txt", "failed"),
        ("notes.txt", "parsed"),
    ]
    # a missing file is a usage/input error, and the others are still parsed
    assert main(["parse", str(tmp_path / "nope"), str(notes)]) == 2
    captured = capsys.readouterr()
    assert "nope: no such file" in captured.err and "hello" in captured.out
    assert main(["parse", "--markdown", str(notes)]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("### Attachment 1: notes.txt")
    assert "#0] \n    1 | hello" in markdown or "#0]" in markdown


def test_parse_folder_of_mixed_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support import samples

    for kind in ("pdf", "docx", "xlsx", "csv", "zip"):
        sample = samples.sample(kind, seed=1)
        (tmp_path / sample.name).write_bytes(sample.data)
    assert main(["parse", "--json", "--workers", "2", str(tmp_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 5 and all(m["status"] == "parsed" for m in lines)
    pdf = next(m for m in lines if m["declared_name"].endswith(".pdf"))
    assert pdf["previews"] and all(p["data"] == "" for p in pdf["previews"])


def test_a_review_of_a_folder_ends_with_its_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples" / "transcripts"
    assert main(["review", str(examples), "--data-dir", str(tmp_path / "d")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith(f"{len(list(examples.iterdir()))} transcripts: ")
    assert "may stop" in last and "need_fix" in last
    # one transcript: its card is the whole output
    assert main(["review", str(examples / "pass_fix_then_verify.json")]) == 0
    assert "transcripts:" not in capsys.readouterr().out


def test_the_summary_line_counts_every_decision() -> None:
    from collections import Counter

    from donecheck.runtime.cli.files import summary_line

    line = summary_line(Counter({"pass": 2, "need_fix": 1, "skipped": 1}), 1, 5)
    assert line == (
        "5 transcripts: 2 pass, 1 skipped, 1 need_fix, 1 could not be reviewed"
        " — 3 may stop, 1 would be sent back or reported"
    )


def test_the_sessions_table_fits_its_ids_and_says_when_empty() -> None:
    from donecheck.runtime.cli.sessions import table

    assert table([], 0.0)[0].startswith("No sessions yet")
    long_id = "claude-code-0f8e2b4c-9a61-4c1d-8e3f-2b7d9c0a4e51-subagent-7"
    rows = [
        {
            "session_id": long_id,
            "decision": "need_fix",
            "rounds_used": 1,
            "end_reason": None,
            "updated_at": 100.0,
            "request": "Fix add()\nin calc.py",
        },
        {
            "session_id": "s1",
            "decision": None,
            "rounds_used": 0,
            "end_reason": "pass",
            "updated_at": None,
            "request": "Hi",
        },
    ]
    head, first, second = table(rows, 220.0)
    # every column starts where its header does, however long an id is
    for line in (first, second):
        assert line.index("need_fix" if line is first else "-") == head.index("DECISION")
    assert first.startswith(long_id + "  ") and first.endswith("Fix add() in calc.py")
    assert "2m" in first and "?" in second
