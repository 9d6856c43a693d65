"""What the ledger's events mean: pure functions, no actors, no I/O.

* :func:`exit_status_from_output` — ``Exit code: 1``, ``exit status 2``,
  ``returncode=0`` and test-runner summaries (pytest, unittest, jest, go, cargo,
  mypy, ruff, tsc, eslint) read back into an exit status.
* :func:`command_of` / :func:`normalise_command` — the shell command a tool call
  ran, normalised so that repeated runs of one check compare equal.
* :func:`check_kind` — whether a command runs a check (tests, linters, type
  checkers, builds) and which.
* :func:`operations` — every tool call paired with its result and outcome.
* :func:`check_runs` / :func:`unresolved_failures` — the latest result per check,
  so "failed then passed" differs from "passed then failed".
* :func:`edits` — which files the agent wrote, and when.
* :func:`fingerprint` — an order-preserving hash of the evidence a review saw.
"""

from __future__ import annotations

import functools
import hashlib
import json
import posixpath
import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from donecheck.actors.messages import (
    Check,
    Edit,
    FileSnapshot,
    LedgerEntry,
    Operation,
    ToolCall,
    ToolResult,
    encode,
)

__all__ = [
    "Outcome",
    "check_kind",
    "check_runs",
    "checks",
    "command_of",
    "edits",
    "exit_status_from_output",
    "fingerprint",
    "normalise_command",
    "operations",
    "outcome",
    "snapshots",
    "unresolved_failures",
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
_GO_FAIL = re.compile(r"(?m)^(?:FAIL\b|--- FAIL:)")
_GO_OK = re.compile(r"(?m)^ok\s+\S+\s+[\d.]+s")
_CARGO_RESULT = re.compile(r"test result: (ok|FAILED)\.")
_MYPY_FOUND = re.compile(r"(?m)^Found \d+ errors? in \d+ files?")
_MYPY_OK = re.compile(r"(?m)^Success: no issues found")
_RUFF_FOUND = re.compile(r"(?m)^Found \d+ errors?\.")
_RUFF_OK = re.compile(r"(?m)^All checks passed!")
_TSC_ERROR = re.compile(r"(?m)error TS\d+:|^Found \d+ errors?\b")
_ESLINT_PROBLEMS = re.compile(r"✖ \d+ problems? \((\d+) errors?")


def exit_status_from_output(text: str) -> int | None:
    """The exit status a tool's output states, or ``None`` when it says nothing.

    An explicit statement (``Exit code: 1``, ``exit status 2``, ``returncode=0``)
    wins, the last one in the text; otherwise a test runner's or linter's summary
    is read (failures → 1, a clean summary → 0; pytest's "no tests ran" → 5).
    """
    if not text:
        return None
    explicit = _EXPLICIT_EXIT.findall(text[-20_000:])
    if explicit:
        return int(explicit[-1])
    return _summary_status(text)


def _summary_status(text: str) -> int | None:
    tail = text[-20_000:]
    pytest = _PYTEST_SUMMARY.findall(tail)
    if pytest:
        counts = pytest[-1]
        return 1 if re.search(r"\b\d+ (?:failed|errors?)\b", counts) else 0
    if _PYTEST_NO_TESTS.search(tail):
        return 5
    if _UNITTEST_FAILED.search(tail):
        return 1
    if _UNITTEST_OK.search(tail):
        return 0
    jest = _JEST_TESTS.findall(tail)
    if jest:
        return 1 if re.search(r"\b\d+ failed\b", jest[-1]) else 0
    cargo = _CARGO_RESULT.findall(tail)
    if cargo:
        return 0 if all(r == "ok" for r in cargo) else 101
    if _GO_FAIL.search(tail):
        return 1
    if _GO_OK.search(tail):
        return 0
    if _MYPY_FOUND.search(tail) or _RUFF_FOUND.search(tail) or _TSC_ERROR.search(tail):
        return 1
    if _MYPY_OK.search(tail) or _RUFF_OK.search(tail):
        return 0
    eslint = _ESLINT_PROBLEMS.findall(tail)
    if eslint:
        return 1 if int(eslint[-1]) > 0 else 0
    return None


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool | None
    exit_code: int | None
    source: Literal["exit_code", "output", "flag", "none"]


_FILTER_PIPE = re.compile(r"\|\s*(?:tail|head|grep|tee|less|more|cat|sed|awk|cut|sort)\b")


def outcome(result: ToolResult, command: str | None = None) -> Outcome:
    """How a tool result ended.

    A structured exit code wins, except that ``cmd | tail`` reports the filter's
    status: when a command pipes into a filter and its output says the check
    failed, the output is believed. Then the output's own statement, then the
    tool's error flag.
    """
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
    return Outcome(None, None, "none")


# -------------------------------------------------------------------- commands

_SHELL_TOOL = re.compile(
    r"(?i)^(?:bash|sh|zsh|shell|run|exec|execute|terminal|cmd|powershell|pwsh|local_shell)$"
    r"|bash|shell|terminal|run_command|execute_command|run_terminal|exec_command|powershell"
)
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "command_line", "commands")


