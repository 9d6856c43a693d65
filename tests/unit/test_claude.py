"""Claude Code transcripts (JSONL) and hook payloads."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from donecheck.actors.errors import InputError, TranscriptError
from donecheck.runtime.hooks import session_id_for
from donecheck.runtime.transcripts.claude import load_claude_jsonl, parse_claude_lines, tool_output

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "transcripts" / "claude_code_need_fix.jsonl"
)


def line(kind: str, content: object, **extra: object) -> str:
    return json.dumps({"type": kind, "message": {"role": kind, "content": content}, **extra})


def test_example_transcript() -> None:
    t = load_claude_jsonl(EXAMPLE)
    assert t.request.startswith("The ISO date parser")
    assert t.answer.startswith("I replaced `strptime`")
    assert [(s.kind, s.call_id) for s in t.steps] == [
        ("call", "toolu_01"),
        ("result", "toolu_01"),
        ("call", "toolu_02"),
        ("result", "toolu_02"),
        ("call", "toolu_03"),
        ("result", "toolu_03"),
    ]
    assert t.steps[1].ok is False  # is_error
    assert "1 failed, 1 passed" in t.steps[1].output  # toolUseResult's stdout
    assert t.steps[0].arguments["command"] == "python -m pytest -q tests/test_dates.py"


def test_broken_lines_are_reported_and_the_rest_is_read() -> None:
    lines = [
        line("user", "Do the thing."),
        '{"type": "assistant", "message": {"content": [',  # cut off
        "not json at all",
        line("assistant", [{"type": "text", "text": "Done: the thing is done."}]),
    ]
    t = parse_claude_lines(lines, "s.jsonl")
    assert t.answer == "Done: the thing is done."
    assert [w.split(":")[0] for w in t.warnings] == ["line 2", "line 3"]


def test_unknown_fields_meta_and_system_lines_are_ignored() -> None:
    lines = [
        json.dumps({"type": "summary", "summary": "x", "leafUuid": "y"}),
        line("user", "<command-name>/clear</command-name>", isMeta=True),
        line("user", "Real request.", someNewField={"a": 1}),
        json.dumps({"type": "system", "content": "compacted"}),
        line(
            "assistant",
            [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Answer."}],
            costUSD=0.01,
        ),
    ]
    t = parse_claude_lines(lines)
    assert t.request == "Real request." and t.answer == "Answer."


def test_new_prompt_is_a_new_task_and_images_are_kept() -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    lines = [
        line(
            "user",
            [
                {"type": "text", "text": "First."},
                {
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": "image/png",
                        "data": base64.b64encode(png).decode(),
                    },
                },
            ],
        ),
        line("assistant", [{"type": "text", "text": "Did the first."}]),
        line("user", "Second."),
        line(
            "assistant",
            [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}],
        ),
        line("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py"}]),
        line("assistant", [{"type": "text", "text": "Did the second."}]),
    ]
    t = parse_claude_lines(lines)
    assert t.request == "First." and t.images == [("image-1.png", png)]
    assert [s.kind for s in t.steps] == ["user", "call", "result"]
    assert t.steps[0].text == "Second." and t.answer == "Did the second."


def test_subagent_tool_calls_count_but_its_text_does_not() -> None:
    lines = [
        line("user", "Go."),
        line(
            "assistant",
            [{"type": "tool_use", "id": "s1", "name": "Bash", "input": {"command": "pytest"}}],
            isSidechain=True,
        ),
        line(
            "user",
            [{"type": "tool_result", "tool_use_id": "s1", "content": "1 failed"}],
            isSidechain=True,
        ),
        line("assistant", [{"type": "text", "text": "subagent chatter"}], isSidechain=True),
        line("assistant", [{"type": "text", "text": "All done."}]),
    ]
    t = parse_claude_lines(lines)
    assert [s.call_id for s in t.steps] == ["s1", "s1"] and t.answer == "All done."


def test_a_run_that_ended_without_an_answer_is_still_read() -> None:
    """It is reviewed (the run ended mid-work), not refused."""
    transcript = parse_claude_lines([line("user", "Hi.")], "x.jsonl")
    assert (transcript.request, transcript.answer) == ("Hi.", "")


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        ([], "no user prompt"),
        (["garbage"], "no user prompt in the transcript (1 broken lines)"),
        (
            [
                line("user", "Hi."),
                line("assistant", [{"type": "text", "text": "Hello."}]),
                line("user", "And?"),
            ],
            "ends with a user message",
        ),
    ],
)
def test_unusable_transcripts(lines: list[str], problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        parse_claude_lines(lines, "x.jsonl")


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ({"stdout": "ok", "stderr": "warn", "interrupted": False}, ("ok\nwarn", None)),
        ({"stdout": "", "stderr": "boom", "exitCode": 2}, ("boom", 2)),
        ({"type": "text", "file": {"content": "file body"}}, ("file body", None)),
        ("plain text", ("plain text", None)),
        ({"content": [{"type": "text", "text": "x"}]}, ("x", None)),
    ],
)
def test_tool_output(response: object, expected: tuple[str, int | None]) -> None:
    assert tool_output(response) == expected


def test_hook_session_id() -> None:
    assert session_id_for({"session_id": "abc"}) == "claude-abc"
    with pytest.raises(InputError, match="no session_id"):
        session_id_for({})


def test_a_stops_event_id_tells_a_retry_from_a_new_stop(tmp_path) -> None:
    from donecheck.runtime.hooks import stop_event_id

    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type": "user"}\n')
    payload = {"session_id": "abc", "transcript_path": str(transcript), "stop_hook_active": False}
    first = stop_event_id(payload, "All tests pass.")
    assert stop_event_id(payload, "All tests pass.") == first  # the same hook, retried
    with transcript.open("a") as f:
        f.write('{"type": "assistant"}\n')  # the agent went on, then stopped again
    again = {**payload, "stop_hook_active": True}
    assert stop_event_id(again, "All tests pass.") != first  # same words, a new stop
    no_transcript = {"session_id": "abc"}
    assert stop_event_id(no_transcript, "x") != stop_event_id(no_transcript, "x")
