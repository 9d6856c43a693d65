"""What an answer claims, read from its text (English and Chinese).

Only plain statements of fact count: "all tests pass", "构建成功". Negated,
conditional or future forms ("tests do not pass yet", "should pass once…",
"测试尚未通过") are not claims. Code blocks are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ApprovalClaim",
    "Category",
    "CheckClaim",
    "FileClaim",
    "approval_claims",
    "asks_for_change",
    "category_of_check",
    "check_claims",
    "completion_claims",
    "file_claims",
    "mentioned_categories",
    "mentioned_paths",
    "path_matches",
    "sentences",
    "strip_code",
]

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


def sentences(text: str) -> list[str]:
    """``text`` without code blocks, split into sentences (English and Chinese)."""
    return [part.strip() for part in _SENTENCE_END.split(strip_code(text)) if part.strip()]


def check_claims(answer: str) -> list[CheckClaim]:
    """Sentences of ``answer`` that state, as fact, that checks passed."""
    claims: list[CheckClaim] = []
    for sentence in sentences(answer):
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


# ------------------------------------------------------------------ file claims

_EXTENSIONS = (
    "py|pyi|ipynb|js|mjs|cjs|ts|tsx|jsx|vue|svelte|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|"
    "rb|php|pl|lua|r|scala|sh|bash|zsh|ps1|bat|sql|html?|css|scss|less|md|rst|txt|json|jsonl|"
    "ya?ml|toml|ini|cfg|conf|env|xml|csv|tsv|lock|gradle|properties|proto|graphql|tf|dockerfile|"
    "makefile|mk|cmake|svg|tex"
)
_PATH = re.compile(
    rf"""(?ix)
    `(?P<quoted>[^`\s]{{1,200}})`                               # `anything/quoted.ext`
    | (?<![\w/.@:-])(?P<bare>(?:[\w.-]+/)*[\w-][\w.-]*\.(?:{_EXTENSIONS}))(?![\w/-])
    | (?<![\w/.@:-])(?P<special>(?:[\w.-]+/)*
        (?:Dockerfile|Makefile|Justfile|\.gitignore|\.env))(?![\w./-])
    """
)
_QUOTED_PATH = re.compile(rf"(?i)^(?:\./)?(?:[\w.@-]+/)*[\w.@-]+(?:\.(?:{_EXTENSIONS})|/)$")
_EN_CHANGE = re.compile(
    r"(?i)\b(?P<verb>creat(?:ed|es)|add(?:ed|s)|updat(?:ed|es)|modifi(?:ed|es)|chang(?:ed|es)|"
    r"edit(?:ed|s)|wr(?:ote|itten)|rewr(?:ote|itten)|implement(?:ed|s)|refactor(?:ed|s)|"
    r"renam(?:ed|es)|remov(?:ed|es)|delet(?:ed|es)|patch(?:ed|es)|fix(?:ed|es)|adjust(?:ed|s)|"
    r"mov(?:ed|es)|replac(?:ed|es)|extend(?:ed|s)|touch(?:ed|es)|generat(?:ed|es)|sav(?:ed|es))\b"
)
_ZH_CHANGE = re.compile(
    r"(?P<verb>创建|新建|修改|更新|添加|新增|编写|写入|改动|改写|删除|重构|修复|实现|生成|替换|调整|重命名|保存)"
)
_EN_CHANGE_NEGATION = re.compile(
    r"(?i)(?:\bnot|n't|\bnever|\bno\b|\bwithout|\bshould|\bwould|\bwill|\bmight|\bmay|"
    r"\bcould|\bneed(?:s|ed)? to|\bif|\bunless|\bplan(?:ned)? to|\bgoing to|\bpropose|"
    r"\bsuggest|\btodo|\byou can|\byou could|\bnext\b|\bremaining|\bwhether)"
)
_CLAUSE_BREAK = re.compile(
    r"(?i)[,;:]|\b(?:and|but|so|then|which|that|while|because|pass(?:es)?)\b"
)
_LIST_ONLY = re.compile(r"(?i)^[\s,`'\"]*(?:(?:and|&)[\s,`'\"]*)?$")
_ZH_CHANGE_NEGATION = re.compile(
    r"未|没有|没|不|尚未|待|应该|应当|将会|将要|计划|建议|需要|还需|是否|可以"
)


@dataclass(frozen=True, slots=True)
class FileClaim:
    """The answer states that it created, changed or removed these files."""

    sentence: str
    paths: tuple[str, ...]


def _claimed_paths(sentence: str) -> list[tuple[int, int, str]]:
    found = []
    for match in _PATH.finditer(sentence):
        path = match.group("quoted") or match.group("bare") or match.group("special")
        if match.group("quoted") is not None and not _QUOTED_PATH.match(path):
            continue
        if "://" in path or path.startswith(("http", "www.")):
            continue
        found.append((match.start(), match.end(), path.rstrip("/")))
    return found


def mentioned_paths(text: str) -> list[str]:
    """Path-like names in ``text`` (``src/a.py``, `` `README.md` ``, ``Dockerfile``)."""
    return list(dict.fromkeys(path for _, _, path in _claimed_paths(strip_code(text))))


