"""Every word the review reads, one pack per language: ``en``, ``zh``, ``ja``, ``es``,
``de``, ``fr``, ``pt``, ``ko``, ``it``, ``ru``.

Data, not code. Each pack (:class:`Pack`) holds, as regular expressions matched
case-insensitively, how its language says:

* what an **answer claims** — that the work is done, that a check passed (naming
  tests, lint, types or a build), that a file was written, that something was
  approved (or is not yet) — and the words that take such a statement back:
  negation and pending forms (within the statement's own clause), conditionals,
  reported speech; that the agent stops to announce a next step, or waits on the
  user (read by :mod:`donecheck.actors.words.claims`);
* where a **clause** ends, and where a change verb stops governing what follows —
  per language: a sentence's own language decides, so French "car" does not end an
  English clause;
* what a **request** asks: the kinds of check it names, the verbs that ask for a
  change or only for a read, what it requires and forbids, that it refers to its
  attachments, that it continues earlier work (read by
  :mod:`~donecheck.actors.review.preanalysis`, :mod:`~donecheck.actors.evidence.scope`
  and the rules);
* what an **approval** is about: the words that name no subject, the usual subjects
  and their English form (read by :mod:`~donecheck.actors.words.approval`);
* a judge's answer in the **line format** (read by :mod:`~donecheck.actors.review.verdicts`).

A pack reads the sentences of its script (:data:`Script`): Latin (English, Spanish,
German, French, Portuguese, Italian — they share their take-back words, but a pack's
``false_friends``), Han (Chinese), kana (Japanese), Hangul (Korean) or Cyrillic
(Russian); a sentence's script decides which packs read it.

Logic modules hold no literal words; the quick scans that skip text with no
approval word are derived from these patterns (:mod:`.hints`), not kept beside
them. Adding a language is adding one file here, naming it in :data:`PACKS`, and
its table of sentences in ``tests/unit/test_lang_packs.py``.
"""

from __future__ import annotations

from donecheck.actors.words.lang import de, en, es, fr, it, ja, ko, pt, ru, zh
from donecheck.actors.words.lang.pack import PUNCTUATION_BREAK, Category, Pack, Script

__all__ = ["PACKS", "PUNCTUATION_BREAK", "Category", "Pack", "Script"]

PACKS: tuple[Pack, ...] = (
    en.PACK,
    zh.PACK,
    ja.PACK,
    es.PACK,
    de.PACK,
    fr.PACK,
    pt.PACK,
    ko.PACK,
    it.PACK,
    ru.PACK,
)
"""Every language the review reads; English first (it reads every Latin sentence)."""
