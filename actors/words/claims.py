"""What an answer claims, read from its text, in the languages of :mod:`.lang`.

One detector, driven by the language packs' tables: that the work is done (or
verified), that checks passed, that named files were written, that something
was approved. Only plain statements of fact count. A negation or a pending form
in the statement's own clause ("tests do not pass yet", "尚未通过", "nicht
bestanden"), a conditional in its clause or opening the sentence ("should pass
once …", "if …, the tests pass", "如果", "wenn", "si"), a question, or reported
speech ("the user said", "据说", "laut") takes it back. Code blocks are ignored.
Where a clause ends is read in the sentence's own languages: the packs that can
read it (:func:`_readers_for`) lend it their clause words, no other pack does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from donecheck.actors.words.hints import Hint
from donecheck.actors.words.lang import PACKS, PUNCTUATION_BREAK, Category, Pack

__all__ = [
    "ApprovalClaim",
    "ApprovalStatement",
    "Category",
    "CheckClaim",
    "Claim",
    "ClaimKind",
    "FileClaim",
    "admits_unfinished",
    "approval_claims",
    "approval_statements",
    "asks_for_change",
    "asks_for_harm",
    "asks_to_change",
    "asks_user",
    "category_of_check",
    "check_claims",
    "claimed_test_count",
    "claimed_test_levels",
    "claims",
    "claims_own_tests",
    "completion_claims",
    "file_claims",
    "forbidden_checks",
    "has_code",
    "is_visual",
    "language_of",
    "mentioned_categories",
    "mentioned_paths",
    "named_as_input",
    "names_as_verifier",
    "pasted_summaries",
    "path_matches",
    "sentences",
    "set_aside",
    "stated_paths",
    "strip_code",
    "strip_pasted_code",
    "unfinished",
]

ClaimKind = Literal["done", "check", "file", "approved"]

_FENCE = re.compile(r"(```|~~~).*?(?:\1|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_SCRIPTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("kana", _KANA),
    ("hangul", _HANGUL),
    ("han", _HAN),
    ("cyrillic", _CYRILLIC),
)
"""The scripts other than Latin, the one that decides first: a sentence with kana is
Japanese whatever Han characters it has, one with Hangul Korean."""


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement of fact in an answer, and what it is about."""

    kind: ClaimKind
    sentence: str
    lang: str
    """The code of the pack that read it (``en``, ``zh``, ``ko``, ``ru`` …)."""
    phrase: str
    """The words that make the claim."""
    categories: frozenset[Category] = frozenset()
    """For ``check``: which kinds of check it says passed."""
    paths: tuple[str, ...] = ()
    """For ``file``: the paths it says were written."""
    subject: str = ""
    """For ``approved``: what it says was approved, when the sentence names it."""


@dataclass(frozen=True, slots=True)
class _Reader:
    """One language pack compiled, with the take-back words of its whole script."""

    lex: Pack
    done: re.Pattern[str]
    checks: tuple[re.Pattern[str], ...]
    subjects: tuple[tuple[Category, re.Pattern[str]], ...]
    change: re.Pattern[str]
    approved: tuple[re.Pattern[str], ...]
    unapproved: tuple[re.Pattern[str], ...]
    negation: re.Pattern[str]
    conditional: re.Pattern[str]
    reported: re.Pattern[str]
    negation_after: re.Pattern[str] | None
    after_object: re.Pattern[str] | None
    marker: re.Pattern[str] | None


def _union(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns if p), re.I)


@cache
def _readers() -> dict[str, tuple[_Reader, ...]]:
    """The packs compiled, grouped by script. Languages that share a script share
    their take-back words: "Die Tests sind ok, nicht" is read by the English pack
    too, so a German negation is never missed by it."""
    by_script: dict[str, list[Pack]] = {}
    for lex in PACKS:
        by_script.setdefault(lex.script, []).append(lex)
    readers: dict[str, tuple[_Reader, ...]] = {}
    for script, group in by_script.items():
        negation = [lex.negation for lex in group]
        conditional = [lex.conditional for lex in group]
        reported = [lex.reported for lex in group]
        negation_after = _union([lex.negation_after for lex in group if lex.negation_after])
        readers[script] = tuple(
            _Reader(
                lex=lex,
                done=re.compile(lex.done, re.I),
                checks=tuple(re.compile(p, re.I) for p in lex.checks),
                subjects=tuple((cat, re.compile(p, re.I)) for cat, p in lex.subjects),
                change=re.compile(lex.change, re.I),
                approved=tuple(re.compile(p, re.I) for p in lex.approved),
                unapproved=tuple(re.compile(p, re.I) for p in lex.unapproved),
                negation=_union_but(negation, lex.false_friends),
                conditional=_union_but(conditional, lex.false_friends),
                reported=_union_but(reported, lex.false_friends),
                negation_after=negation_after if negation_after.pattern else None,
                after_object=re.compile(lex.after_object, re.I) if lex.after_object else None,
                marker=re.compile(lex.marker, re.I) if lex.marker else None,
            )
            for lex in group
        )
    return readers


def _union_but(patterns: list[str], false_friends: str) -> re.Pattern[str]:
    """:func:`_union` of a script's take-back words, but not where ``false_friends``
    (words of the reader's own language that only look like them) match."""
    union = _union(patterns)
    if not false_friends:
        return union
    return re.compile(f"(?!(?:{false_friends}))(?:{union.pattern})", re.I)


def _script_of(text: str) -> str:
    """The first of :data:`_SCRIPTS` that ``text`` has letters of, or ``""``."""
    return next((name for name, letters in _SCRIPTS if letters.search(text)), "")


def _readers_for(sentence: str) -> tuple[_Reader, ...]:
    """The packs that can read ``sentence``: Japanese when it has kana, Korean when it
    has Hangul, Chinese when it has Han characters and neither, Russian when it has
    Cyrillic letters; English when it has Latin letters, and the other Latin-script
    packs too when the sentence shows their marks (or is too short to tell)."""
    readers = _readers()
    found: tuple[_Reader, ...] = readers.get(_script_of(sentence), ())
    if _LATIN.search(sentence):
        short = len(sentence.split()) <= 3
        found += tuple(
            r
            for r in readers["latin"]
            if short or r.marker is None or r.marker.search(sentence) is not None
        )
    return found


def language_of(text: str) -> str:
    """The language ``text`` is most likely in: the pack of its first script other than
    Latin (``ja`` with kana, ``ko`` with Hangul, ``zh`` with Han characters, ``ru``
    with Cyrillic), else the Latin-script language whose marks occur most (English,
    the first pack, when none does better)."""
    script = _script_of(text)
    if script:
        return next((pack.code for pack in PACKS if pack.script == script), PACKS[0].code)
    first, *others = [(pack.code, pattern) for pack, pattern in _likely()]
    best, score = first[0], 0
    for code, pattern in others:
        hits = len(pattern.findall(text))
        if hits > score:
            best, score = code, hits
    return best if score > len(first[1].findall(text)) else first[0]


