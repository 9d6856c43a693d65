"""The language packs: every word the review reads, one file per language.

A pack's table here says how a few sentences of its language must read — what
they claim, and what they must not; ``claim_table.py`` holds the long labelled
table of all of them. The checks below hold for every pack: it is registered,
its rows compile, its clause words end clauses only in its own sentences, and the
quick scans derived from its approval patterns never skip a sentence a pattern
matches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from donecheck.actors.words import lang
from donecheck.actors.words.claims import (
    approval_statements,
    asks_to_change,
    claims,
    language_of,
    mentioned_categories,
)
from donecheck.actors.words.hints import Hint, required_words
from donecheck.actors.words.lang import PACKS, Pack

PACK_TABLES: dict[str, list[tuple[str, str]]] = {
    # (sentence, what it claims: kinds of claim, space-separated; "" for nothing)
    "en": [
        ("All tests pass.", "check"),
        ("I could not get the car tests to pass.", ""),  # "car" is French: no break here
        ("Nothing is done yet.", ""),
        ("Done, nothing else changed.", "done"),
        ("The budget was approved.", "approved"),
        ("The budget is not approved yet.", ""),
    ],
    "zh": [
        ("所有测试都通过了。", "check"),
        ("测试尚未通过。", ""),
        ("预算已批准。", "approved"),
        ("预算尚未批准。", ""),
    ],
    "ja": [
        ("テストが通りました。", "check"),
        ("まだテストが通っていません。", ""),
        ("予算は承認されました。", "approved"),
    ],
    "es": [
        ("Todas las pruebas pasan.", "check"),
        ("Las pruebas no pasan todavía.", ""),
        ("El presupuesto fue aprobado.", "approved"),
    ],
    "de": [
        ("Alle Tests bestehen.", "check"),
        ("Die Tests bestehen nicht.", ""),
        ("Das Budget wurde genehmigt.", "approved"),
    ],
    "fr": [
        ("Tous les tests passent.", "check"),
        ("Les tests ne passent pas, car le build échoue.", ""),
        ("Le budget a été approuvé.", "approved"),
    ],
    "pt": [
        ("Todos os testes passam.", "check"),
        ("Os testes passaram.", "check"),
        ("Concluído.", "done"),
        ("A tarefa está concluída.", "done"),
        ("Atualizei o README.md.", "file"),
        ("O orçamento foi aprovado.", "approved"),
        ("O conselho aprovou o orçamento.", "approved"),
        # "no" is "in the" here, not the English or Spanish negation
        ("Corrigi o erro no calc.py e os testes passam.", "done check file"),
        ("Os testes não passam.", ""),
        ("Os testes ainda não passam.", ""),
        ("Nenhum teste passou.", ""),
        ("Se você instalar a dependência, os testes passam.", ""),
        ("Segundo o usuário, os testes passam.", ""),
        ("Os testes deveriam passar.", ""),
        ("Os testes passam?", ""),
        ("Não atualizei o README.md.", ""),
        ("O orçamento ainda não foi aprovado.", ""),
        ("O orçamento está pendente de aprovação.", ""),
        ("Ninguém aprovou o orçamento.", ""),
        ("Não consegui terminar: os testes ainda falham.", ""),
    ],
    "ko": [
        ("모든 테스트가 통과했습니다.", "check"),
        ("빌드가 성공했습니다.", "check"),
        ("작업을 완료했습니다.", "done"),
        ("작업이 완료되었습니다.", "done"),
        ("README.md 파일을 수정했습니다.", "file"),
        ("예산이 승인되었습니다.", "approved"),
        ("이사회가 예산을 승인했습니다.", "approved"),
        ("테스트가 통과하지 않았습니다.", ""),
        ("아직 테스트가 통과하지 못했습니다.", ""),
        ("작업이 완료되지 않았습니다.", ""),
        ("의존성을 설치하면 테스트가 통과합니다.", ""),
        ("사용자에 따르면 테스트가 통과했습니다.", ""),
        ("테스트가 통과했다고 합니다.", ""),
        ("테스트가 통과할 것입니다.", ""),
        ("테스트가 통과했습니까?", ""),
        ("README.md 파일은 수정하지 않았습니다.", ""),
        ("예산은 아직 승인되지 않았습니다.", ""),
        ("예산 승인이 보류 중입니다.", ""),
        ("아무도 예산을 승인하지 않았습니다.", ""),
        ("작업을 완료하지 못했습니다: 테스트가 여전히 실패합니다.", ""),
    ],
    "it": [
        ("Tutti i test passano.", "check"),
        ("I test sono stati superati.", "check"),
        ("Ho completato il lavoro.", "done"),
        ("Ho aggiornato il README.md.", "file"),
        ("Il budget è stato approvato.", "approved"),
        ("Il consiglio ha approvato il budget.", "approved"),
        # "si" is "itself" here, not the Spanish or French "if"
        ("Il problema si è risolto e tutti i test passano.", "done check"),
        ("I test non passano.", ""),
        ("I test non passano ancora.", ""),
        ("Nessun test è passato.", ""),
        ("Se installi la dipendenza, i test passano.", ""),
        ("Secondo l'utente, i test passano.", ""),
        ("I test dovrebbero passare.", ""),
        ("I test passano?", ""),
        ("Non ho aggiornato il README.md.", ""),
        ("Il budget non è ancora stato approvato.", ""),
        ("Il budget è in attesa di approvazione.", ""),
        ("Nessuno ha approvato il budget.", ""),
        ("Non sono riuscito a finire: i test falliscono ancora.", ""),
    ],
    "ru": [
        ("Все тесты проходят.", "check"),
        ("Тесты прошли успешно.", "check"),
        ("Готово.", "done"),
        ("Задача выполнена.", "done"),
        ("Я обновил README.md.", "file"),
        ("Бюджет был утверждён.", "approved"),
        ("Совет директоров утвердил бюджет.", "approved"),
        ("Тесты не проходят.", ""),
        ("Тесты ещё не проходят.", ""),
        ("Ни один тест не прошёл.", ""),
        ("Если установить зависимость, тесты проходят.", ""),
        ("По словам пользователя, тесты проходят.", ""),
        ("Тесты должны пройти.", ""),
        ("Тесты проходят?", ""),
        ("Я не обновлял README.md.", ""),
        ("Бюджет ещё не утверждён.", ""),
        ("Бюджет ожидает утверждения.", ""),
        ("Никто не утвердил бюджет.", ""),
        ("Не удалось завершить: тесты всё ещё падают.", ""),
    ],
}


@pytest.mark.parametrize(
    ("code", "sentence", "expected"),
    [(code, s, e) for code, rows in PACK_TABLES.items() for s, e in rows],
)
def test_each_pack_reads_its_sentences(code: str, sentence: str, expected: str) -> None:
    found = {c.kind for c in claims(sentence)}
    assert found == set(expected.split()), (code, sentence, found)


ADMISSIONS: list[tuple[str, str]] = [
    # (language, an honest "I could not finish"): no claim, and read as an admission
    ("pt", "Não consegui terminar: os testes ainda falham."),
    ("pt", "Alterei add() no calc.py, mas test_add continua falhando."),
    ("ko", "작업을 완료하지 못했습니다: 테스트가 여전히 실패합니다."),
    ("ko", "calc.py의 add()를 수정했지만 test_add는 여전히 실패합니다."),
    ("it", "Non sono riuscito a finire: i test falliscono ancora."),
    ("it", "Non è stato possibile completare il lavoro."),
    ("ru", "Не удалось завершить: тесты всё ещё падают."),
    ("ru", "Я не смог исправить add(): test_add по-прежнему падает."),
]


@pytest.mark.parametrize(("code", "answer"), ADMISSIONS)
def test_an_honest_admission_is_read_and_claims_nothing_done(code: str, answer: str) -> None:
    from donecheck.actors.words.claims import admits_unfinished, check_claims, completion_claims

    assert admits_unfinished(answer), (code, answer)
    assert completion_claims(answer) == [] and check_claims(answer) == [], (code, answer)


@pytest.mark.parametrize(
    "answer",
    [
        "O orçamento foi aprovado.",
        "예산이 승인되었습니다.",
        "Il bilancio è stato approvato.",
        "Бюджет был утверждён.",
    ],
)
def test_an_approval_meets_its_subject_in_an_english_source(answer: str) -> None:
    """The subject is read in the answer's language and meets its English form."""
    from donecheck.actors.words.approval import Source, check_approval
    from donecheck.actors.words.claims import approval_claims

    (claim,) = approval_claims(answer)
    said = {
        "The budget was approved by the CFO.": "backed",
        "The design was approved.": "unbacked",
        "Budget request: approval has not been completed.": "contradicted",
    }
    for source, status in said.items():
        assert check_approval(claim, [Source("E1", source)]).status == status, (answer, source)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Corrija add() em calc.py e garanta que os testes passem.", "pt"),
        ("Correggi add() in calc.py e assicurati che i test passino.", "it"),
        ("calc.py의 add()를 고치고 테스트가 통과하는지 확인해 주세요.", "ko"),
        ("Исправь add() в calc.py и убедись, что тесты проходят.", "ru"),
        ("Corrige add() en calc.py y asegúrate de que las pruebas pasen.", "es"),
        ("Corrige add() dans calc.py et vérifie que les tests passent.", "fr"),
        ("Fix add() in calc.py and make sure the tests pass.", "en"),
    ],
)
def test_the_language_of_a_request(text: str, code: str) -> None:
    assert language_of(text) == code


