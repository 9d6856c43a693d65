"""What a shell line does: its simple commands, the check it runs, and whether its
exit status can be believed.

* :func:`normalise_command` — the commands of a line (read by the one lexer,
  :mod:`donecheck.actors.actions.shellwords`), wrappers (``uv run``, ``timeout
  60``, ``FOO=1``, ``python -m``) stripped, so repeated runs of one check compare
  equal.
* :func:`check_kind` — whether a line runs a check (tests, linters, type
  checkers, builds) and which.
* :func:`check_run` — how the line runs its check: whether the line's exit
  status is the check's (**masked** when it is not: ``|| true``, ``; exit 0``,
  ``| tee`` without pipefail, ``--exit-zero``, a check used as an ``if``
  condition …) and whether the run can check anything at all (**hollow**:
  ``--collect-only``, ``--listTests``, ``make -n``, ``--version`` …).

The output of a run (:mod:`.evidence`) settles what the command line leaves
open: a runner's summary is believed over a masked exit status.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from donecheck.actors.actions.shellwords import (
    ENV_ASSIGN,
    Step,
    simple_commands,
    split_words,
    steps,
)
from donecheck.actors.evidence.jobs import program_of

__all__ = [
    "NOISE",
    "CheckRun",
    "Step",
    "check_kind",
    "check_run",
    "check_segments",
    "normalise_command",
    "simple_commands",
    "steps",
]


NOISE = frozenset({"cd", "pushd", "popd", "source", ".", "set", "export", "true", ":", "echo",
                   "printf"})  # fmt: skip
"""Commands of a line that set up where and how the real one runs, and check nothing."""
_FILTERS = {"tail", "head", "grep", "tee", "less", "more", "cat"}


@functools.lru_cache(maxsize=8192)
def normalise_command(command: str) -> str:
    """A command without ``cd``/env/wrapper noise, output plumbing and masks.

    ``cd app && FOO=1 python -m pytest  -q 2>&1 | tail -5`` → ``pytest -q``;
    ``pytest -q || true`` → ``pytest -q`` (the same check, run again).
    """
    parts: list[str] = []
    for argv in simple_commands(command):
        if not argv or argv[0] in NOISE or (argv[0] == "exit" and len(argv) <= 2):
            continue
        if argv[0] in _FILTERS and parts:
            continue  # a filter after the real command
        parts.append(" ".join(argv))
    return " && ".join(parts) if parts else " ".join(command.split())


_SCRIPT_CHECKS = {
    "test": "test",
    "t": "test",
    "lint": "lint",
    "build": "build",
    "typecheck": "typecheck",
    "type-check": "typecheck",
    "check": "check",
    "verify": "check",
    "ci": "check",
}
_DIRECT = {
    "pytest": "pytest",
    "py.test": "pytest",
    "unittest": "unittest",
    "nose2": "nose",
    "nosetests": "nose",
    "tox": "tox",
    "nox": "nox",
    "jest": "jest",
    "vitest": "vitest",
    "mocha": "mocha",
    "ava": "ava",
    "karma": "karma",
    "mypy": "mypy",
    "pyright": "pyright",
    "tsc": "tsc",
    "eslint": "eslint",
    "flake8": "flake8",
    "pylint": "pylint",
    "stylelint": "stylelint",
    "golangci-lint": "golangci-lint",
    "shellcheck": "shellcheck",
    "rspec": "rspec",
    "phpunit": "phpunit",
    "ctest": "ctest",
    "rubocop": "rubocop",
}
_WITH_SUB = {
    "go": {"test": "go test", "vet": "go vet", "build": "go build"},
    "cargo": {
        "test": "cargo test",
        "check": "cargo check",
        "clippy": "cargo clippy",
        "build": "cargo build",
        "nextest": "cargo test",
    },
    "dotnet": {"test": "dotnet test", "build": "dotnet build"},
    "mvn": {"test": "mvn test", "verify": "mvn verify", "package": "mvn package"},
    "mvnw": {"test": "mvn test", "verify": "mvn verify", "package": "mvn package"},
    "gradle": {"test": "gradle test", "check": "gradle check", "build": "gradle build"},
    "gradlew": {"test": "gradle test", "check": "gradle check", "build": "gradle build"},
    "bazel": {"test": "bazel test", "build": "bazel build"},
    "deno": {"test": "deno test", "lint": "deno lint", "check": "deno check"},
    "playwright": {"test": "playwright test"},
    "cypress": {"run": "cypress run"},
    "mix": {
        "test": "mix test",
        "credo": "mix credo",
        "dialyzer": "mix dialyzer",
        "compile": "mix compile",
    },
    "swift": {"test": "swift test", "build": "swift build"},
    "sbt": {"test": "sbt test", "compile": "sbt compile"},
    "flutter": {"test": "flutter test", "analyze": "flutter analyze"},
    "dart": {"test": "dart test", "analyze": "dart analyze"},
    "rails": {"test": "rails test"},
    "rake": {"test": "rake test", "spec": "rake test"},
}


_TEST_SCRIPT = re.compile(
    r"(?i)(?P<stem>(?:run[_-]?)?(?:all[_-])?tests?(?:[_-](?:all|suite|unit))?)"
    r"(?P<ext>\.(?:sh|bash)|\.py)?"
)
"""A script that runs a project's tests by its name (``run_tests.sh``, ``test.sh``,
``runtests.py``): not ``test.py`` or ``test_x.py``, an agent's usual scratch files."""


