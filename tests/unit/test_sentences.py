"""Where a sentence ends: not after an abbreviation that goes on in lower case ("e.g.
calc.py"), nor after a German ordinal date ("am 3. Mai") — a claim split there loses
its object or its subject — and still after a number or an abbreviation that ends a
sentence."""

from __future__ import annotations

import pytest

from donecheck.actors.words.claims import claims, sentences


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("I updated several files, e.g. calc.py and utils.py.", 1),
        ("Fixed it, i.e. the tests pass now.", 1),
        ("Small fixes (typos, spacing etc.) in README.md were made.", 1),
        ("Der Vorstand hat das Budget am 3. Mai genehmigt.", 1),
        ("Die Tests liefen am 12. Dezember durch, z.B. test_calc.py.", 1),
        ("Le budget a été approuvé p.ex. par le conseil.", 1),
        # what ends a sentence still does
        ("I ran it 3 times. Then I stopped.", 2),
        ("I counted to 3. Then the tests passed.", 2),
        ("Tests pass etc. Next I will deploy.", 2),
        ("Done. All tests pass.", 2),
    ],
)
def test_a_sentence_ends_where_it_ends(text: str, count: int) -> None:
    assert len(sentences(text)) == count, sentences(text)


def test_a_claim_keeps_its_subject_after_a_date_or_an_abbreviation() -> None:
    assert [c.kind for c in claims("Das Budget wurde am 3. Mai genehmigt.")] == ["approved"]
    (claim,) = [c for c in claims("Fixed it, i.e. all tests pass now.") if c.kind == "check"]
    assert claim.sentence == "Fixed it, i.e. all tests pass now."
