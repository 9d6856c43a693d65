"""The real-world corpus: its files, the phrases they hold, and how a phrase is found.

Used by ``tests/unit/test_realworld.py`` and ``benchmarks/parse_throughput.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = sorted((HERE / "files").iterdir())
EXPECTED: dict[str, list[str]] = json.loads((HERE / "expected.json").read_text())


def normal(text: str) -> str:
    """Lower case, letters and digits only, single spaces: Markdown escapes, table
    pipes and line wrapping do not decide whether a phrase was found."""
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).replace("_", " ").split())


def missing(phrases: list[str], output: str | None) -> list[str]:
    """The phrases whose normal form is not in the output's."""
    haystack = normal(output or "")
    return [phrase for phrase in phrases if normal(phrase) not in haystack]
