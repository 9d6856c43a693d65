"""Whether a source backs or contradicts an approval claim, subject by subject.

"The budget was approved" is backed only by a source that records approval of
the budget — not of the design, not of "it" in another paragraph. A source
that says the budget's approval is pending, incomplete or refused contradicts
the claim. When sources disagree, the latest statement about the subject wins
(a later "the budget is now approved" settles an earlier "pending").

What a statement is about: the subject its sentence names ("the budget was
approved", "预算尚未批准"); when it names none ("approval has not been
completed"), the words just before it in the same paragraph (a heading, a
"Budget request:" label). Subjects match when they share a content word (a
character pair in Chinese, Japanese or Korean) and do not name different numbers
("Q3 budget" is not "Q4 budget").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

from donecheck.actors.messages import Acceptance, ApprovalStatement
from donecheck.actors.words.claims import (
    ApprovalClaim,
    approval_claims,
    approval_statements,
    strip_code,
)
from donecheck.actors.words.lang import PACKS

__all__ = [
    "ApprovalCheck",
    "ApprovalRecords",
    "Source",
    "check_approval",
    "claim_contexts",
    "rejection",
    "source_statements",
    "statements_of",
    "subject_units",
    "unbacked_approvals",
    "vet_acceptance",
]

MAX_STATEMENTS = 2000
"""Approval statements read per review; later sources beyond this are not read."""
_QUOTE = 240
"""The longest source sentence a finding quotes."""
_CONTEXT = 300
"""How far back in a paragraph a subject-less statement looks for what it is about."""


@dataclass(frozen=True, slots=True)
class Source:
    """A text that can record an approval, and the id that cites it."""

    cite: str
    text: str
    title: str = ""
    """What the text is (a tool output's command, an attachment's name): read as
    the start of its context ("gh pr view 12" → the PR)."""


@dataclass(frozen=True, slots=True)
class ApprovalCheck:
    """What the sources say about one approval claim."""

    claim: ApprovalClaim
    status: Literal["backed", "contradicted", "unbacked"]
    cite: str = ""
    """The source that decided it (empty when unbacked)."""
    quote: str = ""
    """The sentence of that source (at most 240 characters)."""


# Words that say nothing about *what* was approved, of every language.
_STOP = frozenset(word for pack in PACKS for word in pack.stop_words.split())
# Approval and negation vocabulary and particles: they split a CJK run into subject words.
_CJK_VOCAB = re.compile("|".join(pack.vocabulary for pack in PACKS if pack.vocabulary))
_WORD = re.compile(r"[a-z0-9\u00c0-\u024f\u0400-\u04ff][a-z0-9\u00c0-\u024f\u0400-\u04ff_-]*")
# Kana, Han and Hangul: read as character pairs (a Korean word carries its particle)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+")
_ALIASES = tuple(alias for pack in PACKS for alias in pack.aliases)


# What an approval is usually about, across the packs' languages: each word stands
# for its English form, so "予算" in an answer meets "budget" in a source.
_CANONICAL = {
    word: canonical for pack in PACKS for canonical, words in pack.usual_subjects for word in words
}
_CJK_CANONICAL = {w: c for w, c in _CANONICAL.items() if _CJK_RUN.fullmatch(w)}


def subject_units(text: str) -> frozenset[str]:
    """The content words of ``text``: lower-cased, plural ``s`` dropped, function and
    approval words removed; in Chinese, Japanese and Korean, character pairs of the runs
    left between approval words. A usual subject in another language adds its
    English form ("予算" → "budget")."""
    lowered = text.lower()
    for long, short in _ALIASES:
        lowered = lowered.replace(long, short)
    units: set[str] = set()
    for word in _WORD.findall(lowered):
        if word in _STOP or len(word) < 2:
            continue
        units.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    for run in _CJK_RUN.findall(lowered):
        for part in _CJK_VOCAB.split(run):
            if len(part) == 1:
                units.add(part)
            units.update(part[i : i + 2] for i in range(len(part) - 1))
    units.update(_CANONICAL[u] for u in list(units) if u in _CANONICAL)
    units.update(c for w, c in _CJK_CANONICAL.items() if w in lowered)
    return frozenset(units)


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a & b:
        return False
    numbers_a = {u for u in a if any(ch.isdigit() for ch in u)}
    numbers_b = {u for u in b if any(ch.isdigit() for ch in u)}
    return not (numbers_a and numbers_b and not numbers_a & numbers_b)


def _context(source: Source, text: str, at: int) -> str:
    """The paragraph text just before position ``at`` (the heading or label a
    subject-less statement belongs to), after the source's title."""
    start = max(text.rfind("\n\n", 0, at), at - _CONTEXT, 0)
    return f"{source.title}\n{text[start:at]}"