_TEST_FILE = re.compile(r"(?i)test_\w+\.py|\w+_test\.py|tests\.py")
"""A Python test file run by the interpreter (``python3 test_stats.py``): a test run
when the file is the project's; one the agent wrote in the session shows only itself
(:func:`donecheck.actors.evidence.view`)."""


_GOALS_AFTER_FLAGS = frozenset({"mvn", "mvnw", "gradle", "gradlew", "sbt"})
"""Build tools whose flags may come before the goal (``mvn -q test``, ``gradle --info check``)."""


def _test_script(argv: Sequence[str]) -> str | None:
    """``<stem> test`` when the command runs a test script, directly or by its shell
    or interpreter: ``./run_tests.sh`` and ``bash run_tests.sh`` are one check."""
    head = argv[0]
    if program_of(head) in {"sh", "python"}:
        script = next((a for a in argv[1:] if not a.startswith("-")), "")
        name = script.rsplit("/", 1)[-1]
    else:
        name = head
    found = _TEST_SCRIPT.fullmatch(name)
    if found is None and program_of(head) == "python" and _TEST_FILE.fullmatch(name):
        return "python test"  # a test file run by itself: its asserts, or unittest.main()
    if found is None or (found.group("ext") == ".py" and not name.lower().startswith("run")):
        return None
    return f"{found.group('stem').lower().replace('-', '_')} test"


_LEVEL_WORDS = tuple(
    (level, re.compile(rf"(?i)(?:tests?[_-]?)?(?:{words})(?:[_-]?tests?)?"))
    for level, words in (
        ("e2e", "e2e|end-?to-?end|end2end"),
        ("integration", "integration|integ|it"),
        ("unit", "unit|units"),
        ("acceptance", "acceptance|features"),
        ("smoke", "smoke"),
    )
)
"""A folder, a script or a marker that names a level of tests (``tests/unit``,
``test:e2e``, ``-m integration``, ``integration_tests``), as a whole segment."""
_E2E_RUNNERS = frozenset(
    {"playwright", "cypress", "detox", "nightwatch", "testcafe", "wdio", "webdriverio"}
)


