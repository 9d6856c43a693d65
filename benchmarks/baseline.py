"""DoneCheck beside the friendliest neighbour: a stop hook that reads nothing but the
last test run (issue 35).

The neighbour blocks a stop only when the last test run failed, or when a file was
edited after the last passing one; it lets everything else through. Both read every
session of the labelled corpus (``tests/corpus/expected.json``, generated, hand-written
and real sessions), and each is scored against the labels:

* ``false_alarms`` — honest sessions (labelled ``pass`` or ``skipped``) stopped or
  steered;
* ``caught`` / ``let_through`` — sessions labelled anything else (a false claim, a
  failing check, an unproven one, an ask for the user …) held, or let end.

A test run is what DoneCheck's own table calls one (:func:`check_kind`), read in any
agent's dialect; its outcome is the exit code or error flag the log gives, else the
exit code its output states — what a hook reading the transcript would see.

Figures (JSON lines): sessions, then per checker (``donecheck``, ``last_test_run``)
``false_alarms``, ``caught``, ``let_through``. Run: ``python -m benchmarks.baseline``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
from pathlib import Path

from benchmarks._common import emit, log
from donecheck.actors.actions import read_action
from donecheck.actors.evidence.runner import exit_status_from_output
from donecheck.actors.evidence.shell import check_kind
from donecheck.actors.words.claims import category_of_check
from donecheck.runtime import DoneCheck
from donecheck.runtime.transcripts.openai import Transcript
from tests.support.rewrites import decide, labelled_corpus

BENCH = "baseline"
HONEST = frozenset({"pass", "skipped"})


def last_test_run_blocks(transcript: Transcript) -> bool:
    """The neighbour's decision: block when the last test run failed, or a file was
    edited after the last passing test run."""
    tests: dict[str, int] = {}  # call id → position, for test runs
    outcome: dict[str, bool] = {}
    last_edit = -1
    for n, step in enumerate(transcript.steps):
        if step.kind == "call":
            action = read_action(step.name, step.arguments)
            kind = check_kind(action.command) if action.command else None
            if kind is not None and "test" in category_of_check(kind):
                tests[step.call_id] = n
            elif action.changes_files:
                last_edit = n
        elif step.kind == "result" and step.call_id in tests:
            if step.exit_code is not None:
                outcome[step.call_id] = step.exit_code == 0
            elif step.ok is not None:
                outcome[step.call_id] = step.ok
            else:
                stated = exit_status_from_output(step.output)
                outcome[step.call_id] = stated in (None, 0)
    ran = [(tests[c], ok) for c, ok in outcome.items()]
    if not ran:
        return False
    at, ok = max(ran)
    return not ok or last_edit > at


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m benchmarks.baseline").parse_args(argv)
    logging.disable(logging.WARNING)
    corpus = labelled_corpus()
    with tempfile.TemporaryDirectory() as data:
        dc = DoneCheck.start_local(data_dir=Path(data), parser_actors=1)
        try:
            outcomes = asyncio.run(decide(dc, [s.transcript for s in corpus], 16))
        finally:
            dc.shutdown()
    emit(BENCH, "sessions", len(corpus), "sessions", corpus="tests/corpus")
    emit(BENCH, "honest", sum(s.label in HONEST for s in corpus), "sessions")
    checkers = {
        "donecheck": [o.decision not in HONEST for o in outcomes],
        "last_test_run": [last_test_run_blocks(s.transcript) for s in corpus],
    }
    for part in ("all", "generated", "hand", "real"):
        rows = [
            (s, n) for n, s in enumerate(corpus) if part == "all" or s.key.startswith(part + "/")
        ]
        for name, held in checkers.items():
            alarms = [s.key for s, n in rows if held[n] and s.label in HONEST]
            caught = sum(held[n] and s.label not in HONEST for s, n in rows)
            through = sum(not held[n] and s.label not in HONEST for s, n in rows)
            emit(BENCH, "false_alarms", len(alarms), "sessions", checker=name, part=part)
            emit(BENCH, "caught", caught, "sessions", checker=name, part=part)
            emit(BENCH, "let_through", through, "sessions", checker=name, part=part)
            if part == "all":
                for key in alarms[:20]:
                    log(f"{name}: false alarm on {key}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
