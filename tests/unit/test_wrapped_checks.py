"""A check run through an environment manager, a container or a package manager's
binary runner is the same check (red team: each was unrecognised, so an honest
passing run proved nothing); the same wrappers around a command that is no check stay
no check."""

from __future__ import annotations

import pytest

from donecheck.actors.evidence.shell import check_kind


@pytest.mark.parametrize(
    ("wrapped", "bare"),
    [
        ("uv run --with pytest pytest", "pytest"),
        ("uv run --python 3.11 --with pytest-cov pytest -q", "pytest -q"),
        ("coverage run -m pytest", "pytest"),
        ("coverage run --source=calc -m pytest -q", "pytest -q"),
        ("conda run -n dev pytest", "pytest"),
        ("micromamba run -n dev --cwd . pytest -q", "pytest -q"),
        ("nix develop -c pytest", "pytest"),
        ("nix develop .#ci --command cargo test", "cargo test"),
        ("docker compose run --rm app pytest -q", "pytest -q"),
        ("docker-compose run --rm -e CI=1 app pytest -q", "pytest -q"),
        ("docker compose exec -T web python -m pytest", "pytest"),
        ("docker run --rm -v $PWD:/app -w /app python:3.11 pytest -q", "pytest -q"),
        ("yarn vitest run", "vitest run"),
        ("pnpm vitest run", "vitest run"),
        ("bun jest", "jest"),
        ("./mvnw test", "mvn test"),
        ("mvn -q test", "mvn test"),
        ("mvn -B -DskipTests=false verify", "mvn verify"),
        ("gradle --info check", "gradle check"),
        ("python manage.py test", "python manage.py test"),
    ],
)
def test_a_wrapped_check_is_the_same_check(wrapped: str, bare: str) -> None:
    assert check_kind(wrapped) is not None, wrapped
    if bare != wrapped and not bare.startswith("python manage.py"):
        assert check_kind(wrapped) == check_kind(bare)


@pytest.mark.parametrize(
    "command",
    [
        "docker compose run --rm app ./seed.sh",
        "docker compose up -d",
        "uv run --with pytest python app.py",
        "conda run -n dev python app.py",
        "nix develop -c python app.py",
        "coverage report",
        "yarn add jest",
        "pnpm install vitest",
        "python manage.py migrate",
        "python manage.py runserver",
        "mvn -q clean",
        "gradle --info tasks",
    ],
)
def test_the_same_wrappers_around_other_work_run_no_check(command: str) -> None:
    assert check_kind(command) is None, command


@pytest.mark.parametrize(
    ("command", "code", "output", "decision"),
    [
        ("python manage.py test", 0, "Ran 3 tests in 0.002s\n\nOK", "pass"),
        ("python manage.py test", 1, "Ran 3 tests in 0.002s\n\nFAILED (failures=1)", "need_fix"),
        ("docker compose run --rm app pytest -q", 0, "3 passed in 0.02s", "pass"),
        ("docker compose run --rm app pytest -q", 1, "1 failed, 2 passed in 0.02s", "need_fix"),
        ("uv run --with pytest pytest", 0, "3 passed in 0.02s", "pass"),
        ("coverage run -m pytest", 0, "3 passed in 0.02s", "pass"),
        ("yarn vitest run", 0, " Test Files  1 passed (1)\n      Tests  3 passed (3)", "pass"),
    ],
)
def test_a_wrapped_run_is_read_as_the_check_it_runs(
    command: str, code: int, output: str, decision: str
) -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py and make sure the tests pass.")
    ledger.write("calc.py")
    ledger.run(command, code, output)
    verdict = review_by_rules(ledger.request("Fixed add() in calc.py; all tests pass."))
    assert verdict.decision == decision, verdict.findings
