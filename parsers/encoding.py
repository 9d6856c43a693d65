"""Decoding bytes to text: BOMs, UTF-8, then a detected legacy encoding — validated."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from charset_normalizer import from_bytes

__all__ = ["Decoded", "decode_text", "looks_binary"]

_BOMS = [
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
_CONTROL = set(range(32)) - {9, 10, 12, 13, 27}


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str
    guessed: bool
    """The encoding was detected statistically (not a BOM, not valid UTF-8)."""


def looks_binary(data: bytes) -> bool:
    """NUL bytes, or many control characters, in the first 64 KiB."""
    sample = data[:65_536]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b in _CONTROL)
    return controls / len(sample) > 0.05


def decode_text(data: bytes) -> Decoded | None:
    """Text of ``data``, or ``None`` when it is not text in any encoding we trust.

    A BOM decides; otherwise strict UTF-8; otherwise the encoding charset-normalizer
    finds most coherent (e.g. Shift-JIS, GB18030, cp1252), accepted only if the
    whole input decodes with it.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return Decoded(data.decode(encoding), encoding, False)
            except UnicodeDecodeError:
                return None
    if looks_binary(data):
        return None
    try:
        return Decoded(data.decode("utf-8"), "utf-8", False)
    except UnicodeDecodeError:
        pass
    best = from_bytes(data[:262_144]).best()
    if best is None or best.encoding is None:
        return None
    try:
        return Decoded(data.decode(best.encoding), best.encoding, True)
    except (UnicodeDecodeError, LookupError):
        return None
