"""A check the request forbids running is no item to steer on (a public Harbor run of
Claude Code 2.1.50, sourcegraph/CodeScaleBench `sgonly_aspnetcore-code-review-00`: a
tool preamble's "Verify locally — Run tests with Bash" beside the task's "Do NOT run
tests — the evaluation system handles verification" steered for "no passing run of
the tests")."""

from __future__ import annotations

import pytest

from donecheck.actors.words.claims import forbidden_checks


@pytest.mark.parametrize(
    ("sentence", "forbidden"),
    [
        # the same prohibition, every way it is written
        ("Do NOT run tests — the evaluation system handles verification", {"test"}),
        ("Don't run the test suite; CI does it.", {"test"}),
        ("No need to run the tests.", {"test"}),
        ("Never execute the linter locally.", {"lint"}),
        ("不要运行测试，评测系统会验证。", {"test"}),
        ("请勿执行测试。", {"test"}),
        ("テストは実行しないでください。", {"test"}),
        ("테스트를 실행하지 마세요.", {"test"}),
        ("No ejecutes las pruebas.", {"test"}),
        ("Führe die Tests nicht aus.", {"test"}),
        ("Die Tests nicht ausführen.", {"test"}),
        ("N'exécute pas les tests.", {"test"}),
        ("Ne lance pas les tests.", {"test"}),
        ("Não execute os testes.", {"test"}),
        ("Non eseguire i test.", {"test"}),
        ("Не запускай тесты.", {"test"}),
        # what looks like it and asks the opposite, or forbids something else
        ("Do not push without running the tests first.", set()),
        ("Do not skip the tests.", set()),
        ("Don't change the tests.", set()),
        ("Do not break the build.", set()),
        ("Run the tests; do not edit them.", set()),
        ("不要修改测试。", set()),
        ("Make sure the tests pass and never commit secrets.", set()),
    ],
)
def test_a_forbidden_check_is_read_in_every_pack(sentence: str, forbidden: set[str]) -> None:
    assert forbidden_checks([sentence]) == forbidden


@pytest.mark.parametrize(
    ("request_text", "steered"),
    [
        (  # the tool preamble's item beside the task's prohibition: not asked
            "1. **Verify locally** — Run tests with Bash to check your changes\n\n"
            "Write /w/review.json.\n\n- Do NOT run tests — the evaluation system handles"
            " verification",
            False,
        ),
        ("Write /w/review.json. No need to run the tests.", False),
        # the same item where nothing forbids it: a run is asked for
        (
            "1. **Verify locally** — Run tests with Bash to check your changes\n\nWrite"
            " /w/review.json.",
            True,
        ),
        ("Write /w/review.json and run the tests. Do not push without running the tests.", True),
    ],
)
def test_a_forbidden_check_is_never_steered_for(request_text: str, steered: bool) -> None:
    from donecheck.actors.review.preanalysis import extract_acceptance
    from donecheck.actors.review.rules import review
    from tests.unit.helpers import LedgerBuilder, view_of

    ledger = LedgerBuilder()
    ledger.open(request_text)
    ledger.write("/w/review.json")
    view = view_of(ledger.entries, "r", request_text)
    verdict = review(view, "I wrote /w/review.json.", extract_acceptance("r", request_text))
    assert (verdict.decision != "pass") is steered, verdict
