"""Images in tool results, as each provider writes them: kept with the result they
came from (never taken for the user's images), and named after its call."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from donecheck.runtime.replay import ToolImages, replay_events, tool_image_refs
from donecheck.runtime.transcripts.claude import parse_claude_lines, response_images
from donecheck.runtime.transcripts.openai import Transcript, parse_openai

PNG = b"\x89PNG\r\n\x1a\nscreenshot"
B64 = base64.b64encode(PNG).decode()
ANTHROPIC_IMAGE = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": B64},
}
CALL = {"command": "screenshot http://localhost:8000"}
USE = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": CALL}


def openai_form() -> Transcript:
    return parse_openai(
        [
            {"role": "user", "content": "Make the header blue."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {"name": "bash", "arguments": json.dumps(CALL)},
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "call_0",
                "content": [
                    {"type": "text", "text": "saved shot.png"},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{B64}"}},
                ],
            },
            {"role": "assistant", "content": "The header is blue."},
        ],
        "openai.json",
    )


def anthropic_form() -> Transcript:
    return parse_openai(
        [
            {"role": "user", "content": "Make the header blue."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": CALL}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": [{"type": "text", "text": "saved shot.png"}, ANTHROPIC_IMAGE],
                    }
                ],
            },
            {"role": "assistant", "content": "The header is blue."},
        ],
        "anthropic.json",
    )


def _line(kind: str, content: Any) -> str:
    return json.dumps({"type": kind, "message": {"role": kind, "content": content}})


def claude_code_form() -> Transcript:
    return parse_claude_lines(
        [
            _line("user", "Make the header blue."),
            _line("assistant", [USE]),
            _line(
                "user",
                [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": [{"type": "text", "text": "saved shot.png"}, ANTHROPIC_IMAGE],
                    }
                ],
            ),
            _line("assistant", [{"type": "text", "text": "The header is blue."}]),
        ],
        "claude.jsonl",
    )


@pytest.mark.parametrize("read", [openai_form, anthropic_form, claude_code_form])
def test_a_tool_results_image_stays_with_its_result(read: Any) -> None:
    transcript = read()
    assert transcript.images == []  # never taken for the user's images
    (result,) = [s for s in transcript.steps if s.kind == "result"]
    assert len(result.images) == 1
    name, data = result.images[0]
    assert data == PNG
    assert name == f"{result.call_id}-image-1.png"
    assert "saved shot.png" in result.output and "[image]" in result.output


@pytest.mark.parametrize("read", [openai_form, anthropic_form, claude_code_form])
def test_replay_hands_the_images_over_before_the_result_that_cites_them(read: Any) -> None:
    transcript = read()

    class _Recorder:
        """Builds events like a session does (no Ray: ``replay_events`` only builds)."""

        def tool_call_event(self, *args: Any, **kwargs: Any) -> tuple[str, Any]:
            return ("call", args)

        def tool_result_event(self, *args: Any, **kwargs: Any) -> tuple[str, Any]:
            return ("result", kwargs["images"])

    items = list(replay_events(_Recorder(), transcript))  # type: ignore[arg-type]
    images = [i for i in items if isinstance(i, ToolImages)]
    assert len(images) == 1 and images[0].images[0][1] == PNG
    assert items.index(images[0]) == 0  # before the batch holding the result
    (batch,) = [i for i in items if isinstance(i, list)]
    (refs,) = [payload for kind, payload in batch if kind == "result"]  # type: ignore[misc]
    assert refs == tool_image_refs(images[0].images)
    assert refs[0].media_type == "image/png" and refs[0].size == len(PNG)


def test_an_image_link_in_a_tool_result_is_noted_not_fetched() -> None:
    transcript = parse_openai(
        [
            {"role": "user", "content": "Look."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "shot", "arguments": "{}"}}
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c",
                "content": [{"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}],
            },
            {"role": "assistant", "content": "Looked."},
        ],
        "t.json",
    )
    (result,) = [s for s in transcript.steps if s.kind == "result"]
    assert result.images == ()
    assert any("is a link; not fetched" in w for w in transcript.warnings)


def test_images_in_a_tools_structured_result_are_found() -> None:
    read = {"type": "image", "file": {"base64": B64, "type": "image/jpeg", "originalSize": 9}}
    assert response_images(read) == [("jpeg", PNG)]
    mcp = {"content": [{"type": "text", "text": "shot"}, ANTHROPIC_IMAGE]}
    assert response_images(mcp) == [("png", PNG)]
    assert response_images([ANTHROPIC_IMAGE, ANTHROPIC_IMAGE]) == [("png", PNG)] * 2
    broken = {"type": "image", "file": {"base64": "%%% not base64", "type": "image/png"}}
    assert response_images(broken) == []
    assert response_images({"stdout": "ok"}) == [] and response_images("text") == []
