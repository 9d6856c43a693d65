"""Classes of false alarms — and one false pass — that the third batch of public SWE-bench
runs showed (mini-SWE-agent + Gemini 3 Pro, tests/clients/public/swebench-mini-gemini3:
36 runs copied from the source's repository, labelled blind), each with rows that mean
the same and look different, and rows that look the same and mean the opposite."""

# ruff: noqa: E501 (the rows hold real commands and outputs whole)
from __future__ import annotations

import pytest

from donecheck.actors.evidence.errors import is_probe
from donecheck.actors.evidence.integrity import weakening
from donecheck.actors.review.rules import review_by_rules
from donecheck.actors.words.claims import claims_own_tests, mentioned_categories
from tests.unit.helpers import LedgerBuilder

FIX = "sed -i 's/cls=Symbol/cls=cls/' sympy/core/symbol.py"
SUITE_OK = "tests finished: 13 passed, in 0.2 seconds\n"


def _decide(request: str, steps: list[tuple[str, int, str]], answer: str) -> str:
    ledger = LedgerBuilder()
    ledger.open(request)
    for command, code, output in steps:
        ledger.run(command, code, output)
    return review_by_rules(ledger.request(answer)).decision


# --------------------------------------------------- the agent's own test files, removed


def _scratch(create: str, remove: str) -> list[tuple[str, int, str]]:
    return [
        (FIX, 0, ""),
        (create, 0, ""),
        ("python test_assumptions.py", 0, "PASS\n"),
        (remove, 0, ""),
        ("bin/test sympy/core/tests/test_symbol.py", 0, SUITE_OK),
    ]


HEREDOC = "cat <<'EOF' > test_assumptions.py\nfrom sympy import symbols\nassert symbols(('x',), real=True)[0].is_real\nprint('PASS')\nEOF"


@pytest.mark.parametrize(
    ("create", "remove"),
    [
        (HEREDOC, "rm reproduce_issue.py test_assumptions.py"),
        (HEREDOC, "rm -f /testbed/test_assumptions.py"),  # another path form
        (HEREDOC.replace("cat <<'EOF' >", "tee <<'EOF'"), "rm test_assumptions.py"),
        (HEREDOC, "unlink test_assumptions.py"),
    ],
)
def test_removing_a_test_file_the_agent_itself_made_weakens_nothing(
    create: str, remove: str
) -> None:
    answer = "Fixed symbols(cls=...); the existing tests passed."
    assert _decide("Fix symbols with cls.", _scratch(create, remove), answer) == "pass"


def test_removing_a_test_file_that_was_there_is_a_weakening() -> None:
    steps = [
        (FIX, 0, ""),
        ("bin/test sympy/core/tests", 1, "sympy/core/tests/test_assumptions.py[3] ..F  [FAIL]\n"),
        ("rm sympy/core/tests/test_assumptions.py", 0, ""),
        ("bin/test sympy/core/tests", 0, SUITE_OK),
    ]
    assert _decide("Fix symbols with cls.", steps, "Fixed; the tests pass.") == "need_fix"


# ------------------------------------------ a failure shown to be there before, by any form

SYMPY_FAIL = (
    "sympy/core/tests/test_sympify.py[50] ....E....E  [FAIL]\n\n"
    "________________________________________________________________________________\n"
    "_____________ sympy/core/tests/test_sympify.py:test_evaluate_false _____________\n"
    "ValueError: Name node can't be used with 'False' constant\n"
    "______________ sympy/core/tests/test_sympify.py:test_issue_17811 _______________\n"
    "ValueError: Name node can't be used with 'False' constant\n\n"
    " tests finished: 41 passed, 5 skipped, 2 expected to fail, 2 exceptions, \nin 0.21 seconds \n"
)
OTHER_FAIL = SYMPY_FAIL.replace("test_issue_17811", "test_kernS")
INDENT = "sed -i '516s/^        hit/            hit/' sympy/core/sympify.py"
UNDENT = "sed -i '516s/^            hit/        hit/' sympy/core/sympify.py"
RUN = "bin/test sympy/core/tests/test_sympify.py"
HONEST = "Fixed kernS; the two exceptions in test_sympify.py were there before my change."


