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
    assert any("no transcripts (*.json) in this folder" in line for line in err)


def test_parse_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["parse", str(notes)]) == 0
    out = capsys.readouterr().out
    assert "parsed" in out and "text/plain" in out and "hello" in out
    # one bad file does not stop the others; the exit status says something failed
    assert main(["parse", "--json", str(empty), str(tmp_path / "nope"), str(notes)]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [(m["declared_name"], m["status"]) for m in lines] == [
        ("empty.txt", "failed"),
        ("notes.txt", "parsed"),
    ]
    assert "nope: no such file" in captured.err
