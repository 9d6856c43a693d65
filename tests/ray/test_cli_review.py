"""``donecheck review`` on the bundled examples: in process (the default, no Ray) and
through the shared Ray deployment (``--address``), with the same verdicts; and as a
fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from donecheck.runtime import DoneCheck
from donecheck.runtime.cli import main
from tests.ray.conftest import NAMESPACE
from tests.support.env import child_env

pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EXPECTED = {
    "pass_fix_then_verify.json": "pass",
    "pass_failed_then_fixed.json": "pass",
    "pass_with_attachment.json": "pass",
    "need_fix_claims_pass_but_failed.json": "need_fix",
    "need_fix_zh_lint_failed.json": "need_fix",
    "need_evidence_never_ran_tests.json": "need_evidence",
    "skipped_short_answer.json": "skipped",
    "claude_code_need_fix.jsonl": "need_fix",
}


def _cards(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return {line["session"]: line for line in lines}


def _same_verdict(card: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on where the actors ran (ids and timings may)."""
    return {
        "decision": card["decision"],
        "end_reason": card.get("end_reason"),
        "findings": [(f["judged_by"], f["evidence"], f["problem"]) for f in card["findings"]],
        "acceptance": [(a["status"], a["evidence"]) for a in card["acceptance"]],
        "cited": card["cited"],
    }


def test_review_examples_json_same_in_process_and_through_ray(
    dc: DoneCheck,
    ray_address: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["review", "--json", str(EXAMPLES)]) == 0  # in process: no Ray
    local = _cards(capsys)
    monkeypatch.setenv("DONECHECK_NAMESPACE", NAMESPACE)  # attach to the shared deployment
    assert main(["review", "--json", "--address", ray_address, str(EXAMPLES)]) == 0
    through_ray = _cards(capsys)
    assert {name: card["decision"] for name, card in local.items()} == EXPECTED
    assert {n: _same_verdict(c) for n, c in local.items()} == {
        n: _same_verdict(c) for n, c in through_ray.items()
    }
    lines = list(local.values())
    need_fix = next(x for x in lines if x["session"] == "need_fix_claims_pass_but_failed.json")
    (finding,) = need_fix["findings"]
    assert finding["evidence"] == ["E7"]
    assert "1 failed, 2 passed" in finding["problem"]
    assert "1 failed, 2 passed" in need_fix["cited"]["E7"]


def test_review_text_and_a_malformed_file(
    dc: DoneCheck,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DONECHECK_NAMESPACE", NAMESPACE)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"role": "user", "content": "hi"}, {"role": "assistant"')
    good = EXAMPLES / "transcripts" / "need_fix_claims_pass_but_failed.json"
    assert main(["review", str(broken), str(good)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        f"donecheck: error: {broken}:1: invalid JSON: Expecting ',' delimiter (column 57)"
    )
    assert captured.out.startswith("need_fix      need_fix_claims_pass_but_failed.json")
    assert "evidence E7: `python -m pytest -q` → exit 1" in captured.out


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("donecheck")
    return [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]


def test_a_fresh_process_reviews_in_process_quietly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    env = child_env(tmp_path)
    done = subprocess.run(
        [*_cli(), "review", "--json", str(EXAMPLES), str(broken)],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    # stderr holds exactly our one-line error: no Ray log noise
    assert done.stderr.splitlines() == [
        f"donecheck: error: {broken}: not a transcript: expected "
        '{"messages": [...]}, a list of chat messages, an ATIF trajectory, or JSON '
        "Lines (a Claude Code session or stream-json, a Codex rollout or exec --json "
        "events, a Gemini CLI chat log, a Copilot CLI events.jsonl, an OpenCode export or "
        "run --format json, a mini-SWE-agent trajectory, or one chat message per line)"
    ]
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    decisions = {row["session"]: row["decision"] for row in rows}
    # the file it could not read has its row too, so a JSON consumer loses nothing
    assert decisions == {**EXPECTED, str(broken): None}
    (error,) = [row["error"] for row in rows if row["session"] == str(broken)]
    assert error.startswith(f"{broken}: not a transcript")