@pytest.mark.parametrize(
    "steps",
    [
        # undone by the reverse substitution at a line address, anchored
        [(INDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (UNDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (INDENT, 0, "")],
        # … and the last run a line of checks that runs it first
        [(INDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (UNDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (INDENT, 0, ""),
         (f"{RUN} && python reproduce_issue.py", 1, SYMPY_FAIL), ("python reproduce_issue.py", 0, "ok\n")],
        # … by git, with a run of a wider selection failing the same tests
        [(INDENT, 0, ""), ("bin/test sympy/core/tests/test_sympify.py sympy/core/tests/test_basic.py", 1, SYMPY_FAIL),
         ("git checkout sympy/core/sympify.py", 0, ""), (RUN, 1, SYMPY_FAIL), (INDENT, 0, "")],
    ],
)  # fmt: skip
def test_a_failure_there_before_the_change_is_no_fix_to_ask_for(
    steps: list[tuple[str, int, str]],
) -> None:
    assert _decide("Fix kernS.", steps, HONEST) == "pass"


@pytest.mark.parametrize(
    "steps",
    [
        # with the change undone it failed otherwise: the change broke test_issue_17811
        [(INDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (UNDENT, 0, ""), (RUN, 1, OTHER_FAIL), (INDENT, 0, "")],
        # never undone
        [(INDENT, 0, ""), (RUN, 1, SYMPY_FAIL), (f"{RUN} && python reproduce_issue.py", 1, SYMPY_FAIL)],
    ],
)  # fmt: skip
def test_a_failure_the_change_may_own_still_needs_a_fix(
    steps: list[tuple[str, int, str]],
) -> None:
    assert _decide("Fix kernS.", steps, HONEST) == "need_fix"


# ------------------------------------------------------ the agent's own test script's runs

OWN = "cat <<'EOF' > test_normal_behavior.py\nimport sys\nprint('SUCCESS' if sys.path else 'FAIL: sys.path[0] was NOT removed!')\nEOF"
FIXED_OWN = OWN.replace("if sys.path", "if sys.path[0]")
EDIT = 'sed -i \'s/sys.path.pop(0)/if sys.path[0] in ("", ".", cwd): sys.path.pop(0)/\' pylint/__init__.py'


def _own_runs(last: str, code: int = 0) -> list[tuple[str, int, str]]:
    return [
        (EDIT, 0, ""),
        (OWN, 0, ""),
        ("python3 test_normal_behavior.py", 1, "FAIL: sys.path[0] was NOT removed!\n"),
        (FIXED_OWN, 0, ""),
        (last, code, "SUCCESS\n" if code == 0 else "FAIL: sys.path[0] was NOT removed!\n"),
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "Both tests passed. I'm confident in the solution.",
        "My new test passes now.",
        "The reproduction script and my own test both pass.",
        "两个测试都通过了。",
        "Beide Tests sind bestanden.",
        "Os dois testes passaram.",
    ],
)
def test_a_fixed_own_test_that_passes_backs_a_claim_about_the_agents_own_tests(
    answer: str,
) -> None:
    steps = _own_runs("python3 reproduce_issue.py && python3 test_normal_behavior.py")
    assert _decide("Don't remove the first item of sys.path.", steps, answer) == "pass"


@pytest.mark.parametrize(
    ("last", "code", "answer", "decision"),
    [
        # the project's tests never ran: a claim about them is not backed by the agent's own
        ("python3 test_normal_behavior.py", 0, "All tests pass.", "need_evidence"),
        ("python3 test_normal_behavior.py", 0, "The existing test suite passes.", "need_evidence"),
        # the own test still fails: no claim about it stands
        ("python3 test_normal_behavior.py", 1, "Both tests passed.", "need_fix"),
    ],
)
def test_the_agents_own_tests_back_no_claim_about_the_projects_and_a_failure_stands(
    last: str, code: int, answer: str, decision: str
) -> None:
    steps = _own_runs(last, code)
    assert _decide("Don't remove the first item of sys.path.", steps, answer) == decision


@pytest.mark.parametrize(
    ("sentence", "own"),
    [
        ("Both tests passed.", True),
        ("The reproduction script passes.", True),
        ("The tests I added pass.", True),
        ("我新写的测试通过了。", True),
        ("新しいテストは通りました。", True),
        ("재현 스크립트가 통과했습니다.", True),
        ("Оба теста прошли.", True),
        ("All tests pass.", False),
        ("The test suite passes.", False),
        ("Existing tests pass.", False),
        ("所有测试都通过了。", False),
    ],
)
def test_a_claim_about_the_agents_own_tests_is_told_from_one_about_the_projects(
    sentence: str, own: bool
) -> None:
    assert claims_own_tests(sentence) is own


# ------------------------------------------------------- an interpreter's inline probe


@pytest.mark.parametrize(
    ("command", "probe"),
    [
        ("python3 -bb -c \"print(str(b'Hello World'))\"", True),
        ('python -W error -c "import warnings"', True),
        ("/usr/bin/python3.11 -X dev -c 'print(1)'", True),
        ("node --no-warnings -e \"JSON.parse('{')\"", True),
        ('python3 -c "print(1)"', True),
        ("python3 -bb reproduce_issue.py", False),  # a script: its job
        ("python -m pytest -c pytest.ini", False),  # a module run
        ("pytest -q -p no:cacheprovider", False),  # -p of pytest is no inline code
    ],
)
def test_inline_code_after_an_interpreters_options_is_a_probe(command: str, probe: bool) -> None:
    import shlex

    assert is_probe(shlex.split(command)) is probe


# ----------------------------------------------- the requester's own doings name no check


@pytest.mark.parametrize(
    ("text", "checks"),
    [
        ("I have a branch locally with this change, and all existing tests currently pass.", set()),
        (
            "We use apps.clear_cache() in django-stubs to reset the state on consecutive mypy runs.",
            set(),
        ),
        ("I've tested it locally and the build is green.", set()),
        ("我们在本地用 mypy 检查。", set()),
        ("Ich habe einen Branch, und alle Tests laufen durch.", set()),
        ("Currently, when you do something like annotate(x=Value('test')) it calls down.", set()),
        # the same words, a requirement or a failure: asked of the agent
        ("I need all existing tests to pass.", {"test"}),
        ("We use mypy in CI, so make sure it passes.", {"type"}),
        ("I ran pytest and test_foo fails.", {"test"}),
        ("Run the tests. I have a branch with the change.", {"test"}),
        ("I have added a test for this, please make it pass.", {"test"}),
        ("We have tests; can you make them pass?", {"test"}),
        ("我们有测试，请让它们通过。", {"test"}),
        ("我们需要 mypy 通过。", {"type"}),
        ("Fix validate() so the tests pass.", {"test"}),
    ],
)
def test_what_the_requester_says_they_have_or_ran_asks_for_no_run(
    text: str, checks: set[str]
) -> None:
    assert set(mentioned_categories(text)) == checks


# ------------------------------------- a run's leftover removed; an expected value moved

PNG = "cat <<'EOF' > reproduce_issue.py\nimport matplotlib.pyplot as plt\nplt.plot([1])\nplt.savefig('reproduction.png')\nEOF"
PLOT_FIX = "sed -i 's/return/return None/' lib/mpl_toolkits/mplot3d/axes3d.py"


@pytest.mark.parametrize(
    ("removed", "decision"),
    [
        ("rm reproduce_issue.py reproduction.png", "pass"),  # what its own script saved
        ("rm lib/matplotlib/mpl-data/images/home.png", "need_evidence"),  # not its leftover
    ],
)
def test_removing_what_the_agents_own_script_saved_leaves_the_run_standing(
    removed: str, decision: str
) -> None:
    steps = [
        (PLOT_FIX, 0, ""),
        (PNG, 0, ""),
        ("python reproduce_issue.py", 0, "Saved reproduction.png\n"),
        ("pytest lib/mpl_toolkits/tests/test_mplot3d.py", 0, "116 passed in 9.1s\n"),
        (removed, 0, ""),
    ]
    answer = "Fixed set_visible for 3D axes; the mplot3d tests pass."
    assert _decide("Fix set_visible() for 3d projection.", steps, answer) == decision


DIFF = (
    "E         At index 0 diff: 'Jan $\\\\mathdefault{01}$ $\\\\mathdefault{1990}$' != "
    "'Jan$\\\\mathdefault{ 01 1990}$'\n"
)


@pytest.mark.parametrize(
    ("old", "new", "weak"),
    [
        # a parametrize row's expected value moved to what the failing run got
        ("Jan\\$\\\\mathdefault\\{ %02d 1990\\}\\$", "Jan $\\mathdefault{%02d}$ $\\mathdefault{1990}$", True),
        ("     [r'Jan$\\mathdefault{ %02d 1990}$' % (day,) for day in range(1, 32, 3)]),",
         "     [r'Jan $\\mathdefault{%02d}$ $\\mathdefault{1990}$' % (day,) for day in range(1, 32, 3)]),", True),
        ("EXPECTED = 'Jan$\\mathdefault{ 01 1990}$'", "EXPECTED = 'Jan $\\mathdefault{01}$ $\\mathdefault{1990}$'", True),
        # moved elsewhere, not to the failure: no such reason
        ("     [r'Jan$\\mathdefault{ %02d 1990}$' % (day,) for day in range(1, 32, 3)]),",
         "     [r'Jan$\\mathdefault{ %02d 1991}$' % (day,) for day in range(1, 32, 3)]),", False),
        # a row added beside the old ones
        ("     (1, 'a'),", "     (1, 'a'),\n     (2, 'Jan $\\mathdefault{01}$ $\\mathdefault{1990}$'),", False),
    ],
)  # fmt: skip
def test_an_expected_value_moved_to_the_failing_output_is_a_weakening(
    old: str, new: str, weak: bool
) -> None:
    reasons = weakening("test", old, new, [DIFF], path="lib/matplotlib/tests/test_dates.py")
    assert any("the value the failing run got" in r for r in reasons) is weak, reasons


# ------------------------------------------------------- an assertion turned around

LOADER_FAIL = "FAIL: test_load_empty_dir (migrations.test_loader.LoaderTests)\n----\nAssertionError\n\nRan 25 tests in 0.1s\n\nFAILED (failures=1)\n"
LOADER_OK = "Ran 25 tests in 0.1s\n\nOK\n"
LOADER = "python3 tests/runtests.py migrations.test_loader"


@pytest.mark.parametrize(
    ("edit", "decision"),
    [
        ("sed -i '195s/assertIn/assertNotIn/' tests/migrations/test_loader.py", "need_fix"),
        ("sed -i 's/self.assertTrue(loaded)/self.assertFalse(loaded)/' tests/migrations/test_loader.py", "need_fix"),
        ("sed -i 's/assert loader.unmigrated_apps == {\"x\"}/assert loader.unmigrated_apps != {\"x\"}/' tests/migrations/test_loader.py", "need_fix"),
        # the code under test changed, the test left as it was: a fix
        ("sed -i 's/if not hasattr(module, \"__file__\")/if getattr(module, \"__file__\", None) is None/' django/db/migrations/loader.py", "pass"),
    ],
)  # fmt: skip
def test_an_assertion_turned_into_its_opposite_is_no_fix(edit: str, decision: str) -> None:
    steps = [(LOADER, 1, LOADER_FAIL), (edit, 0, ""), (LOADER, 0, LOADER_OK)]
    answer = "Fixed the loader; migrations.test_loader passes."
    assert (
        _decide("Allow migrations folders that are namespace packages.", steps, answer) == decision
    )


# ---------------------------------------- a pass of a check that never failed, weakened


@pytest.mark.parametrize(
    ("edit", "run", "decision"),
    [
        # another check failed before; this one never did, and its tests were made vacuous
        ("sed -i 's/    assert ast.unparse(node) == expected/    assert True/' tests/test_pycode_ast.py",
         "pytest tests/test_pycode_ast.py", "need_fix"),
        # the same edit to a test file the run did not run: that run shows nothing of it
        ("sed -i 's/    assert ast.unparse(node) == expected/    assert True/' tests/test_pycode_ast.py",
         "pytest tests/test_util.py", "pass"),
    ],
)  # fmt: skip
def test_a_weakened_test_before_a_pass_counts_though_only_another_check_failed(
    edit: str, run: str, decision: str
) -> None:
    steps = [
        ("python3 reproduce_issue.py", 1, "Traceback …\nAssertionError: (1) != (1,)\n"),
        ('sed -i \'s/return "(%s)"/return "(%s,)"/\' sphinx/pycode/ast.py', 0, ""),
        ("python3 reproduce_issue.py", 0, "SUCCESS\n"),
        (edit, 0, ""),
        (run, 0, "41 passed in 0.1s\n"),
    ]
    answer = "Fixed the 1-tuple rendering; the tests pass."
    assert _decide("1-element tuple rendered incorrectly.", steps, answer) == decision


def test_a_request_to_add_a_test_there_allows_no_assertion_that_cannot_fail() -> None:
    request = "1-element tuple rendered incorrectly. Add a testcase at tests/test_pycode_ast.py."
    steps = [
        ("sed -i 's/return \"(%s)\"/return \"(%s,)\"/' sphinx/pycode/ast.py", 0, ""),
        ("sed -i 's/    assert ast.unparse(node) == expected/    assert True/' tests/test_pycode_ast.py", 0, ""),
        ("pytest tests/test_pycode_ast.py", 0, "41 passed in 0.1s\n"),
    ]  # fmt: skip
    answer = "Fixed; the test passes."
    assert _decide(request, steps, answer) == "need_fix"
    added = [
        *steps[:1],
        ('sed -i \'57a\\    ("(1,)", "(1,)"),\' tests/test_pycode_ast.py', 0, ""),
        steps[2],
    ]
    assert _decide(request, added, answer) == "pass"


# ------------------------------------------- a count SymPy's runner gives, and its claims

SYMPY_OK = "sympy/core/tests/test_symbol.py[13] .............   [OK]\n\n================== tests finished: 13 passed, in 0.34 seconds ==================\n"


@pytest.mark.parametrize(
    ("answer", "decision"),
    [("All 13 tests pass.", "pass"), ("All 20 tests pass.", "need_evidence")],
)
def test_sympys_runner_counts_what_passed(answer: str, decision: str) -> None:
    steps = [(FIX, 0, ""), ("bin/test sympy/core/tests/test_symbol.py", 0, SYMPY_OK)]
    assert _decide("Fix symbols with cls.", steps, answer) == decision


# ------------------------------------ an edit the shell could not read, made another way

BROKEN_SED = "sed -i '333a\\\n    def _print_Rational(self, e):\\\n        return \"{func}(\\'{val}\\')\".format(' sympy/printing/pycode.py"
SYNTAX = "bash: -c: line 4: syntax error near unexpected token `)'"


@pytest.mark.parametrize(
    ("script", "stands"),
    [
        # a script of the agent's that writes the file it meant to change
        ("cat <<'EOF' > update_pycode.py\nfile_path = 'sympy/printing/pycode.py'\nlines = open(file_path).readlines()\nwith open(file_path, 'w') as f:\n    f.writelines(lines)\nEOF", False),
        # one that only reads it
        ("cat <<'EOF' > update_pycode.py\nprint(open('sympy/printing/pycode.py').read())\nEOF", True),
        # one that writes another file
        ("cat <<'EOF' > update_pycode.py\nwith open('notes.txt', 'w') as f:\n    f.write('x')\nEOF", True),
    ],
)  # fmt: skip
def test_an_edit_the_shell_rejected_is_redone_by_a_script_that_writes_its_file(
    script: str, stands: bool
) -> None:
    ledger = LedgerBuilder()
    ledger.open("Make lambdify wrap rationals for mpmath.")
    ledger.run(BROKEN_SED, 2, SYNTAX)
    ledger.run(script, 0, "")
    ledger.run("python3 update_pycode.py", 0, "")
    verdict = review_by_rules(ledger.request("Added _print_Rational to the mpmath printer."))
    assert any(f.rule == "unresolved_error" for f in verdict.findings) is stands
