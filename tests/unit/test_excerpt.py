"""The model's excerpt of the tool log: bounded, newest first, failures kept."""

from __future__ import annotations

from donecheck.actors.evidence.excerpt import excerpt
from donecheck.actors.evidence.pairing import checks, operations
from donecheck.actors.evidence.writes import last_edit_seq
from tests.unit.helpers import LedgerBuilder


def busy_ledger() -> LedgerBuilder:
    ledger = LedgerBuilder()
    ledger.run("pytest -q", 1, "FAILED tests/t.py::test_old - assert 1\n=== 1 failed in 0.1s ===")
    for n in range(40):
        ledger.run(f"cat src/module_{n}.py", 0, "x = 1\n" * 50)
    return ledger


def test_newest_first_and_bounded() -> None:
    text = excerpt(busy_ledger().entries, 2_000)
    assert len(text.text) <= 2_200
    ids = [int(line[2:].split("]")[0]) for line in text.text.splitlines() if line.startswith("[E")]
    assert ids[1:] == sorted(ids[1:], reverse=True)


def test_failures_are_kept_even_when_old() -> None:
    result = excerpt(busy_ledger().entries, 1_200)
    assert "[E2] bash `pytest -q` → FAILED (exit 1)" in result.text
    assert "E2" in result.shown
    assert result.omitted > 0
    assert "not shown; the checks above used the complete ledger" in result.text


def test_long_output_keeps_its_start_and_end() -> None:
    ledger = LedgerBuilder()
    ledger.run("make test", 2, "START of the run\n" + "noise\n" * 2_000 + "=== 3 failed ===")
    text = excerpt(ledger.entries, 8_000).text
    assert "START of the run" in text and "=== 3 failed ===" in text and "\n…\n" in text


def test_failures_alone_over_budget_are_shortened_evenly() -> None:
    ledger = LedgerBuilder()
    for n in range(6):
        ledger.run(f"pytest tests/test_{n}.py", 1, f"FAILED test_{n}\n" + "E   boom\n" * 400)
    result = excerpt(ledger.entries, 2_000)
    assert result.omitted == 0 and len(result.shown) == 6


def test_checks_view_marks_stale_and_resolved() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest tests/a.py", 1, "1 failed")
    ledger.run("pytest", 0, "5 passed")
    ledger.write("src/app.py")
    ledger.run("ruff check .", 0, "All checks passed!")
    ledger.write("src/app.py")
    entries = ledger.entries
    ops = operations(entries)
    found = {c.command: c for c in checks(ops, last_edit_seq(ops))}
    assert found["pytest tests/a.py"].resolved and found["pytest tests/a.py"].ok is False
    assert found["pytest"].stale and found["ruff check ."].stale
