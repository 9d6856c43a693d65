from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.openai import load_openai, parse_openai

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "transcripts"


def call(i: str, name: str, args: object) -> dict:
    return {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


BASIC = [
    {"role": "system", "content": "be careful"},
    {"role": "user", "content": "Fix calc.py"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("c1", "bash", {"command": "pytest"})],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "1 failed in 0.1s\nExit code: 1"},
    {"role": "assistant", "content": "Done, all tests pass."},
]


def test_basic_shape_both_forms() -> None:
    for data in (BASIC, {"messages": BASIC}):
        t = parse_openai(data, "t.json")
        assert t.request == "Fix calc.py"
        assert t.answer == "Done, all tests pass."
        assert [(s.kind, s.call_id) for s in t.steps] == [("call", "c1"), ("result", "c1")]
        assert t.steps[0].arguments == {"command": "pytest"}
        assert t.steps[1].output.endswith("Exit code: 1")


def test_parts_images_and_files() -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    pdf = b"%PDF-1.4 fake"
    data = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "See the screenshot and spec."},
                {
                    "type": "image_url",
                    "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()},
                },
                {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                {
                    "type": "file",
                    "file": {
                        "filename": "spec.pdf",
                        "file_data": "data:application/pdf;base64,"
                        + base64.b64encode(pdf).decode(),
                    },
                },
                {
                    "type": "file",
                    "file": {"filename": "raw.txt", "file_data": base64.b64encode(b"raw").decode()},
                },
                {"type": "file", "file": {"file_id": "file-123"}},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Answer."}]},
    ]
    t = parse_openai(data, "t.json")
    assert t.request == "See the screenshot and spec."
    assert t.images == [("image-1.png", png)]
    assert t.attachments == [("spec.pdf", pdf), ("raw.txt", b"raw")]
    assert any("not fetched" in w for w in t.warnings)
    assert any("file-123" in w for w in t.warnings)
    assert t.answer == "Answer."


def test_later_user_message_is_a_new_task_and_user_user_joins() -> None:
    data = [
        {"role": "user", "content": "part one"},
        {"role": "user", "content": "part two"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "now something else"},
        {"role": "assistant", "content": "final"},
    ]
    t = parse_openai(data)
    assert t.request == "part one\n\npart two"
    assert [(s.kind, s.text) for s in t.steps] == [("user", "now something else")]


def test_legacy_function_call() -> None:
    data = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "bash", "arguments": '{"command": "make test"}'},
        },
        {"role": "function", "name": "bash", "content": "exit status 2"},
        {"role": "assistant", "content": "done"},
    ]
    t = parse_openai(data)
    assert [(s.kind, s.call_id) for s in t.steps] == [("call", "legacy-2"), ("result", "legacy-2")]


def test_bad_arguments_are_kept_as_text_with_a_warning() -> None:
    data = [
        BASIC[1],
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "function": {"name": "bash", "arguments": "{not json"}}],
        },
        {"role": "tool", "tool_call_id": "c", "content": "x"},
        {"role": "assistant", "content": "done"},
    ]
    t = parse_openai(data)
    assert t.steps[0].arguments == "{not json"
    assert "not valid JSON" in t.warnings[0]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"msgs": []}, 'expected a list of messages or {"messages": [...]}'),
        ({"messages": "x"}, "messages must be a list"),
        ([], "no messages"),
        (["hello"], "message 1 is a str, not an object"),
        ([{"content": "x"}], "message 1 has no role"),
        ([{"role": "robot", "content": "x"}], "unknown role"),
        ([{"role": "assistant", "content": "x"}], "comes before any user message"),
        ([{"role": "system", "content": "x"}], "no user message"),
        ([{"role": "user", "content": "x"}], "no assistant message"),
        (
            [
                {"role": "user", "content": "x"},
                {"role": "assistant", "content": "y"},
                {"role": "user", "content": "z"},
            ],
            "ends with a user message",
        ),
        (
            [{"role": "user", "content": 5}, {"role": "assistant", "content": "x"}],
            "content must be a string or a list of parts",
        ),
        (
            [
                {"role": "user", "content": "x"},
                {"role": "assistant", "content": None, "tool_calls": [call("c", "bash", {})]},
            ],
            "ends with tool calls",
        ),
        (
            [
                {"role": "user", "content": "x"},
                {"role": "assistant", "tool_calls": [{"id": "c", "function": {}}]},
            ],
            "tool_calls[0] has no function name",
        ),
        (
            [
                {"role": "user", "content": "x"},
                {"role": "tool", "content": "y"},
                {"role": "assistant", "content": "z"},
            ],
            "tool_call_id is missing",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "file", "file": {"filename": "a", "file_data": "!!notb64!!"}}
                    ],
                },
                {"role": "assistant", "content": "z"},
            ],
            "not valid base64",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [{"type": "image_url", "image_url": {"url": "data:xx"}}],
                },
                {"role": "assistant", "content": "z"},
            ],
            "malformed data URL",
        ),
    ],
)
def test_malformed_transcripts_say_what_is_wrong(data: object, problem: str) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_openai(data, "bad.json")
    assert problem in str(info.value)
    assert str(info.value).startswith("bad.json")