def command_of(call: ToolCall) -> str | None:
    """The shell command a tool call ran, or ``None`` when it is not a shell tool."""
    if not _SHELL_TOOL.search(call.name):
        return None
    args = call.arguments
    if isinstance(args, str):
        return args.strip() or None
    for key in _COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            if len(value) >= 3 and value[0] in {"bash", "sh", "zsh"} and value[1] in {"-c", "-lc"}:
                return str(value[2]).strip()
            return " ".join(shlex.quote(v) for v in value)
    return None


_ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


_PLUMBING = re.compile(r"\s\d*>&\d+|\s(?:\d|&)?>>?\s*/dev/null")


def _split_segments(command: str) -> list[list[str]]:
    """Split a shell line into simple commands (argv lists), dropping operators."""
    command = _PLUMBING.sub(" ", command)
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: fall back to whitespace
        tokens = re.split(r"\s+", command.strip())
    segments: list[list[str]] = [[]]
    for token in tokens:
        if token and set(token) <= set(";&|"):
            segments.append([])
        else:
            segments[-1].append(token)
    flat: list[list[str]] = []
    for segment in segments:
        if (
            len(segment) >= 3
            and posixpath.basename(segment[0]) in {"bash", "sh", "zsh"}
            and segment[1] in {"-c", "-lc", "-ec", "-xc"}
        ):
            flat.extend(_split_segments(segment[2]))
        elif segment:
            flat.append(segment)
    return flat


@functools.lru_cache(maxsize=8192)
def simple_commands(command: str) -> tuple[tuple[str, ...], ...]:
    """The simple commands of a shell line, wrappers stripped. Cached: a review
    re-reads the whole ledger, so the same lines are parsed again and again."""
    return tuple(tuple(_strip_wrappers(argv)) for argv in _split_segments(command))


def _strip_wrappers(argv: list[str]) -> list[str]:
    """``FOO=1 timeout 60 uv run python -m pytest -q`` → ``pytest -q``."""
    argv = list(argv)
    changed = True
    while argv and changed:
        changed = False
        head = posixpath.basename(argv[0])
        if _ENV_ASSIGN.match(argv[0]) or head in {"time", "nice", "sudo", "command", "exec"}:
            argv = argv[1:]
            changed = True
        elif head == "env":
            argv = argv[1:]
            while argv and (_ENV_ASSIGN.match(argv[0]) or argv[0].startswith("-")):
                argv = argv[1:]
            changed = True
        elif head == "timeout" and len(argv) > 2:
            rest = argv[1:]
            while rest and rest[0].startswith("-"):
                rest = rest[1:]
            argv = rest[1:]
            changed = True
        elif head in {"uv", "poetry", "pipenv", "pdm", "hatch", "rye"} and argv[1:2] == ["run"]:
            argv = argv[2:]
            changed = True
        elif head in {"npx", "bunx", "pnpx"}:
            argv = [a for a in argv[1:] if a not in {"--yes", "-y", "--no-install"}]
            changed = True
        elif head in {"pnpm", "yarn", "npm"} and argv[1:2] == ["exec"]:
            argv = argv[2:]
            changed = True
        elif re.fullmatch(r"python(?:\d(?:\.\d+)?)?|py", head) and len(argv) > 2:
            if argv[1] == "-m":
                argv = argv[2:]
                changed = True
    if argv:
        argv[0] = posixpath.basename(argv[0].replace("\\", "/"))
    return argv


