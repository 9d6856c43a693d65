"""What a tool's output says about how it ended: a pure reading of text, no actors.

* :func:`exit_status_from_output` — ``Exit code: 1``, ``exit status 2``,
  ``returncode=0`` and test-runner summaries (pytest, unittest, jest, go, cargo,
  mypy, ruff, tsc, eslint) read back into an exit status.
* :func:`outcome` — how a tool result ended. For a check, the output counts as
  well as the exit status: a runner's summary with failures is a failure
  whatever the status; a run that checked nothing (no tests ran, collect-only,
  everything deselected, a test command that printed nothing) is **hollow**;
  a line whose status is not the check's (:func:`~.shell.check_run`: ``|| true``
  …) is **masked** — neither is a pass unless the runner's own summary shows one;
  a passing run that selected tests by name (``-k``, ``a.py::test_x``, ``--lf``)
  is **partial**: its failures count, its pass does not stand for the suite.
* :func:`tool_error` — a file tool's own error message opening its output.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from donecheck.actors.evidence.shell import check_run
from donecheck.actors.messages import CheckReport, ToolResult

__all__ = [
    "SUMMARIES",
    "Outcome",
    "exit_status_from_output",
    "hollow_output",
    "never_started",
    "outcome",
    "output_summary",
    "passed_count",
    "report_summary",
    "tool_error",
]

# ----------------------------------------------------------------- exit status

_EXPLICIT_EXIT = re.compile(
    r"""(?ix)
    (?:exit(?:ed)?[ _-]?(?:code|status)|return[ _-]?code|returncode|exitcode|
       process\ exited\ with\ code|command\ exited\ with\ code|exited\ with\ code)
    \s*[:=]?\s*\(?\s*(-?\d{1,3})\b
    """
)
_PYTEST_SUMMARY = re.compile(
    r"""(?imx)^[=\s]*
    ((?:\d+\ (?:passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|rerun)
        (?:,\ )?)+)
    \ in\ [\d.]+\s*s(?:econds)?\b.*$"""
)
_PYTEST_NO_TESTS = re.compile(r"(?im)^[=\s]*no tests ran\b")
_UNITTEST_FAILED = re.compile(r"(?m)^FAILED \((?:failures|errors)=\d+")
_UNITTEST_OK = re.compile(r"(?ms)^Ran \d+ tests? in [\d.]+s\s*\n+\s*OK\b")
_JEST_TESTS = re.compile(r"(?m)^Tests:\s+(.*\btotal)\s*$")
_EXUNIT = re.compile(  # Elixir's ExUnit: "157 tests, 2 failures, 1 excluded"
    r"(?m)^\s*(?:\d+ (?:doctests?|propert(?:y|ies)), )*\d+ tests?, (\d+) failures?\b"
)
_DIALYZER = re.compile(r"(?m)^Total errors: (\d+), Skipped: \d+")
_CREDO = re.compile(
    r"(?m)^\s*\d+ mods/funs, found (no issues|\d+ [\w ]+?(?:issues?|suggestions?|warnings?|"
    r"refactoring opportunit(?:y|ies)|consistency issues?))"
)
_VITEST_TESTS = re.compile(r"(?m)^\s*Tests\s+(\d+ (?:failed|passed).*?)\s+\(\d+\)\s*$")
_GO_FAIL = re.compile(r"(?m)^(?:FAIL\b|--- FAIL:)")
_GO_OK = re.compile(r"(?m)^ok\s+\S+\s+[\d.]+s")
_CARGO_RESULT = re.compile(r"test result: (ok|FAILED)\.")
_MYPY_FOUND = re.compile(r"(?m)^Found \d+ errors? in \d+ files?")
_MYPY_OK = re.compile(r"(?m)^Success: no issues found")
_RUFF_FOUND = re.compile(r"(?m)^Found \d+ errors?\.")
_RUFF_OK = re.compile(r"(?m)^All checks passed!")
_TSC_ERROR = re.compile(r"(?m)error TS\d+:|^Found \d+ errors?\b")
_ESLINT_PROBLEMS = re.compile(r"✖ \d+ problems? \((\d+) errors?")
_TAP_FAIL = re.compile(r"(?m)^(?:#|ℹ) fail (\d+)\s*$")  # node --test (TAP or spec)
_MOCHA_FAILING = re.compile(r"(?m)^\s*(\d+) failing\b")
_MOCHA_PASSING = re.compile(r"(?m)^\s*\d+ passing \(")
_RSPEC = re.compile(r"(?m)^\d+ examples?, (\d+) failures?")
_PHPUNIT_FAILED = re.compile(r"(?m)^(?:FAILURES!|ERRORS!)\s*$")
_PHPUNIT_OK = re.compile(r"(?m)^OK \(\d+ tests?, \d+ assertions?\)")
_DENO = re.compile(r"(?m)^(?:ok|FAILED) \| \d+ passed[^|\n]*\| (\d+) failed")
_BUN_FAIL = re.compile(r"(?m)^\s+(\d+) fail\s*$")
_DOTNET = re.compile(r"(?m)^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+)")
_CTEST = re.compile(r"(?m)\d+% tests passed, (\d+) tests? failed out of \d+")
_SWIFT = re.compile(r"(?m)Executed \d+ tests?, with (\d+) failures?")
_SWIFT_TESTING = re.compile(r"(?m)\bTest run with \d+ tests? failed\b")  # swift-testing
# Maven Surefire (and JUnit 4's text runner): every class's line and the totals
_SUREFIRE = re.compile(
    r"(?m)\bTests run: (\d+),\s+Failures: (\d+)(?:,\s+Errors: (\d+))?(?:,\s+Skipped: (\d+))?"
)
_BUILD_FAILED = re.compile(r"(?m)^(?:\[(?:INFO|ERROR)\] )?BUILD FAILURE\s*$|^BUILD FAILED\b")
_GRADLE_FAILED = re.compile(
    r"(?m)^\s*\d+ tests? completed, (\d+) failed\b|^There were failing tests\. See the report at"
)
_BAZEL = re.compile(r"(?m)^Executed \d+ out of \d+ tests?: (.*)$")
_BAZEL_FAILED = re.compile(
    r"(?m)\bBuild completed, [1-9]\d* tests? FAILED\b|"
    r"^//\S+\s+(?:FAILED|TIMEOUT|FAILED TO BUILD|INCOMPLETE)\b"
)
_PLAYWRIGHT_FAILED = re.compile(r"(?m)^\s+(\d+) (?:failed|interrupted)\s*$")
_NEXTEST = re.compile(r"(?m)^\s*Summary \[[^\]\n]*\]\s+\d+ tests? run: ([^\n]*)$")
_AVA_FAILED = re.compile(
    r"(?m)^\s*(\d+) (?:tests? failed|uncaught exceptions?|unhandled rejections?)\b"
)
_KARMA_FAILED = re.compile(
    r"(?m)\bExecuted \d+ of \d+ (?:\(skipped \d+\) )?\((\d+) FAILED\)|^TOTAL: (\d+) FAILED\b"
)
_CYPRESS_FAILED = re.compile(r"(?m)^\s*✖\s+(\d+) of \d+ failed\b")
_MINITEST = re.compile(
    r"(?m)^\d+ (?:runs|tests), \d+ assertions, (\d+) failures, (\d+) errors(?:, \d+ skips)?"
)
_TOX_FAILED = re.compile(r"(?m)^\s*[\w.-]+: FAIL code -?\d+|^\s*evaluation failed :\(")
_SUMMARY_WORDS = (
    "pass", "fail", "error", "skipped", "warning", "deselected", "rerun", "test", "ok",
    "success: no", "mods/funs",
)  # fmt: skip
"""A word every summary above holds, in lower case: ASCII text without one has no
summary, and is not searched a dozen times to learn it (``FAILED (errors=1)``,
``ok  pkg 0.1s``, ``Found 2 errors``, ``Tests: 4 total`` all hold one)."""


def exit_status_from_output(text: str) -> int | None:
    """The exit status a tool's output states, or ``None`` when it says nothing.

    An explicit statement (``Exit code: 1``, ``exit status 2``, ``returncode=0``)
    wins, the last one in the text; otherwise a test runner's or linter's summary
    is read (failures → 1, a clean summary → 0; pytest's "no tests ran" → 5).
    """
    if not text:
        return None
    tail = text[-20_000:]
    low = _lowered(tail)
    if low is None or (("code" in low or "status" in low) and ("exit" in low or "return" in low)):
        explicit = _EXPLICIT_EXIT.findall(tail)  # every form names exit/return and code/status
        if explicit:
            return int(explicit[-1])
    return _summary_in(tail, low)


def _lowered(tail: str) -> str | None:
    """``tail`` in lower case where that is exactly how ``re.IGNORECASE`` sees it:
    ASCII text. (Four other letters match ASCII ones under IGNORECASE — ``İ ı ſ K``
    — so other text is searched with the patterns themselves.)"""
    return tail.lower() if tail.isascii() else None


def _summary_status(text: str) -> int | None:
    tail = text[-20_000:]
    return _summary_in(tail, _lowered(tail))


def _summary_in(tail: str, low: str | None) -> int | None:
    if low is not None and not any(map(low.__contains__, _SUMMARY_WORDS)):
        return None
    return _summary_of(tail)


_FAILED_COUNT = re.compile(r"(?i)\b[1-9]\d* (?:failed|errors?)\b")


def _failing(pattern: re.Pattern[str]) -> Callable[[list[str]], int]:
    """1 when any of the summaries found holds a non-zero count ``pattern`` matches."""
    return lambda found: 1 if any(pattern.search(counts) for counts in found) else 0


_JEST_FAILED = re.compile(r"(?i)\b[1-9]\d* failed\b")


def _any_count(found: list[str]) -> int:
    """1 when any summary found counts a failure (its group is the failure count)."""
    return 1 if any(int(n) for n in found) else 0


def _any_counts(found: list[tuple[str, ...]]) -> int:
    """1 when any summary found counts a failure in any of its failure groups (an
    empty group: the summary did not print that count)."""
    return 1 if any(int(n) for counts in found for n in counts if n) else 0


def _surefire(found: list[tuple[str, str, str, str]]) -> int:
    """Surefire's lines: 1 when any counts a failure or an error."""
    return 1 if any(int(f) or int(e or 0) for _, f, e, _ in found) else 0


_NONZERO_FAIL = re.compile(
    r"\b[1-9]\d* (?:tests? )?(?:fails?|failed|timed out)\b|\bfail to build\b"
)


SUMMARIES: list[tuple[str, re.Pattern[str], int | Callable[[list[Any]], int]]] = [
    # (runner, its summary, the exit status it says: a number, or read from every
    # summary found). The first row whose summary occurs decides.
    ("pytest", _PYTEST_SUMMARY, _failing(_FAILED_COUNT)),  # "1 FAILED in 0.1s" is no pass
    ("pytest", _PYTEST_NO_TESTS, 5),
    ("unittest", _UNITTEST_FAILED, 1),
    ("unittest", _UNITTEST_OK, 0),
    ("jest", _JEST_TESTS, _failing(_JEST_FAILED)),
    ("vitest", _VITEST_TESTS, _failing(_JEST_FAILED)),
    ("cargo test", _CARGO_RESULT, lambda found: 0 if all(r == "ok" for r in found) else 101),
    ("go test", _GO_FAIL, 1),
    ("go test", _GO_OK, 0),
    ("mypy", _MYPY_FOUND, 1),
    ("ruff", _RUFF_FOUND, 1),
    ("tsc", _TSC_ERROR, 1),
    ("mypy", _MYPY_OK, 0),
    ("ruff", _RUFF_OK, 0),
    ("eslint", _ESLINT_PROBLEMS, lambda found: 1 if int(found[-1]) > 0 else 0),
    ("mix test", _EXUNIT, lambda found: 2 if any(int(n) for n in found) else 0),
    ("mix dialyzer", _DIALYZER, lambda found: 2 if int(found[-1]) else 0),
    ("mix credo", _CREDO, lambda found: 0 if found[-1] == "no issues" else 1),
    ("node test", _TAP_FAIL, _any_count),
    ("mocha", _MOCHA_FAILING, _any_count),
    ("mocha", _MOCHA_PASSING, 0),
    ("rspec", _RSPEC, _any_count),
    ("phpunit", _PHPUNIT_FAILED, 1),
    ("phpunit", _PHPUNIT_OK, 0),
    ("deno test", _DENO, _any_count),
    ("bun test", _BUN_FAIL, _any_count),
    ("dotnet test", _DOTNET, _any_count),
    ("ctest", _CTEST, _any_count),
    ("swift test", _SWIFT, _any_count),
    ("swift test", _SWIFT_TESTING, 1),
    # the build tools: a failure anywhere in their words fails it, "BUILD SUCCESS" or not
    ("mvn/gradle", _BUILD_FAILED, 1),
    ("gradle test", _GRADLE_FAILED, 1),
    ("mvn test", _SUREFIRE, _surefire),
    ("bazel test", _BAZEL_FAILED, 1),
    ("bazel test", _BAZEL, _failing(_NONZERO_FAIL)),
    ("cargo nextest", _NEXTEST, _failing(_NONZERO_FAIL)),
    ("playwright test", _PLAYWRIGHT_FAILED, _any_count),
    ("ava", _AVA_FAILED, _any_count),
    ("karma", _KARMA_FAILED, _any_counts),
    ("cypress run", _CYPRESS_FAILED, _any_count),
    ("minitest", _MINITEST, _any_counts),
    ("tox", _TOX_FAILED, 1),
]
"""Test runners' and linters' summaries, and the exit status each says."""


def _summary_of(tail: str) -> int | None:
    """The status a runner's summary in ``tail`` says (:data:`SUMMARIES`). Any
    failure summary fails it, whatever follows: ``pytest -q; echo '3 passed in 0.1s'``
    still shows the real one."""
    for _, pattern, says in SUMMARIES:
        if isinstance(says, int):
            if pattern.search(tail):
                return says
            continue
        found = pattern.findall(tail)
        if found:
            return says(found)
    return None


_HOLLOW_OUTPUT = [  # (inline flags, pattern, why)
    ("im", r"^[=\s]*no tests ran\b", "no tests ran"),
    ("i", r"\bcollected 0 items\b", "no test was collected"),
    ("im", r"^[=\s]*\d+ tests? collected\b", "tests were only collected"),
    ("m", r"^Ran 0 tests in\b|\bNO TESTS RAN\b", "unittest ran no test"),
    ("im", r"^\s*No tests found\b", "no tests were found"),
    ("i", r"\bNo test files found\b", "no test files were found"),
    ("", r"\[no tests to run\]|testing: warning: no tests to run", "no test matched"),
    ("i", r"\bNo Python files found\b", "no Python files were found"),
    ("m", r"^\s*0 passing\b", "0 tests ran"),
    ("m", r"^(?:#|ℹ) tests 0\s*$", "0 tests ran"),
    ("m", r"^\s*0 examples, 0 failures", "0 examples ran"),
    # the runners beyond Python's and JavaScript's own, in their own words
    ("m", r"^No tests executed!", "no test ran (PHPUnit)"),
    ("", r"\bNo test targets were found, yet testing was requested", "no test target (bazel)"),
    ("", r"\bTest run with 0 tests\b", "0 tests ran (swift-testing)"),
    ("", r"\bNo tests were found!!!", "no test was found (CTest)"),
    ("m", r"^\s*Ran 0 tests? across\b", "0 tests ran (bun)"),
    ("m", r"^\s*Summary \[[^\]\n]*\]\s+0 tests? run\b", "0 tests ran (nextest)"),
    ("", r"\berror: no tests to run\b", "no test ran (nextest)"),
    ("m", r"^0 (?:runs|tests), 0 assertions\b", "0 tests ran (minitest)"),
    ("", r"\bExecuted 0 of 0\b", "0 tests ran (karma)"),
]
# one scan of the output for all of them: the group that matched says which
_HOLLOW = re.compile(
    "|".join(
        f"(?P<h{n}>(?{flags}:{pattern}))" if flags else f"(?P<h{n}>{pattern})"
        for n, (flags, pattern, _) in enumerate(_HOLLOW_OUTPUT)
    )
)
_GO_PACKAGE = re.compile(r"(?m)^(ok|FAIL|\?)\s+\S+")
_CARGO_TOTALS = re.compile(r"test result: \w+\. (\d+) passed; (\d+) failed")


def hollow_output(text: str, kind: str = "") -> str:
    """Why a check's output shows it checked nothing, or ``""``; ``kind``: the check
    (:func:`~.shell.check_run`), where it is known."""
    tail = text[-20_000:]
    hit = _HOLLOW.search(tail)
    if hit is not None and hit.lastgroup is not None:
        return _HOLLOW_OUTPUT[int(hit.lastgroup[1:])][2]
    counts = _PYTEST_SUMMARY.findall(tail)
    if counts and not re.search(r"\b\d+ (?:passed|failed|errors?|xfailed|xpassed)\b", counts[-1]):
        if "deselected" in counts[-1]:
            return "every test was deselected"
        if "skipped" in counts[-1]:
            return "every test was skipped"
    jest = _JEST_TESTS.findall(tail)
    if jest and not re.search(r"\b[1-9]\d* (?:passed|failed)\b", jest[-1]):
        return "no test ran (all skipped or todo)"
    packages = _GO_PACKAGE.findall(tail)
    if packages and all(kind == "?" for kind in packages):
        return "no package had test files"
    totals = _CARGO_TOTALS.findall(tail)
    if totals and all(p == "0" and f == "0" for p, f in totals):
        return "0 tests ran"
    for found, why, builds in _HOLLOW_COUNTS:
        if builds is not None and any(builds.match(k) for k in kind.split("+")):
            continue  # a build that runs no tests proves the build
        if found(tail):
            return why
    return ""


_SUREFIRE_NONE = re.compile(r"(?m)^(?:\[\w+\] )?(?:No tests to run|Tests are skipped)\.\s*$")


def _surefire_hollow(tail: str) -> bool:
    """Surefire's lines, every one counting no test that was not skipped; or none, and
    Surefire saying it ran none ("No tests to run.", "Tests are skipped."). One module
    with no tests beside another that ran some is no hollow run."""
    lines = _SUREFIRE.findall(tail)
    if not lines:
        return _SUREFIRE_NONE.search(tail) is not None
    return all(int(run) == int(skipped or 0) for run, _, _, skipped in lines)


_GRADLE_TEST_TASK = re.compile(
    r"(?m)^> Task :(?:[\w.-]+:)*test(?!Classes\b)\w*"
    r"(?: (UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?\s*$"
)


def _gradle_hollow(tail: str) -> bool:
    """Gradle's test tasks, every one not run now (no sources, up to date, skipped)."""
    tasks = _GRADLE_TEST_TASK.findall(tail)
    return bool(tasks) and all(state in {"UP-TO-DATE", "NO-SOURCE", "SKIPPED"} for state in tasks)


_TOX_ENV = re.compile(r"(?m)^\s*[\w.-]+: (OK|FAIL|SKIP)\b(?: code -?\d+)? \(")


def _tox_hollow(tail: str) -> bool:
    """tox's environments, every one skipped (no interpreter, say)."""
    states = _TOX_ENV.findall(tail)
    return bool(states) and all(state == "SKIP" for state in states)


def _none_unless(none: str, ran: str) -> Callable[[str], bool]:
    """A run that said of a part of it that it had no tests (``none``), and of no part
    that it ran some (``ran``: a count, nonzero where tests ran): one test project, app
    or suite without tests beside others that ran some is no hollow run."""
    said_none, counts = re.compile(none), re.compile(ran)
    return lambda tail: (
        said_none.search(tail) is not None
        and not any(
            int(n) for found in counts.findall(tail) for n in re.findall(r"\d+", str(found))
        )
    )


_HOLLOW_COUNTS: list[tuple[Callable[[str], bool], str, re.Pattern[str] | None]] = [
    (
        _none_unless(
            r"\bNo test is available in\b|\bNo test matches the given testcase filter\b",
            r"(?m)^(?:Passed|Failed)!\s+-\s+.*\bTotal:\s+(\d+)",
        ),
        "no test was found or matched the filter (dotnet test)",
        None,
    ),
    (
        _none_unless(
            r"(?m)^\s*0 tests?, 0 failures?\b|\bThere are no tests to run\b",
            r"(?m)^\s*((?:\d+ (?:doctests?|propert(?:y|ies)), )*\d+) tests?, \d+ failures?",
        ),
        "0 tests ran (ExUnit)",
        None,
    ),
    (
        _none_unless(r"\bExecuted 0 tests, with 0 failures\b", r"\bExecuted (\d+) tests?, with"),
        "0 tests ran (XCTest)",
        None,
    ),
    # (a reading of a runner's counts, why the run tested nothing when it holds, the
    #  kinds of check that are builds, for which it does not count)
    (
        _surefire_hollow,
        "no test ran that was not skipped (Surefire)",
        re.compile(r"mvn (?:package|install|compile)$"),
    ),
    (
        _gradle_hollow,
        "no test task ran (Gradle: up to date, no sources or skipped)",
        re.compile(r"gradle build$"),
    ),
    (_tox_hollow, "every tox environment was skipped", None),
]


_PASSED_COUNTS = (
    re.compile(r"(?m)^[=\s]*(?:\d+ \w+, )*(\d+) passed\b[^\n]* in [\d.]+\s*s"),  # pytest
    re.compile(r"(?m)^Tests:\s+(?:\d+ \w+, )*(\d+) passed\b"),  # jest, vitest
    re.compile(r"(?m)^\s*(\d+) passing \("),  # mocha
    re.compile(r"(?m)^Ran (\d+) tests? in [\d.]+s\s*\n+\s*OK\b"),  # unittest
    re.compile(r"(?m)^# pass (\d+)$"),  # node --test
    re.compile(r"(?m)^[=\s]*tests finished: (\d+) passed\b"),  # SymPy's bin/test
)


def passed_count(output: str) -> int | None:
    """How many tests a runner's last summary in ``output`` says passed (``None``
    when it prints no count DoneCheck reads)."""
    tail = output[-20_000:]
    totals = _CARGO_TOTALS.findall(tail)
    if totals:
        return sum(int(p) for p, _ in totals)
    for pattern in _PASSED_COUNTS:
        found = pattern.findall(tail)
        if found:
            return int(found[-1])
    return None


_NEVER_STARTED = re.compile(
    r"""(?imx)
    ^(?:\S+:\ )?(?:line\ \d+:\ |\d+:\ )?\S+:\ (?:command\ )?not\ found\s*$  # sh: 1: jest: not found
    | \bis\ not\ recognized\ as\ an\ internal\ or\ external\ command
    | ^\S+:\ (?:\S+:\ )?(?:permission\ denied|no\ such\ file\ or\ directory)\s*$
    | ^\S*python[\d.]*:\ (?:no\ module\ named\ \S+(?:;\ .{1,160})?|can't\ open\ file\ .{1,200})\s*$
    | \bmissing\ script:? | ^error\ command\ "[^"]+"\ not\ found | ERR_PNPM_NO_SCRIPT
    | none\ of\ the\ selected\ packages\ has\ a\ "[^"]+"\ script | ^error:\ script\ not\ found
    | \benoent\b.{0,40}\bno\ such\ file\ or\ directory,\ open\ '[^']*package\.json'
    | \bcould\ not\ find\ `Cargo\.toml`
    | \bgo\.mod\ file\ not\ found\b | ^no\ Go\ files\ in\b
    | \bno\ rule\ to\ make\ target\b | \bno\ targets\ specified\ and\ no\ makefile\ found
    | \bthere\ is\ no\ POM\ in\ this\ directory
    | \btask\ '[^']+'\ not\ found\ in\ (?:root\ )?project
    | \bdoes\ not\ contain\ a\ Gradle\ build
    | ^ERROR:\ file\ or\ directory\ not\ found:
    | ^(?:\S+\ )?error\ TS50(?:57|58):
    """
)
"""What a runner, shell or package manager prints when the check never started: its
program missing or not executable, no such script, project or target."""


def never_started(output: str, exit_code: int | None) -> str:
    """Why a check's run never started (so it checked nothing), or ``""``: the shell
    could not find or run its program (126, 127), or the runner found nothing to run
    (no such script, project, target or file). Read from the output's head, where
    such a message stands; a runner's summary, read first, overrules it."""
    head = output[:3_000]
    found = _NEVER_STARTED.search(head)
    if found is not None:
        return f"it never started ({found.group(0).strip()[:120]})"
    if exit_code in (126, 127):
        return (
            f"it never started (exit code {exit_code}: the program was not found or not executable)"
        )
    return ""


Source = Literal["exit_code", "output", "flag", "masked", "hollow", "partial", "none"]


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool | None
    exit_code: int | None
    source: Source
    caveat: str = ""
    """Why the exit status does not settle it (masked, hollow), for the report."""


_FILTER_PIPE = re.compile(r"\|\s*(?:tail|head|grep|tee|less|more|cat|sed|awk|cut|sort)\b")


_TOOL_ERROR = re.compile(
    r"(?i)^(?:(?:error|fatal)\s*[:!]|permission denied|no such file or directory|e(?:acces|noent|"
    r"perm|rofs|isdir|exist)\b|read-only file system|(?:failed|unable|could not|cannot|can't) "
    r"(?:to )?(?:write|create|edit|save|open|apply|replace|find)|write failed|"
    r"tool (?:error|failed)|exception:|traceback \(most recent call last\)|"
    r"old_str .{0,40}not found|string to replace not found)"
)
"""A file tool's own error message, read when it gave no status ("Error: permission
denied", "ENOENT", "old_str not found")."""


def tool_error(output: str) -> bool:
    """Whether a file tool's output opens with its own error message."""
    return _TOOL_ERROR.match(output.lstrip()[:200]) is not None


_CODE_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "returnCode", "exit_status")
_TEXT_KEYS = ("stdout", "stderr", "output", "content", "text", "result", "combined_output")


def json_wrapped(output: str) -> tuple[str, int | None] | None:
    """A tool result whose text is a JSON object wrapping a command's run (an MCP
    server's, a harness's: ``{"stdout", "stderr", "exit_code"}``, ``{"output",
    "metadata": {"exit_code"}}``, ``{"result": {"exitCode", "stdout"}}``): the run's
    text and its exit status. Jest's ``--json`` report reads as a summary. ``None``
    for any other text, and for JSON that wraps no run (a file's content)."""
    head = output.lstrip()[:1]
    if head != "{" or len(output) > 4_000_000:
        return None
    try:
        data = json.loads(output)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("numFailedTests"), int) and isinstance(data.get("success"), bool):
        failed, passed = data["numFailedTests"], data.get("numPassedTests", 0)
        summary = (
            f"Tests: {failed} failed, {passed} passed" if failed else f"Tests: {passed} passed"
        )
        return summary, 0 if data["success"] else 1
    if len(data) > 8:
        return None  # a document (a results file, a config), not a run's wrapping
    code: int | None = None
    texts: list[str] = []
    for layer in (data, *(v for v in data.values() if isinstance(v, dict))):
        for key in _CODE_KEYS:
            value = layer.get(key)
            if code is None and isinstance(value, int) and not isinstance(value, bool):
                code = value
        for key in _TEXT_KEYS:
            value = layer.get(key)
            if isinstance(value, str):
                texts.append(value)
    if code is None or not texts:
        return None  # no run's status and text in it: JSON a command printed, read as text
    return "\n".join(t for t in texts if t.strip()), code