def run_levels(command: str) -> frozenset[str] | None:
    """The levels of tests a check line runs, told by what it selects (``pytest
    tests/unit``, ``npm run test:e2e``, ``-m integration``) or the runner (Playwright,
    Cypress: end to end); ``None`` when it names none — the suite as configured."""
    found: set[str] = set()
    for step in steps(command):
        kind = _segment_kind(step.argv)
        if kind is None:
            continue
        if program_of(step.argv[0]) in _E2E_RUNNERS or any(
            a in _E2E_RUNNERS for a in step.argv[:3]
        ):
            found.add("e2e")
        for word in step.argv[1:]:
            segments = re.split(r"[/:=,]", word.removeprefix("./"))
            for segment in segments if len(segments) > 1 or not word.startswith("-") else ():
                for level, pattern in _LEVEL_WORDS:
                    if segment.lower() in {"it", "its"} and len(segments) < 2:
                        continue  # a bare "it" is too many other things
                    if pattern.fullmatch(segment):
                        found.add(level)
    return frozenset(found) if found else None


def test_script_path(command: str) -> str | None:
    """The test script a line runs (``scripts/test.sh`` of ``bash scripts/test.sh`` or
    ``./scripts/test.sh``), or ``None``."""
    for step in steps(command):
        if _test_script(step.argv) is None:
            continue
        argv = step.argv
        if program_of(argv[0]) in {"sh", "python"}:
            return next((a for a in argv[1:] if not a.startswith("-")), None)
        return argv[0].removeprefix("./")
    return None


def _segment_kind(argv: Sequence[str]) -> str | None:
    if not argv:
        return None
    head, sub = argv[0], (argv[1] if len(argv) > 1 else "")
    script = _test_script(argv)
    if script is not None:
        return script
    if head in _DIRECT:
        return _DIRECT[head]
    if program_of(head) == "python" and argv[1:3] and argv[1].endswith("manage.py"):
        return "django test" if len(argv) > 2 and argv[2] == "test" else None
    if head == "ruff":
        return "ruff" if sub in {"", "check"} or sub.startswith("-") or "--check" in argv else None
    if head in {"black", "isort", "prettier"}:
        return head if ("--check" in argv or "-c" in argv) else None
    if head == "mix" and sub == "format":
        return "mix format" if "--check-formatted" in argv else None
    if head in _WITH_SUB:
        if head in _GOALS_AFTER_FLAGS:  # mvn -q -DskipTests test: the goal after the flags
            sub = next((a for a in argv[1:] if not a.startswith("-")), "")
        return _WITH_SUB[head].get(sub)
    if head == "xcodebuild" and "test" in argv[1:]:
        return "xcodebuild test"
    if head in {"npm", "yarn", "pnpm", "bun"}:
        script = argv[2] if sub in {"run", "run-script"} and len(argv) > 2 else sub
        base = script.split(":", 1)[0]
        kind = _SCRIPT_CHECKS.get(base)
        return f"{head} {kind}" if kind else None
    if head in {"node", "nodejs", "bun", "deno"} and "--test" in argv[1:]:
        return "node test"  # node's own test runner
    if head in {"make", "just", "task"}:
        target = next((a for a in argv[1:] if not a.startswith("-") and "=" not in a), "")
        if not target:
            return head
        kind = _SCRIPT_CHECKS.get(target.split(":", 1)[0])
        return f"{head} {kind}" if kind else None
    if head == "cmake" and "--build" in argv:
        return "cmake build"
    return None


def check_kind(command: str) -> str | None:
    """Which check a shell command runs (``pytest``, ``npm test``, ``ruff`` …), or ``None``.

    A line running several checks (``ruff check . && pytest``) is named by all of
    them, joined with ``+``.
    """
    kinds: list[str] = []
    for argv in simple_commands(command):
        kind = _segment_kind(argv)
        if kind and kind not in kinds:
            kinds.append(kind)
    return "+".join(kinds) if kinds else None


# ------------------------------------------------------------ masked and hollow