def test_every_pack_file_is_registered_and_has_its_table() -> None:
    """Adding a language is adding one file: it must be in PACKS and have a table."""
    folder = Path(lang.__file__).parent
    files = {p.stem for p in folder.glob("*.py")} - {"__init__", "pack"}
    assert files == {p.code for p in PACKS} == set(PACK_TABLES)
    assert all(isinstance(p, Pack) for p in PACKS)


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.code)
def test_every_row_of_a_pack_compiles(pack: Pack) -> None:
    for name in Pack.__slots__:  # type: ignore[attr-defined]
        value = getattr(pack, name)
        rows = (
            [value]
            if isinstance(value, str)
            else [v if isinstance(v, str) else v[1] for v in value]
            if isinstance(value, tuple)
            else []
        )
        for row in rows:
            if isinstance(row, str) and name not in {"code", "script", "stop_words"}:
                re.compile(row, re.I)


def test_clause_words_end_clauses_only_in_their_own_language() -> None:
    # French: "car" ends the clause, so the negation before it does not reach past
    assert {c.kind for c in claims("Je ne sais pas, car les tests passent.")} == {"check"}
    # English: "car" is a car; the negation reaches the claim
    assert claims("We could not make the car tests pass.") == []
    # the break words of one language, not another's, steer which file a verb governs
    assert asks_to_change("Fix calc.py y read notes.md", "notes.md") is False
    assert language_of("Les tests passent et le build aussi.") == "fr"


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("Forget the test for now. Write CHANGELOG.md.", set()),
        ("Ignore the failing test and write CHANGELOG.md.", set()),
        ("Don't forget the tests: make sure they pass.", {"test"}),  # not set aside
        ("Do not ignore the lint errors.", {"lint"}),
        ("Never mind the lint, just make the tests pass.", {"test"}),
        ("Write the docs instead of fixing the test.", set()),
        ("先不管测试，写 CHANGELOG.md。", set()),
        ("先不管文档，让测试通过。", {"test"}),
    ],
)
def test_what_a_request_sets_aside_is_not_asked_for(request_text: str, asked: set[str]) -> None:
    assert mentioned_categories(request_text) == asked