def normalise_command(command: str) -> str:
    """A command without ``cd``/env/wrapper noise and output plumbing.

    ``cd app && FOO=1 python -m pytest  -q 2>&1 | tail -5`` → ``pytest -q``.
    """
    parts: list[str] = []
    for argv in simple_commands(command):
        if not argv or argv[0] in {"cd", "pushd", "popd", "source", ".", "set", "export"}:
            continue
        if argv[0] in {"tail", "head", "grep", "tee", "less", "more", "cat"} and parts:
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
    "gradle": {"test": "gradle test", "check": "gradle check", "build": "gradle build"},
    "gradlew": {"test": "gradle test", "check": "gradle check", "build": "gradle build"},
    "bazel": {"test": "bazel test", "build": "bazel build"},
    "deno": {"test": "deno test", "lint": "deno lint", "check": "deno check"},
    "playwright": {"test": "playwright test"},
    "cypress": {"run": "cypress run"},
}


def _segment_kind(argv: Sequence[str]) -> str | None:
    if not argv:
        return None
    head, sub = argv[0], (argv[1] if len(argv) > 1 else "")
    if head in _DIRECT:
        return _DIRECT[head]
    if head == "ruff":
        return "ruff" if sub in {"", "check"} or sub.startswith("-") or "--check" in argv else None
    if head in {"black", "isort", "prettier"}:
        return head if ("--check" in argv or "-c" in argv) else None
    if head in _WITH_SUB:
        return _WITH_SUB[head].get(sub)
    if head in {"npm", "yarn", "pnpm", "bun"}:
        script = argv[2] if sub in {"run", "run-script"} and len(argv) > 2 else sub
        base = script.split(":", 1)[0]
        kind = _SCRIPT_CHECKS.get(base)
        return f"{head} {kind}" if kind else None
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


# ------------------------------------------------------------------ operations


def _operation_key(call: ToolCall, command: str | None) -> str:
    if command is not None:
        return "shell:" + normalise_command(command)
    if isinstance(call.arguments, str):
        return f"{call.name}:{' '.join(call.arguments.split())}"
    return f"{call.name}:{json.dumps(call.arguments, sort_keys=True, default=str)}"


def operations(entries: Iterable[LedgerEntry]) -> list[Operation]:
    """Every tool call in ledger order, each with its result's outcome (if any).

    A result whose ``call_id`` matches no call is kept as an operation of the
    unknown tool ``?`` so a failure is never lost.
    """
    ops: list[Operation] = []
    by_call: dict[str, int] = {}
    commands: dict[str, str | None] = {}
    for entry in entries:
        event = entry.event
        if isinstance(event, ToolCall):
            command = command_of(event)
            commands[event.call_id] = command
            by_call[event.call_id] = len(ops)
            ops.append(
                Operation(
                    key=_operation_key(event, command),
                    tool=event.name,
                    call_seq=entry.seq,
                    command=command,
                    check=check_kind(command) if command else None,
                    at=event.at,
                )
            )
        elif isinstance(event, ToolResult):
            index = by_call.get(event.call_id)
            result = outcome(event, commands.get(event.call_id))
            if index is None:
                ops.append(
                    Operation(
                        key=f"?:{event.call_id}",
                        tool="?",
                        call_seq=entry.seq,
                        result_seq=entry.seq,
                        ok=result.ok,
                        exit_code=result.exit_code,
                        status_source=result.source,
                        at=event.at,
                    )
                )
                continue
            op = ops[index]
            ops[index] = Operation(
                key=op.key,
                tool=op.tool,
                call_seq=op.call_seq,
                command=op.command,
                check=op.check,
                result_seq=entry.seq,
                ok=result.ok,
                exit_code=result.exit_code,
                status_source=result.source,
                at=op.at,
            )
    return ops


# ----------------------------------------------------------------------- checks

_SELECTORS = {"-k", "-m", "--run", "-run", "--testNamePattern", "-t", "--grep", "--filter"}