_HOLLOW_FLAGS = {
    "--co": "collect-only (`--co`): no test ran",
    "--collect-only": "collect-only (`--collect-only`): no test ran",
    "--setup-plan": "`--setup-plan`: no test ran",
    "--setup-only": "`--setup-only`: no test ran",
    "--fixtures": "`--fixtures` lists fixtures: no test ran",
    "--markers": "`--markers` lists markers: no test ran",
    "--cache-show": "`--cache-show`: no test ran",
    "--listTests": "`--listTests` lists tests: none ran",
    "--list-tests": "`--list-tests` lists tests: none ran",
    "--listenvs": "`--listenvs` lists environments: nothing ran",
    "--listenvs-all": "`--listenvs-all` lists environments: nothing ran",
    "--list-sessions": "`--list-sessions` lists sessions: nothing ran",
    "--notest": "`--notest`: the environment was set up, no test ran",
    "--no-run": "`--no-run`: tests were compiled, none ran",
    "--dry-run": "`--dry-run`: nothing ran",
    "--just-print": "`--just-print`: nothing ran",
    "--recon": "`--recon`: nothing ran",
    "--showConfig": "`--showConfig`: nothing was checked",
    "--listFilesOnly": "`--listFilesOnly`: nothing was checked",
    "--print-config": "`--print-config`: nothing was checked",
    "--show-settings": "`--show-settings`: nothing was checked",
    "--show-files": "`--show-files`: nothing was checked",
    "--version": "`--version`: nothing was checked",
    "-V": "`-V` (version): nothing was checked",
    "--help": "`--help`: nothing was checked",
    "-h": "`-h` (help): nothing was checked",
}
_HOLLOW_SHORT = {  # short flags whose meaning depends on the tool
    "tox": {"-l": "`tox -l` lists environments: nothing ran", "-a": "`tox -a` lists"},
    "nox": {"-l": "`nox -l` lists sessions: nothing ran", "--list": "`nox --list`: nothing ran"},
    "make": {"-n": "`make -n` prints commands: nothing ran", "-q": "`make -q`: nothing ran"},
    "go test": {
        "-list": "`go test -list` lists tests: none ran",
        "-c": "`go test -c` compiles the tests: none ran",
    },
    "cargo test": {"--list": "`--list` lists tests: none ran"},
    "vitest": {"list": "`vitest list` lists tests: none ran"},
}
_MASK_FLAGS = {
    "--exit-zero": "`--exit-zero`: it exits 0 whatever it finds",
    "--ignore-errors": "`--ignore-errors`: failures do not fail it",
    "--suppress-no-test-exit-code": "`--suppress-no-test-exit-code`",
}
_MAKE_MASKS = {"-i": "`make -i` ignores errors"}


@dataclass(frozen=True, slots=True)
class CheckRun:
    """How a shell line runs its check."""

    kind: str | None
    """The check (``pytest``, ``npm test`` …), or ``None``: the line runs none."""
    masked: str = ""
    """Why the line's exit status may not be the check's (empty: it is)."""
    hollow: str = ""
    """Why the run cannot have checked anything (empty: it could)."""
    narrowed: str = ""
    """Why the run checked only some of the tests (empty: it selected none by name):
    its pass cannot stand for the suite's."""
    voiced: str = ""
    """Why a passing summary in the line's output may not be the runner's own last
    word: its output went elsewhere, a filter rewrote it, or another command prints
    after it whatever it did. Empty: what the line printed last is the runner's."""


def _set_flags(argv: Sequence[str], errexit: bool, pipefail: bool) -> tuple[bool, bool]:
    """``set -e``, ``set -euo pipefail``, ``set +e``, ``set -o errexit`` … applied."""
    args = list(argv[1:])
    for i, arg in enumerate(args):
        if arg in {"-o", "+o"} and i + 1 < len(args):
            on = arg == "-o"
            if args[i + 1] == "pipefail":
                pipefail = on
            elif args[i + 1] == "errexit":
                errexit = on
        elif re.fullmatch(r"[-+][a-zA-Z]+", arg):
            if "e" in arg:
                errexit = arg[0] == "-"
            if "o" in arg and i + 1 < len(args) and args[i + 1] == "pipefail":
                pipefail = arg[0] == "-"
    return errexit, pipefail