def outcome(result: ToolResult, command: str | None = None, *, writes: bool = False) -> Outcome:
    """How a tool result ended.

    For a check, see :func:`_check_outcome`. Otherwise a structured exit code
    wins, except that ``cmd | tail`` reports the filter's status: when a command
    pipes into a filter and its output says it failed, the output is believed.
    Then the output's own statement, then the tool's error flag; for a file tool
    that ``writes`` and gave neither, an error message opening its output.
    """
    wrapped = json_wrapped(result.output) if result.exit_code is None else None
    if wrapped is not None:  # the run's own text and status, out of their JSON wrapping
        result = msgspec.structs.replace(result, output=wrapped[0], exit_code=wrapped[1])
    run = check_run(command) if command is not None else None
    if run is not None and run.kind is not None and run.masked and command is not None:
        reported = _status_echo(command, result.output)
        if reported is not None:  # the line printed the check's own status: that is it
            core, status = reported
            result = msgspec.structs.replace(result, exit_code=status)
            command, run = core, check_run(core)
    if run is not None and run.kind is not None:
        voiced = run.voiced or _echoed(result.output, command or "")
        masked, hollow = _by_arguments(run.kind, command or "")
        found = _check_outcome(result, run.kind, run.masked or masked, run.hollow or hollow, voiced)
        if found.ok is True and run.narrowed:
            # the selected tests passed; that says nothing of the ones it left out
            return Outcome(None, found.exit_code, "partial", run.narrowed)
        return found
    if result.exit_code is not None:
        # the output is only read when a filter may have hidden the real status
        if result.exit_code == 0 and command is not None and _FILTER_PIPE.search(command):
            stated = exit_status_from_output(result.output)
            if stated not in (None, 0):
                return Outcome(False, stated, "output")
        return Outcome(result.exit_code == 0, result.exit_code, "exit_code")
    stated = exit_status_from_output(result.output)
    if stated is not None:
        return Outcome(stated == 0, stated, "output")
    if result.ok is not None:
        return Outcome(result.ok, None, "flag")
    if writes and tool_error(result.output):
        return Outcome(False, None, "output")
    return Outcome(None, None, "none")