def _selection(command: str) -> tuple[frozenset[str], frozenset[str]]:
    """(path-like targets, selector expressions) of a check command."""
    targets: set[str] = set()
    selectors: set[str] = set()
    for argv in simple_commands(command):
        skip_next = False
        for i, arg in enumerate(argv[1:], start=1):
            if skip_next:
                skip_next = False
                selectors.add(f"{argv[i - 1]} {arg}")
                continue
            if arg in _SELECTORS:
                skip_next = True
            elif arg.startswith("-"):
                continue
            elif "/" in arg or "::" in arg or re.search(r"\.\w+$", arg) or arg.startswith("./"):
                targets.add(arg.rstrip("/"))
    return frozenset(targets), frozenset(selectors)


def covers(later: str, earlier: str) -> bool:
    """Does a run of ``later`` re-check everything ``earlier`` checked?

    ``pytest`` covers ``pytest tests/test_a.py``; ``pytest tests`` covers
    ``pytest tests/test_a.py::test_x``; ``pytest -k fast`` covers only ``-k fast``.
    """
    later_targets, later_selectors = _selection(later)
    earlier_targets, earlier_selectors = _selection(earlier)
    if later_selectors and later_selectors != earlier_selectors:
        return False
    if not later_targets:
        return True
    if not earlier_targets:
        return False
    return all(
        any(t == p or t.startswith((p + "/", p + "::")) for p in later_targets)
        for t in earlier_targets
    )


def checks(ops: Sequence[Operation], last_edit: int | None) -> list[Check]:
    """Every check the agent ran, with its latest result, in order of first run.

    ``resolved``: the latest run failed but a later passing run of a covering
    command of the same kind (``pytest`` after ``pytest tests/a.py``) re-checked it.
    ``stale``: the latest run passed before the last edit.
    """
    runs = check_runs(ops)
    unresolved = {op.key for op in unresolved_failures(ops)}
    found: list[Check] = []
    for key, history in runs.items():
        latest = history[-1]
        assert latest.check is not None and latest.command is not None
        found.append(
            Check(
                key=key,
                kind=latest.check,
                command=latest.command,
                runs=len(history),
                ok=latest.ok,
                exit_code=latest.exit_code,
                status_source=latest.status_source,
                latest=latest.evidence_id,
                resolved=latest.ok is False and key not in unresolved,
                stale=latest.ok is True and last_edit is not None and latest.call_seq < last_edit,
            )
        )
    return found


def check_runs(ops: Sequence[Operation]) -> dict[str, list[Operation]]:
    """Runs of each check (by operation key), oldest first; pending runs excluded."""
    runs: dict[str, list[Operation]] = {}
    for op in ops:
        if op.check is not None and op.result_seq is not None:
            runs.setdefault(op.key, []).append(op)
    return runs


def unresolved_failures(ops: Sequence[Operation]) -> list[Operation]:
    """Check runs that failed and were not re-run successfully afterwards.

    A failed run is resolved by a later passing run of the same check, or of a
    check of the same kind that covers it (``pytest`` after ``pytest tests/a.py``).
    A later *failing* broader run does not resolve it either — the latest result
    is what counts, so "failed then passed" differs from "passed then failed".
    """
    checks = [op for op in ops if op.check is not None and op.result_seq is not None]
    failures: list[Operation] = []
    for i, op in enumerate(checks):
        if op.ok is not False:
            continue
        resolved = False
        for later in checks[i + 1 :]:
            same = later.key == op.key
            if not same and not (
                later.check == op.check
                and later.command is not None
                and op.command is not None
                and covers(later.command, op.command)
            ):
                continue
            resolved = later.ok is True
            if same or resolved:
                break
        if not resolved:
            failures.append(op)
    # keep only the latest failure per key
    latest: dict[str, Operation] = {}
    for op in failures:
        latest[op.key] = op
    return sorted(latest.values(), key=lambda o: o.call_seq)


# ------------------------------------------------------------------------ edits

