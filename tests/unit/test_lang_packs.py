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
}


@pytest.mark.parametrize(
    ("code", "sentence", "expected"),
    [(code, s, e) for code, rows in PACK_TABLES.items() for s, e in rows],
)
def test_each_pack_reads_its_sentences(code: str, sentence: str, expected: str) -> None:
    found = {c.kind for c in claims(sentence)}
    assert found == set(expected.split()), (code, sentence, found)


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
        ("Fix add() in calc.py.", False),
        ("Update README.md with the install command.", False),
    ],
)
def test_a_requirement_only_an_image_can_show(text: str, visual: bool) -> None:
    from donecheck.actors.words.claims import is_visual

    assert is_visual(text) is visual