# Kinds of check a request or an item names, as words (not inside other words:
# "the spec" is a document, "Build an API" a task, "prototype" no type check).
_MENTIONS: list[tuple[Category, re.Pattern[str]]] = [
    (
        "type",
        re.compile(r"(?i)\btype[- ]?check(?:s|er|ing)?\b|\bmypy\b|\btsc\b|\bpyright\b|类型检查"),
    ),
    (
        "lint",
        re.compile(
            r"(?i)\blint(?:s|er|ers|ing)?\b|\bruff\b|\beslint\b|\bflake8\b|\bpylint\b|"
            r"代码检查|静态检查"
        ),
    ),
    (
        "build",
        re.compile(
            r"(?i)\b(?:the|a|clean|green) builds?\b|\bbuilds? (?:pass|passes|succeeds?|cleanly)\b|"
            r"\bcompil(?:es|ation|ing)\b|\b(?:must|should|still) compile\b|构建|编译"
        ),
    ),
    (
        "test",
        re.compile(
            r"(?i)\btests?\b|\btesting\b|\btest[- ]suite\b|\bpytest\b|\bjest\b|\bvitest\b|"
            r"\bspecs? pass|单元测试|测试|单测|用例"
        ),
    ),
]


def mentioned_categories(text: str) -> frozenset[Category]:
    """Check categories ``text`` names ("tests", "lint", "类型检查"); empty if none."""
    return frozenset(cat for cat, pattern in _MENTIONS if pattern.search(strip_code(text)))


def file_claims(answer: str) -> list[FileClaim]:
    """Sentences of ``answer`` that state, as fact, that named files were written.

    A sentence counts when a change verb ("updated", "created", "修改了") governs a
    path-like name in the same sentence: English verb before the path (or "X was
    updated"), Chinese verb within a few characters of it. Negated, planned or
    suggested changes ("you could update config.py", "尚未修改") do not count.
    """
    claims: list[FileClaim] = []
    for sentence in sentences(answer):
        paths = _claimed_paths(sentence)
        if not paths:
            continue
        claimed: list[str] = []
        for start, end, path in paths:
            if _governed(sentence, start, end):
                claimed.append(path)
        if claimed:
            claims.append(FileClaim(sentence, tuple(dict.fromkeys(claimed))))
    return claims


def _governed(sentence: str, start: int, end: int) -> bool:
    before = sentence[max(0, start - 80) : start]
    verbs = list(_EN_CHANGE.finditer(before))
    if verbs:
        verb = verbs[-1]  # the closest verb governs the path, if no clause break between
        between = before[verb.end() :]
        upto = start - len(before) + verb.end()
        listed = _LIST_ONLY.match(_PATH.sub("", between)) is not None  # "a.py, b.py and"
        if (
            listed or (len(between) <= 45 and not _CLAUSE_BREAK.search(between))
        ) and not _EN_CHANGE_NEGATION.search(sentence[max(0, upto - 70) : upto]):
            return True
    after = sentence[end : end + 40]
    passive = re.match(
        r"(?i)^\s*(?:(?:was|were|is|are|has been|have been|got|now)\s+)+(\w+)", after
    )
    if passive and _EN_CHANGE.fullmatch(passive.group(1)):
        return not _EN_CHANGE_NEGATION.search(sentence[max(0, start - 40) : end + 40])
    near = sentence[max(0, start - 12) : start] + " " + sentence[end : end + 12]
    if _ZH_CHANGE.search(near):
        return not _ZH_CHANGE_NEGATION.search(sentence[max(0, start - 16) : end + 16])
    return False


def _norm_path(path: str) -> str:
    path = path.replace("\\", "/").strip("'\"` ")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/").lower()


def path_matches(claimed: str, written: str) -> bool:
    """Does a write to ``written`` account for a claim about ``claimed``?

    Equal paths, one a suffix of the other at a ``/`` boundary, or a bare file
    name equal to the written file's name (``calc.py`` vs ``/repo/src/calc.py``).
    """
    a, b = _norm_path(claimed), _norm_path(written)
    if not a or not b:
        return False
    return a == b or b.endswith("/" + a) or a.endswith("/" + b)


# -------------------------------------------------------------- approval claims