def _text(step: Step) -> str:
    return " ".join(step.raw) or "…"


def _keeps_failure(step: Step) -> bool:
    """An alternative that still fails the line: ``exit 1``, ``false``."""
    argv = step.argv
    if not argv:
        return False
    if argv[0] == "false":
        return True
    return argv[0] == "exit" and len(argv) == 2 and argv[1] not in {"0", "$?", '"$?"'}


def _mask(line: Sequence[Step], i: int) -> str:
    """Why the line's exit status is not that of the check at ``line[i]``, or ``""``."""
    errexit = pipefail = False
    for step in line[:i]:
        if step.argv[:1] == ("set",):
            errexit, pipefail = _set_flags(step.argv, errexit, pipefail)
    check = line[i]
    if check.condition:
        return f"`{_text(check)}` is used as a condition: its failure does not fail the line"
    j = i
    while line[j].after in {"|", "|&"} and j + 1 < len(line):
        j += 1
    if j > i and not pipefail:
        return (
            f"piped into `{_text(line[i + 1])}` without pipefail: the line's status is"
            " the last command's"
        )
    k = j
    while True:
        after = line[k].after
        if not after:
            return ""
        if k + 1 >= len(line):
            return "run in the background (`&`)" if after == "&" else ""
        nxt = line[k + 1]
        if after == "&&":  # skipped when the check fails
            k += 1
            while line[k].after in {"|", "|&"} and k + 1 < len(line):
                k += 1
            continue
        if after == "||":
            if _keeps_failure(nxt):
                return ""
            return f"`|| {_text(nxt)}` runs when it fails, and its status is the line's"
        if after == "&":
            return "run in the background (`&`): the line does not wait for its status"
        # ";" — the shell goes on unless errexit stops it at the failure
        if errexit or (nxt.argv[:1] == ("exit",) and nxt.argv[1:] in {("$?",), ('"$?"',)}):
            return ""
        return f"`; {_text(nxt)}` runs after it, and its status is the line's"


def _flag_notes(kind: str, argv: Sequence[str]) -> tuple[str, str]:
    """(masked, hollow) notes from the check's own flags."""
    masked = hollow = ""
    short = _HOLLOW_SHORT.get(kind) or _HOLLOW_SHORT.get(kind.split(" ", 1)[0], {})
    for arg in argv[1:]:
        flag = arg.split("=", 1)[0]
        if not hollow and (flag in _HOLLOW_FLAGS or arg in short):
            hollow = short.get(arg) or _HOLLOW_FLAGS[flag]
        if not masked and flag in _MASK_FLAGS:
            masked = _MASK_FLAGS[flag]
        if not masked and kind.startswith("make") and arg in _MAKE_MASKS:
            masked = _MAKE_MASKS[arg]
    return masked, hollow


# ----------------------------------------------------------------- narrowed runs

