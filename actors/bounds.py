"""Bounds on JSON DoneCheck receives (a hook payload, an API body, a judge's
answer), checked before it is decoded.

A payload's nesting is measured on its bytes (strings blanked out by one regular
expression, then only the brackets walked, stopping at the first level past the
limit), so a body of 100,000 ``[`` costs a scan, not a decoder's recursion.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEPTH", "MAX_PAYLOAD_BYTES", "PayloadError", "check_payload"]

MAX_PAYLOAD_BYTES = 16 << 20
MAX_DEPTH = 64

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # unrolled: linear, no backtracking
_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class PayloadError(ValueError):
    """The payload is too big or nested too deeply; the message says which."""


def nesting_exceeds(raw: bytes, limit: int) -> bool:
    """Whether the JSON text in ``raw`` nests deeper than ``limit`` levels.

    On the brackets alone: a run of more than ``limit`` openers answers at once;
    otherwise each pass drops the innermost pairs, and text nested no deeper than
    ``limit`` is gone after ``limit`` passes (each a C-speed replace).
    """
    brackets = _STRING.sub(b"", raw).translate(_PARENS, _NOT_BRACKETS)
    if b"(" * (limit + 1) in brackets:
        return True
    for _ in range(limit):
        shorter = brackets.replace(b"()", b"")
        if shorter == brackets or not shorter:
            return bool(shorter) and b"(" in shorter and _unbalanced_depth(shorter, limit)
        brackets = shorter
    return b"(" in brackets


def _unbalanced_depth(rest: bytes, limit: int) -> bool:
    """What no pass could pair (malformed JSON): count its depth directly."""
    depth = 0
    for byte in rest:
        depth += 1 if byte == 40 else -1  # "("
        if depth > limit:
            return True
    return False


def check_payload(
    raw: bytes, *, max_bytes: int = MAX_PAYLOAD_BYTES, max_depth: int = MAX_DEPTH
) -> None:
    """Raise :class:`PayloadError` for a payload over ``max_bytes`` or nested deeper
    than ``max_depth``; nothing is decoded."""
    if len(raw) > max_bytes:
        raise PayloadError(f"the payload is over the {max_bytes} byte limit")
    if nesting_exceeds(raw, max_depth):
        raise PayloadError(f"the JSON is nested deeper than {max_depth} levels")
