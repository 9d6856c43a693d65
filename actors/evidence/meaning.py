"""What a test file means, before and after a change: how the change weakens it.

A test is weakened when it can pass where it could not before, whatever the edit
looked like. So the two versions of a file are compared by what they check, not by
their lines:

* **Python**, by its syntax tree (:func:`python_weakening`): each test (``test_*``
  functions and methods of ``Test*`` classes) is matched by name, and its assertions
  by position — removed, made vacuous (``assert True``, ``x or True``, ``x == x``),
  a comparison loosened (``==`` → ``in``, ``assertEqual`` → ``assertTrue``), a
  compared value changed (above all to what the failing run printed), a tolerance
  widened (``pytest.approx`` ``rel``/``abs``, ``assertAlmostEqual`` ``places`` →
  ``delta``, ``math.isclose``), the inputs of an assertion changed; a test removed
  or renamed away (a failing one above all), ``skip``/``xfail``/an early ``return``
  added; the code under test replaced from test code (``monkeypatch.setattr`` with an
  object or a string target, ``mock.patch(…)`` as decorator, context or ``.start()``,
  ``mod.fn = …``, ``setattr``, ``sys.modules[…] = …``); ``pytest.exit`` in a hook.
  Formatting, renamed locals and reordered imports change nothing; a constant written
  otherwise (``5`` → ``2 + 3``) is the same value.
* **JavaScript/TypeScript and Go**, by the tokens of each test's body
  (:func:`token_weakening`): expectations or ``t.Error``/``t.Fatal`` calls removed, a
  strict matcher made loose (``toBe``/``toEqual`` → ``toContain``/``toBeTruthy``…),
  ``.skip``/``.todo``/``t.Skip`` added, a test removed.

Adding tests, assertions or stricter comparisons is never a reason. Each function
answers reasons in words for the card; an empty tuple means no weakening was seen.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator, Sequence, Set
from dataclasses import dataclass, field

__all__ = ["failing_tests", "python_weakening", "token_weakening"]

# ------------------------------------------------------------------- the tables

STRICT_OPS: dict[type[ast.cmpop], int] = {
    # how much a comparison says: an equality pins a value, the rest only bound it
    ast.Eq: 3,
    ast.Is: 3,
    ast.In: 1,
    ast.NotIn: 1,
    ast.Lt: 2,
    ast.LtE: 2,
    ast.Gt: 2,
    ast.GtE: 2,
    ast.NotEq: 1,
    ast.IsNot: 1,
}
ASSERT_METHODS: dict[str, int] = {
    # unittest's assertions, by how much they say (same scale)
    "assertEqual": 3, "assertEquals": 3, "assertListEqual": 3, "assertDictEqual": 3,
    "assertTupleEqual": 3, "assertSetEqual": 3, "assertSequenceEqual": 3,
    "assertMultiLineEqual": 3, "assertCountEqual": 3, "assertIs": 3,
    "assertAlmostEqual": 3, "assertRaises": 3, "assertRaisesRegex": 3,
    "assertGreater": 2, "assertGreaterEqual": 2, "assertLess": 2, "assertLessEqual": 2,
    "assertRegex": 2, "assertIsInstance": 2,
    "assertIn": 1, "assertNotIn": 1, "assertNotEqual": 1, "assertIsNot": 1,
    "assertTrue": 1, "assertFalse": 1, "assertIsNotNone": 1, "assertIsNone": 2,
    "assertNotAlmostEqual": 1, "assertNotRegex": 1,
}  # fmt: skip
TOLERANCES: dict[str, tuple[str, ...]] = {
    # a call that compares within a tolerance: the arguments that set it
    "approx": ("rel", "abs"),
    "isclose": ("rel_tol", "abs_tol", "rtol", "atol"),
    "allclose": ("rtol", "atol"),
    "assert_allclose": ("rtol", "atol"),
    "assertAlmostEqual": ("places", "delta"),
    "assert_almost_equal": ("decimal",),
}
SKIPS = frozenset({"skip", "skipif", "xfail", "skipIf", "skipUnless", "expectedFailure"})
"""Decorators and calls that leave a test out or turn its failure into a pass."""
PATCHERS = frozenset({"setattr", "patch", "patch.object", "setitem", "delattr"})
EXITS = frozenset({"exit"})
_TEST_NAME = re.compile(r"^test")


# -------------------------------------------------------------------- Python


@dataclass
class _Test:
    """One test: its assertions and what leaves it out."""

    name: str
    asserts: list[ast.AST] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    early_return: bool = False


def _call_name(node: ast.AST) -> str:
    """``pytest.approx`` → ``approx``; ``mock.patch.object`` → ``patch.object``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        inner = node.value
        if isinstance(inner, ast.Attribute) and inner.attr == "patch":
            return f"patch.{node.attr}"
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _is_assert(node: ast.AST) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Call) and _call_name(node) in ASSERT_METHODS:
        return True
    if isinstance(node, ast.With):  # with pytest.raises(...)
        return any(_call_name(item.context_expr) in {"raises", "warns"} for item in node.items)
    return False


