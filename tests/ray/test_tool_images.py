"""Images a tool returned, through the real actors: parsed on the parser pool into
materials of origin ``tool`` and shown to an image-capable judge (the scripted
provider on 127.0.0.1) beside the result they came from — from the session API and
from a replayed transcript."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator

import pytest
import ray

from donecheck.actors.messages import MaterialRecorded, ViewRequest
from donecheck.runtime import DoneCheck
from donecheck.runtime.replay import review_transcript
from donecheck.runtime.testing.scripted import (
    PASS_VERDICT,
    RecordedRequest,
    Reply,
    ScriptedProvider,
    preanalysis_text,
)
from donecheck.runtime.transcripts.openai import parse_openai
from tests.support import samples

pytestmark = pytest.mark.ray

NAMESPACE = "donecheck-tool-images-test"
SHOT = samples.image(seed=5, text=False).data


def judge_reply(request: RecordedRequest) -> Reply:
    return Reply(content=preanalysis_text() if request.is_preanalysis else PASS_VERDICT)


@pytest.fixture(scope="module")
def judge() -> Iterator[ScriptedProvider]:
    with ScriptedProvider(responder=judge_reply) as server:
        yield server


@pytest.fixture(scope="module")
def seeing(
    ray_address: str, judge: ScriptedProvider, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DoneCheck]:
    app = DoneCheck.start(
        namespace=NAMESPACE,
        data_dir=tmp_path_factory.mktemp("tool-images"),
        judge_base_url=judge.url,
        judge_model="scripted",
        judge_modalities=("text", "image"),
        ledger_shards=1,
        controller_shards=1,
        parser_actors=1,
    )
    yield app
    app.shutdown()


def _image_labels(request: RecordedRequest) -> list[str]:
    """The text part before each image of a review request."""
    parts = request.messages[1]["content"]
    assert isinstance(parts, list), "no image reached the judge"
    return [parts[i - 1]["text"] for i, part in enumerate(parts) if part["type"] == "image_url"]


def _last_review(judge: ScriptedProvider, since: int) -> RecordedRequest:
    reviews = [r for r in judge.requests[since:] if not r.is_preanalysis]
    assert reviews, "the judge was not asked to review"
    return reviews[-1]


def test_a_screenshot_from_the_session_api_reaches_the_judge_as_the_tools(
    seeing: DoneCheck, judge: ScriptedProvider
) -> None:
    before = len(judge.requests)
    with seeing.open_session("Make the page header blue and check it in the browser.") as s:
        s.tool_call("write_file", {"path": "page.css", "content": "h1{color:blue}"}, call_id="w")
        s.tool_result("w", "wrote page.css", ok=True)
        s.tool_call("screenshot", {"url": "http://localhost:8000"}, call_id="shot")
        s.tool_result("shot", "Screenshot of http://localhost:8000", ok=True, images=[SHOT])
        s.turn_stopping("The header is blue now: I changed page.css and checked the page.")
        view = ray.get(
            seeing.deployment.ledger_for(s.session_id).view.remote(
                ViewRequest(session_id=s.session_id)
            )
        )
    (recorded,) = [e.event for e in view.entries if isinstance(e.event, MaterialRecorded)]
    assert recorded.material.origin == "tool" and recorded.material.call_id == "shot"
    assert recorded.material.status in {"parsed", "partial"}
    (label,) = _image_labels(_last_review(judge, before))
    assert "an image the agent's tool returned in E" in label
    assert "(`screenshot" in label
    assert "The text of that result: «Screenshot of http://localhost:8000»" in label
    assert "the user's" not in label


def test_an_image_in_a_replayed_tool_result_reaches_the_judge(
    seeing: DoneCheck, judge: ScriptedProvider
) -> None:
    shot = base64.b64encode(SHOT).decode()
    transcript = parse_openai(
        [
            {"role": "user", "content": "Fix the header color and look at the page."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_9", "name": "browser", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_9",
                        "content": [
                            {"type": "text", "text": "page captured"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": shot,
                                },
                            },
                        ],
                    }
                ],
            },
            {"role": "assistant", "content": "I looked at the page: the header is blue."},
        ],
        "anthropic.json",
    )
    before = len(judge.requests)
    outcome = asyncio.run(review_transcript(seeing, transcript))
    assert outcome.decision in {"pass", "need_evidence", "need_fix"}
    (label,) = _image_labels(_last_review(judge, before))
    assert "toolu_9-image-1.png, an image the agent's tool returned in E" in label
    assert "«page captured [image]»" in label