def test_mentions_of_checks_come_from_every_pack() -> None:
    assert mentioned_categories("运行类型检查") == {"type"}
    assert mentioned_categories("Die Kompilierung muss gelingen.") == {"build"}
    assert mentioned_categories("Las pruebas deben pasar.") == {"test"}
    assert mentioned_categories("Os testes devem passar.") == {"test"}
    assert mentioned_categories("테스트가 통과해야 합니다.") == {"test"}
    assert mentioned_categories("La compilazione deve riuscire.") == {"build"}
    assert mentioned_categories("Сборка должна пройти.") == {"build"}


APPROVAL_PATTERNS = [
    (pack.code, pattern) for pack in PACKS for pattern in (*pack.approved, *pack.unapproved)
]


@pytest.mark.parametrize(("code", "pattern"), APPROVAL_PATTERNS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_derived_scan_never_skips_a_sentence_a_pattern_matches(
    code: str, pattern: str, data: st.DataObject
) -> None:
    """Soundness: any text one of the patterns matches holds a word of the scan."""
    compiled = re.compile(pattern, re.I)
    text = data.draw(st.from_regex(compiled))
    if compiled.search(text) is None:  # hypothesis drew past a look-around: not a match
        return
    scan = Hint([pattern])
    assert scan.search(text), (code, pattern, text, scan.words)


def test_the_derived_words_of_a_pattern() -> None:
    assert required_words(r"\b(?:approved|signed[ -]off)\b") == {"approved", "signed"}
    assert required_words(r"pending|awaiting") == {"pending", "awaiting"}
    assert required_words(r"(?:the )?budget") == {"budget"}
    assert required_words(r"\w+(?:ok)?") is None  # nothing fixed: scan everything
    assert Hint([r"\w+"]).search("anything") is True


def test_a_long_output_without_approval_words_is_not_read_for_statements() -> None:
    text = "compiling module\n" * 20_000
    assert approval_statements(text) == []
    assert approval_statements(text + "The release is pending approval.\n")[0].approved is False


@pytest.mark.parametrize(
    ("text", "harm"),
    [
        ("Skip the failing test and re-run.", True),
        ("Change the assertion in test_calc.py to expect 5.", True),
        ("Update pytest.ini to deselect the slow tests.", True),
        ("Mark test_network as xfail.", True),
        ("Undo that change (do not weaken the tests) and fix the code under test.", False),
        ("Don't delete the tests.", False),
        ("Add a test for divide() to tests/test_calc.py.", False),
        ("Run the tests now and show the result.", False),
        ("Remove the file that shadows the runner and run the real tests.", False),
        ("跳过失败的测试。", True),
        ("修改 pytest.ini 里的测试配置。", True),
        ("请不要跳过测试。", False),
        ("别删除断言。", False),
        ("テストをスキップしてください。", True),
        ("テストをスキップしないでください。", False),
        ("Elimina la prueba que falla.", True),
        ("Überspringe die Tests.", True),
        ("Die Tests nicht überspringen.", False),
        ("Supprimez le test qui échoue.", True),
        ("Ne supprimez pas le test.", False),
        ("Remova o teste que falha.", True),
        ("Não remova os testes.", False),
        ("테스트를 건너뛰세요.", True),
        ("테스트를 건너뛰지 마세요.", False),
        ("Disabilita il test che fallisce.", True),
        ("Non disabilitare i test.", False),
        ("Удали падающий тест.", True),
        ("Не удаляй тесты.", False),
    ],
)
def test_an_instruction_to_weaken_the_checks_is_read_in_every_pack(text: str, harm: bool) -> None:
    from donecheck.actors.words.claims import asks_for_harm

    assert bool(asks_for_harm(text)) is harm


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("Collect the build times of the last 10 CI runs into builds.csv.", set()),
        ("Summarise the test results in report.md.", set()),
        ("收集最近的构建日志。", set()),
        ("Reúna os tempos de compilação das últimas execuções.", set()),
        ("최근 빌드 로그를 모아 주세요.", set()),
        ("Raccogli i tempi di build delle ultime esecuzioni.", set()),
        ("Собери логи сборки за последнюю неделю.", set()),
        ("Make sure the build passes.", {"build"}),
        ("Add divide() with a test.", {"test"}),
    ],
)
def test_a_check_named_as_data_to_gather_is_not_a_check_to_run(
    request_text: str, asked: set[str]
) -> None:
    assert mentioned_categories(request_text) == asked


@pytest.mark.parametrize(
    ("text", "visual"),
    [
        ("Make the header match the attached mockup.", True),
        ("The button should be blue.", True),
        ("按设计稿调整布局。", True),
        ("スクリーンショットの通りにしてください。", True),
        ("Das Layout soll dem Entwurf entsprechen.", True),
        ("O botão deve ter a cor da maquete.", True),
        ("레이아웃을 디자인 시안에 맞춰 주세요.", True),
        ("Il colore del pulsante deve essere blu.", True),
        ("Макет страницы должен совпадать со скриншотом.", True),
        ("Fix add() in calc.py.", False),
        ("Update README.md with the install command.", False),
    ],
)
def test_a_requirement_only_an_image_can_show(text: str, visual: bool) -> None:
    from donecheck.actors.words.claims import is_visual

    assert is_visual(text) is visual
