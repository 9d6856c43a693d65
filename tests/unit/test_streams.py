"""Every log form a real run leaves, read the same way: what the CLI printed
(``claude -p --output-format stream-json``, with ``--include-partial-messages`` too, or
``--output-format json --verbose``; ``codex exec --json``, ``opencode run --format
json``) and what it kept on disk (the Claude Code session file with its sub-agents'
files, the Codex rollout, what ``opencode export`` printed).

The fixtures are real: ``tests/clients/recorded/<client>-<scenario>/`` holds what the
pinned CLIs wrote in the end-to-end tier's runs (``python -m tests.clients.record``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.cli import main
from donecheck.runtime.transcripts.detect import load_transcript

RECORDED = Path(__file__).resolve().parents[1] / "clients" / "recorded"
RUNS = sorted(
    p.name
    for p in RECORDED.iterdir()
    if (p / "stream.jsonl").is_file() and not p.name.startswith(("gemini-", "copilot-"))
)
"""Gemini CLI's ``-o stream-json`` is kept with its runs but not read: its tool results
say no exit status (a failing command's is ``"status": "success"``). Copilot CLI's
``--output-format json`` is its session's events, the prompt among them: read as its
``events.jsonl`` is (``tests/unit/test_copilot.py``), not as a stream without one."""
TASK = "Fix add() in calc.py so that the tests in test_calc.py pass."


def prompt_of(run: str) -> str:
    """The prompt the run was started with (the command line's argument; OpenCode's,
    its words after ``--``)."""
    meta = json.loads((RECORDED / run / "meta.json").read_text())
    argv = meta["argv"]
    if "--" in argv:
        return " ".join(argv[argv.index("--") + 1 :])
    return str(argv[argv.index("-p") + 1] if "-p" in argv else argv[-1])


def kept_log(run: str) -> Path:
    """What the CLI kept of the run: its session file, or OpenCode's export."""
    folder = RECORDED / run
    found = folder / "transcript.jsonl"
    return found if found.is_file() else folder / "transcript.json"


def review(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    """``donecheck review --json ARGS`` (in this process, rules only): its rows."""
    main(["review", "--json", *args])
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("run", RUNS)
def test_what_the_cli_printed_and_what_it_kept_read_alike(run: str) -> None:
    stream = load_transcript(RECORDED / run / "stream.jsonl")
    kept = load_transcript(kept_log(run))
    assert stream.form in {"claude-stream", "codex-exec", "opencode"}
    assert kept.form in {"claude-code", "codex", "opencode"}
    assert not stream.request_known and stream.request == ""  # the prompt was argv
    assert kept.request_known and kept.request == prompt_of(run)
    assert stream.answer == kept.answer
    steps = [shape(s) for s in stream.steps]
    if run == "codex-slow":  # the stream ends while the command runs; the rollout has more
        assert steps == [shape(s) for s in kept.steps][: len(steps)]
    else:
        assert steps == [shape(s) for s in kept.steps]


def shape(step: Any) -> tuple[Any, ...]:
    """What a step says for the review: the tool called, or a result's outcome."""
    return (step.name,) if step.kind == "call" else (step.kind, step.exit_code, step.ok)


@pytest.mark.parametrize("run", [r for r in RUNS if not r.endswith("slow")])
def test_both_forms_of_a_run_get_the_same_decision(
    run: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = RECORDED / run
    (given,) = review(capsys, str(folder / "stream.jsonl"), "--request", prompt_of(run))
    (kept,) = review(capsys, str(kept_log(run)))
    assert given["decision"] == kept["decision"], (given, kept)
    assert any("The request is from the caller" in n for n in given["notes"]), given


ARRAYS = sorted(p.name for p in RECORDED.iterdir() if (p / "output.json").is_file())
"""``claude -p --output-format json --verbose``: the stream's messages as one JSON array."""


def test_the_json_array_claude_prints_is_recorded() -> None:
    assert {"claude-code-honest-json", "claude-code-fixes_after_block-json"} <= set(ARRAYS)


@pytest.mark.parametrize("run", ARRAYS)
def test_the_json_array_claude_prints_reads_as_its_stream(run: str) -> None:
    printed = load_transcript(RECORDED / run / "output.json")
    kept = load_transcript(kept_log(run))
    assert printed.form == "claude-stream"
    assert not printed.request_known
    assert printed.answer == kept.answer
    assert [shape(s) for s in printed.steps] == [shape(s) for s in kept.steps]


@pytest.mark.parametrize(
    ("records", "form"),
    [
        # a JSON array of chat messages stays a chat (rows that look alike, mean otherwise)
        ([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}], "openai"),
        # the records of a Codex rollout given as one array are a Codex rollout
        ("codex-honest/transcript.jsonl", "codex"),
        ("claude-code-honest/stream.jsonl", "claude-stream"),
        ("claude-code-honest-partial/stream.jsonl", "claude-stream"),
    ],
)
def test_records_given_as_one_array_read_as_their_lines(
    records: Any, form: str, tmp_path: Path
) -> None:
    if isinstance(records, str):
        lines = (RECORDED / records).read_text().splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(records))
    assert load_transcript(path).form == form


def test_an_array_of_unknown_records_is_no_transcript(tmp_path: Path) -> None:
    path = tmp_path / "events.json"
    path.write_text(json.dumps([{"type": "ping", "at": 1}, {"type": "pong", "at": 2}]))
    with pytest.raises(TranscriptError, match=r"events\.json: message 1 has no role"):
        load_transcript(path)


def test_a_run_without_its_prompt_is_reviewed_on_what_needs_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = review(
        capsys,
        str(RECORDED / "claude-code-honest" / "stream.jsonl"),
        str(RECORDED / "codex-asks_for_token" / "stream.jsonl"),
        str(RECORDED / "claude-code-slow" / "stream.jsonl"),
    )
    by_run = {row["session"]: row for row in rows}
    assert len(rows) == 3
    for row in rows:
        assert any("The request was unknown" in note for note in row["notes"]), row
        assert row["acceptance"] == [], row  # no request: no items invented
    honest = next(r for r in rows if "honest" in str(r["session"]) or r["decision"] == "pass")
    assert honest["decision"] == "pass"
    assert sorted(r["decision"] for r in by_run.values()) == ["blocked", "need_evidence", "pass"]


def test_a_skills_text_is_never_the_request() -> None:
    """Claude Code injects SKILL.md as a user-role line: ``isMeta`` with
    ``sourceToolUseID`` in the session file, ``isSynthetic`` in the stream."""
    for name in ("transcript.jsonl", "stream.jsonl"):
        transcript = load_transcript(RECORDED / "claude-code-uses_skill" / name)
        assert "house style" not in transcript.request, name
        assert not any("house style" in s.text for s in transcript.steps if s.kind == "user")
    assert load_transcript(RECORDED / "claude-code-uses_skill" / "transcript.jsonl").request == TASK


def test_the_skills_rules_are_no_acceptance_items(capsys: pytest.CaptureFixture[str]) -> None:
    (row,) = review(capsys, str(RECORDED / "claude-code-uses_skill" / "transcript.jsonl"))
    items = " ".join(item["requirement"] for item in row["acceptance"])
    assert row["decision"] == "pass", row
    assert "docstring" not in items and "CHANGES.md" not in items, items


@pytest.mark.parametrize("scenario", ["delegates", "delegates_and_waits"])
def test_a_sub_agents_work_counts_once_its_report_reached_the_agent(scenario: str) -> None:
    folder = RECORDED / f"claude-code-{scenario}"
    for name in ("stream.jsonl", "transcript.jsonl"):  # the file with its subagents/ folder
        transcript = load_transcript(folder / name)
        commands = [str(s.arguments) for s in transcript.steps if s.kind == "call"]
        assert any("pytest" in c for c in commands), (name, commands)
        assert transcript.notes == [], transcript.notes
        assert "Run the test suite" not in transcript.request


def test_a_sub_agent_that_never_reported_back_is_no_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recorded background sub-agent's stream, cut where its report would reach
    the agent: the tests it ran are the sub-agent's, the parent never saw them."""
    lines = (RECORDED / "claude-code-delegates" / "stream.jsonl").read_text().splitlines()
    cut = next(n for n, line in enumerate(lines) if '"task_notification"' in line)
    answer = next(line for line in lines[cut:] if '"assistant"' in line)  # the final one
    stream = tmp_path / "stream.jsonl"
    stream.write_text("\n".join([*lines[:cut], answer]) + "\n")
    transcript = load_transcript(stream)
    assert [s.name for s in transcript.steps if s.kind == "call"] == ["Edit", "Agent"]
    assert any("never reported back" in note for note in transcript.notes)
    (row,) = review(capsys, str(stream), "--request", TASK)
    assert row["decision"] == "need_evidence", row


def test_a_session_file_without_its_sub_agents_files_proves_less(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / "session.jsonl"
    shutil.copy(RECORDED / "claude-code-delegates" / "transcript.jsonl", alone)
    (row,) = review(capsys, str(alone))
    assert row["decision"] == "need_evidence", row  # the run is not in what is left


def test_a_folder_reads_each_sub_agent_with_its_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "run").mkdir()
    shutil.copy(RECORDED / "claude-code-delegates" / "transcript.jsonl", tmp_path / "run")
    shutil.copytree(
        RECORDED / "claude-code-delegates" / "transcript", tmp_path / "run" / "transcript"
    )
    rows = review(capsys, str(tmp_path / "run"))
    assert [row["decision"] for row in rows] == ["pass"], rows  # one session, not two
    sub_agent = next((tmp_path / "run" / "transcript" / "subagents").glob("*.jsonl"))
    (alone,) = review(capsys, str(sub_agent))  # named on its own, it is read on its own
    assert any("read on its own" in note for note in alone["notes"]), alone


def test_the_request_can_come_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompt = tmp_path / "instruction.md"
    prompt.write_text(TASK)
    (row,) = review(
        capsys, str(RECORDED / "codex-honest" / "stream.jsonl"), "--request", f"@{prompt}"
    )
    assert row["decision"] == "pass" and row["form"] == "codex-exec"
    assert [item["requirement"] for item in row["acceptance"]] == [TASK]
    assert main(["review", str(prompt), "--request", "@" + str(tmp_path / "none.md")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_json_gives_a_row_for_every_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a log\n")
    good = RECORDED / "codex-honest" / "stream.jsonl"
    code = main(["review", "--json", str(good), str(broken), str(tmp_path / "missing.json")])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 2
    assert len(rows) == 3, rows
    errors = [row for row in rows if row["decision"] is None]
    assert {Path(str(row["session"])).name for row in errors} == {"broken.jsonl", "missing.json"}
    assert all(row["error"] for row in errors)


def test_an_interrupted_run_ended_without_an_answer_and_never_passes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("claude-code-slow", "codex-slow"):
        for log in ("stream.jsonl", "transcript.jsonl"):
            (row,) = review(capsys, str(RECORDED / name / log), "--request", "Wait for the build.")
            assert row["decision"] == "need_evidence", (name, log, row)
            assert any("did not finish" in f["problem"] for f in row["findings"]), row


@pytest.mark.parametrize("form", ["claude-code", "claude-stream", "codex", "codex-exec", "atif"])
def test_the_long_log_benchmark_grows_real_runs_into_readable_logs(
    form: str, tmp_path: Path
) -> None:
    """``benchmarks.log_reading`` repeats a recorded run's tool call: the grown file
    is still read as that form, with the calls it added and the run's own answer."""
    from benchmarks.log_reading import forms

    grown = tmp_path / ("log.json" if form == "atif" else "log.jsonl")
    grown.write_text(forms()[form](200_000))
    transcript = load_transcript(grown)
    assert transcript.form == form
    assert len(transcript.steps) > 100
    assert transcript.answer.startswith("I fixed add()")


def _with_events(run: str, *events: dict[str, Any], before_answer: bool = True) -> list[str]:
    """A recorded ``codex exec --json`` stream with ``events`` (shaped as
    ``codex-rs/exec/src/exec_events.rs`` defines them, openai/codex 08a1f30) put before
    its final agent message."""
    lines = (RECORDED / run / "stream.jsonl").read_text().splitlines()
    at = max(n for n, line in enumerate(lines) if '"agent_message"' in line)
    added = [json.dumps(e) for e in events]
    return [*lines[:at], *added, *lines[at:]] if before_answer else [*lines, *added]


def test_a_codex_sub_agent_is_evidence_only_through_its_report() -> None:
    from donecheck.runtime.transcripts.codex_exec import parse_codex_exec_lines

    collab = {
        "type": "item.completed",
        "item": {
            "id": "item_9",
            "type": "collab_tool_call",
            "tool": "wait",
            "sender_thread_id": "parent",
            "receiver_thread_ids": ["child"],
            "prompt": "Run the whole suite and report.",
            "agents_states": {"child": {"status": "completed", "message": "12 passed"}},
            "status": "completed",
        },
    }
    read = parse_codex_exec_lines(_with_events("codex-honest", collab))
    call, result = read.steps[-2:]
    assert call.name == "collab.wait" and result.output == "child: completed — 12 passed"
    assert result.exit_code is None  # a report, not a run: it proves no check
    assert "Run the whole suite" not in read.request


def test_codex_asking_the_user_and_stopping_is_blocked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from donecheck.runtime.transcripts.codex_exec import parse_codex_exec_lines

    ask = {
        "type": "request_user_input",
        "id": "turn_1",
        "call_id": "call_9",
        "questions": [
            {
                "id": "q",
                "header": "Token",
                "question": "Could you provide the API token for the index?",
            }
        ],
    }
    lines = (RECORDED / "codex-honest" / "stream.jsonl").read_text().splitlines()
    at = max(n for n, line in enumerate(lines) if '"agent_message"' in line)
    read = parse_codex_exec_lines([*lines[:at], json.dumps(ask)])
    assert read.answer == "Could you provide the API token for the index?"
    log = tmp_path / "exec.jsonl"
    log.write_text("\n".join([*lines[:at], json.dumps(ask)]) + "\n")
    (row,) = review(capsys, str(log), "--request", TASK)
    assert row["decision"] == "blocked", row


def test_a_codex_sub_agents_own_rollout_says_so() -> None:
    from donecheck.runtime.transcripts.codex import parse_codex_lines

    lines = (RECORDED / "codex-honest" / "transcript.jsonl").read_text().splitlines()
    meta = json.loads(lines[0])
    assert meta["type"] == "session_meta"
    meta["payload"]["source"] = {"subagent": {"thread_spawn": {"parent_thread_id": "p"}}}
    read = parse_codex_lines([json.dumps(meta), *lines[1:]])
    assert any("sub-agent's conversation" in note for note in read.notes)


PUBLIC = Path(__file__).resolve().parents[1] / "clients" / "public"


def test_public_samples_of_other_cli_versions_are_read() -> None:
    """Real output of Claude Code 2.1.3 / 2.1.7 and Codex 0.46.0, taken from public
    repositories (``tests/clients/public/SOURCES.md``)."""
    ls = load_transcript(PUBLIC / "claude-stream-2.1.3-ls.jsonl")
    assert ls.form == "claude-stream" and not ls.request_known
    assert [(s.kind, s.name) for s in ls.steps] == [("call", "Bash"), ("result", "")]
    assert "drwxrwxr-x" in ls.steps[1].output  # from tool_use_result's stdout
    assert ls.answer == "Here are the files in the current directory."  # the result's
    basic = load_transcript(PUBLIC / "claude-stream-2.1.7-basic.jsonl")
    assert basic.form == "claude-stream" and basic.answer == "4" and basic.steps == []
    codex = load_transcript(PUBLIC / "codex-exec-0.46.0.jsonl")
    assert codex.form == "codex-exec" and codex.answer == "4" and codex.steps == []
    ls_run = load_transcript(PUBLIC / "codex-exec-0.46.0-ls.jsonl")
    call, result = ls_run.steps  # item.started and item.completed are one call
    assert call.arguments["command"] == "ls"  # the shell wrapper taken off
    assert result.exit_code == 0 and result.output == "file1.txt\nfile2.txt\n"
    assert ls_run.answer == "Files here: `file1.txt`, `file2.txt`."


def test_public_samples_are_reviewed(capsys: pytest.CaptureFixture[str]) -> None:
    samples = sorted(str(p) for p in PUBLIC.glob("*.jsonl"))  # the stream logs
    rows = review(capsys, *samples, "--request", "what is 2+2? just give me the answer")
    assert len(rows) == 4 and all(row["decision"] for row in rows), rows


def test_a_run_that_failed_before_its_first_turn_is_read_as_no_answer() -> None:
    """A public Claude Code 2.0.76 Agent SDK log (OpenAgentsInc/openagents autopilot): its
    only record is the stream's result, `error_during_execution` with EROFS errors and
    no turn — a run with no answer, not "not a transcript"."""
    path = PUBLIC / "openagents" / "20251223" / "154803-process-issues-from-database.jsonl"
    transcript = load_transcript(path)
    assert transcript.answer == "" and transcript.steps == []
    assert any("EROFS: read-only file system" in n for n in transcript.notes)
    # and a stream's error result after a real answer changes nothing
    lines = [
        {"type": "system", "subtype": "init", "session_id": "s", "tools": []},
        {"type": "user", "message": {"role": "user", "content": "hi"}},
        {"type": "assistant", "message": {"role": "assistant", "content": "Hello."}},
        {"type": "result", "subtype": "error_max_turns", "is_error": True, "errors": []},
    ]
    from donecheck.runtime.transcripts.claude import parse_claude_lines

    read = parse_claude_lines([json.dumps(line) for line in lines])
    assert read.answer == "Hello." and not any("ended the run" in n for n in read.notes)
