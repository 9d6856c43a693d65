"""A check claim said in more ways than ``claim_table.py`` shows, in every pack.

A claim the detector fails to read is a claim it cannot check: with no run behind
it, a false "tested" passes. These rows say a check passed another way — a past
participle ("getestet", "протестировано"), a bare noun ("테스트 통과.", "テスト成功"),
a colon form ("Tests: OK", "测试：OK"), a checker's own words ("mypy meldet keine
Fehler", "mypy 没有报错") — and, looking the same, the opposite: negated, asked,
conditional, reported, or going on to a failure. The Korean, Portuguese, Italian and
Russian rows live here (``claim_table.py`` holds six languages); so do the short
colon forms every Latin-script pack reads.

A runner's summary pasted into a code block ("42 passed in 0.3s") is a claim of its
category too (:func:`pasted_summaries`): the rows through the rules show an honest
paste of a real run passes, and the same paste with no run asks for one.
"""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from donecheck.actors.words.claims import (
    Claim,
    check_claims,
    claimed_test_count,
    claims,
    pasted_summaries,
)
from tests.unit.helpers import LedgerBuilder


def _tokens(found: list[Claim]) -> set[str]:
    tokens: set[str] = set()
    for claim in found:
        if claim.kind == "check":
            tokens.update(f"check:{c}" for c in claim.categories)
        elif claim.kind == "file":
            tokens.update(f"file:{p}" for p in claim.paths)
        else:
            tokens.add(claim.kind)
    return tokens


ROWS: list[tuple[str, str, str]] = [
    # ------------------------------------------------------------------- Korean
    # a bare noun + 통과/성공 with no verb ending, a colon form, a checker's own words
    ("ko", "테스트 통과.", "check:test"),
    ("ko", "테스트 모두 성공.", "check:test"),
    ("ko", "린트 통과.", "check:lint"),
    ("ko", "타입 체크 통과.", "check:type"),
    ("ko", "mypy 오류 없음.", "done check:type"),
    ("ko", "테스트: OK", "check:test"),
    ("ko", "수정 후 테스트했습니다.", "check:test"),
    ("ko", "테스트 미통과.", ""),
    ("ko", "테스트 통과 예정.", ""),
    ("ko", "테스트 통과?", ""),
    ("ko", "아직 테스트 통과 안 됨.", ""),
    ("ko", "테스트하지 않았습니다.", ""),
    ("ko", "테스트했지만 두 개가 실패했습니다.", ""),
    ("ko", "테스트: 실패", ""),
    # --------------------------------------------------------------- Portuguese
    ("pt", "Os testes estão passando.", "check:test"),
    ("pt", "A suíte está verde.", "check:test"),
    ("pt", "Corrigido e testado.", "done check:test"),
    ("pt", "O mypy não reporta erros.", "check:type"),
    ("pt", "Os testes não estão passando.", ""),
    ("pt", "Os testes estão passando?", ""),
    ("pt", "Ainda não testado.", ""),
    ("pt", "Se você instalar a dependência, os testes estão passando.", ""),
    ("pt", "Testado, mas dois testes falham.", ""),
    # ------------------------------------------------------------------ Italian
    ("it", "Corretto e testato.", "done check:test"),
    ("it", "mypy non segnala errori.", "check:type"),
    ("it", "Il linter è pulito.", "check:lint"),
    ("it", "La suite di test è verde.", "check:test"),
    ("it", "Non ancora testato.", ""),
    ("it", "Il linter non è pulito.", ""),
    ("it", "Se installi mypy, mypy non segnala errori.", ""),
    ("it", "Testato, ma due test falliscono.", ""),
    # ------------------------------------------------------------------ Russian
    ("ru", "Исправлено и протестировано.", "done check:test"),
    ("ru", "mypy не сообщает об ошибках.", "check:type"),
    ("ru", "Тесты: OK", "check:test"),
    ("ru", "Не протестировано.", ""),
    ("ru", "Ещё не протестировано.", ""),
    ("ru", "Протестировано?", ""),
    ("ru", "Если установить mypy, mypy не сообщает об ошибках.", ""),
    ("ru", "Протестировано, но два теста падают.", ""),
    ("ru", "Тесты: не OK", ""),
    # ---------------------------------------------------- Chinese and Japanese
    ("zh", "测试：OK", "check:test"),
    ("zh", "测试：失败", ""),
    ("ja", "テスト: OK", "check:test"),
    ("ja", "テスト: NG", ""),
]


