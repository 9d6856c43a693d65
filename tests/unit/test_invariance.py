"""Invariance, checked in CI (issue 35, item 4): the labelled corpus rewritten by the
tables of :mod:`tests.support.rewrites`.

* ``KEEPS`` keep each session's meaning (another interpreter, a wrapper, the path
  form, the answer reworded): no decision may move.
* ``FLIPS`` change it (the retry that does another job, the weakened test, the forgery,
  the last test run failing) for sessions that pass: every decision must move.

A move or a miss DoneCheck has today and nobody has fixed yet is listed below, a cluster
at a time with why; the test fails when one of them no longer happens, so the lists only
shrink. ``python -m benchmarks.invariance --cases`` runs every rewrite on every session
and prints the counts.

The in-process DoneCheck (:meth:`DoneCheck.start_local`, no Ray) reviews every case. To
keep the test near half a minute on two cores, the shell and path rewrites of the
generated sessions (scenario x language x import form, so much alike) run on every
third of them; every other case runs on every session.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.runtime import DoneCheck
from tests.support.rewrites import (
    FLIPS,
    KEEPS,
    Case,
    Labelled,
    Rewrite,
    labelled_corpus,
    run_tables,
)

# (session glob, rewrite) pairs whose decision moves under a meaning-keeping rewrite today
KNOWN_MOVES: frozenset[tuple[str, str]] = frozenset()

# (session glob, rewrite) pairs a meaning-changing rewrite does not move off `pass` today
KNOWN_MISSES: frozenset[tuple[str, str]] = frozenset()

_STRIDE = 3
"""Every how-many-th generated session the shell and path rewrites run on."""
_BULK = ("cmd:", "wrap:", "path:", "mixed:")


def _select(n: int, session: Labelled, rewrite: Rewrite) -> bool:
    bulk = rewrite.name.startswith(_BULK)
    return not (bulk and session.key.startswith("generated/") and n % _STRIDE)


def _known(case: Case, known: frozenset[tuple[str, str]]) -> bool:
    return any(
        name == case.rewrite.name and fnmatch.fnmatchcase(case.key, glob) for glob, name in known
    )


def _table(cases: list[Case]) -> str:
    lines = ["session | rewrite | before -> after | findings"]
    for c in cases:
        findings = "; ".join(c.findings) or "(none)"
        lines.append(f"{c.key} | {c.rewrite.name} | {c.before} -> {c.after} | {findings[:400]}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DoneCheck]:
    dc = DoneCheck.start_local(data_dir=tmp_path_factory.mktemp("data"), parser_actors=1)
    yield dc
    dc.shutdown()


@pytest.fixture(scope="module")
def cases(local: DoneCheck) -> list[Case]:
    corpus = labelled_corpus()
    assert len(corpus) > 600
    return run_tables(local, corpus, _select)


def _check(cases: list[Case], known: frozenset[tuple[str, str]], what: str) -> None:
    failing = [c for c in cases if not c.held]
    unexpected = [c for c in failing if not _known(c, known)]
    gone = sorted(
        (glob, name)
        for glob, name in known
        if not any(c.rewrite.name == name and fnmatch.fnmatchcase(c.key, glob) for c in failing)
    )
    still = [
        c
        for c in cases
        if c.held and any(c.rewrite.name == n and fnmatch.fnmatchcase(c.key, g) for g, n in known)
    ]
    assert not unexpected, f"{len(unexpected)} new {what}:\n{_table(unexpected)}"
    assert not gone, f"listed {what} that no longer happen (remove them): {gone}"
    assert not still, (
        f"{len(still)} sessions a listed {what} pattern covers now hold (narrow it):\n"
        f"{_table(still)}"
    )


@pytest.mark.timeout(300)
def test_no_decision_moves_under_a_meaning_keeping_rewrite(cases: list[Case]) -> None:
    _check([c for c in cases if not c.flip], KNOWN_MOVES, "moves")


@pytest.mark.timeout(300)
def test_every_meaning_changing_rewrite_moves_a_passing_decision(cases: list[Case]) -> None:
    _check([c for c in cases if c.flip], KNOWN_MISSES, "misses")


def test_every_rewrite_applies_somewhere(cases: list[Case]) -> None:
    applied = {c.rewrite.name for c in cases}
    assert [r.name for r in (*KEEPS, *FLIPS) if r.name not in applied] == []
    assert len({r.name for r in (*KEEPS, *FLIPS)}) == len(KEEPS) + len(FLIPS)


def test_the_corpus_sessions_are_the_labelled_ones() -> None:
    keys = {s.key for s in labelled_corpus()}
    assert "generated/honest_fix.en.openai.json" in keys
    assert all((Path(__file__).resolve().parents[1] / "corpus" / k).exists() for k in keys)