def _skip_marks(decorators: Sequence[ast.expr]) -> list[str]:
    found = []
    for decorator in decorators:
        if _call_name(decorator) in SKIPS:
            shown = _source(decorator.func if isinstance(decorator, ast.Call) else decorator)
            found.append(f"`@{shown}`")
    return found


def _walk_test(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> _Test:
    test = _Test(name, skipped=_skip_marks(node.decorator_list))
    first = True
    for statement in node.body:
        if (first and isinstance(statement, ast.Return)) or (
            first and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            test.early_return = test.early_return or isinstance(statement, ast.Return)
        else:
            first = False
    for child in ast.walk(node):
        if child is node:
            continue
        if isinstance(child, ast.Expr) and _is_assert(child.value):
            test.asserts.append(child.value)
        elif isinstance(child, ast.Assert | ast.With) and _is_assert(child):
            test.asserts.append(child)
        elif isinstance(child, ast.Call) and _call_name(child) in SKIPS | EXITS:
            func = child.func
            owner = (
                func.value.id
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                else ""
            )
            if owner in {"pytest", "self", "unittest"} or _call_name(child) == "skipTest":
                test.skipped.append(f"`{owner}.{_call_name(child)}()`")
        elif isinstance(child, ast.Call) and _call_name(child) == "skipTest":
            test.skipped.append("`self.skipTest()`")
    return test


def _tests(tree: ast.Module) -> dict[str, _Test]:
    found: dict[str, _Test] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _TEST_NAME.match(node.name):
            found[node.name] = _walk_test(node, node.name)
        elif isinstance(node, ast.ClassDef):
            marks = _skip_marks(node.decorator_list)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _TEST_NAME.match(
                    item.name
                ):
                    test = _walk_test(item, f"{node.name}.{item.name}")
                    test.skipped = marks + test.skipped
                    found[test.name] = test
    return found


_CONSTANT_OPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}
_BIG = 10**18


def _constant(node: ast.AST, depth: int = 0) -> object:
    """A constant expression's value — numbers, strings, their sums and products, a
    tuple or list of them — worked out without running anything; :class:`ValueError`
    for anything else (or too large)."""
    if depth > 16:
        raise ValueError("too deep")
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _constant(node.operand, depth + 1)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Tuple | ast.List):
        return tuple(_constant(e, depth + 1) for e in node.elts[:64])
    if isinstance(node, ast.BinOp) and type(node.op) in _CONSTANT_OPS:
        left, right = _constant(node.left, depth + 1), _constant(node.right, depth + 1)
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right))
        texts = isinstance(left, str) and isinstance(right, str) and isinstance(node.op, ast.Add)
        if (numbers and all(abs(v) < _BIG for v in (left, right))) or texts:  # type: ignore[arg-type]
            try:
                return _CONSTANT_OPS[type(node.op)](left, right)  # type: ignore[no-untyped-call]
            except (ArithmeticError, TypeError):
                pass
    raise ValueError("not a constant")


