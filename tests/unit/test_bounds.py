"""Payload bounds checked on the bytes, before any decoder sees them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.bounds import PayloadError, check_payload, nesting_exceeds
from tests.support.env import child_env

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[]{}"\\:,\n ', max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(JSON, st.integers(min_value=0, max_value=8))
def test_the_byte_scan_agrees_with_the_decoded_depth(value: Any, limit: int) -> None:
    """Brackets inside strings (escaped quotes included) never count."""
    raw = json.dumps(value).encode()
    assert nesting_exceeds(raw, limit) == (_depth(value) > limit)


def test_a_deep_or_big_payload_is_refused_before_decoding() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    try:
        check_payload(deep)
    except PayloadError as exc:
        assert str(exc) == "the JSON is nested deeper than 64 levels"
    else:
        raise AssertionError("accepted")
    try:
        check_payload(b" " * 101, max_bytes=100)
    except PayloadError as exc:
        assert "over the 100 byte limit" in str(exc)
    else:
        raise AssertionError("accepted")
    check_payload(json.dumps({"a": [[[1]]], "s": "[[[[[[[["}).encode(), max_depth=4)


def test_the_hook_command_answers_a_deep_payload_with_one_line(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("donecheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]
    done = subprocess.run(
        [*command, "hook"],
        input=b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        env=child_env(tmp_path),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.decode().strip() == (
        "donecheck: error: hook payload: the JSON is nested deeper than 64 levels;"
        " this turn was not checked"
    )
