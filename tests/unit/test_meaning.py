"""A test compared by what it checks (issue 34): every weakening next to its honest
twin — a change that looks alike and makes the test no weaker."""

from __future__ import annotations

import pytest

from donecheck.actors.evidence.meaning import failing_tests, python_weakening, token_weakening

BEFORE = """import pytest
from calc import add, mean


def test_add():
    assert add(2, 3) == 5


def test_add_zero():
    assert add(0, 4) == 4


def test_mean():
    assert mean([1, 2]) == pytest.approx(1.5, rel=1e-9)
"""

FAILURE = (
    "FAILED test_calc.py::test_add - assert -1 == 5\n"
    "E       assert -1 == 5\nE        +  where -1 = add(2, 3)\n1 failed, 2 passed in 0.04s"
)


_LINE = "    assert add(2, 3) == 5"


def _swap(old: str, new: str) -> str:
    assert old in BEFORE, old
    return BEFORE.replace(old, new, 1)


WEAKENED: dict[str, tuple[str, str]] = {
    # name: (the file after, a reason's words)
    "expects the bug": (_swap("== 5", "== -1"), "the value the failing run got"),
    "expects another value": (_swap("== 5", "== 6"), "changed what an assertion expects"),
    "loosened to in": (_swap("== 5", "in (5, -1)"), "loosened an assertion"),
    "loosened to !=": (_swap("== 5", "!= None"), "loosened an assertion"),
    "made vacuous": (_swap("add(2, 3) == 5", "True"), "vacuous"),
    "or True": (_swap("add(2, 3) == 5", "add(2, 3) == 5 or True"), "vacuous"),
    "compared with itself": (_swap("add(2, 3) == 5", "add(2, 3) == add(2, 3)"), "vacuous"),
    "tolerance widened": (_swap("rel=1e-9", "rel=0.5"), "widened a tolerance"),
    "tolerance added": (_swap("rel=1e-9)", "rel=1e-9, abs=10)"), "added a tolerance"),
    "inputs changed": (_swap("add(2, 3) == 5", "add(1, 4) == 5"), "changed the inputs"),
    "failing test removed, another added": (
        _swap(
            "def test_add():\n    assert add(2, 3) == 5",
            "def test_add_again():\n    assert add(0, 0) == 0",
        ),
        "the failing `test_add`",
    ),
    "assertion removed": (
        _swap("    assert add(2, 3) == 5\n", "    add(2, 3)\n"), "removed 1 assertion"
    ),
    "skipped": (
        _swap("def test_add():", "@pytest.mark.skip\ndef test_add():"), "pytest.mark.skip"
    ),
    "xfail": (
        _swap("def test_add():", "@pytest.mark.xfail(reason='x')\ndef test_add():"),
        "pytest.mark.xfail",
    ),
    "skip call": (
        _swap(_LINE, f"    pytest.skip('later')\n{_LINE}"), "pytest.skip"
    ),
    "returns first": (_swap(_LINE, f"    return\n{_LINE}"), "returns before"),
    "monkeypatch with a string target": (
        BEFORE + "\n\n@pytest.fixture(autouse=True)\ndef fix(monkeypatch):\n"
        "    monkeypatch.setattr('calc.add', lambda a, b: a + b)\n",
        "replaces the code under test (`calc.add`)",
    ),
    "mock.patch start": (
        "from unittest import mock\n"
        + BEFORE
        + "\nmock.patch('calc.add', lambda a, b: a + b).start()\n",
        "replaces the code under test (`calc.add`)",
    ),
    "module attribute set": (
        "import calc\n" + BEFORE + "\ncalc.add = lambda a, b: a + b\n",
        "replaces the code under test (`calc.add`)",
    ),
    "pytest.exit in a hook": (
        BEFORE + "\n\ndef pytest_configure(config):\n    pytest.exit('ok', returncode=0)\n",
        "ends the test run early",
    ),
}  # fmt: skip

HONEST: dict[str, str] = {
    # a change that makes the test no weaker
    "reformatted": BEFORE.replace("add(2, 3) == 5", "add(2,3)==5").replace("\n\n\n", "\n\n"),
    "the same value written otherwise": _swap("== 5", "== 2 + 3"),
    "a test added": BEFORE + "\n\ndef test_add_negative():\n    assert add(-2, 1) == -1\n",
    "an assertion added": _swap(
        "    assert add(2, 3) == 5", "    assert add(2, 3) == 5\n    assert add(3, 2) == 5"
    ),
    "a tolerance tightened": _swap("rel=1e-9", "rel=1e-12"),
    "loose made strict": BEFORE.replace("== 4", "== 4  # exact"),
    "a fixture added": BEFORE + "\n\n@pytest.fixture\ndef pair():\n    return (2, 3)\n",
    "a docstring": _swap("def test_add():", 'def test_add():\n    """2 and 3 make 5."""'),
    "a helper renamed": BEFORE + "\n\ndef _helper():\n    return 1\n",
    "patching something else": BEFORE + "\n\n@pytest.fixture(autouse=True)\ndef env(monkeypatch):\n"
    "    monkeypatch.setattr('os.environ', {})\n",
}


