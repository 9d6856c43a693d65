"""A claim about tests of one level is backed only by a run of that level, or of the
whole suite (red team, issue 35: "the e2e tests pass" after `pytest tests/unit` passed).
Rows that mean the same and look different — another runner, another selector form,
another language — and rows that look the same and mean the opposite."""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

PASSED = "...\n12 passed in 0.40s\n"


def _decide(command: str, answer: str) -> str:
    ledger = LedgerBuilder()
    ledger.open("Fix the login flow.")
    ledger.write("app/login.py")
    ledger.run(command, 0, PASSED)
    return review_by_rules(ledger.request(answer)).decision


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        ("pytest tests/unit -q", "Fixed; the e2e tests pass."),
        ("npm run test:unit", "Fixed; end-to-end tests are green."),
        ("yarn test:unit --run", "Fixed. E2E tests pass."),
        ("pytest tests/unit", "Fixed; the integration tests pass."),
        ("go test ./internal/unit/...", "Fixed; integration tests pass."),
        ("pytest -m unit", "Fixed; the acceptance tests pass."),
        ("pytest tests/unit", "Behoben; die Integrationstests laufen durch."),
        ("pytest tests/unit", "Corrigé ; les tests d'intégration passent."),
        ("pytest tests/unit", "Arreglado; las pruebas de integración pasan."),
        ("pytest tests/unit", "Corrigido; os testes de integração passam."),
        ("pytest tests/unit", "Risolto; i test di integrazione passano."),
        ("pytest tests/unit", "Исправлено; интеграционные тесты проходят."),
        ("pytest tests/unit", "已修复，集成测试全部通过。"),
        ("pytest tests/unit", "修正しました。統合テストはすべて成功しました。"),
        ("pytest tests/unit", "수정했습니다. 통합 테스트가 모두 통과합니다."),
    ],
)
def test_a_run_of_other_tests_backs_no_claim_about_these(command: str, answer: str) -> None:
    assert _decide(command, answer) == "need_evidence"


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        ("pytest tests/e2e -q", "Fixed; the e2e tests pass."),
        ("npx playwright test", "Fixed; end-to-end tests are green."),
        ("yarn cypress run", "Fixed. E2E tests pass."),
        ("npm run test:e2e", "Fixed; the e2e tests pass."),
        ("pytest -m integration", "Fixed; the integration tests pass."),
        ("cargo test --test integration", "Fixed; integration tests pass."),
        ("pytest tests/unit tests/integration", "Fixed; unit and integration tests pass."),
        ("pytest tests/unit", "Fixed; the unit tests pass."),
        ("pytest tests/unit", "已修复，单元测试全部通过。"),
        # the suite as configured backs any level; a claim of no level, any run
        ("pytest -q", "Fixed; the e2e tests pass."),
        ("npm test", "Fixed; the integration tests pass."),
        ("pytest tests/unit -q", "Fixed; the tests pass."),
        # a number that merely follows a word is no level ("it", "units" of measure)
        ("pytest tests/test_units.py", "Fixed; the tests pass."),
    ],
)
def test_a_run_of_these_tests_or_of_all_backs_the_claim(command: str, answer: str) -> None:
    assert _decide(command, answer) == "pass"
