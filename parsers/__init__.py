"""Attachment parsers: one module per format family behind the :class:`Parser` interface.

:func:`parse_bytes` detects the type from content and hands the bytes to the
first parser that accepts it; a type with no parser is ``unparsed`` with the
detected type named. Nothing unread is ever reported as read.
"""

from __future__ import annotations

import msgspec

from donecheck.parsers.base import ParseLimits, Parser, source_id
from donecheck.parsers.detect import Detection, detect
from donecheck.parsers.text import TextParser
from donecheck.runtime.ids import sha256_ref
from donecheck.runtime.messages import Material

__all__ = [
    "PARSERS",
    "RECIPE_VERSION",
    "Detection",
    "ParseLimits",
    "Parser",
    "detect",
    "parse_bytes",
    "source_id",
]

PARSERS: tuple[Parser, ...] = (TextParser(),)
RECIPE_VERSION = "+".join(p.recipe for p in PARSERS)


def parse_bytes(
    data: bytes,
    declared_name: str,
    *,
    sha256: str | None = None,
    limits: ParseLimits | None = None,
) -> Material:
    """Parse one attachment's bytes into a :class:`Material`."""
    sha256 = sha256 or sha256_ref(data)
    limits = limits or ParseLimits()
    detection = detect(data, declared_name)
    warnings: tuple[str, ...] = ()
    if detection.mismatch:
        warnings = (
            f"the name {declared_name!r} suggests {detection.declared_mime} but the content is"
            f" {detection.mime}",
        )
    if not data:
        return Material(
            sha256=sha256,
            declared_name=declared_name,
            detected_type=detection.mime,
            status="failed",
            reason="the file is empty (0 bytes)",
            recipe_version=RECIPE_VERSION,
            warnings=warnings,
        )
    for parser in PARSERS:
        if parser.accepts(detection):
            material = parser.parse(data, sha256, detection, limits)
            if warnings:
                material = msgspec.structs.replace(
                    material, warnings=(*warnings, *material.warnings)
                )
            return material
    return Material(
        sha256=sha256,
        declared_name=declared_name,
        detected_type=detection.mime,
        status="unparsed",
        reason=f"no parser for {detection.mime} ({detection.description})",
        recipe_version=RECIPE_VERSION,
        warnings=warnings,
    )
