"""Quick scans derived from patterns: the words without which a pattern cannot match.

A long tool output is read for approval statements only where an approval word
occurs; which words those are is worked out here from the language packs' own
patterns (:func:`required_words`), never kept beside them by hand, so a row added
to a pack is never skipped by a stale scan.

:func:`required_words` walks a pattern's parse tree and finds a set of literal
strings one of which every match contains (a literal run of a sequence, or, for
an alternation, one such set from each branch). It is sound — a text with none
of the words cannot match — and may be loose. A pattern with no such set (one
that can match with no fixed text) makes the scan say yes to everything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

__all__ = ["Hint", "required_words"]

_ZERO_WIDTH = {sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT}
_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT}
_POSSESSIVE = getattr(sre_constants, "POSSESSIVE_REPEAT", None)
if _POSSESSIVE is not None:
    _REPEATS.add(_POSSESSIVE)


def _best(candidates: list[frozenset[str]]) -> frozenset[str] | None:
    """The most telling of several sets any one of which a match must hold: the
    longest shortest word, then the fewest words."""
    if not candidates:
        return None
    return max(candidates, key=lambda s: (min(len(w) for w in s), -len(s)))


def _sequence(items: Iterable[tuple[object, object]]) -> frozenset[str] | None:
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            candidates.append(frozenset({"".join(run).lower()}))
            run.clear()

    for op, av in items:
        if op is sre_constants.LITERAL:
            run.append(chr(av))  # type: ignore[arg-type]
            continue
        if op in _ZERO_WIDTH:
            continue  # a look-around or an anchor consumes nothing: the run goes on
        close()
        found: frozenset[str] | None = None
        if op is sre_constants.SUBPATTERN:
            found = _sequence(av[-1])  # type: ignore[index]
        elif op is sre_constants.ATOMIC_GROUP:
            found = _sequence(av)  # type: ignore[arg-type]
        elif op is sre_constants.BRANCH:
            branches = [_sequence(branch) for branch in av[1]]  # type: ignore[index]
            if all(b is not None for b in branches):
                found = frozenset().union(*branches)  # type: ignore[arg-type]
        elif op in _REPEATS and av[0] >= 1:  # type: ignore[index]
            found = _sequence(av[2])  # type: ignore[index]
        if found is not None:
            candidates.append(found)
    close()
    return _best(candidates)


def required_words(pattern: str) -> frozenset[str] | None:
    """Lower-case words one of which every match of ``pattern`` holds (matched
    case-insensitively or not), or ``None`` when no such set is known."""
    return _sequence(sre_parse.parse(pattern, re.I))


class Hint:
    """Whether a text may match any of some patterns: one scan per word, each a
    C-speed substring search of the lower-cased text. Text that is not ASCII is
    searched with the patterns' own case folding (four letters fold to ASCII ones
    under it, ``İ ı ſ K``, that ``str.lower`` does not)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        words: set[str] = set()
        self.always = False
        for pattern in patterns:
            found = required_words(pattern)
            if found is None:
                self.always = True
            else:
                words |= found
        self.words = tuple(sorted(words))
        self._folded = re.compile("|".join(re.escape(w) for w in self.words) or "(?!)", re.I)

    def search(self, text: str) -> bool:
        if self.always:
            return True
        if text.isascii():
            lowered = text.lower()
            return any(word in lowered for word in self.words)
        return self._folded.search(text) is not None
