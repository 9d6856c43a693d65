"""Invariance of decisions: the labelled corpus rewritten in ways that keep each session's
meaning (no decision may move) and in ways that change it (a passing one must not pass).

The rewrites are the two tables of :mod:`tests.support.rewrites`: ``KEEPS`` (another
interpreter, a wrapper, absolute or ``./`` paths, the answer reworded) and ``FLIPS``
(the retry that does another job, the weakened test, the forged claim or count, the
last test run failing). Every rewrite runs on every session it applies to (the unit test
``tests/unit/test_invariance.py`` samples the bulk of them), reviewed in process
(no Ray) with the rules-only review.

Figures (JSON lines), one per rewrite: ``applied`` (sessions it applied to), ``kept``
(decision unchanged; a flip: still passing) and ``moved`` (decision changed; a flip:
no longer passing, and to its named decision when it names one); then the totals of
each table, and the wall time. ``--cases`` also prints, to stderr, each moved keep
and each missed flip with the findings DoneCheck gave.

Run: ``python -m benchmarks.invariance``.
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from benchmarks._common import emit, log
from donecheck.runtime import DoneCheck
from tests.support.rewrites import FLIPS, KEEPS, Case, labelled_corpus, run_tables

BENCH = "invariance"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.invariance")
    parser.add_argument("--cases", action="store_true", help="list moves and misses on stderr")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    corpus = labelled_corpus()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as data:
        dc = DoneCheck.start_local(data_dir=Path(data), parser_actors=1)
        try:
            cases = run_tables(dc, corpus)
        finally:
            dc.shutdown()
    wall = time.perf_counter() - began
    by_rewrite: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_rewrite[case.rewrite.name].append(case)
    for table, rows, flip in (("keeps", KEEPS, False), ("flips", FLIPS, True)):
        totals = {"applied": 0, "kept": 0, "moved": 0}
        for rewrite in rows:
            applied = by_rewrite.get(rewrite.name, [])
            moved = sum(1 for c in applied if c.after != c.before and (not flip or c.held))
            figures = {"applied": len(applied), "kept": len(applied) - moved, "moved": moved}
            for metric, value in figures.items():
                totals[metric] += value
                emit(BENCH, metric, value, "sessions", table=table, rewrite=rewrite.name)
        for metric, value in totals.items():
            emit(BENCH, metric, value, "sessions", table=table)
    emit(BENCH, "sessions", len(corpus), "sessions", corpus="tests/corpus")
    emit(BENCH, "wall", wall, "s", reviews=len(corpus) + len(cases))
    if args.cases:
        for case in cases:
            if not case.held:
                what = "moved" if not case.flip else "missed"
                log(f"{what}\t{case.key}\t{case.rewrite.name}\t{case.before} -> {case.after}")
                for finding in case.findings:
                    log(f"\t\t{finding}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
