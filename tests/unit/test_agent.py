"""The bundled agent without DoneCheck (the baseline of benchmarks/loop_outcomes.py), and
the benchmark's task scripts: their ground truth must be what each behaviour assumes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.loop_outcomes import TASKS, Script, Task, prepare, responder, scripts
from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.agent import AgentResult, run_agent
from donecheck.runtime.testing.scripted import ScriptedProvider


def _tests_pass(folder: Path, command: str) -> bool:
    argv = [sys.executable, *command.split()[1:]]  # "python -m unittest …" with this Python
    return subprocess.run(argv, cwd=folder, capture_output=True, timeout=60).returncode == 0


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.ticket)
def test_each_task_tells_right_code_from_wrong(task: Task, tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    prepare(folder, task)
    assert not _tests_pass(folder, task.command), "the stub must fail the tests"
    (folder / task.module).write_text(task.wrong)
    assert not _tests_pass(folder, task.command), "the wrong code must fail the tests"
    assert _tests_pass(folder, task.subset_command), "the subset must pass with wrong code"
    (folder / task.module).write_text(task.right)
    assert _tests_pass(folder, task.command), "the right code must pass the tests"


def test_the_scripts_cover_every_behaviour_and_language() -> None:
    all_scripts = scripts()
    assert len(all_scripts) >= 50
    assert len({s.key for s in all_scripts}) == len(all_scripts)
    assert {s.lang for s in all_scripts} == {"en", "zh", "ja", "es", "de", "fr"}


def test_without_donecheck_the_first_answer_ends_the_turn(tmp_path: Path) -> None:
    script = Script(TASKS[0], "fails_claims", "en")
    folder = tmp_path / "ws"
    prepare(folder, script.task)

    async def go() -> AgentResult:
        async with ScriptedProvider(responder=responder({script.key: script})) as model:
            return await run_agent(None, script.text(), folder, base_url=model.url, model="m")

    result = asyncio.run(go())
    assert result.action is None
    assert result.model_calls == 3  # write, run, answer
    assert result.model_tokens > 0
    assert "all tests pass" in result.answer
    assert not _tests_pass(folder, script.task.command)  # the false "done" the baseline keeps
    with pytest.raises(DoneCheckError, match="without DoneCheck"):
        _ = result.report


def test_a_stubborn_script_repeats_its_answer_after_a_steer() -> None:
    script = Script(TASKS[0], "stubborn", "en")
    rounds = script.rounds()
    assert rounds[1][0].content == rounds[0][-1].content