@cache
def _likely() -> tuple[tuple[Pack, re.Pattern[str]], ...]:
    """The Latin-script packs with what makes a text likely theirs, English first."""
    return tuple(
        (pack, re.compile(pack.likely or pack.marker, re.I))
        for pack in PACKS
        if pack.script == "latin" and (pack.likely or pack.marker)
    )


def strip_code(text: str) -> str:
    """The answer without fenced code blocks (code is not a claim)."""
    return _FENCE.sub(" ", text)


_CODE_KEYWORD = re.compile(
    r"^\s*(?:import|export|from\s+\S+\s+import|const|let|var|function|def|class|return|"
    r"async|await|public|private|protected|static|package|using|namespace|fn|impl|struct|"
    r"enum|interface|#include|#define|#!)\b.*[(){}\[\];=<>:\"']"
)
_CODE_END = re.compile(r"(?:[;{}(\[]|[)\]}\"'],|=>\s*\{?|\)\s*:|^\s*[)\]}]+;?)\s*$")
_CODE_START = re.compile(r"^\s*(?:[)\]}]|</?[A-Za-z][\w.]*(?:[\s/>]|$)|//|/\*|\*/|\* |@\w+\()")
_INDENTED_CODE = re.compile(r"^(?: {2,}|\t)(?:\S.*[(){}\[\];=<>]|\S.*,$|[\w.$]+$)")
_PROSE_LINE = re.compile(r"^\s*[A-Z][a-z]+(?:\s+[^\s=]+){3,}")
"""A line that reads as a sentence: a capitalised word and three more."""
_LIST_LINE = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•+]|[a-zA-Z]\))\s")
_CONTINUATION = re.compile(r"[ \t]*\\$")
"""A terminal's line continuation: a paste into a shell prompt ends each line with a
backslash."""
CODE_RUN = 3
"""Lines of code in a row that make a paste (fewer may be prose that ends in ``;``)."""


def _code_line(line: str) -> bool:
    if not line.strip() or _LIST_LINE.match(line):
        return False
    return bool(
        _CODE_KEYWORD.match(line)
        or (_CODE_END.search(line) and not _PROSE_LINE.match(line))
        or _CODE_START.match(line)
        or _INDENTED_CODE.match(line)
    )


_HUNK = re.compile(r"^@@ -\d+(?:,(?P<old>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
_DIFF_HEAD = re.compile(
    r"^(?:diff --git |index [0-9a-f]+\.\.[0-9a-f]+|--- (?:a/|/dev/null)|\+\+\+ (?:b/|/dev/null))"
)


def _diff_lines(lines: list[str]) -> set[int]:
    """The lines of unified diffs pasted into ``lines``: their headers and each hunk,
    as long as its ``@@ -a,b +c,d @@`` counts say (context lines indented with a tab,
    as an issue tracker leaves them, count as context). A ``- item`` list with no hunk
    header before it is a list."""
    found: set[int] = set()
    n = 0
    while n < len(lines):
        line = lines[n]
        if _DIFF_HEAD.match(line):
            found.add(n)
            n += 1
            continue
        hunk = _HUNK.match(line)
        if hunk is None:
            n += 1
            continue
        found.add(n)
        old = int(hunk.group("old") or 1)
        new = int(hunk.group("new") or 1)
        n += 1
        while n < len(lines) and (old > 0 or new > 0):
            body = lines[n]
            mark = body[:1]
            if mark == "-":
                old -= 1
            elif mark == "+":
                new -= 1
            elif mark in {" ", "\t", ""}:  # context; blank: its leading space was lost
                old, new = old - 1, new - 1
            elif mark == "\\":
                pass  # "\ No newline at end of file"
            else:
                break
            found.add(n)
            n += 1
    return found


def strip_pasted_code(text: str) -> str:
    """``text`` without code pasted into it with no fence: runs of at least
    :data:`CODE_RUN` code lines (blank lines inside a run belong to it), and then any
    lone code line too, since the message holds pasted code. A terminal's backslash line
    continuations go first, so a pasted prompt reads as its lines."""
    lines = [_CONTINUATION.sub("", line) for line in strip_code(text).splitlines()]
    diff = _diff_lines(lines)
    code = [n in diff or _code_line(line) for n, line in enumerate(lines)]
    drop = [False] * len(lines)
    start = 0
    while start < len(lines):
        if not code[start]:
            start += 1
            continue
        end, count = start, 0
        while end < len(lines) and (code[end] or not lines[end].strip()):
            count += code[end]
            end += 1
        if count >= CODE_RUN:
            drop[start:end] = [True] * (end - start)
        start = end
    if any(drop):
        drop = [d or c for d, c in zip(drop, code, strict=True)]
    return "\n".join(line for line, d in zip(lines, drop, strict=True) if not d)


_INDENTED_BLOCK = re.compile(r"(?:\A|\n[ \t]*\n)(?: {4,}|\t)(?![-*•+] |\d{1,3}[.)] )\S[^\n]*")


def has_code(text: str) -> bool:
    """Whether ``text`` shows code: inline or fenced (``` or ~~~), a Markdown indented
    block of code, or code lines pasted with no fence."""
    if "`" in text or _FENCE.search(text):
        return True
    block = _INDENTED_BLOCK.search(text)
    if block and _code_line(block.group().strip("\n")):
        return True
    return strip_pasted_code(text).split() != strip_code(text).split()


_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|z\.\s?B|d\.\s?h|bzw|usw|ca|ggf|evtl|inkl|"
    r"p\.\s?ex|c\.-à-d|env|p\.\s?ej|aprox|ecc|ad\s?es|p\.\s?es|т\.\s?е|т\.\s?д|напр)\.)$",
    re.I,
)
_GOES_ON = re.compile(r"[a-zà-ÿа-я0-9`'\"(/._-]")
"""How a sentence goes on after an abbreviation: in lower case, a digit, code, a path."""
_ORDINAL = re.compile(r"\b\d{1,2}\.$")
_MONTH = re.compile(
    r"(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|"
    r"Dezember|Jan|Feb|Mär|Apr|Jun|Jul|Aug|Sep|Sept|Okt|Nov|Dez)\b\.?"
)


