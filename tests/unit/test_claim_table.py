"""The claim detector against labelled sentences in six languages (``claim_table``)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.words.claims import Claim, claims, sentences
from tests.unit.claim_table import CLAIMS


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


@pytest.mark.parametrize(("lang", "sentence", "expected"), CLAIMS)
def test_claims(lang: str, sentence: str, expected: str) -> None:
    found = claims(sentence)
    assert _tokens(found) == set(expected.split()), found
    assert all(c.lang == lang for c in found if c.kind != "file" or lang != "en"), found


def test_the_table_is_large_and_covers_every_language() -> None:
    per_language = Counter(lang for lang, _, _ in CLAIMS)
    assert sum(per_language.values()) >= 150
    assert set(per_language) == {"en", "zh", "ja", "es", "de", "fr"}
    assert min(per_language.values()) >= 20
    negative = Counter(lang for lang, _, expected in CLAIMS if not expected)
    assert min(negative.values()) >= 10


_POSITIVE = [(lang, s) for lang, s, expected in CLAIMS if expected and len(sentences(s)) == 1]
_OPENERS = {
    "en": "If {}, ",
    "zh": "如果{}，",
    "ja": "もし{}なら、",
    "es": "Si {}, ",
    "de": "Wenn {}, ",
    "fr": "Si {}, ",
}
_FILLER = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=30).map(str.strip)


@given(st.sampled_from(_POSITIVE), _FILLER.filter(bool))
def test_a_claim_under_an_opening_condition_is_no_claim(case: tuple[str, str], filler: str) -> None:
    lang, sentence = case
    conditional = _OPENERS[lang].format(filler) + sentence[0].lower() + sentence[1:]
    assert claims(conditional) == [], conditional


@given(st.sampled_from(_POSITIVE))
def test_a_claim_asked_as_a_question_is_no_claim(case: tuple[str, str]) -> None:
    lang, sentence = case
    mark = "？" if lang in {"zh", "ja"} else "?"
    assert claims(sentence.rstrip(".!。！") + mark) == []


@given(st.text(max_size=400))
def test_the_detector_never_raises(text: str) -> None:
    for claim in claims(text):
        assert claim.sentence and claim.kind in {"done", "check", "file", "approved"}