_EN_APPROVAL = re.compile(
    r"""(?ix)
    \b(?:
        (?:is|are|was|were|been|got|get|gets|received|obtained|has|have|had)\s+
            (?:\w+\s+){0,2}?(?:approved|signed[ -]off|sign-off|okayed|green-?lit)
      | approved\s+by\b
      | (?:approval|sign-?off)\s+(?:was\s+|has\s+been\s+)?(?:granted|given|obtained|received)
      | passed\s+(?:the\s+)?(?:\w+\s+){0,2}?(?:review|approval|audit|sign-?off|inspection)
      | (?:PR|pull\ request|MR|merge\ request|change|design|plan|budget|release|request|proposal|
         it|this|that|contract|document|spec)\s+(?:is\s+|was\s+|has\s+been\s+)?approved\b
      | signed\s+off\s+(?:by|on)\b
    )
    """
)
_EN_APPROVAL_NEGATION = re.compile(
    r"(?i)(?:\bnot\b|n't|\bnever|\bno\b|\byet|\bpending|\bawait|\bwaiting|\bwait for|"
    r"\bneeds?\b|\brequires?\b|\brequired|\bto be\b|\bonce\b|\bif\b|\bunless|\buntil|"
    r"\bbefore|\bshould|\bwill\b|\bwould|\bmay\b|\bmight|\bcould|\brequest(?:ed|ing)?\b|"
    r"\bseek|\bsubmit(?:ted)?\s+for|\bsent\s+for|\bfor approval|\bwhether|\bask(?:ed)?\s+for)"
)
_ZH_APPROVAL = re.compile(
    r"(?:已(?:经)?(?:被)?(?:获得?|得到)?(?:批准|获批|核准|签字|签核|签署|同意|审批)|"
    r"(?:审批|审核|评审)(?:已(?:经)?)?通过|(?:获得?|得到)(?:了)?(?:批准|审批|签字)|批准了|已通过(?:审批|审核|评审))"
)
_ZH_APPROVAL_NEGATION = re.compile(
    r"未|尚未|没有|没|待|等待|是否|需要|须|申请|提交|还需|仍需|不|如果|若"
)


@dataclass(frozen=True, slots=True)
class ApprovalClaim:
    """A statement that something was approved or signed off, as fact."""

    sentence: str
    phrase: str


def approval_claims(text: str) -> list[ApprovalClaim]:
    """Sentences of ``text`` that state, as fact, that something was approved.

    "The PR was approved", "signed off by legal", "已批准", "已通过审批" count;
    negated and pending forms ("not yet approved", "pending approval", "awaiting
    sign-off", "尚未批准", "待确认是否批准") do not.
    """
    found: list[ApprovalClaim] = []
    for sentence in sentences(text):
        for pattern, negation, reach in (
            (_EN_APPROVAL, _EN_APPROVAL_NEGATION, 40),
            (_ZH_APPROVAL, _ZH_APPROVAL_NEGATION, 8),
        ):
            hit = next(
                (
                    m
                    for m in pattern.finditer(sentence)
                    if not negation.search(sentence[max(0, m.start() - reach) : m.end()])
                ),
                None,
            )
            if hit is not None:
                found.append(ApprovalClaim(sentence, hit.group(0).strip()))
                break
    return found


# ------------------------------------------------------------ completion claims

# One row per language: the answer says the work is finished. Read as fact only:
# "not done yet", "once it is complete", "是否完成", "尚未完成" are not claims.
COMPLETION: tuple[tuple[str, str], ...] = (
    (
        "en",
        r"\b(?:done|finished|complete(?:d)?|implemented|fixed|resolved|verified|works|"
        r"working(?: now| fine| correctly| as expected)?|ready (?:to|for) "
        r"(?:merge|ship|review|release|deploy|go)|all set|good to go|"
        r"no (?:more )?(?:errors|issues|problems|failures)(?: left| remain(?:ing)?)?|"
        r"(?:the )?run confirms|confirmed|all good|looks good|lgtm|shipped|wrapped up|"
        r"taken care of|sorted out)\b",
    ),
    (
        "zh",
        r"完成|搞定|做完|做好了|实现了|已实现|修复了|已修复|修好了|解决了|已解决|没(?:有)?问题|"
        r"可以合并|可以发布|已验证|验证通过|正常工作|正常运行|一切正常|没有错误|无错误|准备好了|"
        r"弄好了|处理好了|改好了|没毛病",
    ),
)
_DONE = {lang: re.compile(pattern, re.I) for lang, pattern in COMPLETION}
_DONE_NEGATION = {"en": (_EN_NEGATION, 30), "zh": (_ZH_NEGATION, 4)}


def completion_claims(answer: str) -> list[str]:
    """Sentences of ``answer`` that state, as fact, that the work is finished."""
    claims: list[str] = []
    for sentence in sentences(answer):
        if sentence.endswith(("?", "？")):
            continue
        for lang, pattern in _DONE.items():
            negation, reach = _DONE_NEGATION[lang]
            if any(
                not negation.search(sentence[max(0, hit.start() - reach) : hit.start()])
                for hit in pattern.finditer(sentence)
            ):
                claims.append(sentence)
                break
    return claims


_CHANGE_REQUEST = re.compile(
    r"(?i)\b(?:create|add|update|modify|change|edit|write|rewrite|implement|refactor|rename|"
    r"remove|delete|patch|fix|adjust|move|replace|extend|generate|save|put|append|"
    r"insert|convert|translate|format|bump|upgrade)\b|\bmake\b(?!\s+sure)|"
    r"创建|新建|修改|更新|添加|新增|编写|写入|写|改|删除|重构|修复|实现|生成|替换|调整|重命名|保存|加入|补充"
)


def asks_for_change(text: str) -> bool:
    """Whether a request item asks for a file to be changed (not only read or explained)."""
    return _CHANGE_REQUEST.search(text) is not None