def _sentence_breaks(text: str, start: int = 0, stop: int | None = None) -> Iterator[re.Match[str]]:
    """The sentence breaks of ``text``, but those after an abbreviation the sentence
    goes on from ("e.g. calc.py", "z.B. test_a.py") and after a German ordinal date
    ("am 3. Mai")."""
    end = len(text) if stop is None else stop
    for brk in _SENTENCE_END.finditer(text, start, end):
        before = text[max(0, brk.start() - 12) : brk.start()]
        after = text[brk.end() : brk.end() + 12]
        if "\n" in brk.group() or not brk.group() or not after:
            yield brk  # a line break, or a CJK mark, always ends one
        elif _ABBREVIATION.search(before) and _GOES_ON.match(after):
            continue
        elif _ORDINAL.search(before) and _MONTH.match(after):
            continue
        else:
            yield brk


def sentences(text: str) -> list[str]:
    """``text`` without code blocks, split into sentences (any of the languages)."""
    return [part for _, part in _sentence_spans(strip_code(text))]


def _sentence_spans(text: str) -> Iterator[tuple[int, str]]:
    """The sentences of ``text`` (code already stripped) with where each starts."""
    pos = 0
    for brk in [*_sentence_breaks(text), None]:
        stop = brk.start() if brk else len(text)
        part = text[pos:stop]
        if part.strip():
            yield pos + len(part) - len(part.lstrip()), part.strip()
        if brk:
            pos = brk.end()


def _question(sentence: str) -> bool:
    end = sentence.rstrip().rstrip("。.")
    return (
        end.endswith(("?", "？"))
        or sentence.startswith("¿")
        or (_KANA.search(sentence) is not None and end.endswith("か"))
    )


@dataclass(frozen=True, slots=True)
class _Breaks:
    """Where clauses end (``clause``), and where a change verb stops governing what
    follows (``object``: the clause breaks and the words that join a new object)."""

    clause: re.Pattern[str]
    object: re.Pattern[str]


@lru_cache(maxsize=4096)
def _breaks(text: str) -> _Breaks:
    """The breaks of ``text``'s own languages: of the packs that can read it (English's
    when none can). "I could not get the car tests to pass": French "car" ends no
    clause of an English sentence."""
    codes = frozenset(r.lex.code for r in _readers_for(text)) or frozenset({PACKS[0].code})
    return _breaks_of(codes)


@cache
def _breaks_of(codes: frozenset[str]) -> _Breaks:
    packs = [p for p in PACKS if p.code in codes]
    clause = "|".join([PUNCTUATION_BREAK, *(p.clause_words for p in packs if p.clause_words)])
    joined = "|".join([clause, *(p.object_words for p in packs if p.object_words)])
    return _Breaks(re.compile(clause, re.I), re.compile(joined, re.I))