ARGUMENTS: list[tuple[re.Pattern[str], re.Pattern[str], str, str]] = [
    # (the kind of check, an argument of its line, masked or hollow, why): a build
    # tool's switch that skips the tests or keeps their failures from failing it
    (
        re.compile(r"^(?:mvn (?:test|verify)|gradle (?:test|check)) "),
        re.compile(r"(?:^|\s)-D(?:skipTests|maven\.test\.skip)(?:=true)?(?=\s|$)"),
        "hollow",
        "the tests were skipped (`-DskipTests`/`-Dmaven.test.skip`)",
    ),
    (
        re.compile(r"^gradle (?:test|check) "),
        re.compile(r"(?:^|\s)(?:-x|--exclude-task)[ =]:?(?:[\w-]+:)*test(?=\s|$)"),
        "hollow",
        "the test task was excluded (`-x test`)",
    ),
    (
        re.compile(r"^mvn (?:test|verify) "),
        re.compile(
            r"(?:^|\s)-D(?:maven\.test\.failure\.ignore|testFailureIgnore)(?:=true)?(?=\s|$)"
        ),
        "masked",
        "`-Dmaven.test.failure.ignore`: failing tests do not fail the build",
    ),
]
"""What a build tool's arguments say of its run, by the kind of check (the kind
:func:`~.shell.check_run` tells): only where the check is the tests' (``mvn package
-DskipTests`` builds, and proves the build)."""


