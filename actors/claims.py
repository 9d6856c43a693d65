"""What an answer claims, read from its text (English and Chinese).

Only plain statements of fact count: "all tests pass", "构建成功". Negated,
conditional or future forms ("tests do not pass yet", "should pass once…",
"测试尚未通过") are not claims. Code blocks are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Category", "CheckClaim", "category_of_check", "check_claims", "strip_code"]

Category = Literal["test", "lint", "type", "build", "any"]

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")

_EN_SUBJECT = (
    r"(?P<subject>(?:unit |integration |e2e |end-to-end |regression )?"
    r"(?:tests?|test suite|test cases?|specs?|checks?|builds?|compil(?:e|ation)|lint(?:er|ing)?|"
    r"type[- ]?checks?|type[- ]?checking|mypy|ruff|pytest|jest|eslint|tsc|ci|pipeline))"
)
_EN_VERB = (
    r"(?P<verb>pass(?:es|ed|ing)?|succeed(?:s|ed)?|success(?:ful(?:ly)?)?|(?:is |are |all )?green|"
    r"(?:are |is )?(?:all )?ok|clean|work(?:s|ing)?)"
)
_EN_CLAIMS = [
    re.compile(rf"(?i)\b{_EN_SUBJECT}\b[^.\n]{{0,40}}?\b{_EN_VERB}\b"),
    re.compile(
        r"(?i)\b(?P<verb>pass(?:es|ed|ing)?)\s+(?:all\s+)?(?:the\s+|its\s+|our\s+)?"
        r"(?P<subject>tests?|checks?|specs?|test suite|lint(?:ing)?|type[- ]?checks?)\b"
    ),
    re.compile(r"(?i)\b(?P<subject>everything|all)\s+(?:is\s+)?(?P<verb>green)\b"),
]
_EN_NEGATION = re.compile(
    r"(?i)(?:\bnot|n't|\bnever|\bno longer|\bunable|\bcannot|"
    r"\bskip(?:ped)?|\bshould|\bwould|\bwill|\bmight|\bmay|\bcould|"
    r"\bonce|\bif|\bunless|\buntil|\bexpect(?:ed)?|\bto make|\bso that|\bhopefully|"
    r"\bprobably|\bmust|\bneed(?:s|ed)? to|\btodo|\bpending|\byet|\bwhether)\b"
)

_ZH_SUBJECT = (
    r"(?P<subject>(?:[A-Za-z][\w.-]*\s*)?(?:单元测试|集成测试|测试用例|测试|单测|用例|检查|构建|"
    r"编译|类型检查|lint|Lint|CI|流水线|校验))"
)
_ZH_CLAIMS = [
    re.compile(
        rf"{_ZH_SUBJECT}[^。！？\n]{{0,12}}?(?:全部|均|都|已经|已)*\s*(?P<verb>通过|成功|绿|无误|没有问题)"
    ),
    re.compile(r"(?P<verb>通过)(?:了)?(?:全部|所有)(?P<subject>测试|检查|用例)"),
]
_ZH_NEGATION = re.compile(r"未|没有|没|不|尚未|待|应该|应当|将会|将|预计|如果|一旦|需要|还需|是否")

_CATEGORY_WORDS: list[tuple[Category, re.Pattern[str]]] = [
    ("type", re.compile(r"(?i)type|mypy|tsc|pyright|类型")),
    ("lint", re.compile(r"(?i)lint|ruff|eslint|flake8|pylint")),
    ("build", re.compile(r"(?i)build|compil|构建|编译")),
    ("test", re.compile(r"(?i)test|spec|pytest|jest|单元|测试|单测|用例")),
]

_KIND_CATEGORY: dict[str, Category] = {
    "mypy": "type",
    "pyright": "type",
    "tsc": "type",
    "deno check": "type",
    "ruff": "lint",
    "eslint": "lint",
    "flake8": "lint",
    "pylint": "lint",
    "black": "lint",
    "isort": "lint",
    "prettier": "lint",
    "stylelint": "lint",
    "golangci-lint": "lint",
    "shellcheck": "lint",
    "rubocop": "lint",
    "go vet": "lint",
    "cargo clippy": "lint",
    "deno lint": "lint",
    "cargo check": "build",
    "go build": "build",
    "cargo build": "build",
    "dotnet build": "build",
    "gradle build": "build",
    "bazel build": "build",
    "cmake build": "build",
    "mvn package": "build",
    "make": "build",
    "just": "build",
    "task": "build",
}


def category_of_check(kind: str) -> set[Category]:
    """Categories a check kind belongs to (``npm lint`` → lint, ``pytest`` → test)."""
    categories: set[Category] = set()
    for part in kind.split("+"):
        if part in _KIND_CATEGORY:
            categories.add(_KIND_CATEGORY[part])
        elif part.endswith((" lint",)):
            categories.add("lint")
        elif part.endswith((" build",)):
            categories.add("build")
        elif part.endswith((" typecheck",)):
            categories.add("type")
        elif part.endswith(" check"):
            categories.update({"test", "lint", "type", "build"})
        else:
            categories.add("test")
    return categories


@dataclass(frozen=True, slots=True)
class CheckClaim:
    """The answer states that checks ran and passed."""

    sentence: str
    categories: frozenset[Category]


def strip_code(text: str) -> str:
    """The answer without fenced code blocks (code is not a claim)."""
    return _FENCE.sub(" ", text)


def _categories(subject: str) -> frozenset[Category]:
    found = {cat for cat, pattern in _CATEGORY_WORDS if pattern.search(subject)}
    return frozenset(found) if found else frozenset({"any"})


def check_claims(answer: str) -> list[CheckClaim]:
    """Sentences of ``answer`` that state, as fact, that checks passed."""
    claims: list[CheckClaim] = []
    for part in _SENTENCE_END.split(strip_code(answer)):
        sentence = part.strip()
        if not sentence:
            continue
        categories: set[Category] = set()
        for patterns, negation, reach in (
            (_EN_CLAIMS, _EN_NEGATION, 30),
            (_ZH_CLAIMS, _ZH_NEGATION, 4),
        ):
            for pattern in patterns:
                for hit in pattern.finditer(sentence):
                    if not negation.search(sentence[max(0, hit.start() - reach) : hit.end()]):
                        categories |= _categories(hit.group("subject"))
        if categories:
            claims.append(CheckClaim(sentence, frozenset(categories)))
    return claims
