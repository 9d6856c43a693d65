"""The one interface every format parser implements, and the bounds they obey."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from donecheck.parsers.detect import Detection
from donecheck.runtime.messages import Material

__all__ = ["ParseLimits", "Parser", "source_id"]


@dataclass(frozen=True, slots=True)
class ParseLimits:
    text_chars: int = 200_000
    """Per-material text budget; beyond it the material is ``partial``."""
    lines_per_block: int = 80


class Parser(Protocol):
    """Turns the bytes of one family of formats into a :class:`Material`."""

    recipe: str
    """Bumped whenever output for the same bytes changes (invalidates caches)."""

    def accepts(self, detection: Detection) -> bool: ...

    def parse(
        self, data: bytes, sha256: str, detection: Detection, limits: ParseLimits
    ) -> Material: ...


def source_id(sha256: str, index: int) -> str:
    """Stable id of block ``index`` of a material: ``<first 12 hex>#<index>``."""
    return f"{sha256.removeprefix('sha256:')[:12]}#{index}"