def _value(node: ast.AST | None) -> object:
    """A constant expression's value (``5``, ``2 + 3``, ``-1``, ``"ab"``, a tuple of
    them) as ``("value", v)``, or ``("node", dump)`` when it is not one."""
    if node is None:
        return None
    try:
        return ("value", _constant(node))
    except ValueError:
        return ("node", ast.dump(node, annotate_fields=False, include_attributes=False))


def _expected(node: ast.AST) -> object:
    """What an assertion expects, its tolerance aside (``approx(1.5, rel=…)`` → 1.5)."""
    if isinstance(node, ast.Call) and _call_name(node) in TOLERANCES and node.args:
        return _value(node.args[0])
    return _value(node)


def _vacuous(node: ast.AST) -> bool:
    """An assertion that cannot fail."""
    test = node.test if isinstance(node, ast.Assert) else None
    if isinstance(node, ast.Call) and _call_name(node) in {"assertTrue", "assertEqual", "assertIs"}:
        args = node.args
        if _call_name(node) == "assertTrue" and args:
            test = args[0]
        elif len(args) >= 2 and _value(args[0]) == _value(args[1]):
            return True
    if test is None:
        return False
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(isinstance(v, ast.Constant) and bool(v.value) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Constant) and not test.operand.value
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        same = _value(test.left) == _value(test.comparators[0])
        return same and isinstance(test.ops[0], ast.Eq | ast.Is | ast.LtE | ast.GtE)
    return False


def _strength(node: ast.AST) -> int:
    if isinstance(node, ast.Assert):
        test = node.test
        if isinstance(test, ast.Compare):
            return min(STRICT_OPS.get(type(op), 1) for op in test.ops)
        return 1
    if isinstance(node, ast.Call):
        return ASSERT_METHODS.get(_call_name(node), 1)
    return 3  # pytest.raises


