"""Results paired with their calls as providers write them: repeated or missing ids,
parallel calls, results out of order, legacy and Anthropic forms."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from donecheck.runtime.transcripts.openai import Transcript, parse_openai


def pairs(transcript: Transcript) -> set[tuple[str, str, str]]:
    """(tool, arguments, output) for every result, through the ids the reader gave."""
    calls = {s.call_id: s for s in transcript.steps if s.kind == "call"}
    found = set()
    for step in transcript.steps:
        if step.kind == "result":
            call = calls[step.call_id]
            found.add((call.name, json.dumps(call.arguments, sort_keys=True), step.output))
    return found


def call(call_id: str | None, command: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "function",
        "function": {"name": "bash", "arguments": json.dumps({"command": command})},
    }
    if call_id is not None:
        item["id"] = call_id
    return item


def test_ids_restarting_in_every_message_pair_with_their_own_message() -> None:
    """The measured failure: the second `call_0` result went to the first call, and the
    failing pytest run was left without a result."""
    data = [
        {"role": "user", "content": "Fix add() and make sure pytest passes."},
        {"role": "assistant", "content": None, "tool_calls": [call("call_0", "cat calc.py")]},
        {"role": "tool", "tool_call_id": "call_0", "content": "def add(a, b): ..."},
        {"role": "assistant", "content": None, "tool_calls": [call("call_0", "pytest -q")]},
        {"role": "tool", "tool_call_id": "call_0", "content": "=== 1 failed in 0.1s ==="},
        {"role": "assistant", "content": "All tests pass now."},
    ]
    t = parse_openai(data)
    assert pairs(t) == {
        ("bash", '{"command": "cat calc.py"}', "def add(a, b): ..."),
        ("bash", '{"command": "pytest -q"}', "=== 1 failed in 0.1s ==="),
    }
    assert len({s.call_id for s in t.steps if s.kind == "call"}) == 2  # unique now
    assert t.warnings == []


def test_parallel_calls_answered_out_of_order() -> None:
    data = [
        {"role": "user", "content": "Run both."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [call("a", "ruff check ."), call("b", "pytest -q")],
        },
        {"role": "tool", "tool_call_id": "b", "content": "3 passed"},
        {"role": "tool", "tool_call_id": "a", "content": "All checks passed!"},
        {"role": "assistant", "content": "Both pass."},
    ]
    assert pairs(parse_openai(data)) == {
        ("bash", '{"command": "ruff check ."}', "All checks passed!"),
        ("bash", '{"command": "pytest -q"}', "3 passed"),
    }


def test_missing_ids_pair_by_position() -> None:
    data = [
        {"role": "user", "content": "Run both."},
        {"role": "assistant", "content": None, "tool_calls": [call(None, "ls"), call(None, "pwd")]},
        {"role": "tool", "content": "a.py"},
        {"role": "tool", "content": "/work"},
        {"role": "assistant", "content": "Listed."},
    ]
    assert pairs(parse_openai(data)) == {
        ("bash", '{"command": "ls"}', "a.py"),
        ("bash", '{"command": "pwd"}', "/work"),
    }


def test_tool_content_as_parts() -> None:
    data = [
        {"role": "user", "content": "Run it."},
        {"role": "assistant", "content": None, "tool_calls": [call("x", "pytest")]},
        {
            "role": "tool",
            "tool_call_id": "x",
            "content": [{"type": "text", "text": "1 failed"}, {"type": "text", "text": "exit 1"}],
        },
        {"role": "assistant", "content": "Done."},
    ]
    assert pairs(parse_openai(data)) == {("bash", '{"command": "pytest"}', "1 failed\nexit 1")}


def test_the_anthropic_messages_form() -> None:
    data = {
        "system": "You are a coding agent.",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Fix add() and run the tests."},
                    {
                        "type": "document",
                        "title": "spec.txt",
                        "source": {"type": "base64", "media_type": "text/plain", "data": "aGk="},
                    },
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Running them."},
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "bash",
                        "input": {"command": "pytest"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [{"type": "text", "text": "1 failed"}],
                        "is_error": True,
                    }
                ],
            },
            {"role": "assistant", "content": [{"type": "text", "text": "All tests pass."}]},
        ],
    }
    t = parse_openai(data)
    assert t.request == "Fix add() and run the tests."
    assert t.attachments == [("spec.txt", b"hi")]
    assert pairs(t) == {("bash", '{"command": "pytest"}', "1 failed")}
    (result,) = [s for s in t.steps if s.kind == "result"]
    assert result.ok is False  # is_error
    assert t.answer == "All tests pass."
    assert not [s for s in t.steps if s.kind == "user"]  # a results turn is not a new request


# ----------------------------------------------------------------- the property

turn = st.lists(st.sampled_from(["ls", "pwd", "pytest -q", "ruff check .", "cat a.py"]),
                min_size=1, max_size=3)  # fmt: skip


@settings(max_examples=300)
@given(st.lists(turn, min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_renaming_ids_so_they_repeat_never_changes_the_pairing(
    turns: list[list[str]], random: Any
) -> None:
    """A well-ordered transcript (each turn's results follow it, in any order) pairs
    the same whether its ids are unique, restart at call_0 in every message, or are
    missing altogether (then results come in call order)."""

    def transcript(style: str) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Do the work."}]
        n = 0
        for t, commands in enumerate(turns):
            ids = []
            for i, _ in enumerate(commands):
                n += 1
                ids.append({"unique": f"id{n}", "repeat": f"call_{i}", "missing": None}[style])
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        call(ids[i], f"{command} #{t}.{i}") for i, command in enumerate(commands)
                    ],
                }
            )
            order = list(range(len(commands)))
            if style != "missing":
                random.shuffle(order)  # results may come back in any order
            for i in order:
                result: dict[str, Any] = {"role": "tool", "content": f"output of {t}.{i}"}
                if ids[i] is not None:
                    result["tool_call_id"] = ids[i]
                messages.append(result)
        messages.append({"role": "assistant", "content": "Finished."})
        return messages

    unique = pairs(parse_openai(transcript("unique")))
    assert len(unique) == sum(len(c) for c in turns)
    assert pairs(parse_openai(transcript("repeat"))) == unique
    assert pairs(parse_openai(transcript("missing"))) == unique