def source_statements(source: Source) -> Iterator[ApprovalStatement]:
    """Every approval statement in one source, positive or not, in order."""
    text = strip_code(source.text)
    for found in approval_statements(text):
        units = subject_units(found.subject)
        if not units:
            units = subject_units(_context(source, text, found.at) + " " + found.sentence)
        yield ApprovalStatement(
            approved=found.approved, units=units, cite=source.cite, sentence=found.sentence
        )


def statements_of(sources: Iterable[Source]) -> list[ApprovalStatement]:
    """The approval statements of ``sources``, in order, at most ``MAX_STATEMENTS``."""
    statements: list[ApprovalStatement] = []
    for source in sources:
        statements.extend(source_statements(source))
        if len(statements) >= MAX_STATEMENTS:
            del statements[MAX_STATEMENTS:]
            break
    return statements


class ApprovalRecords:
    """What the sources of one review say about approvals: their statements."""

    def __init__(self, statements: Sequence[ApprovalStatement]) -> None:
        self.statements = statements

    def check(self, claim: ApprovalClaim, context: str = "") -> ApprovalCheck:
        """Whether the sources back ``claim``, contradict it, or say nothing about
        its subject. ``context`` is the text before the claim in its own answer,
        read when the claim names no subject ("It was approved")."""
        units = subject_units(claim.subject) or subject_units(context[-_CONTEXT:])
        latest: ApprovalStatement | None = None
        for statement in self.statements:
            if not units or not statement.units or _same(units, statement.units):
                latest = statement
        if latest is None:
            return ApprovalCheck(claim, "unbacked")
        status: Literal["backed", "contradicted"] = "backed" if latest.approved else "contradicted"
        quote = latest.sentence
        if len(quote) > _QUOTE:
            quote = quote[: _QUOTE - 1] + "…"
        return ApprovalCheck(claim, status, latest.cite, quote)


def check_approval(
    claim: ApprovalClaim, sources: Sequence[Source], context: str = ""
) -> ApprovalCheck:
    """:meth:`ApprovalRecords.check` for one claim."""
    return ApprovalRecords(statements_of(sources)).check(claim, context)


def claim_contexts(answer: str) -> Iterator[tuple[ApprovalClaim, str]]:
    """Each approval claim of ``answer`` with the answer text before it."""
    text = strip_code(answer)
    for claim in approval_claims(text):
        yield claim, text[: max(text.find(claim.sentence), 0)]


def unbacked_approvals(text: str, statements: Sequence[ApprovalStatement]) -> list[ApprovalCheck]:
    """The approvals a model-written ``text`` states that no source backs: each one a
    source contradicts or none records."""
    stated = list(claim_contexts(text))
    if not stated:
        return []
    records = ApprovalRecords(statements)
    return [
        checked
        for claim, context in stated
        if (checked := records.check(claim, context)).status != "backed"
    ]


def rejection(checked: ApprovalCheck, whose: str) -> str:
    """The card's note for a model's statement an approval check rejected."""
    said = (
        f"{checked.cite} says “{checked.quote}”"
        if checked.status == "contradicted"
        else "no source records that approval"
    )
    return f"Rejected {whose} statement “{checked.claim.sentence}”: {said}."


def vet_acceptance(acceptance: Acceptance, statements: Sequence[ApprovalStatement]) -> Acceptance:
    """A judge's pre-analysis without the approvals it states that no source backs
    (SPEC §5, S4): a constraint, assumption or reading "the budget is approved" where
    the minutes say it is not would reach the review as a premise. Each is dropped,
    with a note; items quote the request and stay."""
    if acceptance.method != "judge":
        return acceptance
    notes: list[str] = []

    def kept(text: str) -> bool:
        rejected = unbacked_approvals(text, statements)
        notes.extend(rejection(r, "the pre-analysis's") for r in rejected)
        return not rejected

    constraints = tuple(c for c in acceptance.constraints if kept(c))
    assumptions = tuple(a for a in acceptance.assumptions if kept(a))
    understanding = acceptance.understanding if kept(acceptance.understanding) else ""
    if not notes:
        return acceptance
    return msgspec.structs.replace(
        acceptance,
        constraints=constraints,
        assumptions=assumptions,
        understanding=understanding,
        notes=(*acceptance.notes, *dict.fromkeys(notes)),
    )
