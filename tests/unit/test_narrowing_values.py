"""An option's value is no test selector (red team): `pytest -W ignore::DeprecationWarning`
ran the whole suite, as did `vitest --run`, `cargo test -- --test-threads 1` and
`python -m unittest discover -s tests -t .`; a real selector in the same runner still
narrows."""

from __future__ import annotations

import pytest

from donecheck.actors.evidence.shell import check_run


@pytest.mark.parametrize(
    "command",
    [
        "pytest -W ignore::DeprecationWarning",
        "pytest -q -W error::UserWarning tests/",
        "pytest -p no:cacheprovider -q",
        "pytest --rootdir=. -q",
        "pytest -c pytest.ini",
        "pytest -c pyproject.toml -q",
        "npx vitest --run",
        "npx vitest run --run",
        "npm test -- --run",
        "cargo test -- --test-threads 1",
        "cargo test -- --test-threads=1 --nocapture",
        "python -m unittest discover -s tests -t .",
        "python -m unittest discover -s tests -p 'test_*.py'",
        "pytest -n 4 --maxfail 2 -q",
        "pytest --tb short -q",
    ],
)
def test_an_options_value_selects_nothing(command: str) -> None:
    assert check_run(command).narrowed == "", command


@pytest.mark.parametrize(
    "command",
    [
        "pytest tests/test_calc.py::test_add",
        "pytest -W ignore::DeprecationWarning tests/test_calc.py::test_add",
        "pytest -k add",
        "pytest -c other.ini",
        "pytest -c /tmp/pytest.ini",
        "go test -run TestAdd ./...",
        "go test --run TestAdd ./...",
        "cargo test add",
        "cargo test -- --test-threads 1 add",
        "python -m unittest tests.test_calc.TestCalc.test_add",
        "npx jest -t add",
        "npx vitest run -t add",
    ],
)
def test_a_selector_still_narrows(command: str) -> None:
    assert check_run(command).narrowed != "", command
