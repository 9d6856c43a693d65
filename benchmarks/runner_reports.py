"""Evidence DoneCheck gathers itself (issue 17): the labelled corpus re-run with runner
reports on, and what a stop costs with reporters only against gates re-run.

1. **Lying transcripts.** Every corpus session that runs tests is replayed with each
   test run's output replaced by a passing summary and exit status 0 (the transcript
   lies), while the runner's own report of that run — sent as the pytest plugin
   would, during the call — says it failed. Target: 0 sessions pass. For scale, the
   same lies without reports: how many pass on the transcript's word alone.
2. **Honest transcripts.** The same sessions as recorded, each test run reported
   by the runner as its output shows it (runs whose outcome the output does not
   show get no report): how many decisions the reports change (they should not).
3. **Stop cost.** A workspace with a generated pytest suite: a Claude Code Stop
   whose evidence came from the reporter (no gates), the first Stop with a gate
   that re-runs the suite, and a later Stop where nothing changed (gate reused).

Run: ``python -m benchmarks.runner_reports`` (``--tests N`` for the suite size).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from benchmarks._common import describe, emit, log

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def _is_test(command: str | None) -> bool:
    from donecheck.actors.evidence.shell import check_run
    from donecheck.actors.words.claims import category_of_check

    kind = check_run(command).kind if command else None
    return kind is not None and "test" in category_of_check(kind)


async def _review(dc: Any, transcript: Any, mode: str) -> tuple[str, int, int]:
    """Replay ``transcript`` into a new session with runner reports as ``mode`` says
    (``lie``: outputs pass, reports fail; ``lie_unreported``: outputs pass, no
    reports; ``honest``: reports agree with outputs; ``none``: as recorded) and
    review its answer. (decision, reports sent, reports matched to their call)."""
    from donecheck.actors.evidence.pairing import command_of, operations
    from donecheck.actors.evidence.runner import outcome
    from donecheck.actors.messages import ToolCall, ToolResult
    from donecheck.runtime.replay import NewInput, ToolImages, replay_events

    session = await dc.open_session_async(
        transcript.request, attachments=transcript.attachments, images=transcript.images
    )
    commands: dict[str, str | None] = {}
    sent = 0
    try:
        for item in replay_events(session, transcript):
            if isinstance(item, NewInput):
                await session.new_user_input(item.text, request_id=item.request_id)
                continue
            if isinstance(item, ToolImages):
                await session.attach_tool_images(item.call_id, item.images)
                continue
            batch: list[Any] = []
            for event in item:
                if isinstance(event, ToolCall):
                    commands[event.call_id] = command_of(event)
                    batch.append(event)
                    continue
                command = commands.get(event.call_id) if isinstance(event, ToolResult) else None
                if mode == "none" or not isinstance(event, ToolResult) or not _is_test(command):
                    batch.append(event)
                    continue
                assert command is not None
                if mode in {"lie", "lie_unreported"}:
                    ok: bool | None = False if mode == "lie" else None
                    event = session.tool_result_event(
                        event.call_id, "12 passed in 0.42s", None, 0, event_id=event.event_id
                    )
                else:
                    ok = outcome(event, command).ok
                if ok is not None:
                    now = time.time()
                    batch.append(
                        session.check_report_event(
                            name="pytest",
                            command=command,
                            ok=ok,
                            exit_code=0 if ok else 1,
                            passed=12 if ok else 11,
                            failed=0 if ok else 1,
                            failures=() if ok else [("tests/test_x.py::test_y", "assert 1 == 2")],
                            started_at=now - 0.02,
                            duration_s=0.01,
                        )
                    )
                    sent += 1
                batch.append(event)
            await session.record(batch)
        action = await session.turn_stopping(transcript.answer)
        ops = operations(await session.ledger())
        matched = sum(op.origin == "runner" and op.tool != "runner" for op in ops)
    finally:
        await session.close()
    return action.report.decision or "unverified", sent, matched


def corpus_figures(dc: Any) -> None:
    from donecheck.runtime.transcripts.detect import load_transcript

    expected = json.loads((CORPUS / "expected.json").read_text())
    lied = false_passes = changed = honest_runs = sessions = unreported_passes = matched = 0
    false_list: list[str] = []
    changes: list[str] = []
    started = time.perf_counter()
    for name in sorted(expected):
        transcript = load_transcript(CORPUS / name)
        if not any(
            step.kind == "call" and _is_test(_command(step.name, step.arguments))
            for step in transcript.steps
        ):
            continue
        sessions += 1
        decision, sent, hits = asyncio.run(_review(dc, transcript, "lie"))
        lied += sent
        matched += hits
        if decision == "pass":
            false_passes += 1
            false_list.append(name)
        unreported, _, _ = asyncio.run(_review(dc, transcript, "lie_unreported"))
        unreported_passes += unreported == "pass"
        baseline, _, _ = asyncio.run(_review(dc, transcript, "none"))
        honest, sent, _ = asyncio.run(_review(dc, transcript, "honest"))
        honest_runs += sent
        if honest != baseline:
            changed += 1
            changes.append(f"{name}: {baseline} -> {honest}")
    took = time.perf_counter() - started
    emit("runner_reports", "sessions_with_test_runs", sessions, "count", of=len(expected))
    emit(
        "runner_reports",
        "lying_sessions_passed",
        false_passes,
        "count",
        target="0",
        reports=lied,
        matched_to_their_call=matched,
        sessions=sessions,
    )
    emit(
        "runner_reports",
        "lying_sessions_passed_without_reports",
        unreported_passes,
        "count",
        sessions=sessions,
    )
    emit(
        "runner_reports",
        "honest_decisions_changed_by_reports",
        changed,
        "count",
        reports=honest_runs,
        sessions=sessions,
    )
    emit("runner_reports", "corpus_wall_s", took, "s", reviews=4 * sessions)
    for line in false_list + changes:
        log(f"  {line}")


def _command(name: str, arguments: Any) -> str | None:
    from donecheck.actors.evidence.pairing import command_of
    from donecheck.actors.messages import ToolCall

    return command_of(ToolCall(session_id="x", call_id="x", name=name, arguments=arguments))


def _suite(folder: Path, tests: int, gates: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    for n in range(max(1, tests // 20)):
        body = "\n".join(
            f"def test_{n}_{i}():\n    assert add({i}, {n}) == {i + n}\n" for i in range(20)
        )
        (folder / f"test_m{n}.py").write_text(f"from calc import add\n\n{body}")
    if gates:
        (folder / "donecheck.toml").write_text(
            textwrap.dedent(f"""
            [[gate]]
            name = "tests"
            command = ["{sys.executable}", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            paths = ["*.py"]
            """)
        )
    return folder


def stop_figures(dc: Any, folder: Path, tests: int, repeats: int) -> None:
    from donecheck.runtime.gates import MEMO
    from donecheck.runtime.hooks import handle

    answer = "Fixed add() in calc.py; all tests pass now (pytest -q: every test passed)."
    times: dict[str, list[float]] = {"reporters": [], "gate_first": [], "gate_reused": []}
    for r in range(repeats):
        for gates in (False, True):
            workspace = _suite(folder / f"w{r}{int(gates)}", tests, gates)
            sid = f"bench-{r}-{int(gates)}"

            def hook(event: str, _ws: Path = workspace, _sid: str = sid, **more: Any) -> Any:
                payload = {"hook_event_name": event, "session_id": _sid, "cwd": str(_ws)}
                return handle(dc, {**payload, **more})

            hook("UserPromptSubmit", prompt="Fix add() in calc.py so the tests pass.")
            hook(
                "PostToolUse",
                tool_name="Write",
                tool_use_id="w",
                tool_input={"file_path": str(workspace / "calc.py"), "content": "x"},
                tool_response={"success": True},
            )
            session = dc.session(f"claude-{sid}")
            session.check_report(  # what the plugin sent during the agent's own run
                name="pytest",
                command="pytest -q",
                ok=True,
                passed=tests,
                started_at=time.time() - 1,
                duration_s=0.5,
            )
            hook(
                "PostToolUse",
                tool_name="Bash",
                tool_use_id="b",
                tool_input={"command": "pytest -q"},
                tool_response={"stdout": f"{tests} passed in 0.5s", "exit_code": 0},
            )
            MEMO.runs.clear()
            started = time.perf_counter()
            first = hook("Stop", last_assistant_message=answer)
            took = time.perf_counter() - started
            if not gates:
                times["reporters"].append(took)
                continue
            assert "gates: tests passed" in first.note, first.note
            times["gate_first"].append(took)
            started = time.perf_counter()
            again = hook("Stop", last_assistant_message=answer + " Again.")
            times["gate_reused"].append(time.perf_counter() - started)
            assert "unchanged since its last run" in again.note, again.note
    for mode, samples in times.items():
        figures = describe(samples)
        emit(
            "runner_reports",
            "stop_s",
            figures["p50"],
            "s",
            mode=mode,
            tests=tests,
            repeats=repeats,
            p99=round(figures["p99"], 4),
        )
    gain = describe(times["gate_first"])["p50"] / describe(times["reporters"])["p50"]
    emit("runner_reports", "gate_stop_vs_reporter_stop", gain, "x", tests=tests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=400, help="tests in the generated suite")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-corpus", action="store_true")
    args = parser.parse_args()
    from donecheck.runtime import DoneCheck

    with tempfile.TemporaryDirectory(prefix="dc-runner-") as tmp:
        dc = DoneCheck.start_local(data_dir=Path(tmp) / "data")
        try:
            if not args.no_corpus:
                corpus_figures(dc)
            stop_figures(dc, Path(tmp) / "suites", args.tests, args.repeats)
        finally:
            dc.shutdown()


if __name__ == "__main__":
    main()
