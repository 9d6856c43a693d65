"""DoneCheck in one process, without Ray: the same actor classes behind Ray's calling
convention, the session API on top, and the one-shot CLI that uses it."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.actors import calls
from donecheck.actors.errors import ActorUnavailableError, UnknownSessionError
from donecheck.actors.inprocess import LocalHandle, LocalSystem
from donecheck.actors.messages import Deliver, Steer
from donecheck.runtime import DoneCheck
from donecheck.runtime.replay import review_transcript
from donecheck.runtime.transcripts.detect import load_transcript
from tests.support import samples
from tests.support.env import child_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT / "tests" / "corpus" / "generated"


@pytest.fixture
def local(tmp_path: Path) -> Iterator[DoneCheck]:
    dc = DoneCheck.start_local(data_dir=tmp_path / "data", parser_actors=1)
    yield dc
    dc.shutdown()


def test_the_loop_runs_in_process(local: DoneCheck) -> None:
    assert local.local
    with local.open_session("Fix add() in calc.py and make sure `pytest -q` passes.") as session:
        call = session.tool_call("bash", {"command": "pytest -q"})
        session.tool_result(
            call, "FAILED tests/test_calc.py::test_add\n1 failed in 0.1s", exit_code=1
        )
        action = session.turn_stopping("Fixed add(); all tests pass now.")
        assert isinstance(action, Steer)
        edit = session.tool_call("write_file", {"path": "calc.py", "content": "def add(a, b): ..."})
        session.tool_result(edit, "wrote calc.py", ok=True)
        call = session.tool_call("bash", {"command": "pytest -q"})
        session.tool_result(call, "3 passed in 0.1s", exit_code=0)
        action = session.turn_stopping("[DoneCheck A2] Reran `pytest -q`: 3 passed.")
        assert isinstance(action, Deliver) and action.report.decision == "pass"
    stats = local.statistics()
    assert {"ledger-0", "controller-0", "reviewer-0", "budget-0", "parser-0"} <= set(stats)
    with pytest.raises(UnknownSessionError):
        local.session("s-nobody")


def test_attachments_and_tool_images_parse_on_the_parser_thread(local: DoneCheck) -> None:
    pdf = samples.pdf(seed=2)
    material = local.parse((pdf.name, pdf.data))
    assert material.status == "parsed"
    shot = samples.image(seed=2, text=False).data
    with local.open_session("Read the report.", attachments=[(pdf.name, pdf.data)]) as session:
        call = session.tool_call("screenshot", {})
        session.tool_result(call, "captured", ok=True, images=[shot])
        action = session.turn_stopping("I read the report; it has three sections. ```ok```")
        assert action.report.decision is not None


def test_same_decisions_as_the_examples_say(local: DoneCheck) -> None:
    async def review_all() -> dict[str, str]:
        found = {}
        for path in sorted((EXAMPLES / "transcripts").iterdir()):
            outcome = await review_transcript(local, load_transcript(path))
            found[path.name] = outcome.decision
        return found

    decisions = asyncio.run(review_all())
    assert sorted(decisions.values()) == sorted(
        ["need_fix"] * 3 + ["need_evidence"] + ["pass"] * 3 + ["skipped"]
    )


def test_a_failing_actor_method_is_named_not_leaked() -> None:
    class Broken:
        def explode(self) -> None:
            raise ValueError("boom")

        async def slow(self) -> None:
            await asyncio.sleep(10)

    system = LocalSystem()
    try:
        handle = LocalHandle(Broken(), system)
        with pytest.raises(ActorUnavailableError, match="raised ValueError: boom"):
            calls.get(handle.explode.remote(), actor="broken", timeout_s=5)
        with pytest.raises(ActorUnavailableError, match=r"no answer within 0\.05 s"):
            calls.get(handle.slow.remote(), actor="broken", timeout_s=0.05)
    finally:
        system.stop()


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("donecheck")
    return [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]


def test_ctrl_c_keeps_what_finished(tmp_path: Path) -> None:
    """A long batch, interrupted: the finished cards are out (one JSON line each), one
    line says how far it got, exit 130, no traceback."""
    folder = tmp_path / "batch"
    folder.mkdir()
    for n in range(6):
        for path in CORPUS.iterdir():
            shutil.copy(path, folder / f"{n}-{path.name}")
    total = len(list(folder.iterdir()))
    env = child_env(tmp_path)
    stderr = tmp_path / "stderr.txt"
    with (
        stderr.open("w") as err,
        subprocess.Popen(
            [*_cli(), "review", "--json", str(folder)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
            cwd=tmp_path,
        ) as child,
    ):
        assert child.stdout is not None
        first = child.stdout.readline()  # the batch is under way
        child.send_signal(signal.SIGINT)
        rest = child.stdout.read()  # through the same buffer readline filled
        child.wait(60)
    errors = stderr.read_text()
    assert child.returncode == 130, errors[-3000:]
    lines = [line for line in (first + rest).split("\n") if line]  # JSON lines: "\n" only
    for line in lines:
        try:
            assert json.loads(line)["decision"]
        except ValueError:
            raise AssertionError(f"not a card: {line!r}; stderr: {errors[-3000:]}") from None
    said = [line for line in errors.replace("\r", "\n").splitlines() if "donecheck:" in line]
    assert said == [f"donecheck: error: interrupted after {len(lines)} of {total}"]
    assert "Traceback" not in errors and "Task was destroyed" not in errors
    assert len(lines) < total


@pytest.mark.parametrize("mode", ["blocking", "async"])
def test_each_event_reaches_the_ledger_once_from_its_one_owner(local: DoneCheck, mode: str) -> None:
    """Issue 16: the host sends the opening, a new input and the closing to the
    controller only, and the controller records each in the ledger — once (the
    ledger counts no duplicates) and before it acts on it."""
    from donecheck.actors.messages import SessionClosed, SessionOpened, UserInput

    def counted() -> tuple[int, int]:
        stats = local.statistics()
        ledgers = [s for name, s in stats.items() if name.startswith("ledger-")]
        return sum(s["duplicates"] for s in ledgers), sum(s["appended"] for s in ledgers)

    duplicates, appended = counted()
    if mode == "blocking":
        session = local.open_session("Fix add() in calc.py.")
        session.new_user_input("Also add sub().")
        entries = session.ledger()
        session.close()
    else:

        async def run() -> tuple[object, ...]:
            opened = await local.open_session_async("Fix add() in calc.py.")
            await opened.new_user_input("Also add sub().")
            found = await opened.ledger()
            await opened.close()
            return found

        entries = asyncio.run(run())
    kinds = [type(e.event) for e in entries]  # type: ignore[attr-defined]
    assert kinds == [SessionOpened, UserInput]
    after_duplicates, after_appended = counted()
    assert after_duplicates == duplicates  # nobody sent an event twice
    assert after_appended - appended == 3  # the closing too, recorded at close
    assert SessionClosed not in kinds  # (the ledger was read before it)


def test_reviewing_in_process_never_loads_ray(tmp_path: Path) -> None:
    """``donecheck review`` runs the actors in this process: Ray is not imported at
    all (it would cost seconds, and the in-process path must not need it)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    script = (
        "import contextlib, io, sys\n"
        "from donecheck.runtime.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n"
        f"        main(['review', '--json', {str(examples)!r}])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert out.getvalue().count('decision') >= 8, out.getvalue()\n"
        "print('ray' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=child_env(tmp_path),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
