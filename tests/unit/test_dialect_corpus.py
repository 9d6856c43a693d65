"""The labelled corpus, every session rewritten into every agent's tool dialect by the
dialect table (:mod:`tests.support.dialects`): no decision moves (issue 33).

``test_cli_eval.py`` checks each session's decision against its label; this checks
that the decision is the same whichever agent's tools the session's calls use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.actors.errors import TranscriptError
from donecheck.runtime import DoneCheck
from donecheck.runtime.replay import review_transcript
from donecheck.runtime.transcripts.detect import load_transcript
from donecheck.runtime.transcripts.openai import Transcript
from tests.support.dialects import REWRITE_AGENTS, rewrite_transcript

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
_CONCURRENCY = 16


def _transcripts() -> list[Transcript]:
    found = []
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix not in {".json", ".jsonl", ".transcript"}:
            continue
        try:
            found.append(load_transcript(path))
        except TranscriptError:
            continue  # expected.json and the like
    return found


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    dc = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("data"), parser_actors=1)
    yield dc
    dc.shutdown()


@pytest.mark.timeout(600)
def test_no_corpus_decision_depends_on_the_agent_dialect(local: DoneCheck) -> None:
    transcripts = _transcripts()
    assert len(transcripts) > 600

    async def decide_all() -> list[tuple[str, str, str | None, str | None]]:
        gate = asyncio.Semaphore(_CONCURRENCY)

        async def decide(transcript: Transcript) -> str | None:
            async with gate:
                return (await review_transcript(local, transcript)).decision

        async def one(transcript: Transcript) -> list[tuple[str, str, str | None, str | None]]:
            base = await decide(transcript)
            rewritten = [rewrite_transcript(transcript, agent) for agent in REWRITE_AGENTS]
            decided = await asyncio.gather(*(decide(t) for t in rewritten))
            name = Path(transcript.source).name
            return [
                (name, agent, base, d)
                for agent, d in zip(REWRITE_AGENTS, decided, strict=True)
                if d != base
            ]

        moved = await asyncio.gather(*(one(t) for t in transcripts))
        return [row for rows in moved for row in rows]

    moved = asyncio.run(decide_all())
    assert moved == [], moved[:20]
