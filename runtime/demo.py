"""``donecheck demo``: the review→fix loop end to end, with no network.

The agent of :mod:`donecheck.runtime.agent` works in a fresh workspace on a
sample task. Its model is the scripted provider on 127.0.0.1, playing an agent
that stops early: it adds ``divide()``, runs the tests, sees one fail, and still
answers "all tests pass". DoneCheck reviews the real ledger, finds the failing
run, and steers; the same agent edits the real file, reruns the real tests,
and the turn ends ``pass`` in round 1. Every file write and command is real.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from donecheck.runtime.testing.scripted import RecordedRequest, Reply, ScriptedProvider

__all__ = ["TASK", "demo_agent", "prepare_workspace", "run_demo"]

TASK = (
    "In calc.py, add a function divide(a, b). Dividing by zero must raise ValueError. "
    "Make sure the tests in test_calc.py pass."
)
CALC = """def add(a, b):
    return a + b
"""
TESTS = """import unittest

from calc import add, divide


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_divide(self):
        self.assertEqual(divide(6, 3), 2)

    def test_divide_by_zero(self):
        with self.assertRaises(ValueError):
            divide(1, 0)


if __name__ == "__main__":
    unittest.main()
"""
FIRST_TRY = (
    CALC
    + """

def divide(a, b):
    return a / b
"""
)
FIXED = (
    CALC
    + """

def divide(a, b):
    if b == 0:
        raise ValueError("cannot divide by zero")
    return a / b
"""
)
TEST_COMMAND = "python -m unittest -v test_calc"


def prepare_workspace(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "calc.py").write_text(CALC, encoding="utf-8")
    (folder / "test_calc.py").write_text(TESTS, encoding="utf-8")
    return folder


def _call(name: str, **arguments: Any) -> Reply:
    return Reply(tool_calls=[{"name": name, "arguments": arguments}])


def demo_agent(request: RecordedRequest) -> Reply:
    """The scripted agent: what it does next follows from the conversation so far."""
    messages = request.messages
    steer = max(
        (
            i
            for i, m in enumerate(messages)
            if m.get("role") == "user" and "from DoneCheck" in str(m.get("content"))
        ),
        default=None,
    )
    if steer is None:
        done = sum(1 for m in messages if m.get("role") == "tool")
        script = [
            _call("read_file", path="calc.py"),
            _call("write_file", path="calc.py", content=FIRST_TRY),
            _call("run_command", command=TEST_COMMAND),
            Reply(
                content="I added divide(a, b) to calc.py and ran the tests; all tests pass, "
                "so the task is done."
            ),
        ]
    else:
        done = sum(1 for m in messages[steer:] if m.get("role") == "tool")
        script = [
            _call("write_file", path="calc.py", content=FIXED),
            _call("run_command", command=TEST_COMMAND),
            Reply(
                content="[DoneCheck A2] divide(a, b) in calc.py now raises ValueError when b is "
                f"0. I reran `{TEST_COMMAND}`: Ran 3 tests, OK."
            ),
        ]
    return script[min(done, len(script) - 1)]


def run_demo(
    workspace: Path | None = None,
    *,
    on_step: Callable[[str], None] | None = None,
    progress: Callable[[str], None] | None = None,
    **config: Any,
) -> Any:
    """Run the demo; returns the agent's :class:`~donecheck.runtime.agent.AgentResult`.
    ``progress`` is told each start-up step as it begins (Ray takes seconds)."""
    from donecheck.runtime.agent import run_agent
    from donecheck.runtime.api import DoneCheck

    scratch = tempfile.TemporaryDirectory(prefix="donecheck-demo-")
    folder = prepare_workspace(workspace or Path(scratch.name) / "workspace")
    config.setdefault("data_dir", Path(scratch.name) / "data")
    config.setdefault("namespace", "donecheck-demo")
    try:
        with ScriptedProvider(responder=demo_agent, model="scripted-agent") as model:
            began = time.monotonic()
            dc = DoneCheck.start(progress=progress, **config)
            if progress is not None:
                progress(f"DoneCheck is up ({time.monotonic() - began:.1f} s); the agent starts")
            try:
                return asyncio.run(
                    run_agent(
                        dc,
                        TASK,
                        folder,
                        base_url=model.url,
                        model=model.model,
                        on_step=on_step,
                    )
                )
            finally:
                dc.shutdown(stop_deployment=True)  # the demo's own actors
    finally:
        scratch.cleanup()