_WRITE_TOOLS = {
    "write",
    "write_file",
    "create_file",
    "edit",
    "edit_file",
    "multiedit",
    "multi_edit",
    "str_replace",
    "replace_in_file",
    "insert",
    "insert_text",
    "apply_patch",
    "patch",
    "notebookedit",
    "notebook_edit",
    "append_file",
    "append_to_file",
    "delete_file",
    "move_file",
    "rename_file",
    "create",
    "overwrite_file",
    "save_file",
    "update_file",
}
EDITOR_TOOLS = {"str_replace_editor", "str_replace_based_edit_tool", "text_editor"}
"""Editor tools that read (``command: view``) or write, depending on their command."""
_EDITOR_WRITES = {"create", "str_replace", "insert", "undo_edit"}
PATH_KEYS = (
    "path",
    "file_path",
    "filepath",
    "filename",
    "file",
    "target_file",
    "notebook_path",
    "target",
    "destination",
)
"""Argument names under which file tools take the path they act on."""
_PATCH_PATHS = re.compile(r"(?m)^(?:\*\*\* (?:Add|Update|Delete) File: |\+\+\+ (?:b/)?)(\S+)")
_SHELL_WRITE = re.compile(
    r"""(?x)
    (?:^|[^0-9&>])>>?\s*(?!&|/dev/null)(?P<redir>[^\s;&|]+)   # > file, >> file
    | \btee\s+(?:-a\s+)?(?P<tee>[^\s;&|]+)
    | \b(?:sed|perl)\s+(?:-[a-zA-Z]*i[a-zA-Z]*\S*)\s.*?(?P<sed>[^\s;&|]+)\s*(?:$|[;&|])
    | \b(?P<verb>git\s+apply|git\s+checkout|git\s+restore|patch\b|cp\b|mv\b|rm\b|touch\b)
    """
)


def _write_paths(call: ToolCall, command: str | None) -> list[str | None] | None:
    """Paths a call writes (``None`` inside the list for an unnamed target)."""
    name = call.name.lower()
    args = call.arguments if isinstance(call.arguments, dict) else {}
    if command is not None:
        paths: list[str | None] = []
        for match in _SHELL_WRITE.finditer(command):
            path = match.group("redir") or match.group("tee") or match.group("sed")
            if path is not None:
                paths.append(path.strip("'\""))
            elif match.group("verb"):
                paths.append(None)
        return list(dict.fromkeys(paths)) or None
    if name in EDITOR_TOOLS:
        if args.get("command") not in _EDITOR_WRITES:
            return None
    elif name not in _WRITE_TOOLS:
        return None
    for key in PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return [value]
    patch = args.get("patch") or args.get("input") or args.get("diff")
    if isinstance(call.arguments, str):
        patch = call.arguments
    if isinstance(patch, str):
        found: list[str | None] = list(dict.fromkeys(_PATCH_PATHS.findall(patch)))
        if found:
            return found
    return [None]


def edits(entries: Iterable[LedgerEntry]) -> list[Edit]:
    """Writes in ledger order. A write whose result failed is kept with ``ok=False``."""
    entries = list(entries)
    results: dict[str, ToolResult] = {}
    for entry in entries:
        if isinstance(entry.event, ToolResult):
            results[entry.event.call_id] = entry.event
    found: list[Edit] = []
    for entry in entries:
        event = entry.event
        if not isinstance(event, ToolCall):
            continue
        command = command_of(event)
        paths = _write_paths(event, command)
        if not paths:
            continue
        result = results.get(event.call_id)
        ok = outcome(result, command).ok if result is not None else None
        for path in paths:
            found.append(Edit(seq=entry.seq, tool=event.name, path=path, ok=ok, at=event.at))
    return found


def last_edit_seq(entries: Iterable[LedgerEntry]) -> int | None:
    """Sequence number of the latest write that did not fail, if any."""
    seqs = [e.seq for e in edits(entries) if e.ok is not False]
    return max(seqs) if seqs else None


def snapshots(entries: Iterable[LedgerEntry], max_targets: int) -> tuple[list[FileSnapshot], int]:
    """The latest snapshot of each of the first ``max_targets`` paths, and how many
    further paths were not watched (DoneCheck does not watch a whole workspace)."""
    latest: dict[str, FileSnapshot] = {}
    ignored: set[str] = set()
    for entry in entries:
        event = entry.event
        if not isinstance(event, FileSnapshot):
            continue
        if event.path in latest or len(latest) < max_targets:
            latest[event.path] = event
        else:
            ignored.add(event.path)
    return list(latest.values()), len(ignored)


# ------------------------------------------------------------------ fingerprint


def fingerprint(entries: Iterable[LedgerEntry]) -> str:
    """Order-preserving hash of entries: same events in the same order, same value."""
    digest = hashlib.blake2b(digest_size=16)
    for entry in entries:
        data = encode(entry)
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return "fp:" + digest.hexdigest()
