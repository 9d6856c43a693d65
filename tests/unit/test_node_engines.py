"""The real-client tier's check that every pinned CLI runs on a Node it declares
(``tests/clients/harness.satisfies``): npm only warns about an engine mismatch, and
hides the warning at ``--loglevel=error``; the tier must fail instead."""

from __future__ import annotations

import pytest

from tests.clients.harness import satisfies


@pytest.mark.parametrize(
    ("version", "wanted", "ok"),
    [
        ("v22.23.5", ">=22.0.0", True),  # Claude Code 2.1.332 on the pinned build
        ("v20.20.2", ">=22.0.0", False),  # … on the machine's Node: the mismatch
        ("v20.20.2", ">=20", True),  # Gemini CLI
        ("v16.0.0", ">=16", True),  # Codex
        ("v15.9.9", ">=16", False),
        ("v22.1.0", "^22.0.0", True),
        ("v23.0.0", "^22.0.0", False),
        ("v18.19.0", "^18.18.0 || ^20.9.0 || >=21.1.0", True),
        ("v20.8.0", "^18.18.0 || ^20.9.0 || >=21.1.0", False),
        ("v22.0.0", ">=18 <21", False),
        ("v19.0.0", ">=18 <21", True),
        ("v22.0.0", "*", True),
    ],
)
def test_a_node_version_against_a_declared_engine(version: str, wanted: str, ok: bool) -> None:
    assert satisfies(version, wanted) is ok


def test_a_range_it_cannot_read_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError, match="cannot read the engine range"):
        satisfies("v22.0.0", "~22.1")