def _clause(sentence: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause around ``sentence[start:end]`` begins and ends."""
    breaks = _breaks(sentence).clause
    begin = 0
    for brk in breaks.finditer(sentence, 0, start):
        begin = brk.end()
    after = breaks.search(sentence, end)
    return begin, after.start() if after else len(sentence)


def _stated(reader: _Reader, sentence: str, start: int, end: int, gap: str = "") -> bool:
    """Whether ``sentence[start:end]`` is stated as fact: not negated within its
    clause (or in ``gap``, the words between its parts), not conditional, not
    someone else's words."""
    begin, finish = _clause(sentence, start, end)
    near = max(begin, start - reader.lex.reach)
    if _occurs(reader.negation, sentence, near, start) or (gap and reader.negation.search(gap)):
        return False
    if reader.negation_after is not None and reader.negation_after.match(sentence[end:]):
        return False
    return not _hedged(reader, sentence, start, end, begin, finish)


def _hedged(reader: _Reader, sentence: str, start: int, end: int, begin: int, finish: int) -> bool:
    """Whether a statement is conditional (in its own clause ``[begin, finish)`` or
    the sentence's opening one) or someone else's words."""
    first = _breaks(sentence).clause.search(sentence)
    opening = first.end() if first and first.start() < start else 0
    return (
        _occurs(reader.conditional, sentence, begin, start)
        or _occurs(reader.conditional, sentence, end, finish)
        or _occurs(reader.conditional, sentence, 0, opening)
        or _occurs(reader.reported, sentence, 0, start)
    )


def _occurs(pattern: re.Pattern[str], sentence: str, lo: int, hi: int) -> bool:
    """Whether ``pattern`` matches ``sentence`` at a position in ``[lo, hi)``,
    its look-arounds seeing the whole sentence."""
    if lo >= hi:
        return False
    ahead = min(len(sentence), hi + _LOOKAHEAD)
    return any(m.start() < hi for m in pattern.finditer(sentence, lo, ahead))


_LOOKAHEAD = 60
"""How far past a window a take-back word's own look-ahead may read ("n'y a plus")."""


def _gap(hit: re.Match[str]) -> str:
    """The words between a check's subject and its verb."""
    a, b = hit.span("subject"), hit.span("verb")
    return hit.string[min(a[1], b[1]) : max(a[0], b[0])]


def _joined(sentence: str, gap: str) -> bool:
    """Whether a check's subject and verb stand in one clause (a list's commas
    aside): in "some tests fail, but the build passes" the tests do not pass."""
    breaks = _breaks(sentence).clause
    return all(brk.group(0) in _LIST_MARKS for brk in breaks.finditer(gap))


_LIST_MARKS = frozenset({",", ":", "、", "，", "："})


def _categories(reader: _Reader, subject: str) -> frozenset[Category]:
    found = {cat for cat, pattern in reader.subjects if pattern.search(subject)}
    return frozenset(found) if found else frozenset({"any"})


@lru_cache(maxsize=4096)
def _sentence_claims(sentence: str) -> tuple[Claim, ...]:
    """Every claim of one sentence (cached: the rules, the trivial-stop test and the
    judge's check read the same answer)."""
    if _question(sentence):
        return ()
    found: list[Claim] = []
    paths = _claimed_paths(sentence)
    for reader in _readers_for(sentence):
        code = reader.lex.code
        for hit in reader.done.finditer(sentence):
            if _stated(reader, sentence, hit.start(), hit.end()):
                found.append(Claim("done", sentence, code, hit.group(0)))
        for pattern in reader.checks:
            pos, inside = 0, -1
            while check := pattern.search(sentence, pos):
                hit = check
                pos = hit.start() + 1  # overlapping: "lint, types and tests all pass"
                if hit.start("subject") < inside:
                    continue  # "检查" inside "ruff 检查": one subject, read once
                inside = hit.end("subject")
                gap = _gap(hit)
                if _joined(sentence, gap) and _stated(
                    reader, sentence, hit.start(), hit.end(), gap
                ):
                    categories = _categories(reader, hit.group("subject"))
                    found.append(Claim("check", sentence, code, hit.group(0), categories))
        claimed = [p for s, e, p in paths if _governed(reader, sentence, s, e)]
        if claimed:
            found.append(Claim("file", sentence, code, "", paths=tuple(dict.fromkeys(claimed))))
    found.extend(_sentence_approvals(sentence))
    return tuple(found)


def _verb_start(hit: re.Match[str]) -> int:
    """Where a statement's verb begins: after a subject the pattern reads before it
    ("the budget | was approved"), so the subject's own words ("据说预算",
    "如果预算", "presupuesto no") are read as what comes before the verb."""
    if hit.groupdict().get("subject") and hit.end("subject") < hit.end():
        return hit.end("subject")
    return hit.start()


@lru_cache(maxsize=4096)
def _sentence_approvals(sentence: str) -> tuple[Claim, ...]:
    """Approval statements of one sentence; where two patterns read the same words
    ("the budget was approved by finance"), the reading that names a subject."""
    if _question(sentence) or not _APPROVAL_HINT.search(sentence):
        return ()
    found: list[Claim] = []
    for reader in _readers_for(sentence):
        hits = [
            hit
            for pattern in reader.approved
            for hit in pattern.finditer(sentence)
            if _stated(reader, sentence, _verb_start(hit), hit.end())
        ]
        hits.sort(key=lambda h: (not h.groupdict().get("subject"), h.start()))
        taken: list[tuple[int, int]] = []
        for hit in hits:
            if any(hit.start() < end and start < hit.end() for start, end in taken):
                continue
            taken.append(hit.span())
            subject = hit.groupdict().get("subject") or ""
            phrase = hit.group(0).strip()
            found.append(Claim("approved", sentence, reader.lex.code, phrase, subject=subject))
    return tuple(found)


_ALL_KINDS: frozenset[ClaimKind] = frozenset({"done", "check", "file", "approved"})


def claims(text: str, kinds: frozenset[ClaimKind] = _ALL_KINDS) -> list[Claim]:
    """Every statement of fact in ``text`` of the given kinds, sentence by sentence."""
    return [
        c for sentence in sentences(text) for c in _sentence_claims(sentence) if c.kind in kinds
    ]


# ------------------------------------------------------------------ check claims

_KIND_CATEGORY: dict[str, Category] = {
    "mypy": "type",
    "pyright": "type",
    "tsc": "type",
    "deno check": "type",
    "ruff": "lint",
    "eslint": "lint",
    "flake8": "lint",
    "pylint": "lint",
    "black": "lint",
    "isort": "lint",
    "prettier": "lint",
    "stylelint": "lint",
    "golangci-lint": "lint",
    "shellcheck": "lint",
    "rubocop": "lint",
    "go vet": "lint",
    "cargo clippy": "lint",
    "deno lint": "lint",
    "mix credo": "lint",
    "mix format": "lint",
    "mix dialyzer": "type",
    "mix compile": "build",
    "swift build": "build",
    "flutter analyze": "lint",
    "dart analyze": "lint",
    "cargo check": "build",
    "go build": "build",
    "cargo build": "build",
    "dotnet build": "build",
    "gradle build": "build",
    "bazel build": "build",
    "cmake build": "build",
    "mvn package": "build",
    "make": "build",
    "just": "build",
    "task": "build",
}


def category_of_check(kind: str) -> set[Category]:
    """Categories a check kind belongs to (``npm lint`` → lint, ``pytest`` → test)."""
    categories: set[Category] = set()
    for part in kind.split("+"):
        if part in _KIND_CATEGORY:
            categories.add(_KIND_CATEGORY[part])
        elif part.endswith((" lint",)):
            categories.add("lint")
        elif part.endswith((" build",)):
            categories.add("build")
        elif part.endswith((" typecheck",)):
            categories.add("type")
        elif part.endswith(" check"):
            categories.update({"test", "lint", "type", "build"})
        else:
            categories.add("test")
    return categories


@dataclass(frozen=True, slots=True)
class CheckClaim:
    """The answer states that checks ran and passed."""

    sentence: str
    categories: frozenset[Category]


_TEST_COUNTS = tuple(re.compile(p, re.I) for pack in PACKS for p in pack.test_counts)


_LEVELS = tuple((level, re.compile(p, re.I)) for pack in PACKS for level, p in pack.test_levels)


def claimed_test_levels(sentence: str) -> frozenset[str]:
    """The levels of tests a claim speaks of ("the e2e tests pass": ``e2e``), none
    when it speaks of the tests as such."""
    return frozenset(level for level, pattern in _LEVELS if pattern.search(sentence))


_OWN_TESTS = tuple(re.compile(pack.own_tests, re.I) for pack in PACKS if pack.own_tests)


def claims_own_tests(sentence: str) -> bool:
    """Whether a claim speaks of the tests the agent itself wrote and ran ("both tests
    passed", "my new test passes", "复现脚本通过了"), not of the project's."""
    return any(pattern.search(sentence) for pattern in _OWN_TESTS)


def claimed_test_count(sentence: str) -> int | None:
    """How many tests a claim says passed ("all 10 tests pass", "10/10 tests",
    "10个测试全部通过"), or ``None`` when it names no number."""
    for pattern in _TEST_COUNTS:
        found = pattern.search(sentence)
        if found is not None:
            return int(found.group("n"))
    return None


def check_claims(answer: str) -> list[CheckClaim]:
    """Sentences of ``answer`` that state, as fact, that checks passed — and the
    summary lines of a runner pasted into its code blocks (:func:`pasted_summaries`)."""
    found: dict[str, set[Category]] = {}
    for claim in claims(answer, frozenset({"check"})):
        found.setdefault(claim.sentence, set()).update(claim.categories)
    for line, category in pasted_summaries(answer):
        found.setdefault(line, set()).add(category)
    return [CheckClaim(sentence, frozenset(cats)) for sentence, cats in found.items()]


_SUMMARY_EXTRA = r"\d+\s+(?:skipped|deselected|xfailed|xpassed|warnings?|subtests?\s+passed|todo)"
_SUMMARY_ROWS: tuple[tuple[Category, str], ...] = (
    # pytest: "42 passed in 0.3s", "== 40 passed, 3 skipped in 1.2s =="
    (
        "test",
        rf"^=*\s*(?:{_SUMMARY_EXTRA},\s*)*[1-9]\d*\s+passed(?:,\s*{_SUMMARY_EXTRA})*"
        r"(?:\s+in\s+[\d.]+\s*s(?:econds)?(?:\s*\([\d:.]+\))?)?\s*=*$",
    ),
    # jest "Tests:  42 passed, 42 total", vitest "Tests  42 passed (42)"
    (
        "test",
        rf"^Tests?:?\s+(?:{_SUMMARY_EXTRA},\s*)*[1-9]\d*\s+passed"
        rf"(?:,\s*{_SUMMARY_EXTRA})*(?:,\s*\d+\s+total|\s*\(\d+\))$",
    ),
    # cargo "test result: ok. 5 passed; 0 failed; …", go "ok  example.com/calc  0.003s"
    ("test", r"^test result: ok\.\s+[1-9]\d*\s+passed;\s+0\s+failed\b.*$"),
    ("test", r"^ok\s+\S+\s+\(?[\d.]+m?s\)?$"),
    # unittest's "OK" after its "Ran 42 tests in 0.01s" (both lines: see below)
    ("test", r"^Ran\s+[1-9]\d*\s+tests?\s+in\s+[\d.]+\s*s\n+OK\b.*$"),
    ("type", r"^Success: no issues found in \d+ source files?$"),
    ("lint", r"^All checks passed!$"),
)
"""A runner's own summary of a clean run, one line (unittest: two), as it prints it."""
_SUMMARIES = tuple((category, re.compile(row, re.I | re.M)) for category, row in _SUMMARY_ROWS)
_SUMMARY_FAILED = re.compile(
    r"\b[1-9]\d*\s+(?:failed|errors?|failures?)\b|^(?:FAILED|FAIL|ERROR)\b|^Traceback\b|"
    r"^FAILED\s+\(|\bfailures=[1-9]|\berrors=[1-9]|^Found\s+[1-9]\d*\s+errors?",
    re.M,
)
"""A block that shows a failure anywhere is no summary of a clean run."""
_SUMMARY_INTRO = re.compile(
    r"\b(?:expect(?:ed|s)?|example|sample|e\.g\.|should|would|will|to (?:verify|check|"
    r"confirm|test|reproduce)|run (?:this|it|the following|these)|try|before)\b|"
    r"预期|期望|例如|示例|应该|期待|想定|예상|예시|erwartet|Beispiel|sollte|attendu|exemple|"
    r"devrait|esperad[oa]|ejemplo|debería|esperad|atteso|esempio|dovrebbe|ожида|пример|должн",
    re.I,
)
"""What the words before a block say when the block shows what a run should print,
not what one printed: an expectation, an example, an instruction."""
_PROMPT = re.compile(r"^\s*(?:\$|>|PS>|#)\s")


def pasted_summaries(answer: str) -> list[tuple[str, Category]]:
    """A runner's summary of a clean run ("42 passed in 0.3s", "Ran 42 tests … OK",
    "Tests: 42 passed, 42 total") pasted into a fenced block of ``answer``, as a claim
    of its category: the answer shows a run's result. An honest paste of a real run is
    backed by that run; a made-up one is not. Not when the block shows a failure, nor
    when the words before it introduce an expectation, an example or an instruction
    ("Expected output:", "You can verify with:"), a question, or take it back."""
    found: list[tuple[str, Category]] = []
    last = 0
    for block in _FENCE.finditer(answer):
        before = sentences(answer[last : block.start()])
        last = block.end()
        body = block.group(0).split("\n", 1)[1] if "\n" in block.group(0) else ""
        body = re.sub(r"\n?(?:```|~~~)\s*$", "", body)
        if _SUMMARY_FAILED.search(body) or (before and _not_a_run(before[-1])):
            continue
        lines = "\n".join(
            line.strip() for line in body.splitlines() if line.strip() and not _PROMPT.match(line)
        )
        for category, pattern in _SUMMARIES:
            found.extend((" ".join(m.group(0).split()), category) for m in pattern.finditer(lines))
    return found


def _not_a_run(intro: str) -> bool:
    """Whether the sentence before a block says it shows no run of this answer's."""
    if _question(intro.rstrip(":： ")) or _SUMMARY_INTRO.search(intro):
        return True
    return any(
        r.negation.search(intro) or r.conditional.search(intro) or r.reported.search(intro)
        for r in _readers_for(intro)
    )


@cache
def _pack_patterns(field: str) -> dict[str, re.Pattern[str]]:
    """One pack field compiled per language (empty rows left out)."""
    return {
        pack.code: re.compile(str(getattr(pack, field)), re.I)
        for pack in PACKS
        if getattr(pack, field)
    }


def _read_by(sentence: str, field: str) -> bool:
    patterns = _pack_patterns(field)
    return any(
        (pattern := patterns.get(reader.lex.code)) is not None and pattern.search(sentence)
        for reader in _readers_for(sentence)
    )


def is_visual(text: str) -> bool:
    """Whether a requirement is one only an image can show ("the button is blue",
    "matches the screenshot", "布局与设计稿一致")."""
    return any(
        (pattern := _pack_patterns("visual").get(pack.code)) is not None
        and pattern.search(text) is not None
        for pack in PACKS
    )


def admits_unfinished(answer: str) -> str:
    """The sentence of ``answer`` that says the work is not finished or a check still
    fails ("The tests still fail: add() needs the new API", "我无法访问该接口"),
    or ``""``."""
    for sentence in sentences(answer):  # a question too: "I could not …: which one?"
        if _read_by(sentence, "admits"):
            return sentence
    return ""


def asks_for_harm(text: str) -> str:
    """The sentence of ``text`` that tells the agent to weaken what verifies its
    work (skip, delete or loosen a test or an assertion, edit the test
    configuration or a gate), or ``""``. "Undo that change (do not weaken the
    tests)" does not, nor "die Tests nicht überspringen": a negation before the
    instruction in its clause, or inside it, takes it back."""
    patterns = _pack_patterns("harm")
    for sentence in sentences(text):
        for reader in _readers_for(sentence):
            pattern = patterns.get(reader.lex.code)
            if pattern is None:
                continue
            for hit in pattern.finditer(sentence):
                begin, _ = _clause(sentence, hit.start(), hit.end())
                near = max(begin, hit.start() - reader.lex.reach)
                words = hit.group().split()
                inner = " ".join(words[1:-1])  # "Tests nicht überspringen": not its verb
                if not (
                    _occurs(reader.negation, sentence, near, hit.start())
                    or (inner and reader.negation.search(inner))
                ):
                    return sentence
    return ""


_CLIENT_ERROR = re.compile(
    r"\W{0,3}(?:You(?:'|’)ve (?:hit|reached) your (?:\w+ )?limit\b|"
    r"Claude (?:AI )?usage limit reached\b|API Error:\s|Credit balance is too low\b|"
    r"Invalid API key\b|(?:Error: )?Not logged in\b|Prompt is too long\b|"
    r"stream error:\s|Request timed out\b)"
)
"""What Claude Code and Codex print in place of an answer when the model could not
answer (a usage limit, an API error, a login): a run that ends there did nothing."""
_CLIENT_ERROR_CHARS = 600


def unfinished(answer: str) -> str:
    """Why ``answer`` is no final answer, or ``""``: it is empty, or its last sentence
    announces a next step ("Now let me run this analysis script.") — the run ended
    mid-work, whatever came before. An offer ("…if you want", a question) is not one."""
    if len(answer) <= _CLIENT_ERROR_CHARS and _CLIENT_ERROR.match(answer):
        return f"it ended on the agent CLI's own error, not an answer: “{answer.strip()[:200]}”"
    said = sentences(answer)
    if not said:
        return "" if has_code(answer) else "it ended with no final text"
    last = said[-1]
    if _read_by(last, "next_step") and not _OFFER.search(last):
        return f"its last words announce a next step and end there: “{last[:200]}”"
    return ""


_OFFER = re.compile("|".join([r"[?？]\s*$", *(pack.offer for pack in PACKS if pack.offer)]), re.I)
"""A next step offered, not announced ("I can add tests if you want", "Shall I…?")."""


def asks_user(answer: str) -> str:
    """The sentence of ``answer`` that asks the user for something the agent needs to
    go on (a token, a key, access), or ``""``. In an answer that says the work is
    done, only a question counts: "Please set OPENAI_API_KEY before you run it" after
    finished work is advice, not a wait."""
    done = bool(completion_claims(answer))
    for sentence in sentences(answer):
        asked = sentence.rstrip().endswith(("?", "？"))
        if _read_by(sentence, "asks_user") and (not done or asked):
            return sentence
    return ""


def completion_claims(answer: str) -> list[str]:
    """Sentences of ``answer`` that state, as fact, that the work is finished."""
    return list(dict.fromkeys(c.sentence for c in claims(answer, frozenset({"done"}))))


# ------------------------------------------------------------------ file claims

_EXTENSIONS = (
    "py|pyi|ipynb|js|mjs|cjs|ts|tsx|jsx|vue|svelte|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|"
    "rb|php|pl|lua|r|scala|sh|bash|zsh|ps1|bat|sql|html?|css|scss|less|md|rst|txt|json|jsonl|"
    "ya?ml|toml|ini|cfg|conf|env|xml|csv|tsv|lock|gradle|properties|proto|graphql|tf|dockerfile|"
    "makefile|mk|cmake|svg|tex|pyx|pxd|patch|diff|log|dart|ex|exs|erl|hrl|hs|ml|mli|clj|cljs|"
    "elm|nim|zig|jl|groovy|bzl|nix|fsx|sol|f90|cu|cuh|mdx|astro|prisma|hcl|j2|jinja"
)
_PATH = re.compile(
    rf"""(?iax)
    `(?P<quoted>[^`\s]{{1,200}})`                               # `anything/quoted.ext`
    | (?<![\w/.@:-])(?P<bare>(?:[\w.-]+/)*[\w-][\w.-]*\.(?:{_EXTENSIONS}))(?![\w/-])
    | (?<![\w/.@:-])(?P<nested>/?(?:[\w.-]+/)+[\w-][\w-]*\.[a-z][a-z0-9]{{0,7}})(?![\w/-])
    | (?<![\w/.@:-])(?P<special>(?:[\w.-]+/)*
        (?:Dockerfile|Makefile|Justfile|\.gitignore|\.env))(?![\w./-])
    """
)
_QUOTED_PATH = re.compile(rf"(?i)^(?:\./)?(?:[\w.@-]+/)*[\w.@-]+(?:\.(?:{_EXTENSIONS})|/)$")
_LIST_ONLY = re.compile(
    r"(?i)^[\s,`'\"、]*(?:(?:"
    + "|".join(pack.list_words for pack in PACKS if pack.list_words)
    + r")[\s,`'\"、]*)?$"
)
_LISTED_AFTER_COLON = re.compile(r"(?i)^[^,;.。，；]{0,40}[:：]\s*$")


@dataclass(frozen=True, slots=True)
class FileClaim:
    """The answer states that it created, changed or removed these files."""

    sentence: str
    paths: tuple[str, ...]


def _claimed_paths(sentence: str) -> list[tuple[int, int, str]]:
    found = []
    for match in _PATH.finditer(sentence):
        path = (
            match.group("quoted")
            or match.group("bare")
            or match.group("nested")
            or match.group("special")
        )
        if match.group("quoted") is not None and not _QUOTED_PATH.match(path):
            continue
        if "://" in path or path.startswith(("http", "www.")):
            continue
        found.append((match.start(), match.end(), path.rstrip("/")))
    return found


def mentioned_paths(text: str) -> list[str]:
    """Path-like names in ``text`` (``src/a.py``, `` `README.md` ``, ``Dockerfile``),
    but those it sets aside ("ignore tests/test_x.py for now")."""
    plain = set_aside(strip_code(text))
    return list(dict.fromkeys(path for _, _, path in _claimed_paths(plain)))


def file_claims(answer: str) -> list[FileClaim]:
    """Sentences of ``answer`` that state, as fact, that named files were written.

    A sentence counts when a change verb ("updated", "修改了", "actualicé") governs
    a path-like name: the verb before the path, with nothing but other paths
    between ("updated a.py, b.py and c.py", "updated these files: a.py, b.py") or
    a short stretch with no clause break; or, where the language allows it, the
    verb after the path ("config.py was updated", "config.py 已修改",
    "config.py を更新しました"). Negated, planned or suggested changes ("you
    could update config.py", "尚未修改") do not count.
    """
    found: dict[str, list[str]] = {}
    for claim in claims(answer, frozenset({"file"})):
        found.setdefault(claim.sentence, []).extend(claim.paths)
    return [FileClaim(s, tuple(dict.fromkeys(paths))) for s, paths in found.items()]


def stated_paths(answer: str) -> list[tuple[str, str]]:
    """(sentence, path) for each path ``answer`` names in a statement of fact
    ("README.md now has the install command"): not a question, not negated
    (before or after the path) or conditional in its clause, not a next step
    announced. Weaker than a
    :func:`file_claims` claim — the sentence need not say the file was changed —
    and read only as a claim that work on a file the request asks to change was done."""
    found = []
    for sentence in sentences(answer):
        if _question(sentence) or _read_by(sentence, "next_step"):
            continue
        readers = _readers_for(sentence)
        for start, end, path in _claimed_paths(sentence):
            _, finish = _clause(sentence, start, end)
            if any(
                _stated(r, sentence, start, end) and not _occurs(r.negation, sentence, end, finish)
                for r in readers
            ):
                found.append((sentence, path))
    return found


def _governed(reader: _Reader, sentence: str, start: int, end: int) -> bool:
    """Whether a change verb of ``reader`` governs the path at ``sentence[start:end]``
    (never a path the sentence names as an input: "created app.db from schema.sql")."""
    if _role(sentence, start, end) is False:
        return False
    lead = max(0, start - 80)
    verbs = list(reader.change.finditer(sentence, lead, start))
    if verbs:
        verb = verbs[-1]  # the closest verb governs the path, if no clause break between
        between = _PATH.sub("", sentence[verb.end() : start])
        listed = _LIST_ONLY.match(between) is not None  # "a.py, b.py and"
        if not listed and (":" in between or "：" in between):
            head, _, rest = between.replace("：", ":").rpartition(":")
            listed = _LISTED_AFTER_COLON.match(head + ":") is not None and bool(
                _LIST_ONLY.match(rest)
            )
        short = len(between) <= 45 and not _breaks(sentence).object.search(between)
        if (listed or short) and _stated(reader, sentence, verb.start(), verb.end(), between):
            return True
    if reader.after_object is None:
        return False
    after = reader.change.search(sentence, end, min(len(sentence), end + 40))
    if after is None:
        return False
    between = sentence[end : after.start()]
    return reader.after_object.match(between) is not None and _stated(
        reader, sentence, start, after.end(), between
    )


def _norm_path(path: str) -> str:
    path = path.replace("\\", "/").strip("'\"` ")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/").lower()


def path_matches(claimed: str, written: str) -> bool:
    """Does a write to ``written`` account for a claim about ``claimed``?

    Equal paths, one a suffix of the other at a ``/`` boundary, or a bare file
    name equal to the written file's name (``calc.py`` vs ``/repo/src/calc.py``).
    """
    a, b = _norm_path(claimed), _norm_path(written)
    if not a or not b:
        return False
    if a == b or b.endswith("/" + a) or a.endswith("/" + b):
        return True
    # a Python module by its dotted name ("django.utils.html") and its file
    module = _DOTTED_MODULE.fullmatch(a)
    if module is not None and b.endswith(".py"):
        stem = b.removesuffix(".py").removesuffix("/__init__")
        dotted = a.replace(".", "/")
        return stem == dotted or stem.endswith("/" + dotted)
    return False


_DOTTED_MODULE = re.compile(r"[a-z_]\w*(?:\.[a-z_]\w*){2,}")
"""A dotted module name of three parts or more (``django.utils.html``): two parts read
as a file name with its extension (``calc.py``, ``setup.cfg``)."""


# ------------------------------------------------------------------ requests


def _joined_rows(rows: list[str], flags: int = re.I) -> re.Pattern[str]:
    return re.compile("|".join(row for row in rows if row), flags)


# Kinds of check a request or an item names, as words (not inside other words:
# "the spec" is a document, "Build an API" a task, "prototype" no type check).
_MENTIONS: list[tuple[Category, re.Pattern[str]]] = [
    (category, _joined_rows([p for pack in PACKS for c, p in pack.mentions if c == category]))
    for category in ("type", "lint", "build", "test")
]


_SET_ASIDE = _joined_rows([row for pack in PACKS for row in pack.fresh_starts])


def set_aside(text: str) -> str:
    """``text`` without what it sets aside ("forget the test for now", "先不管测试",
    "instead of fixing the test"): what is left is what it asks for."""
    return _SET_ASIDE.sub(" ", text)


def mentioned_categories(text: str) -> frozenset[Category]:
    """Check categories ``text`` names ("tests", "lint", "类型检查") as work to do;
    empty if none. A quoted sentence is content to write, not an instruction ("add
    the line 'Run make test before sending a PR.'" names no check), and neither a
    check it sets aside ("forget the test for now") nor one named as data to gather
    ("collect the build times of the last ten runs") is asked for."""
    plain = _QUOTED_SENTENCE.sub(" ", set_aside(strip_code(text)))
    plain = _CALL.sub(" ", plain)  # "annotate(x=Value('test'))": code, its words are data
    plain = _CHECK_TOPICS.sub(" ", plain)  # "the build times of the last runs": data
    plain = _OWN_TESTING.sub(" ", plain)  # "I am testing this feature": the user's own doing
    plain = " ".join(s for s in _WHOLE_SENTENCE.split(plain) if not _own_doing(s))
    return frozenset(cat for cat, pattern in _MENTIONS if pattern.search(plain))


_CHECK_TOPICS = _joined_rows([pack.check_topics for pack in PACKS])
_CALL = re.compile(r"\b[A-Za-z_][\w.]*\((?:[^()\n]|\([^()\n]*\))*\)")
"""A call written in prose (``annotate(x=Value('test'))``, ``run_checks(lint=True)``):
the names and strings inside are its arguments."""
_OWN_TESTING = _joined_rows([pack.own_testing for pack in PACKS])
_OWN_DOINGS = _joined_rows([pack.own_doings for pack in PACKS])
_MUST = _joined_rows([pack.must for pack in PACKS])
_WHOLE_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
"""Where a sentence ends — not at a ``;`` or ``,``: "We have tests; can you make them
pass?" is one request."""


def _own_doing(sentence: str) -> bool:
    """The requester telling what they have, use or ran ("I have a branch with this
    change, and all existing tests currently pass"): no requirement, no failure."""
    return _OWN_DOINGS.search(sentence.strip()) is not None and not _MUST.search(sentence)


def forbidden_checks(texts: Iterable[str]) -> set[Category]:
    """Check categories the sentences of ``texts`` forbid running ("Do NOT run tests —
    the evaluation system handles verification", "不要运行测试"); "do not push without
    running the tests" and "don't change the tests" forbid none."""
    found: set[Category] = set()
    for text in texts:
        for sentence in sentences(text):
            if _read_by(sentence, "forbids_run"):
                found |= mentioned_categories(sentence)
    return found


_QUOTED_SENTENCE = re.compile(
    r"'[^'\n]{12,}?[.!?]'|\"[^\"\n]{12,}?[.!?]\"|“[^”\n]{12,}?[.!?]”|「[^」\n]{4,}?[。！？]」"
)


_CHANGE_REQUEST = _joined_rows([pack.change_request for pack in PACKS])


def asks_for_change(text: str) -> bool:
    """Whether a request item asks for a file to be changed (not only read or
    explained): a change verb not forbidden ("don't change anything", "不要修改")."""
    return any(
        not _FORBIDDEN.search(text, max(0, verb.start() - 16), verb.start())
        for verb in _CHANGE_REQUEST.finditer(text)
    )


_FORBIDDEN = re.compile(
    "(?:" + "|".join(pack.forbidden for pack in PACKS if pack.forbidden) + ")$", re.I
)


_READ_REQUEST = _joined_rows([pack.read_request for pack in PACKS])


def names_as_verifier(text: str, path: str) -> bool:
    """Is ``path`` named as what a check runs ("make sure tests/test_a.py passes", "the
    tests in test_a.py"), not as a file to change?"""
    quoted = r"(?<![\w./-])[`'\"]?" + re.escape(path) + r"[`'\"]?(?![\w/-])"
    return any(
        (pack.verifier_after and re.search(quoted + pack.verifier_after, text, re.I))
        or (pack.verifier_before and re.search(pack.verifier_before + quoted, text, re.I))
        for pack in PACKS
    )


_SOURCES = tuple(
    (
        re.compile(pack.source_before, re.I) if pack.source_before else None,
        re.compile(pack.source_after, re.I),
    )
    for pack in PACKS
    if pack.source_after
)


def _conversion_source(text: str, at: int, end: int) -> bool:
    """Whether the path at ``text[at:end]`` is what a conversion reads ("convert
    data.json to out.csv", "把 data.json 转换为 out.csv"), not a file to change."""
    before, after = text[max(0, at - 80) : at].rstrip("`'\" "), text[end : end + 120]
    after = after.lstrip("`'\"")
    return any(
        (lead is None or lead.search(before + " ")) and tail.search(after)
        for lead, tail in _SOURCES
    )


_OUTPUT_ROLE = _joined_rows([pack.output_role for pack in PACKS])
_INPUT_ROLE = _joined_rows([pack.input_role for pack in PACKS])
_ROLE_REACH = 100


def _role(text: str, at: int, end: int) -> bool | None:
    """What the words around the path at ``text[at:end]`` make it: ``False`` for what
    the work reads (its source, spec, the script it runs: "from data.csv", "describing
    calc.py", "specified in problem.json", "spec.md に従って"), ``True`` for a file
    changed all the same ("remove the import from utils.py"), ``None`` when they say
    neither and the verbs decide. Read within the sentence."""
    start = max(0, at - _ROLE_REACH)
    for stop_mark in _sentence_breaks(text, start, at):
        start = stop_mark.end()
    stop = min(len(text), end + _ROLE_REACH)
    marked = text[start:at] + "\x00" + text[end:stop]
    if _OUTPUT_ROLE.search(marked):
        return True
    if _INPUT_ROLE.search(marked):
        return False
    return None


def named_as_input(text: str, path: str) -> bool:
    """Whether ``text`` names ``path`` as what the work reads (:func:`_role`)."""
    at = text.lower().find(path.lower())
    return at >= 0 and _role(text, at, at + len(path)) is False


def asks_to_change(text: str, path: str) -> bool:
    """Whether a request item asks for ``path`` to be changed, not only read: the
    path's role decides first (:func:`_role`: "from ⟨path⟩", "describing ⟨path⟩" are
    inputs), else the verb nearest the path in its clause ("Read budget.txt and write a
    summary into summary.md": budget.txt is read, summary.md written); with no verb
    there, whether the item asks for any change."""
    wanted = asks_for_change(text)
    at = text.lower().find(path.lower())
    if not wanted or at < 0:
        return wanted
    end = at + len(path)
    if _conversion_source(text, at, end):  # "convert data.json to out.csv": read
        return False
    begin = 0
    breaks = _breaks(text).object
    for brk in breaks.finditer(text, 0, at):
        begin = brk.end()
    stop = breaks.search(text, end)
    finish = stop.start() if stop else len(text)
    role = _role(text, at, end)
    if role is not None:
        return role
    verbs = sorted(
        [(m.end(), True) for m in _CHANGE_REQUEST.finditer(text, begin, at)]
        + [(m.end(), False) for m in _READ_REQUEST.finditer(text, begin, at)]
    )
    if verbs:
        return verbs[-1][1]
    after = sorted(
        [(m.start(), True) for m in _CHANGE_REQUEST.finditer(text, end, finish)]
        + [(m.start(), False) for m in _READ_REQUEST.finditer(text, end, finish)]
    )
    return after[0][1] if after else wanted


# -------------------------------------------------------------- approval claims


@dataclass(frozen=True, slots=True)
class ApprovalClaim:
    """A statement that something was approved or signed off, as fact."""

    sentence: str
    phrase: str
    subject: str = ""
    """What was approved, as the sentence names it ("budget", "PR"); empty if it does not."""


def approval_claims(text: str) -> list[ApprovalClaim]:
    """Statements in ``text`` that something was approved, as fact.

    "The PR was approved", "signed off by legal", "Before merging, the PR was
    approved", "预算已批准", "予算は承認されました" count; negated and pending forms
    ("not yet approved", "pending approval", "尚未批准") do not. A sentence that
    names two approvals gives two claims.
    """
    return [
        ApprovalClaim(s.sentence, s.phrase, s.subject)
        for s in approval_statements(strip_code(text))
        if s.approved
    ]


@dataclass(frozen=True, slots=True)
class ApprovalStatement:
    """What a text says of an approval: given (``approved``) or pending, incomplete
    or refused; ``subject`` is what the statement names, or else the words before it
    in its clause."""

    at: int
    approved: bool
    sentence: str
    phrase: str
    subject: str


MAX_APPROVAL_SENTENCES = 200
"""Sentences with approval words read per text: a huge log is read in part."""


def approval_statements(text: str) -> list[ApprovalStatement]:
    """Every approval statement in ``text`` (code stripped), in order. Only the
    sentences that hold an approval word are read, so a long tool output costs one
    scan. Questions, conditionals and reported speech do not count."""
    found: list[ApprovalStatement] = []
    for at, sentence in _hinted_sentences(text):
        for claim in _sentence_approvals(sentence):
            where = at + max(sentence.find(claim.phrase), 0)
            found.append(ApprovalStatement(where, True, sentence, claim.phrase, claim.subject))
        if _question(sentence) or not _UNAPPROVED_HINT.search(sentence):
            continue
        for reader in _readers_for(sentence):
            for pattern in reader.unapproved:
                for hit in pattern.finditer(sentence):
                    start = _verb_start(hit)
                    begin, finish = _clause(sentence, start, hit.end())
                    if _hedged(reader, sentence, start, hit.end(), begin, finish):
                        continue
                    subject = hit.groupdict().get("subject") or sentence[begin : hit.start()]
                    found.append(
                        ApprovalStatement(at + hit.start(), False, sentence, hit.group(0), subject)
                    )
    found.sort(key=lambda s: s.at)
    return found


def _hinted_sentences(text: str) -> Iterator[tuple[int, str]]:
    """The sentences of ``text`` that hold an approval word, with where each starts
    (at most :data:`MAX_APPROVAL_SENTENCES`)."""
    if not _ANY_APPROVAL_HINT.search(text):
        return
    count = 0
    for at, sentence in _sentence_spans(text):
        if _ANY_APPROVAL_HINT.search(sentence):
            yield at, sentence
            count += 1
            if count >= MAX_APPROVAL_SENTENCES:
                return


# Words without which a sentence cannot state an approval (or its absence), derived
# from the packs' own patterns: a long tool output costs a few substring scans.
_APPROVAL_HINT = Hint(p for pack in PACKS for p in pack.approved)
_UNAPPROVED_HINT = Hint(p for pack in PACKS for p in pack.unapproved)
_ANY_APPROVAL_HINT = Hint(p for pack in PACKS for p in (*pack.approved, *pack.unapproved))