def _by_arguments(kind: str, command: str) -> tuple[str, str]:
    """(masked, hollow) notes a check's own arguments give (:data:`ARGUMENTS`)."""
    masked = hollow = ""
    for part in kind.split("+"):
        for kinds, argument, what, why in ARGUMENTS:
            if not kinds.match(part + " ") or not argument.search(command):
                continue
            if what == "hollow":
                hollow = hollow or why
            else:
                masked = masked or why
    return masked, hollow


_TEST_RUNNER = re.compile(
    r"(?:^|\+)(?:pytest|unittest|nose|tox|nox|jest|vitest|mocha|ava|karma|rspec|phpunit|ctest|"
    r"\w+ test)(?:$|\+)"
)


_STATUS_ECHO = re.compile(
    r"""(?x);\s*echo\s+(?P<quote>["']?)(?P<template>[^"'`;&|<>]*\$\{?\?\}?[^"'`;&|<>]*)(?P=quote)\s*$"""
)
"""A line's last command echoing the status of the one before it: ``pytest; echo
"exit: $?"``, ``pytest -q; echo $?``."""


def _status_echo(command: str, output: str) -> tuple[str, int] | None:
    """``(the line before the echo, the status it printed)`` when ``command`` ends by
    echoing the exit status of what ran before it and ``output`` holds that echo (its
    last such line): what the check really exited with. ``None`` otherwise — with no
    such line in the output, the status stays unknown."""
    found = _STATUS_ECHO.search(command)
    if found is None or "'" == found.group("quote"):  # '$?' in single quotes is literal
        return None
    template = found.group("template").strip()
    if any(word in template.lower() for word in ("pass", "ok", "success", "fail")):
        return None  # it says more than the status: it could forge a result
    pattern = re.escape(template)
    pattern = re.sub(r"\\\$(?:\\\{)?\\\?(?:\\\})?", r"(-?\\d+)", pattern)
    pattern = re.sub(r"(?:\\\ )+", r"\\s+", pattern)
    lines = re.findall(rf"(?m)^\s*{pattern}\s*$", output[-4_000:])
    if not lines:
        return None
    status = lines[-1] if isinstance(lines[-1], str) else lines[-1][0]
    return command[: found.start()].rstrip(), int(status)


