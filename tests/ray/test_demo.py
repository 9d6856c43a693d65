"""The whole loop with a real tool-using agent: real files, real commands, real actors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from donecheck.actors.messages import Deliver
from donecheck.runtime.cli import main
from donecheck.runtime.demo import run_demo
from tests.ray.conftest import NAMESPACE
from tests.support.env import child_env

pytestmark = pytest.mark.ray

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_agent_fixes_the_real_file_in_round_one(ray_address: str, tmp_path: Path) -> None:
    steps: list[str] = []
    result = run_demo(
        tmp_path / "ws", on_step=steps.append, namespace="demo-test", data_dir=tmp_path / "data"
    )
    assert isinstance(result.action, Deliver)
    card = result.report
    assert [f"{c.label} {c.decision}" for c in card.chain] == ["A1 need_fix", "A2 pass"]
    assert card.rounds_used == 1 and card.end_reason == "pass"
    # the steer reached the same conversation, marked as DoneCheck's
    steer = [m for m in result.messages if m["role"] == "user" and "from DoneCheck" in m["content"]]
    assert len(steer) == 1 and "FAILED (errors=1)" in steer[0]["content"]
    # the file really changed and the real tests really pass now
    assert "raise ValueError" in (tmp_path / "ws" / "calc.py").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "unittest", "test_calc"],
        cwd=tmp_path / "ws",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert card.usage is not None and card.usage.main_calls == result.model_calls == 7
    assert any(line.startswith("DoneCheck steers (round 1)") for line in steps)


def test_donecheck_demo_from_a_fresh_process(tmp_path: Path) -> None:
    env = child_env(tmp_path)
    script = Path(sys.executable).with_name("donecheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]
    done = subprocess.run([*command, "demo"], capture_output=True, text=True, timeout=240, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "DoneCheck steers (round 1)" in done.stdout
    assert "chain: A1 need_fix → A2 pass" in done.stdout
    assert "rounds: 1 of 2" in done.stdout
    assert "cost N + 2 + R = 7 + 2 + 1 = 10 calls" in done.stdout  # the recheck counts
    assert "rules-only reviews cost nothing" in done.stdout
    # progress from the first second, on stderr; the verdict explained in plain words
    assert done.stderr.startswith("donecheck demo: starting"), done.stderr[:300]
    assert "DoneCheck is up (" in done.stderr
    assert "What happened:" in done.stdout and "'not verified'" in done.stdout


def test_report_writes_one_self_contained_page(
    dc: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DONECHECK_NAMESPACE", NAMESPACE)
    page = tmp_path / "report.html"
    assert main(["report", str(EXAMPLES), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {page} (8 report card(s))" in out
    text = page.read_text()
    assert text.startswith("<!doctype html>") and "<script" not in text
    assert "need_fix_claims_pass_but_failed.json" in text
    assert "judgement by rule failed_check" in text
    assert "1 failed, 2 passed" in text


def test_an_embedded_instance_runs_the_actors_at_normal_priority(tmp_path: Path) -> None:
    # Ray starts workers at niceness 15; DoneCheck's actors then wait behind the host
    env = child_env(tmp_path)
    script = (
        "import json, sys\n"
        "from donecheck.runtime import DoneCheck\n"
        "dc = DoneCheck.start(data_dir=sys.argv[1], num_cpus=1)\n"
        "stats = dc.statistics()\n"
        "print(json.dumps({k: v['nice'] for k, v in stats.items() if 'nice' in v}))\n"
        "dc.shutdown()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    nice = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"ledger-0", "controller-0", "reviewer-0", "budget-0"} <= set(nice)
    assert set(nice.values()) == {0}