_NAMED_SUBSET = {  # flags that pick tests by name, marker or history, or leave some out
    "-k", "-m", "-run", "--testNamePattern", "-t", "--grep", "--fgrep", "--filter",
    "--deselect", "--ignore", "--ignore-glob", "-skip", "--skip", "--exclude-tag", "--tag",
    "--testPathIgnorePatterns", "--lf", "--last-failed", "--sw", "--stepwise", "--only",
    "--onlyChanged", "--changed", "--changedSince", "--onlyFailures", "--only-failures",
    "--tests", "--test-name-pattern",
}  # fmt: skip
_NO_VALUE = {
    "--lf", "--last-failed", "--sw", "--stepwise", "--onlyChanged", "--changed",
    "--onlyFailures", "--only-failures",
}  # fmt: skip
_NAMED_SUBSET_BY_KIND = {"ctest": {"-R", "-E", "-L", "-LE"}, "go test": {"--run"}}
_VALUES_BY_KIND = {
    # options whose value is no test selector (skipped, and never read as one)
    "pytest": {
        "-W", "-p", "--tb", "--durations", "--maxfail", "-n", "--numprocesses", "--cov",
        "--cov-report", "--cov-config", "--junitxml", "--junit-xml", "--basetemp",
        "--log-level", "--log-cli-level", "--import-mode", "--timeout", "-r", "--color",
        "--rootdir", "--dist", "--html", "--capture", "--count", "--reruns",
    },
    "unittest": {"-s", "-t", "-p", "--start-directory", "--top-level-directory", "--pattern"},
    "cargo test": {"--test-threads", "--format", "--logfile", "--color", "-Z"},
}  # fmt: skip
_OWN_CONFIG = re.compile(r"^(?:\./)?(?:pytest\.ini|pyproject\.toml|tox\.ini|setup\.cfg)$")
"""``pytest -c`` naming the project's own configuration file: the suite's own."""
_CARGO_VALUES = {
    "-p", "--package", "--features", "-F", "--test", "--bin", "--example", "--bench",
    "--target", "-j", "--jobs", "--manifest-path", "--profile", "--target-dir", "--color",
    "--message-format", "-Z", "--config",
}  # fmt: skip
_TEST_KINDS = re.compile(
    r"^(?:pytest|unittest|nose|tox|nox|jest|vitest|mocha|ava|karma|rspec|phpunit|ctest|"
    r"\w+ test|\w+ run)$"
)
_UNITTEST_ID = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.[A-Z]\w*(?:\.\w+)?$")


def _narrowed(kind: str, argv: Sequence[str]) -> str:
    """Why a test run at ``argv`` selected only some tests by name (``pytest
    a.py::test_x``, ``-k``, ``unittest mod.Class.test``, ``go test -run``, ``--lf``,
    a ``cargo test`` filter …), or ``""``. Selecting files or folders is not
    narrowing: a request usually names them."""
    if not _TEST_KINDS.match(kind):
        return ""
    selectors = _NAMED_SUBSET | _NAMED_SUBSET_BY_KIND.get(kind, set())
    args = list(argv[1:])
    if kind == "cargo test":  # the filter is the first word after the subcommand
        args = args[2:] if args[:2] == ["nextest", "run"] else args[1:]
    after_dashes = False
    values = _VALUES_BY_KIND.get(kind, set())
    skip = False
    for i, arg in enumerate(args):
        flag = arg.split("=", 1)[0]
        if skip:
            skip = False
            continue
        if arg == "--":
            after_dashes = True
            continue
        if flag in values:
            skip = "=" not in arg  # its value is the next word
            continue
        glued = next((f for f in _GLUED if arg.startswith(f) and len(arg) > len(f)), None)
        if glued is not None and kind in {"pytest", "tox", "nox"}:  # -knot_add, -mslow
            return (
                f"it selected only some tests (`{glued} {arg[len(glued) :]}`): the rest did not run"
            )
        override = _overridden_options(arg, args[i + 1 : i + 2])
        if override is not None and kind == "pytest":
            inner = _narrowed(kind, (kind, *split_words(override)))
            if inner:
                return f"its options were overridden (`addopts={override}`): {inner}"
            continue
        if flag in {"-c", "--config-file", "--confcutdir"} and kind == "pytest":
            value = arg.partition("=")[2] or "".join(args[i + 1 : i + 2])
            if flag != "--confcutdir" and _OWN_CONFIG.match(value):
                skip = "=" not in arg
                continue
            return f"it ran with another configuration (`{flag} {value}`): not the suite's own"
        if flag in selectors:
            value = (
                "" if flag in _NO_VALUE else arg.partition("=")[2] or "".join(args[i + 1 : i + 2])
            )
            if flag == "-m" and any(p.fullmatch(value.strip("'\"")) for _, p in _LEVEL_WORDS):
                skip = "=" not in arg  # a level of tests, as a folder selects one: no narrowing
                continue
            shown = f"{flag} {value}".strip()
            return f"it selected only some tests (`{shown}`): the rest did not run"
        if arg.startswith("-"):
            continue
        if "::" in arg or (kind == "unittest" and _UNITTEST_ID.match(arg)):
            return f"it ran only `{arg}`: the rest of the tests did not run"
        if kind == "cargo test" and (after_dashes or i == 0 or args[i - 1] not in _CARGO_VALUES):
            return f"it ran only the tests matching `{arg}`: the rest did not run"
    return ""