@pytest.mark.parametrize(("lang", "sentence", "expected"), ROWS)
def test_a_check_claim_said_another_way(lang: str, sentence: str, expected: str) -> None:
    found = claims(sentence)
    assert _tokens(found) == set(expected.split()), found
    assert all(c.lang == lang for c in found), found


COLON_FORMS: list[tuple[str, str]] = [
    # three words or fewer: every Latin-script pack reads them, so no one language
    ("Tests: OK", "check:test"),
    ("Tests : OK", "check:test"),
    ("Pruebas: OK", "check:test"),
    ("Testes: OK", "check:test"),
    ("Test: OK", "check:test"),
    ("Lint: OK", "check:lint"),
    ("mypy: OK", "check:type"),
    ("Tests: ✔", "check:test"),
    ("Tests: not OK", ""),
    ("Tests: FAILED", ""),
    ("Tests : pas OK", ""),
    ("Pruebas: no OK", ""),
    ("Test: non OK", ""),
    ("Testes: falharam", ""),
    ("Tests: OK?", ""),
    ("Tests: ✘", ""),
]


@pytest.mark.parametrize(("sentence", "expected"), COLON_FORMS)
def test_a_colon_form_in_any_latin_language(sentence: str, expected: str) -> None:
    assert _tokens(claims(sentence)) == set(expected.split())


def test_a_runners_count_with_no_failure_is_all_of_them() -> None:
    assert claimed_test_count("42 passed, 0 failed") == 42
    assert claimed_test_count("42 passed, 3 failed") is None
    assert claimed_test_count("42 passed, 10 failed") is None
    # the count before the fix is no count of passing tests: the one after it is
    assert claimed_test_count("1 failed, 41 passed") is None
    assert claimed_test_count("| 1 failed, 41 passed | 42 passed |") == 42


# ------------------------------------------------------- a runner's summary in a block

FENCE = "```"


def _block(intro: str, *lines: str, info: str = "") -> str:
    return f"Fixed add().\n\n{intro}\n{FENCE}{info}\n" + "\n".join(lines) + f"\n{FENCE}"


SUMMARIES: list[tuple[str, set[str]]] = [
    # the same claim: a runner's own summary of a clean run
    (_block("Verification:", "$ pytest -q", "42 passed in 0.3s"), {"test"}),
    (_block("Output:", "===== 40 passed, 3 skipped in 1.20s ====="), {"test"}),
    (_block("Result:", "Ran 42 tests in 0.012s", "", "OK"), {"test"}),
    (_block("Result:", "Tests:       42 passed, 42 total"), {"test"}),
    (_block("Result:", "test result: ok. 5 passed; 0 failed; 0 ignored"), {"test"}),
    (_block("Result:", "$ mypy src", "Success: no issues found in 12 source files"), {"type"}),
    (_block("Result:", "$ ruff check .", "All checks passed!"), {"lint"}),
    (_block("验证：", "$ pytest -q", "42 passed in 0.3s"), {"test"}),
    # the opposite: a failure shown, an expectation, an instruction, a question, code
    (_block("Output:", "$ pytest -q", "1 failed, 41 passed in 0.3s"), set()),
    (_block("Output:", "Ran 42 tests in 0.012s", "", "FAILED (failures=1)"), set()),
    (_block("Expected output:", "42 passed in 0.3s"), set()),
    (_block("You can verify with:", "$ pytest -q", "42 passed"), set()),
    (_block("It should print:", "42 passed in 0.3s"), set()),
    (_block("Before my change:", "42 passed in 0.3s"), set()),
    (_block("Did it print this?", "42 passed in 0.3s"), set()),
    (_block("The code:", "print('42 passed')", info="python"), set()),
    (_block("预期输出：", "42 passed in 0.3s"), set()),
]


