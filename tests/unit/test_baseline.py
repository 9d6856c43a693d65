"""The neighbour ``benchmarks.baseline`` measures DoneCheck against: it reads only the
last test run, in any agent's dialect."""

from __future__ import annotations

import pytest

from benchmarks.baseline import last_test_run_blocks
from donecheck.runtime.transcripts.openai import Step, Transcript


def _session(*steps: tuple[str, dict[str, str], int | None]) -> Transcript:
    out: list[Step] = []
    for n, (name, arguments, code) in enumerate(steps):
        out.append(Step(kind="call", call_id=f"c{n}", name=name, arguments=arguments))
        out.append(Step(kind="result", call_id=f"c{n}", output="", exit_code=code))
    return Transcript(source="t", request="Fix it.", answer="Done.", steps=out)


PYTEST = ("Bash", {"command": "python -m pytest -q"}, 0)
FAILING = ("Bash", {"command": "python -m pytest -q"}, 1)
EDIT = ("Edit", {"file_path": "calc.py", "old_string": "a", "new_string": "b"}, None)


@pytest.mark.parametrize(
    ("steps", "blocks"),
    [
        ((), False),  # no test run: nothing to hold it on
        ((EDIT,), False),
        ((FAILING,), True),
        ((FAILING, EDIT, PYTEST), False),
        ((PYTEST, EDIT), True),  # edited after the last pass
        ((FAILING, ("run_shell_command", {"command": "pytest"}, 0)), False),  # Gemini's tool
        ((("shell", {"command": "npm test"}, 1),), True),
    ],
)
def test_the_neighbour_reads_only_the_last_test_run(
    steps: tuple[tuple[str, dict[str, str], int | None], ...], blocks: bool
) -> None:
    assert last_test_run_blocks(_session(*steps)) is blocks