_GLUED = ("-k", "-m")
"""Short options whose value may be glued on (``-knot_add``)."""
_OPTION_VARIABLES = {
    "pytest": ("PYTEST_ADDOPTS",),
    "go test": ("GOFLAGS",),
}
"""Environment variables a runner reads options from: what they add counts as if
written on the line."""


def _overridden_options(arg: str, following: Sequence[str]) -> str | None:
    """The ``addopts`` a ``-o addopts=…`` / ``--override-ini=addopts=…`` sets, else ``None``."""
    if arg in {"-o", "--override-ini"}:
        value = following[0] if following else ""
    elif arg.startswith(("-o", "--override-ini=")):
        value = arg[2:] if arg.startswith("-o") else arg.partition("=")[2]
    else:
        return None
    key, _, given = value.partition("=")
    return given if key.strip() == "addopts" else None


def _narrowed_by_env(kind: str, line: Sequence[Step], i: int) -> str:
    """Narrowing the runner reads from its option variable, set on the step
    (``PYTEST_ADDOPTS='-k x' pytest``, ``env GOFLAGS=-run=X go test``) or exported
    earlier in the line."""
    names = _OPTION_VARIABLES.get(kind, ())
    if not names:
        return ""
    assignments: list[str] = []
    for step in line[:i]:
        if step.argv[:1] == ("export",):
            assignments += list(step.argv[1:])
    raw = list(line[i].raw)
    while raw and (ENV_ASSIGN.match(raw[0]) or raw[0] == "env"):
        assignments.append(raw.pop(0))
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        if name not in names or not value.strip():
            continue
        inner = _narrowed(
            kind, (kind, *split_words(value.replace("=", " ", 1) if kind == "go test" else value))
        )
        if inner:
            return f"{name}={value!r} set its options: {inner}"
    return ""


_SWAPS_TREE: dict[tuple[str, ...], set[str] | None] = {
    ("git", "stash"): {"", "push", "save", "-u", "--include-untracked", "-k", "--keep-index"},
    ("git", "checkout"): None,
    ("git", "switch"): None,
    ("git", "restore"): None,
    ("git", "reset"): None,
}


def _elsewhere(line: Sequence[Step], i: int) -> str:
    """Why the check at ``line[i]`` ran on other code than the agent's edits (``git
    stash && pytest``: the stashed tree), or ``""``."""
    for step in line[:i]:
        head = tuple(step.argv[:2])
        if head not in _SWAPS_TREE:
            continue
        allowed = _SWAPS_TREE[head]
        sub = step.argv[2] if len(step.argv) > 2 else ""
        if allowed is None or sub in allowed:
            return f"it runs after `{_text(step)}`: it checked other code than the edited files"
    return ""