def test_load_reports_json_errors_with_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"messages": [\n  {"role": "user",\n  "content": "x"\n  oops\n]}')
    with pytest.raises(TranscriptError, match=r"bad.json:4: invalid JSON"):
        load_openai(bad)
    with pytest.raises(TranscriptError, match="no such file"):
        load_openai(tmp_path / "missing.json")
    empty = tmp_path / "empty.json"
    empty.write_text("  \n")
    with pytest.raises(TranscriptError, match="file is empty"):
        load_openai(empty)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'["\xe9"]')
    with pytest.raises(TranscriptError, match="not UTF-8"):
        load_openai(latin)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_bundled_examples_load(path: Path) -> None:
    t = load_openai(path)
    assert t.request and t.answer


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "role",
                    "content",
                    "tool_calls",
                    "tool_call_id",
                    "id",
                    "function",
                    "name",
                    "arguments",
                    "type",
                    "text",
                    "messages",
                    "image_url",
                    "url",
                    "file",
                    "file_data",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=30,
)
_role = st.sampled_from(["user", "assistant", "tool", "system", "function", "x"])


@given(
    st.lists(
        st.fixed_dictionaries(
            {"role": _role},
            optional={
                "content": _json,
                "tool_calls": _json,
                "tool_call_id": _json,
                "function_call": _json,
            },
        ),
        max_size=8,
    )
    | _json
)
def test_hostile_transcripts_only_raise_transcript_error(data: object) -> None:
    try:
        parse_openai(data, "fuzz.json")
    except TranscriptError:
        pass


def test_part_with_a_non_string_type_is_ignored_with_a_warning() -> None:
    # found by the hypothesis test above: {"type": []} once raised TypeError
    data = [
        {"role": "user", "content": [{"type": []}, {"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": "answer"},
    ]
    transcript = parse_openai(data)
    assert transcript.request == "hi"
    assert "content[0] has no type" in transcript.warnings[0]


def test_a_path_that_is_no_file_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO, a dangling link and a loop of links were all "does not exist"."""
    import os

    from donecheck.runtime.cli import main
    from donecheck.runtime.transcripts.openai import read_transcript_text

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    (tmp_path / "gone.json").symlink_to(tmp_path / "nothing.json")
    expected = {
        "pipe.json": "not a regular file (a FIFO)",
        "a.json": "a loop of symbolic links",
        "gone.json": "a symbolic link to",
        "missing.json": "no such file",
    }
    for name, said in expected.items():
        with pytest.raises(TranscriptError, match=re.escape(said)):
            read_transcript_text(tmp_path / name)
        main(["review", str(tmp_path / name), "--data-dir", str(tmp_path / "d")])
        assert said in capsys.readouterr().err, name


# ------------------------------------------- an answer given through a tool (issue 35)


def _ends_with(name: str, arguments: dict[str, str], text: str = "") -> dict[str, object]:
    return {
        "messages": [
            {"role": "user", "content": "Fix add() in calc.py and run the tests."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {
                            "name": "execute_command",
                            "arguments": json.dumps({"command": "pytest -q"}),
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "1 failed, 3 passed in 0.1s"},
            {
                "role": "assistant",
                "content": text or None,
                "tool_calls": [
                    {
                        "id": "c2",
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(arguments)},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c2", "content": "The user accepted the result."},
        ]
    }


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("attempt_completion", {"result": "Fixed add(); all tests pass."}),  # Roo Code, Cline
        ("complete_task", {"result": "Fixed add(); all tests pass."}),  # Gemini CLI
        ("finish", {"message": "Fixed add(); all tests pass."}),  # OpenHands
    ],
)
def test_a_final_tool_call_that_carries_the_answer_is_the_answer(
    name: str, arguments: dict[str, str]
) -> None:
    transcript = parse_openai(_ends_with(name, arguments))
    assert transcript.answer == "Fixed add(); all tests pass."


def test_text_beside_the_answering_call_is_kept_with_it() -> None:
    transcript = parse_openai(
        _ends_with("attempt_completion", {"result": "All tests pass."}, text="Done.")
    )
    assert transcript.answer == "Done.\n\nAll tests pass."


def test_a_run_that_ends_with_any_other_tool_call_has_no_answer() -> None:
    with pytest.raises(TranscriptError, match="ends with tool calls"):
        parse_openai(_ends_with("read_file", {"path": "calc.py"}))
