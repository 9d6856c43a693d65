"""What a language pack holds (see :mod:`donecheck.actors.words.lang`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["PUNCTUATION_BREAK", "Category", "Pack", "Script"]

Category = Literal["test", "lint", "type", "build", "any"]
Script = Literal["latin", "han", "kana", "hangul", "cyrillic"]

PUNCTUATION_BREAK = r"[,;:，；：、]|\s[—–-]\s|—"
"""Where a clause ends in any language: its punctuation."""


TARGET = (
    r"(?:[\w./-]+\.[A-Za-z0-9]{1,5}\b|(?:csv|tsv|json|jsonl|ya?ml|xml|pdf|html?|markdown|md|"
    r"xlsx?|ods|parquet|txt|png|jpe?g|svg|docx?|pptx?|epub|toml)\b)"
)
"""What a conversion's target is: a file name, or a file format by its usual name."""


@dataclass(frozen=True, slots=True)
class Pack:
    code: str
    script: Script
    """Which sentences it reads: ``kana``, ``hangul``, ``han`` (without kana or
    Hangul), ``cyrillic`` or ``latin``."""

    # ----------------------------------------------------------- an answer's claims
    done: str
    """The work is finished, works, is verified, is ready."""
    checks: tuple[str, ...]
    """A check passed: each pattern has named groups ``subject`` and ``verb``."""
    subjects: tuple[tuple[Category, str], ...]
    """Which kind of check a matched subject names (none: ``any``)."""
    change: str
    """A file was written: the verb that governs a path."""
    approved: tuple[str, ...]
    """Something was approved, as fact; group ``subject`` names what, when it can."""
    negation: str
    """Takes a statement back when it comes before it in the same clause."""
    conditional: str
    """Takes a statement back from the sentence's first clause or the statement's own."""
    reported: str
    """Someone else said it: takes a statement after it back."""
    unapproved: tuple[str, ...] = ()
    """Approval is pending, incomplete or refused (a source that contradicts a claim);
    group ``subject`` names what, when it can."""
    false_friends: str = ""
    """Words another pack of the same script takes a statement back with that mean
    something else here (Portuguese "no" is "in the", Italian "si" is "oneself"):
    this pack's reader does not take its statements back with them."""
    negation_after: str = ""
    """Takes a statement back when it follows it at once ("bestehen nicht", "通过不了")."""
    reach: int = 40
    """How far before a statement a negation still counts, in characters."""
    marker: str = ""
    """Words or letters that show a sentence may be in this language (empty: read
    every sentence of its script). A sentence of three words or fewer is read by
    every pack of its script."""
    likely: str = ""
    """Words that make a text likely to be in this language (``language_of`` counts
    them); the marker when empty."""
    after_object: str = ""
    """What may stand between a path and a change verb that follows it ("config.py was
    updated", "config.py を更新しました"); empty: the verb must come first."""
    next_step: str = ""
    """The agent announces what it will do next ("Now let me run …"): a last message
    that says only this ended the run mid-work."""
    offer: str = ""
    """A next step offered, not announced ("I can add tests if you want")."""
    asks_user: str = ""
    """The agent asks the user for something it needs to go on (a token, a key,
    access, a decision): it cannot finish without them."""

    # ----------------------------------------------------------------- clauses
    clause_words: str = ""
    """Words that end a clause (a negation before them does not reach past)."""
    object_words: str = ""
    """Words after which a change verb no longer governs what follows ("fixed the bug
    and the tests in a.py pass": the verb does not reach a.py)."""
    list_words: str = ""
    """Words that join the items of a list ("a.py, b.py and c.py")."""

    # ---------------------------------------------------------------- requests
    test_counts: tuple[str, ...] = ()
    """How an answer says how many tests passed ("all 10 tests pass"): group ``n``."""
    mentions: tuple[tuple[Category, str], ...] = ()
    """The kinds of check a request or an item names, as words."""
    change_request: str = ""
    """A verb that asks for a file to be changed."""
    forbidden: str = ""
    """What forbids the change verb right after it ("don't", "不要")."""
    forbids_run: str = ""
    """What forbids running a check ("do not run", "不要运行", "実行しないで"): the check
    it names is then no item to show a run of."""
    read_request: str = ""
    """A verb that asks for a file to be read or used, not changed."""
    input_role: str = ""
    """Where a path stands as what the work reads, not writes — its source, its
    spec, the script it runs ("from ⟨path⟩", "describing ⟨path⟩", "specified in
    ⟨path⟩", "根据 ⟨path⟩", "⟨path⟩ に従って"): matched on the path's clause with the
    path as ``\x00``; it decides before any verb."""
    output_role: str = ""
    """Where such words still make the path one to change ("remove the import from
    ⟨path⟩", "从 ⟨path⟩ 中删除"); matched the same way, first."""
    verifier_before: str = ""
    """Words before a path that name it as what a check runs ("the tests in")."""
    verifier_after: str = ""
    """Words after a path that name it as what a check runs ("… passes", "通过")."""
    source_before: str = ""
    """Words just before a path that make it a conversion's source, with
    ``source_after`` ("convert data.json to out.csv": data.json is read)."""
    source_after: str = ""
    """Words just after such a path ("to", "into", "转换为"), ending where the target
    starts: the target must be another file or a file format (:data:`TARGET`), or
    "convert test_calc.py to pytest style" would make the file to change a source."""
    must: str = ""
    """A sentence states a requirement."""
    constraint: str = ""
    """A sentence states a prohibition (a constraint, not an item)."""
    attachment_words: str = ""
    """A later request refers to the session's attachments."""
    attached: str = ""
    """An acceptance item refers to the attachments as a whole ("the attached")."""
    continuations: tuple[str, ...] = ()
    """A new request continues the earlier work (its failures still count)."""
    test_levels: tuple[tuple[str, str], ...] = ()
    """Which tests a claim speaks of ("the e2e tests pass", "集成测试通过"): ``(level,
    pattern)`` rows, levels ``e2e``, ``integration``, ``unit``, ``acceptance``,
    ``smoke``. A run of another level backs no such claim."""
    own_testing: str = ""
    """The user trying something out themselves ("I am testing this feature", "我在测试"):
    it names no check for the agent to run."""
    own_doings: str = ""
    """A sentence in which the requester tells what they themselves have, use or ran
    ("I have a branch locally with this change, and all existing tests currently pass",
    "We use clear_cache() on consecutive mypy runs"), matched from its start: the checks
    it names are their setup, not work asked of the agent. Not when it reports a
    failure (that is what to fix) or states a requirement (:attr:`must`)."""
    own_tests: str = ""
    """A claim about the tests the agent itself wrote and just ran ("both tests passed",
    "my new test passes", "the reproduction script passes", "两个测试都通过了"): a pass of
    those backs it, where a claim about the project's tests needs a run of them."""
    check_topics: str = ""
    """A check named as data to gather, not a check to run ("the build times of the
    last ten CI runs", "测试报告"): it asks for no run of it."""
    fresh_starts: tuple[str, ...] = ()
    """A new request sets the earlier work aside ("forget the test for now"): naming
    what failed then does not make it depend on it (a continuation still does)."""

    # ---------------------------------------------------------------- images
    visual: str = ""
    """A requirement only an image can show ("the button is blue", "matches the
    mockup", "截图", "布局"): a judge that saw no image never verified it."""

    # ---------------------------------------------------------------- honest stops
    admits: str = ""
    """The answer says the work is not finished or a check still fails ("the tests
    still fail", "I could not reach the API", "仍然失败", "无法"): with no claim of
    finished work, what the ledger shows unfinished is reported, not steered."""

    # ---------------------------------------------------------------- rechecks
    harm: str = ""
    """An instruction to weaken what verifies the work — skip, delete or loosen a
    test or an assertion, edit the test configuration or a gate: a checklist line
    never asks for it (unless the request itself does)."""

    # --------------------------------------------------------------- approvals
    stop_words: str = ""
    """Words that say nothing about *what* was approved (space-separated)."""
    vocabulary: str = ""
    """Approval and negation words and particles that split a CJK run into subject
    words."""
    usual_subjects: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """What approvals are usually about: an English subject and this language's words
    for it, so "予算" in an answer meets "budget" in a source."""
    aliases: tuple[tuple[str, str], ...] = ()
    """Names of one subject written two ways ("pull request" → "pr")."""

    # ---------------------------------------------------- a judge's line format
    verdict_labels: dict[str, str] = field(default_factory=dict)
    """``decision``, ``completed``, ``finding``, ``summary``: the label of each line;
    ``yes``: the words that answer ``completed`` in the affirmative, ``answers``: all."""