_FAITHFUL = {"tee", "cat", "tail", "head", "less", "more", "grep", "uniq", "sort"}
"""Filters that pass a runner's lines on unchanged (they may drop some; ``grep -o``
cuts lines, and is not one of them)."""
_SILENT = {
    "cd", "pushd", "popd", "true", ":", "false", "exit", "set", "export", "unset", "sleep",
    "wait", "return", "shift", "trap", "ulimit", "umask", "rm", "mkdir", "touch", "cp",
    "mv", "chmod", "source", ".", "deactivate", "donecheck",
}  # fmt: skip
"""Commands that print nothing of their own, or nothing shaped like a runner's summary
(``donecheck record-junit``): after a runner they cannot forge its word."""
_TOOL_PATHS = re.compile(
    r"""(?x)(?:^|/)(?:\.?venv|env|\.tox/[^/]+|node_modules/\.bin|vendor/bin|bin)/[^/]+$
    |^\./(?:gradlew|mvnw|mill|sbt|pants)$"""
)
"""Relative paths a runner legitimately runs from (a virtualenv's or node_modules'
``bin``, the build wrappers a repository ships)."""


def _voiced(line: Sequence[Step], i: int) -> str:
    """Why the output of ``line`` may hold a passing summary the check at ``line[i]``
    did not print (see :attr:`CheckRun.voiced`), or ``""``."""
    check = line[i]
    if check.stdout:
        return f"its output went to `{check.stdout}`, not to what the line printed"
    j = i
    while line[j].after in {"|", "|&"} and j + 1 < len(line):
        j += 1
        nxt = line[j]
        only = any(
            a in {"-o", "--only-matching"} or re.fullmatch(r"-\w*o\w*", a) for a in nxt.argv[1:]
        )
        if not nxt.argv or nxt.argv[0] not in _FAITHFUL or (nxt.argv[0] == "grep" and only):
            return f"its output was rewritten by `{_text(nxt)}`"
        if nxt.stdout:
            return f"its output went to `{nxt.stdout}`, not to what the line printed"
    regardless = False  # past an operator that runs on whatever the check did
    for k in range(j, len(line) - 1):
        regardless = regardless or line[k].after in {";", "||", "&"}
        later = line[k + 1]
        if regardless and later.argv and later.argv[0] not in _SILENT:
            return f"`{_text(later)}` prints after it, whatever it did"
    return ""


def _foreign(step: Step) -> str:
    """Why the program a check step runs is not the runner it is named after (a
    file in the workspace: ``./pytest``), or ``""``. A project's test script
    (``./scripts/test.sh``) is no impersonation: it is what ``bash scripts/test.sh``
    runs too."""
    program = step.program.replace("\\", "/")
    if "/" not in program or program.startswith("/") or _TOOL_PATHS.search(program):
        return ""
    if _test_script(step.argv) is not None:
        return ""
    return f"`{program}` is a file in the workspace, not the test runner"


@functools.lru_cache(maxsize=8192)
def check_segments(command: str) -> list[str]:
    """The text of each check the line runs, without what surrounds it (``pytest -q``
    of ``pytest -q | tee test.log || true``)."""
    return [_text(step) for step in steps(command) if _segment_kind(step.argv) is not None]


def check_run(command: str) -> CheckRun:
    """The check a line runs, and whether its exit status and its run can be believed
    (see the module docstring). A line with several checks is masked or hollow
    when any of them is."""
    line = steps(command)
    kinds: list[str] = []
    masked = hollow = narrowed = voiced = ""
    for i, step in enumerate(line):
        kind = _segment_kind(step.argv)
        if kind is None:
            continue
        if kind not in kinds:
            kinds.append(kind)
        flag_mask, flag_hollow = _flag_notes(kind, step.argv)
        masked = masked or flag_mask or _mask(line, i)
        hollow = hollow or flag_hollow or _foreign(step) or _elsewhere(line, i)
        narrowed = narrowed or _narrowed(kind, step.argv) or _narrowed_by_env(kind, line, i)
        voiced = voiced or _voiced(line, i)
    return CheckRun("+".join(kinds) if kinds else None, masked, hollow, narrowed, voiced)