def _echoed(output: str, command: str) -> str:
    """Why the last passing summary in ``output`` was written by the command line
    itself (the summary's text is in the line: ``echo '3 passed in 0.1s'``), or ``""``."""
    tail = output[-20_000:]
    found = _PYTEST_SUMMARY.findall(tail) or _JEST_TESTS.findall(tail)
    if not found:
        return ""
    counts = found[-1].strip(" =")
    bare = re.sub(r"\s+", " ", counts)
    if bare and bare in re.sub(r"\s+", " ", command):
        return f"the line itself prints “{bare}”"
    return ""


def _check_outcome(
    result: ToolResult, kind: str, masked: str, hollow: str, voiced: str = ""
) -> Outcome:
    """A check's outcome from its output as well as its status.

    1. a runner's summary with failures or errors is a failure, whatever the status
       and whatever follows it;
    2. a run that checked nothing is hollow: not a pass, and not a failure — nor is
       one that never started (:func:`never_started`);
    3. a non-zero status is a failure;
    4. a masked status proves nothing: only the runner's own passing summary does —
       not one the line printed some other way (``voiced``: echoed, rewritten by a
       filter, printed after a run whose output went elsewhere);
    5. a test runner that printed nothing is hollow;
    6. else the status (or the output's own statement — the runner's own — or the
       tool's flag).
    """
    text = result.output
    summary = _summary_status(text)
    code = result.exit_code
    if code is None:
        explicit = _EXPLICIT_EXIT.findall(text[-20_000:])
        code = int(explicit[-1]) if explicit else None
    source: Source = "exit_code" if result.exit_code is not None else "output"
    if summary not in (None, 0, 5):
        return Outcome(False, code if code not in (None, 0) else summary, "output", masked)
    hollow = hollow or hollow_output(text, kind) or never_started(text, code)
    if hollow:
        return Outcome(None, code, "hollow", hollow)
    if code is not None and code != 0:
        return Outcome(False, code, source)
    if masked:
        if summary == 0 and not voiced:
            return Outcome(True, 0, "output")
        return Outcome(None, code, "masked", f"{masked}; {voiced}" if voiced else masked)
    if (
        not text.strip()
        and _TEST_RUNNER.search(kind)
        and kind != "python test"  # a test file run alone: its asserts pass in silence
        and result.ok is not False
    ):
        return Outcome(None, code, "hollow", "the test command printed nothing")
    if code == 0:
        return Outcome(True, 0, source)
    if summary == 0:
        if voiced:  # no status, and the summary may not be the runner's
            return Outcome(None, code, "masked", voiced)
        return Outcome(True, 0, "output")
    if result.ok is not None:
        return Outcome(result.ok, None, "flag")
    return Outcome(None, None, "none")


