"""mini-SWE-agent trajectories, read on public SWE-bench runs nobody here wrote
(``tests/clients/public/swebench-mini-gemini3/``, cited in its ``SOURCES.md``): each
reply's one ``bash`` block is a call, the next message's ``<returncode>``/``<output>``
its result, the task is the ``<pr_description>``, and the answer is what the agent
said as it submitted."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.detect import detect_form, load_transcript
from donecheck.runtime.transcripts.miniswe import parse_mini_swe_agent

FOLDER = Path(__file__).resolve().parents[1] / "clients" / "public" / "swebench-mini-gemini3"
RUNS = sorted(FOLDER.glob("*/*.traj.json"))


def _data(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.parent.name)
def test_a_published_trajectory_reads_as_its_run(path: Path) -> None:
    assert detect_form(path.read_text(encoding="utf-8"))[0] == "mini-swe-agent"
    transcript = load_transcript(path)
    data = _data(path)
    replies = [m for m in data["messages"] if m["role"] == "assistant"]
    calls = [s for s in transcript.steps if s.kind == "call"]
    results = [s for s in transcript.steps if s.kind == "result"]
    assert transcript.form == "mini-swe-agent"
    refused = [
        m for m in data["messages"] if m["role"] == "user" and "EXACTLY ONE action" in m["content"]
    ]
    # one command a reply, each answered — but for a reply the harness refused
    assert len(calls) == len(replies) - len(refused) == len(results)
    assert calls[-1].arguments["command"].startswith("echo COMPLETE_TASK_AND_SUBMIT")  # type: ignore[index]
    assert results[-1].exit_code == 0 and results[-1].output.startswith("diff --git")
    # every result has its command's status — but a command the harness killed on its
    # timeout, which has none and failed
    timed_out = [r for r in results if r.exit_code is None]
    assert all(r.ok is False and "timed out and has been killed" in r.output for r in timed_out)
    assert len(timed_out) == sum(
        "timed out and has been killed" in m["content"]
        for m in data["messages"]
        if m["role"] == "user"
    )
    # the task, without the harness's instructions around it
    assert "<instructions>" not in transcript.request and "PR description" in transcript.request
    assert transcript.answer and "THOUGHT" not in transcript.answer
    assert any("were not read as requirements" in note for note in transcript.notes)


def test_the_output_and_the_exit_status_are_the_harnesss() -> None:
    path = FOLDER / "django__django-9296" / "django__django-9296.traj.json"
    transcript = load_transcript(path)
    runs = {
        s.call_id: s
        for s in transcript.steps
        if s.kind == "result" and s.call_id.startswith("call")
    }
    calls = [s for s in transcript.steps if s.kind == "call"]
    tests = [c for c in calls if "runtests.py pagination" in str(c.arguments)]
    assert len(tests) == 2
    for call in tests:
        result = runs[call.call_id]
        assert result.exit_code == 0 and "OK" in result.output
        assert "<output>" not in result.output and "<returncode>" not in result.output


def test_a_long_output_keeps_its_head_and_tail() -> None:
    path = FOLDER / "django__django-9296" / "django__django-9296.traj.json"
    transcript = load_transcript(path)
    first = next(s for s in transcript.steps if s.kind == "result")  # `ls -R`, elided
    assert "[…]" in first.output and "<output_head>" not in first.output


def test_a_run_the_harness_cut_off_has_no_answer() -> None:
    data = copy.deepcopy(_data(RUNS[0]))
    data["info"]["exit_status"] = "LimitsExceeded"
    transcript = parse_mini_swe_agent(data, "cut.traj.json")
    assert transcript.answer == ""
    assert any("LimitsExceeded" in note for note in transcript.notes)


def test_a_reply_with_no_single_command_runs_nothing() -> None:
    """The harness answers a reply with no (or two) ``bash`` blocks with a format error:
    no call, and the error is no result."""
    data = copy.deepcopy(_data(RUNS[0]))
    n = next(i for i, m in enumerate(data["messages"]) if m["role"] == "assistant")
    data["messages"][n + 2 : n + 2] = [
        {"role": "assistant", "content": "THOUGHT: let me think about it first."},
        {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks"},
    ]
    before = parse_mini_swe_agent(_data(RUNS[0]))
    after = parse_mini_swe_agent(data)
    assert [(s.kind, s.output) for s in after.steps] == [(s.kind, s.output) for s in before.steps]


def test_what_is_no_trajectory_is_refused() -> None:
    with pytest.raises(TranscriptError, match="not a mini-SWE-agent trajectory"):
        parse_mini_swe_agent({"messages": []})
    with pytest.raises(TranscriptError, match="no task"):
        parse_mini_swe_agent({"trajectory_format": "mini-swe-agent-1", "messages": []})
