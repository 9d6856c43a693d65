"""Which stops are not worth a review (SPEC §7): only where skipping is safe.

A stop is skipped only when all of these hold:

* it is the request's first stop (the controller knows; every later stop is reviewed);
* nothing was done in this request: no tool call since the request began;
* the request names nothing the ledger could show: no check, file or attachment
  among its acceptance items, and no attachment it depends on;
* the answer claims nothing: no completion, passing check, written file or
  approval claim, and no code;
* the answer is short by content: fewer than ``min_chars`` characters of meaning,
  where a CJK character counts as three (it carries about as much as an
  English word's worth of letters).

"Fixed. All tests pass." after a failing run is therefore reviewed, and so is
"Implementation complete and verified, ready to merge." — however short.
"""

from __future__ import annotations

import re

from donecheck.actors.messages import EvidenceView
from donecheck.actors.review.preanalysis import extract_acceptance
from donecheck.actors.words.claims import (
    approval_claims,
    check_claims,
    completion_claims,
    file_claims,
    has_code,
    mentioned_categories,
    mentioned_paths,
    strip_code,
    unfinished,
)

__all__ = ["meaning_chars", "plain_and_short", "trivial_stop"]

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def meaning_chars(text: str) -> int:
    """Letters and digits in ``text``, a CJK character counting as three."""
    return sum(3 if _CJK.match(ch) else 1 for ch in text if ch.isalnum())


def plain_and_short(answer: str, min_chars: int) -> bool:
    """The answer's part of the test (no ledger needed): short by content, no code,
    no claim of any kind."""
    if has_code(answer) or meaning_chars(strip_code(answer)) >= min_chars:
        return False
    if unfinished(answer):  # the CLI's own error in place of an answer
        return False
    return not (
        completion_claims(answer)
        or check_claims(answer)
        or file_claims(answer)
        or approval_claims(answer)
    )


def trivial_stop(answer: str, request: str, view: EvidenceView, min_chars: int) -> bool:
    """Whether a request's first stop may be skipped (see the module docstring), given
    the evidence ``view`` of the request (its text ``request``)."""
    if not plain_and_short(answer, min_chars):
        return False
    if view.acted or view.attachments:
        return False
    if mentioned_paths(request):  # a file named anywhere in it, not only in an item
        return False
    items = extract_acceptance(view.request_id, request).items
    return not any(mentioned_categories(i.text) or mentioned_paths(i.text) for i in items)