def _sides(node: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    """(what an assertion computes, what it expects): the calls under test and the
    values they are compared with."""
    if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
        return [node.test.left], list(node.test.comparators)
    if isinstance(node, ast.Call) and node.args:
        return [node.args[0]], list(node.args[1:2])
    if isinstance(node, ast.Assert):
        return [node.test], []
    return [], []


def _tolerance(node: ast.AST) -> dict[str, float]:
    """The tolerances an assertion sets, by name (``approx.rel`` → 0.1)."""
    found: dict[str, float] = {}
    for child in ast.walk(node):
        if not isinstance(child, ast.Call):
            continue
        name = _call_name(child)
        keys = TOLERANCES.get(name)
        if keys is None:
            continue
        found[f"{name}"] = found.get(name, 0.0)
        for keyword in child.keywords:
            if keyword.arg in keys:
                value = _value(keyword.value)
                if (
                    isinstance(value, tuple)
                    and value[0] == "value"
                    and isinstance(value[1], int | float)
                ):
                    found[f"{name}.{keyword.arg}"] = float(value[1])
        if name in {"assertAlmostEqual", "assert_almost_equal"} and len(child.args) >= 3:
            value = _value(child.args[2])
            if (
                isinstance(value, tuple)
                and value[0] == "value"
                and isinstance(value[1], int | float)
            ):
                found[f"{name}.places"] = float(value[1])
    return found


def _widened(old: dict[str, float], new: dict[str, float]) -> str:
    """How a tolerance grew (``places`` and ``decimal`` shrink to widen)."""
    for key, after in new.items():
        before = old.get(key)
        call = key.split(".", 1)[0]
        if before is None:
            if "." in key and call in old:
                if key.endswith((".places", ".decimal")):
                    continue
                return f"added a tolerance to `{call}` (`{key.split('.', 1)[1]}={after:g}`)"
            if "." not in key and not any(k.startswith(call) for k in old):
                return f"compares within a tolerance now (`{call}`)"
            continue
        tighter_is_larger = key.endswith((".places", ".decimal"))
        if (after < before) if tighter_is_larger else (after > before):
            return f"widened a tolerance (`{key.split('.', 1)[-1]}` {before:g} → {after:g})"
    return ""


def _source(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except (ValueError, AttributeError, RecursionError):
        return "…"
    return text if len(text) <= 60 else text[:57] + "…"


def _calls(nodes: Iterable[ast.AST]) -> list[str]:
    """The calls an assertion makes on what it tests, with their arguments."""
    found = []
    for node in nodes:
        for child in ast.walk(node):
            if isinstance(child, ast.Call) and _call_name(child) not in TOLERANCES:
                found.append(ast.dump(child, annotate_fields=False, include_attributes=False))
    return found


def _compare(old: ast.AST, new: ast.AST, actuals: Set[str]) -> str:
    """How assertion ``new`` says less than ``old`` (``""``: it does not)."""
    if _vacuous(new) and not _vacuous(old):
        return f"made an assertion vacuous (`{_source(new)}`)"
    if _strength(new) < _strength(old):
        return f"loosened an assertion (`{_source(old)}` → `{_source(new)}`)"
    widened = _widened(_tolerance(old), _tolerance(new))
    if widened:
        return widened
    old_got, old_want = _sides(old)
    new_got, new_want = _sides(new)
    if [_expected(n) for n in old_want] != [_expected(n) for n in new_want]:
        for node in new_want:
            shown = _source(node).strip("'\"")
            if shown in actuals:
                return f"changed an assertion to expect {shown}, the value the failing run got"
        if old_want and new_want:
            return (
                f"changed what an assertion expects (`{_source(old_want[0])}` →"
                f" `{_source(new_want[0])}`)"
            )
    if _calls(old_got) and _calls(old_got) != _calls(new_got):
        now = _source(new_got[0]) if new_got else "…"
        return f"changed the inputs of an assertion (`{_source(old_got[0])}` → `{now}`)"
    return ""


def _patches(tree: ast.Module, modules: set[str]) -> set[str]:
    """What test code replaces of the modules it imports: ``calc.add`` for
    ``monkeypatch.setattr(calc, "add", …)``, ``monkeypatch.setattr("calc.add", …)``,
    ``mock.patch("calc.add")`` (decorator, context, ``.start()``), ``calc.add = …``,
    ``setattr(calc, "add", …)``, ``sys.modules["calc"] = …``."""
    found: set[str] = set()

    def target(text: str, named: bool = False) -> None:
        head = text.split(".", 1)[0]
        # a string target names its module itself: anything not the standard
        # library's or the test machinery's is the project's own code
        if head in modules or (named and head not in _STANDARD and head not in _MACHINERY):
            found.add(text)

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for goal in node.targets:
                if isinstance(goal, ast.Attribute) and isinstance(goal.value, ast.Name):
                    target(f"{goal.value.id}.{goal.attr}")
                elif isinstance(goal, ast.Subscript) and _source(goal.value) == "sys.modules":
                    key = _value(goal.slice)
                    if isinstance(key, tuple) and key[0] == "value" and isinstance(key[1], str):
                        target(key[1])
        elif isinstance(node, ast.Call) and _call_name(node) in PATCHERS:
            args = node.args
            if not args:
                continue
            first = _value(args[0])
            if isinstance(first, tuple) and first[0] == "value" and isinstance(first[1], str):
                if "." in first[1]:
                    target(first[1], named=True)  # a string target: "calc.add"
            elif isinstance(args[0], ast.Name) and len(args) > 1:
                second = _value(args[1])
                if isinstance(second, tuple) and isinstance(second[1], str):
                    target(f"{args[0].id}.{second[1]}")
    return found


def _imported(tree: ast.Module) -> set[str]:
    """Modules the file imports that are not test machinery."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
            names.add(node.module)
    return names - _MACHINERY


_STANDARD = frozenset(sys.stdlib_module_names)
_MACHINERY = frozenset(
    """pytest unittest mock os sys re json typing pathlib math builtins collections
    functools itertools dataclasses __future__ numpy tempfile subprocess shutil""".split()
)


def _exits(tree: ast.Module) -> list[str]:
    """Hooks that end the run before the tests: ``pytest.exit`` in ``pytest_configure``,
    ``pytest_sessionstart``, ``pytest_collection…``, or at a module's top level."""
    found = []
    for node in tree.body:
        scope = node.name if isinstance(node, ast.FunctionDef) else ""
        if scope and not scope.startswith("pytest_"):
            continue
        for child in ast.walk(node):
            if isinstance(child, ast.Call) and _call_name(child) == "exit":
                func = child.func
                if isinstance(func, ast.Attribute) and _source(func.value) in {
                    "pytest",
                    "sys",
                    "os",
                }:
                    found.append(f"`{_source(func)}()` in `{scope or 'the module'}`")
    return found


def failing_tests(outputs: Iterable[str]) -> set[str]:
    """Names of the tests failing runs name (``FAILED t.py::test_add``, ``--- FAIL:
    TestAdd``, ``✕ adds``, ``not ok 1 - adds``)."""
    found: set[str] = set()
    for output in outputs:
        tail = output[-50_000:]
        found.update(re.findall(r"(?m)^(?:FAILED|ERROR) \S*?::(?:\w+::)?(\w+)", tail))
        found.update(re.findall(r"(?m)^_{3,} (?:\w+\.)?(test\w*) _{3,}", tail))
        found.update(re.findall(r"(?m)^(?:FAIL|ERROR): (test\w+)", tail))
        found.update(re.findall(r"(?m)^\s*--- FAIL: (\w+)", tail))
        found.update(re.findall(r"(?m)^\s*not ok \d+ - (.+?)\s*$", tail))
        found.update(re.findall(r"(?m)^\s*[✕×] (.+?)(?: \(\d+ ?m?s\))?$", tail))
    return found


def python_weakening(
    old: str,
    new: str,
    failing: Set[str] = frozenset(),
    actuals: Set[str] = frozenset(),
) -> tuple[str, ...] | None:
    """How changing Python test code ``old`` into ``new`` weakens it (module docstring);
    ``None`` when either does not parse (the caller falls back to reading lines)."""
    try:
        before, after = ast.parse(old), ast.parse(new)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    reasons: list[str] = []
    old_tests, new_tests = _tests(before), _tests(after)
    gone = [name.rsplit(".", 1)[-1] for name in old_tests if name not in new_tests]
    if gone:
        named = ", ".join(f"`{n}`" for n in gone)
        failed = [n for n in gone if n in failing]
        reasons.append(
            f"removed {len(gone)} test(s): {named}"
            + (f" (the failing {', '.join(f'`{n}`' for n in failed)})" if failed else "")
        )
    for name, test in new_tests.items():
        was = old_tests.get(name)
        if was is None:
            continue
        added = [mark for mark in test.skipped if mark not in was.skipped]
        if added:
            reasons.append(f"added {', '.join(added)} to `{name}`")
        if test.early_return and not was.early_return:
            reasons.append(f"`{name}` returns before its assertions")
        if len(test.asserts) < len(was.asserts):
            lost = len(was.asserts) - len(test.asserts)
            reasons.append(f"removed {lost} assertion(s) from `{name}`")
        for left, right in zip(
            _unmatched(was.asserts, test.asserts),
            _unmatched(test.asserts, was.asserts),
            strict=False,
        ):
            said = _compare(left, right, actuals)
            if said:
                reasons.append(f"{said} in `{name}`")
    imported = _imported(before) | _imported(after)
    for patched in sorted(_patches(after, imported) - _patches(before, imported)):
        reasons.append(f"replaces the code under test (`{patched}`) from test code")
    for ended in _exits(after):
        if ended not in _exits(before):
            reasons.append(f"ends the test run early: {ended}")
    return tuple(dict.fromkeys(reasons))


def _unmatched(these: list[ast.AST], those: list[ast.AST]) -> list[ast.AST]:
    """``these`` without the assertions ``those`` has unchanged, in order."""
    kept = {ast.dump(n, include_attributes=False) for n in those}
    return [n for n in these if ast.dump(n, include_attributes=False) not in kept]


# ------------------------------------------------------- JavaScript, TypeScript, Go

_JS_TEST = re.compile(
    r"""(?m)^\s*(?P<kind>(?:it|test|describe)(?:\.(?:skip|only|todo|each\([^)]*\)))?|x(?:it|test|describe)|f(?:it|describe))\s*\(\s*(?P<q>['"`])(?P<name>.*?)(?P=q)"""
)
_GO_TEST = re.compile(r"(?m)^func (Test\w+)\s*\(\s*\w+ \*testing\.T\s*\)")
STRICT_MATCHERS = frozenset(
    {"toBe", "toEqual", "toStrictEqual", "toThrow", "toHaveBeenCalledWith", "toMatchObject",
     "toHaveLength", "toBeCloseTo", "toMatchSnapshot", "toMatchInlineSnapshot"}
)  # fmt: skip
LOOSE_MATCHERS = frozenset(
    {"toContain", "toBeTruthy", "toBeDefined", "toBeFalsy", "toMatch", "toBeGreaterThan",
     "toBeLessThan", "toBeGreaterThanOrEqual", "toBeLessThanOrEqual", "toHaveBeenCalled",
     "toBeInstanceOf", "toHaveProperty", "toBeNull", "toBeUndefined", "toBeNaN"}
)  # fmt: skip
_MATCHER = re.compile(r"\.(?:not\.)?(to[A-Z]\w*)\s*\(")
_GO_CHECKS = re.compile(
    r"\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(?:assert|require)\.\w+\("
)


def _js_bodies(text: str) -> dict[str, str]:
    """Each test's body text, by its name (kind prefix kept in the body's first word)."""
    found: dict[str, str] = {}
    matches = list(_JS_TEST.finditer(text))
    for k, match in enumerate(matches):
        end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
        found[match.group("name")] = match.group("kind") + " " + text[match.end() : end]
    return found


def _go_bodies(text: str) -> dict[str, str]:
    matches = list(_GO_TEST.finditer(text))
    return {
        m.group(1): text[m.end() : matches[k + 1].start() if k + 1 < len(matches) else len(text)]
        for k, m in enumerate(matches)
    }


def token_weakening(
    path: str, old: str, new: str, failing: Set[str] = frozenset()
) -> tuple[str, ...]:
    """How changing a JavaScript/TypeScript or Go test file weakens it, from the tokens
    of each test's body (module docstring)."""
    go = path.endswith(".go")
    bodies = _go_bodies if go else _js_bodies
    before, after = bodies(old), bodies(new)
    reasons: list[str] = []
    for name in before:
        if name not in after:
            reasons.append(
                f"removed the failing test `{name}`"
                if name in failing
                else f"removed test `{name}`"
            )
    for name, body in after.items():
        was = before.get(name)
        if was is None:
            continue
        if go:
            if len(_GO_CHECKS.findall(body)) < len(_GO_CHECKS.findall(was)):
                reasons.append(f"removed a check from `{name}`")
            if "t.Skip" in body and "t.Skip" not in was:
                reasons.append(f"added `t.Skip()` to `{name}`")
            continue
        head, was_head = body.split(" ", 1)[0], was.split(" ", 1)[0]
        for mark in (".skip", ".todo"):
            if mark in head and mark not in was_head:
                reasons.append(f"added `{mark}` to `{name}`")
        if head.startswith("x") and not was_head.startswith("x"):
            reasons.append(f"added `{head}` to `{name}`")
        if body.count("expect(") < was.count("expect("):
            lost = was.count("expect(") - body.count("expect(")
            reasons.append(f"removed {lost} expectation(s) from `{name}`")
        old_matchers = _MATCHER.findall(was)
        new_matchers = _MATCHER.findall(body)
        strict_lost = sum(m in STRICT_MATCHERS for m in old_matchers) - sum(
            m in STRICT_MATCHERS for m in new_matchers
        )
        loose_gained = sum(m in LOOSE_MATCHERS for m in new_matchers) - sum(
            m in LOOSE_MATCHERS for m in old_matchers
        )
        if strict_lost > 0 and loose_gained > 0:
            lost = next(m for m in old_matchers if m in STRICT_MATCHERS and m not in new_matchers)
            gained = next((m for m in new_matchers if m in LOOSE_MATCHERS), "a looser matcher")
            reasons.append(f"loosened a matcher in `{name}` (`{lost}` → `{gained}`)")
    return tuple(dict.fromkeys(reasons))


def _lines(text: str) -> Iterator[str]:
    yield from text.splitlines()
