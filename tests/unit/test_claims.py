from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.words.claims import category_of_check, check_claims


@pytest.mark.parametrize(
    ("answer", "categories"),
    [
        ("All tests pass.", [{"test"}]),
        ("I fixed the bug and the test suite now passes.", [{"test"}]),
        ("The previously failing test now passes.", [{"test"}]),
        ("It passes all the tests.", [{"test"}]),
        ("The build succeeds and lint is clean.", [{"build", "lint"}]),
        ("mypy is clean", [{"type"}]),
        ("Everything is green!", [{"any"}]),
        ("Fixed calc.py and all tests pass now.", [{"test"}]),
        ("测试全部通过。", [{"test"}]),
        ("所有测试均已通过", [{"test"}]),
        ("我修改了不必要的代码，测试全部通过", [{"test"}]),
        ("ruff 检查已通过，可以合并。", [{"lint"}]),
        ("构建成功", [{"build"}]),
        ("单元测试通过了", [{"test"}]),
        # not claims: negated, conditional, future, pending, code
        ("Tests do not pass yet.", []),
        ("I have not verified that all tests pass.", []),
        ("Run pytest to check whether the tests pass.", []),
        ("Tests should pass now.", []),
        ("Once you install the dependency, the tests will pass.", []),
        ("I couldn't get the tests to pass.", []),
        ("测试尚未通过", []),
        ("测试还没有通过", []),
        ("需要确认测试是否通过", []),
        ("已通过审批", []),
        ("```\nassert tests pass\n```", []),
        ("I updated the README.", []),
    ],
)
def test_check_claims(answer: str, categories: list[set[str]]) -> None:
    assert [set(c.categories) for c in check_claims(answer)] == categories


def test_each_sentence_is_judged_alone() -> None:
    claims = check_claims("All tests pass. Not all checks pass.")
    assert [c.sentence for c in claims] == ["All tests pass."]


@given(st.text(max_size=500))
def test_never_raises(answer: str) -> None:
    check_claims(answer)


@pytest.mark.parametrize(
    ("kind", "categories"),
    [
        ("pytest", {"test"}),
        ("npm test", {"test"}),
        ("npm lint", {"lint"}),
        ("ruff", {"lint"}),
        ("mypy", {"type"}),
        ("tsc", {"type"}),
        ("cargo build", {"build"}),
        ("ruff+pytest", {"lint", "test"}),
        ("make check", {"test", "lint", "type", "build"}),
    ],
)
def test_category_of_check(kind: str, categories: set[str]) -> None:
    assert category_of_check(kind) == categories