# ------------------------------------------------------------- summaries

_FAILURE_LINE = re.compile(r"(?i)\b(?:\d+ failed|failed|errors?|FAIL(?:ED)?|Found \d+ errors?)\b")
_SPECIFIC_FAILURES = (  # most telling first: a named failing test, then a located error
    re.compile(r"^(?:FAILED \S|ERROR \S|--- FAIL:|FAIL: |✕ |● )"),
    re.compile(r"^(?:\S+\.\w+:\d+(?::\d+)?:? |error(?:\[\w+\])?: |\S+\(\d+,\d+\): error )"),
)
_STATUS_ONLY = re.compile(r"(?i)^(?:exit(?:ed)?[ _-]?(?:code|status)|return[ _-]?code)\b")


def output_summary(output: str, limit: int = 160) -> str:
    """The line of a tool output that best says how it ended (a runner's summary,
    the last error), not a bare ``Exit code: N`` line."""
    lines = [line.strip(" =") for line in output.strip().splitlines() if line.strip(" =")]
    lines = [line for line in lines if not _STATUS_ONLY.match(line)] or lines
    if not lines:
        return "(no output)"
    hits = [line for line in lines if _FAILURE_LINE.search(line)]
    last = (hits[-1] if hits else lines[-1]).rstrip(".")
    first = next(
        (line for pattern in _SPECIFIC_FAILURES for line in lines if pattern.match(line)), None
    )
    text = f"{first} … {last}" if first and first != last else last
    return text if len(text) <= limit else text[: limit - 1] + "…"


def report_summary(report: CheckReport, limit: int = 160) -> str:
    """What a runner's or a gate's report says: its counts and first failure."""
    parts = [report.counts or report.outcome]
    if report.failures:
        first = report.failures[0]
        parts.append(f"{first.node}" + (f" — {first.message}" if first.message else ""))
    elif report.detail:
        parts.append(report.detail)
    text = "; ".join(p for p in parts if p)
    return text if len(text) <= limit else text[: limit - 1] + "…"