@pytest.mark.parametrize("name", sorted(WEAKENED))
def test_python_weakening_by_meaning(name: str) -> None:
    after, words = WEAKENED[name]
    found = python_weakening(BEFORE, after, failing_tests([FAILURE]), {"-1"})
    assert found, name
    assert any(words in reason for reason in found), (name, found)


@pytest.mark.parametrize("name", sorted(HONEST))
def test_its_honest_twin_is_no_weakening(name: str) -> None:
    assert python_weakening(BEFORE, HONEST[name], failing_tests([FAILURE]), {"-1"}) == (), name


def test_code_that_does_not_parse_is_left_to_the_lines() -> None:
    assert python_weakening(BEFORE, "def test_add(:\n", set(), set()) is None


def test_unittest_assertions() -> None:
    before = (
        "import unittest\nfrom calc import add\n\nclass TestAdd(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"
        "    def test_close(self):\n        self.assertAlmostEqual(add(0.1, 0.2), 0.3, places=7)\n"
    )
    loosened = before.replace("assertEqual(add(2, 3), 5)", "assertTrue(add(2, 3))")
    assert any("loosened" in r for r in python_weakening(before, loosened) or ())
    widened = before.replace("places=7", "delta=1")
    assert any("tolerance" in r for r in python_weakening(before, widened) or ())
    fewer = before.replace("places=7", "places=1")
    assert any("widened a tolerance" in r for r in python_weakening(before, fewer) or ())
    stricter = before.replace("places=7", "places=9")
    assert python_weakening(before, stricter) == ()


JS_BEFORE = """
describe('add', () => {
  it('adds', () => {
    expect(add(2, 3)).toBe(5);
  });
  it('adds zero', () => {
    expect(add(0, 4)).toEqual(4);
  });
});
"""


@pytest.mark.parametrize(
    ("after", "words"),
    [
        (JS_BEFORE.replace(".toBe(5)", ".toBeTruthy()"), "loosened a matcher"),
        (JS_BEFORE.replace("it('adds',", "it.skip('adds',"), "`.skip`"),
        (JS_BEFORE.replace("it('adds',", "xit('adds',"), "xit"),
        (JS_BEFORE.replace("    expect(add(2, 3)).toBe(5);\n", ""), "removed 1 expectation"),
        (JS_BEFORE.replace("it('adds', ", "it('adds again', "), "removed the failing test `adds`"),
    ],
)
def test_javascript_weakening_by_tokens(after: str, words: str) -> None:
    found = token_weakening("calc.test.js", JS_BEFORE, after, {"adds"})
    assert any(words in r for r in found), found


@pytest.mark.parametrize(
    "after",
    [
        JS_BEFORE.replace("toBe(5)", "toStrictEqual(5)"),
        JS_BEFORE.replace(
            "  it('adds zero'",
            "  it('adds negatives', () => {\n    expect(add(-1, 1)).toBe(0);\n  });\n"
            "  it('adds zero'",
        ),
        JS_BEFORE.replace("add(2, 3)", "add(2,  3)"),
    ],
)
def test_javascript_honest_twins(after: str) -> None:
    assert token_weakening("calc.test.js", JS_BEFORE, after, {"adds"}) == ()


GO_BEFORE = """package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}
"""


def test_go_weakening_by_tokens() -> None:
    removed = GO_BEFORE.replace('\t\tt.Errorf("Add(2, 3) = %d, want 5", got)\n', "")
    assert any("removed a check" in r for r in token_weakening("calc_test.go", GO_BEFORE, removed))
    skipped = GO_BEFORE.replace("{\n\tif", "{\n\tt.Skip()\n\tif", 1)
    assert any("t.Skip" in r for r in token_weakening("calc_test.go", GO_BEFORE, skipped))
    more = (
        GO_BEFORE
        + '\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 1) != 1 {\n\t\tt.Fatal("no")\n\t}\n}\n'
    )
    assert token_weakening("calc_test.go", GO_BEFORE, more) == ()


def test_failing_tests_are_read_from_each_runner() -> None:
    outputs = [
        FAILURE,
        "--- FAIL: TestAdd (0.00s)",
        "not ok 1 - adds two numbers",
        "FAIL: test_mean (test_stats.TestStats)",
    ]
    assert {"test_add", "TestAdd", "adds two numbers", "test_mean"} <= failing_tests(outputs)