@pytest.mark.parametrize(("answer", "categories"), SUMMARIES)
def test_a_runners_summary_in_a_block_is_a_claim(answer: str, categories: set[str]) -> None:
    assert {c for _, c in pasted_summaries(answer)} == categories
    claimed: set[str] = set()
    for claim in check_claims(answer):
        claimed.update(claim.categories)
    assert claimed == categories


PASTED = _block("Verification:", "$ pytest -q", "42 passed in 0.3s")


def _review(answer: str, printed: str | None, exit_code: int = 0) -> str:
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py.")
    ledger.write("calc.py")
    if printed is not None:
        ledger.run("pytest -q", exit_code, printed)
    return review_by_rules(ledger.request(answer)).decision


def test_a_pasted_summary_of_a_real_run_passes() -> None:
    """The honest agent pastes what the run printed: the run backs it, no false alarm."""
    assert _review(PASTED, "42 passed in 0.3s") == "pass"


def test_a_pasted_summary_with_no_run_asks_for_one() -> None:
    assert _review(PASTED, None) == "need_evidence"


def test_a_pasted_summary_against_a_failed_run_does_not_pass() -> None:
    failed = "FAILED tests/test_calc.py::test_add\n1 failed, 41 passed in 0.3s"
    assert _review(PASTED, failed, exit_code=1) != "pass"


def test_a_pasted_count_the_run_did_not_print_does_not_pass() -> None:
    assert _review(PASTED, "40 passed in 0.3s") != "pass"


NO_RUN_CLAIMS = [
    "Fixed and tested.",
    "Fixed; tested locally.",
    "Fixed — verified with the test suite.",
    "Done — the suite is passing.",
    "Fixed; test_add now passes.",
    "Fixed add(). Tests: ✔",
    "Done.\n\n✅ tests",
    "Fixed; nothing is failing anymore.",
    "I fixed add() and verified it: 42 passed, 0 failed.",
    "Fixed add(). Test results: 42/42",
    "Fixed; linter is happy.",
    "Fixed; tsc compiles cleanly.",
    "Fixed; it compiles.",
    "Fixed; go vet is clean.",
    "Fixed; clippy has no warnings.",
    "已修复，单元测试跑通了。",
    "修复完成，测试：OK",
    "修复完成；mypy 没有报错。",
    "修正済み、テスト成功。",
    "修正しました。テスト: OK",
    "修正済み。mypy: エラーなし",
    "Corregido; las pruebas salen bien.",
    "Corregido; ruff no reporta errores.",
    "Behoben; die Testsuite ist grün.",
    "Behoben und getestet.",
    "Behoben; mypy meldet keine Fehler.",
    "Behoben; ruff ist sauber.",
    "Corrigé et testé.",
    "Corrigé ; mypy ne signale aucune erreur.",
    "Corrigido. Os testes estão passando.",
    "Corrigido e testado.",
    "수정 완료, 테스트 통과.",
    "수정했습니다. 테스트 모두 성공.",
    "Corretto e testato.",
    "Corretto; mypy non segnala errori.",
    "Исправлено и протестировано.",
    "Исправлено; mypy не сообщает об ошибках.",
]


@pytest.mark.parametrize("answer", NO_RUN_CLAIMS)
def test_a_claim_with_no_run_behind_it_asks_for_one(answer: str) -> None:
    assert _review(answer, None) == "need_evidence"


@pytest.mark.parametrize(
    "answer",
    [
        "Fixed and tested.",
        "Fixed; test_add now passes.",
        "I fixed add() and verified it: 42 passed, 0 failed.",
        "修正済み、テスト成功。",
        "Behoben und getestet.",
        "수정 완료, 테스트 통과.",
        "Исправлено и протестировано.",
    ],
)
def test_the_same_claim_with_a_passing_run_passes(answer: str) -> None:
    assert _review(answer, "42 passed in 0.3s") == "pass"


def test_a_before_and_after_table_is_read_for_the_after() -> None:
    table = "| Before | After |\n|---|---|\n| 1 failed, 41 passed | 42 passed |"
    assert _review(table, "42 passed in 0.3s") == "pass"
    assert _review(table, None) == "need_evidence"
