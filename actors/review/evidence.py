"""What the ledger's events mean: pure functions, no actors, no I/O.

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
* :func:`command_of` — the shell command a tool call ran (its parsing is in
  :mod:`.shell`).
* :func:`operations` — every tool call paired with its result and outcome.
* :func:`check_runs` / :func:`unresolved_failures` — the latest result per check,
  so "failed then passed" differs from "passed then failed".
* :func:`edits` — which files the agent wrote, and when.
* :func:`fingerprint` — an order-preserving hash of the evidence a review saw.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

from donecheck.actors.messages import (
    Check,
    CheckReport,
    Edit,
    FileSnapshot,
    LedgerEntry,
    Operation,
    StatusSource,
    ToolCall,
    ToolResult,
    encode,
)
from donecheck.actors.review.claims import category_of_check
from donecheck.actors.review.shell import check_run, normalise_command, simple_commands

__all__ = [
    "Outcome",
    "Pairing",
    "RunningFingerprint",
    "check_runs",
    "checks",
    "command_of",
    "edits",
    "edits_of",
    "exit_status_from_output",
    "fingerprint",
    "hollow_output",
    "operations",
    "outcome",
    "report_kind",
    "snapshots",
    "stands_for",
    "tool_error",
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
_SUMMARY_WORDS = (
    "passed", "fail", "error", "skipped", "warning", "deselected", "rerun", "test", "ok",
    "success: no",
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


def _summary_of(tail: str) -> int | None:
    """The status a runner's summary in ``tail`` says. Any failure summary fails it,
    whatever follows: ``pytest -q; echo '3 passed in 0.1s'`` still shows the real one."""
    pytest = _PYTEST_SUMMARY.findall(tail)
    if pytest:
        # as case-blind as the summary pattern: "1 FAILED in 0.1s" is not a pass
        return 1 if any(_FAILED_COUNT.search(counts) for counts in pytest) else 0
    if _PYTEST_NO_TESTS.search(tail):
        return 5
    if _UNITTEST_FAILED.search(tail):
        return 1
    if _UNITTEST_OK.search(tail):
        return 0
    jest = _JEST_TESTS.findall(tail) or _VITEST_TESTS.findall(tail)
    if jest:
        return 1 if any(re.search(r"(?i)\b[1-9]\d* failed\b", line) for line in jest) else 0
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
    ("m", r"^\s*0 examples, 0 failures", "0 examples ran"),
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


def hollow_output(text: str) -> str:
    """Why a check's output shows it checked nothing, or ``""``."""
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


def outcome(result: ToolResult, command: str | None = None, *, writes: bool = False) -> Outcome:
    """How a tool result ended.

    For a check, see :func:`_check_outcome`. Otherwise a structured exit code
    wins, except that ``cmd | tail`` reports the filter's status: when a command
    pipes into a filter and its output says it failed, the output is believed.
    Then the output's own statement, then the tool's error flag; for a file tool
    that ``writes`` and gave neither, an error message opening its output.
    """
    run = check_run(command) if command is not None else None
    if run is not None and run.kind is not None:
        voiced = run.voiced or _echoed(result.output, command or "")
        found = _check_outcome(result, run.kind, run.masked, run.hollow, voiced)
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


_TEST_RUNNER = re.compile(
    r"(?:^|\+)(?:pytest|unittest|nose|tox|nox|jest|vitest|mocha|ava|karma|rspec|phpunit|ctest|"
    r"\w+ test)(?:$|\+)"
)


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
    2. a non-zero status is a failure;
    3. a run that checked nothing is hollow: not a pass, and not a failure;
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
    hollow = hollow or hollow_output(text)
    if hollow:
        return Outcome(None, code, "hollow", hollow)
    if code is not None and code != 0:
        return Outcome(False, code, source)
    if masked:
        if summary == 0 and not voiced:
            return Outcome(True, 0, "output")
        return Outcome(None, code, "masked", f"{masked}; {voiced}" if voiced else masked)
    if not text.strip() and _TEST_RUNNER.search(kind) and result.ok is not False:
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


# -------------------------------------------------------------------- commands

_SHELL_TOOL = re.compile(
    r"(?i)^(?:bash|sh|zsh|shell|run|exec|execute|terminal|cmd|powershell|pwsh|local_shell)$"
    r"|bash|shell|terminal|run_command|execute_command|run_terminal|exec_command|powershell"
)
_COMMAND_KEYS = ("command", "cmd", "script", "commandLine", "command_line", "commands")


@functools.lru_cache(maxsize=1024)
def _is_shell_tool(name: str) -> bool:
    return _SHELL_TOOL.search(name) is not None


def command_of(call: ToolCall) -> str | None:
    """The shell command a tool call ran, or ``None`` when it is not a shell tool."""
    if not _is_shell_tool(call.name):
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


# ------------------------------------------------------------------ operations


def _operation_key(call: ToolCall, command: str | None) -> str:
    if command is not None:
        return "shell:" + normalise_command(command)
    if isinstance(call.arguments, str):
        return f"{call.name}:{' '.join(call.arguments.split())}"
    return f"{call.name}:{json.dumps(call.arguments, sort_keys=True, default=str)}"


def operations(entries: Iterable[LedgerEntry]) -> list[Operation]:
    """Every tool call in ledger order, each with its result's outcome (if any),
    and every :class:`CheckReport` — merged into the call that ran it when one
    matches (:func:`_match_reports`), else as an operation of its own.

    A result whose ``call_id`` matches no call is kept as an operation of the
    unknown tool ``?`` so a failure is never lost. A second result for a call that
    has one (a repeated id with no new call) never turns it into a pass: it counts
    only when it shows a failure.
    """
    pairing = Pairing()
    pairing.feed(entries)
    return pairing.operations()


class Pairing:
    """:func:`operations`, kept up to date as a ledger grows: :meth:`feed` takes the
    entries added since the last call (the ledger keeps one per session, so a view
    pairs only what is new), :meth:`operations` is what :func:`operations` would
    answer for everything fed so far."""

    __slots__ = ("_by_call", "_finished", "_ops", "_reports", "_writers", "count")

    def __init__(self) -> None:
        self.count = 0
        """Entries fed so far."""
        self._ops: list[Operation] = []
        self._by_call: dict[str, int] = {}
        self._writers: set[str] = set()
        self._finished: dict[int, float] = {}
        self._reports: list[tuple[int, CheckReport]] = []

    def feed(self, entries: Iterable[LedgerEntry]) -> None:
        ops, by_call, writers = self._ops, self._by_call, self._writers
        for entry in entries:
            self.count += 1
            event = entry.event
            if isinstance(event, ToolCall):
                command = command_of(event)
                paths = _write_paths(event, command)
                if command is None and paths is not None:
                    writers.add(event.call_id)
                by_call[event.call_id] = len(ops)
                ops.append(
                    Operation(
                        key=_operation_key(event, command),
                        tool=event.name,
                        call_seq=entry.seq,
                        command=command,
                        check=check_run(command).kind if command else None,
                        at=event.at,
                        writes=tuple(paths) if paths is not None else (),
                    )
                )
            elif isinstance(event, ToolResult):
                index = by_call.get(event.call_id)
                result = outcome(
                    event,
                    ops[index].command if index is not None else None,  # the latest call's
                    writes=event.call_id in writers,
                )
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
                            caveat=result.caveat,
                            at=event.at,
                        )
                    )
                    continue
                if ops[index].result_seq is not None and result.ok is not False:
                    continue  # a call's first result stands; another can only fail it
                self._finished[index] = event.at
                ops[index] = msgspec.structs.replace(
                    ops[index],
                    result_seq=entry.seq,
                    ok=result.ok,
                    exit_code=result.exit_code,
                    status_source=result.source,
                    caveat=result.caveat,
                )
            elif isinstance(event, CheckReport):
                self._reports.append((entry.seq, event))

    def operations(self) -> list[Operation]:
        if self._reports:  # few: matched against every call again, each time
            return _match_reports(list(self._ops), self._finished, self._reports)
        return list(self._ops)


def report_kind(report: CheckReport) -> str:
    """The check kind a report is of: its command's, else its runner's name for a
    runner report, else ``gate check`` (a gate whose command DoneCheck does not know)."""
    kind = check_run(report.command).kind if report.command else None
    if kind is not None:
        return kind
    return report.name if report.origin == "runner" else "gate check"


_MATCH_SLACK_S = 0.5
_REPORTER_OFF = re.compile(
    r"no:donecheck|\bDONECHECK_SESSION=(?:\s|$|''|\"\")|unset\s+DONECHECK_SESSION|"
    r"-u\s*DONECHECK_SESSION|--unset[= ]DONECHECK_SESSION"
)


def _same_kind(parts: set[str], check: str) -> bool:
    """A report of runner ``parts`` may be the run of a call that ran ``check``: the
    same runner; a report of an unnamed runner (``junit``) may be any test command's
    (``npm test`` runs jest)."""
    if parts & set(check.split("+")):
        return True
    return parts == {"junit"} and "test" in category_of_check(check)


def _previous_results(finished: dict[int, float]) -> dict[int, float]:
    """For each call's result time, the latest time another result came back at or
    before it (-inf for the first): when a call recorded with its result began, at
    the latest. One sort, not a scan per call."""
    order = sorted(finished.items(), key=lambda item: item[1])
    before: dict[int, float] = {}
    for k, (i, done) in enumerate(order):
        tied = (k > 0 and order[k - 1][1] == done) or (
            k + 1 < len(order) and order[k + 1][1] == done
        )
        before[i] = done if tied else (order[k - 1][1] if k > 0 else float("-inf"))
    return before


def _match_reports(
    ops: list[Operation], finished: dict[int, float], reports: list[tuple[int, CheckReport]]
) -> list[Operation]:
    """Merge each runner report into the tool call that ran it; the rest stand alone.

    Times are DoneCheck's own (when each event reached the ledger), never the times
    a report states about itself. A report matches the first call of a check of the
    same kind (by when its result came back) that was running when the report
    arrived: after the call was made — or, for a call recorded together with its
    result (as a post-tool hook records both), after the result before it came back
    — and before its own result came back. A gate's report never matches a call:
    DoneCheck ran it. Nor does a call that turned the reporter off
    (``-p no:donecheck``, an emptied ``DONECHECK_SESSION``): its run sent no report.

    A matched report tells the call's outcome, except that a passing report does not
    stand for a call whose command checks more than the report's run did
    (:func:`covers`), nor for one whose output shows a failure: a report can turn a
    pass into a failure, or settle a masked or silent run, never the reverse.
    A runner report that matches no call stands alone (tool ``runner``): its failure
    counts, but its pass resolves nothing (:func:`unresolved_failures`) — anyone on
    the host can send a report; a gate's cannot be sent.
    """
    taken: set[int] = set()
    alone: list[Operation] = []
    before = _previous_results(finished)
    # the checks that came back, by when: a report looks only at those that came back
    # after it arrived (a binary search), and takes the first that fits
    candidates = sorted(
        (i for i, op in enumerate(ops) if op.check is not None and i in finished),
        key=lambda i: finished[i],
    )
    dones = [finished[i] for i in candidates]
    for seq, report in reports:
        kind = report_kind(report)
        parts = set(kind.split("+"))
        index = None
        if report.origin == "runner":
            for k in range(bisect.bisect_left(dones, report.at - _MATCH_SLACK_S), len(dones)):
                i = candidates[k]
                op, done = ops[i], dones[k]
                if i in taken or op.origin != "agent" or op.check is None:
                    continue
                if not _same_kind(parts, op.check) or _REPORTER_OFF.search(op.command or ""):
                    continue
                # recorded with its result: it ran since the result before it came back
                start = before[i] if op.at >= done - 1.0 else op.at
                if start - _MATCH_SLACK_S <= report.at:
                    index = i  # the first that fits: none came back earlier
                    break
        if index is not None:
            op = ops[index]
            if report.ok is True and op.command and not covers(report.command, op.command):
                index = None  # its run checked less than the call claims to have run
        source: StatusSource = "gate" if report.origin == "donecheck" else "runner"
        caveat = "" if report.ok is not None else (report.detail or report.counts or "no result")
        if index is not None:
            op = ops[index]
            taken.add(index)
            ok = report.ok
            if report.ok is True and op.ok is False:
                # the worse of two accounts of one run: a report cannot turn a failure
                # its tool printed into a pass
                ok, caveat = (
                    False,
                    "the runner reported a pass, but the tool's output shows a failure",
                )
            elif report.ok is True and op.ok is None and op.status_source in {"masked", "hollow"}:
                # the call showed nothing of a run (silent, sent away, masked): a passing
                # report is then all there is, and anyone on the host can send one
                ok, caveat = (
                    None,
                    f"the runner reported a pass, but the call's own output shows none"
                    f" ({op.caveat}): a report alone proves nothing",
                )
            ops[index] = msgspec.structs.replace(
                op,
                ok=ok,
                exit_code=report.exit_code if ok is report.ok else op.exit_code,
                status_source=source,
                caveat=caveat,
                origin=report.origin,
                report_seq=seq,
                output_said=op.ok,
            )
            continue
        alone.append(
            Operation(
                key=("gate:" + report.name)
                if report.origin == "donecheck"
                else "shell:" + normalise_command(report.command),
                tool=report.origin,
                call_seq=seq,
                command=report.command,
                check=kind,
                result_seq=seq,
                ok=report.ok,
                exit_code=report.exit_code,
                status_source=source,
                caveat=caveat,
                at=report.started_at or report.at,
                origin=report.origin,
                report_seq=seq,
            )
        )
    if not alone:
        return ops
    return sorted([*ops, *alone], key=lambda o: o.call_seq)


# ----------------------------------------------------------------------- checks

_SELECTORS = {
    "-k", "-m", "--run", "-run", "--testNamePattern", "-t", "--grep", "--filter",
    # what leaves tests out: a run with them re-checks less than one without
    "--deselect", "--ignore", "--ignore-glob", "-skip", "--skip", "--exclude", "--extend-exclude",
    "--testPathIgnorePatterns", "--exclude-tag",
}  # fmt: skip


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
            elif arg.split("=", 1)[0] in _SELECTORS:
                selectors.add(arg)  # --deselect=tests/a.py::t
            elif arg.startswith("-"):
                continue
            elif "/" in arg or "::" in arg or re.search(r"\.\w+$", arg) or arg.startswith("./"):
                targets.add(arg.rstrip("/"))
    return frozenset(targets), frozenset(selectors)


def stands_for(later: Operation, earlier: Operation) -> bool:
    """Can ``later``'s outcome settle ``earlier``'s: the same operation, or a run of the
    same check that covers it (``pytest`` after ``pytest tests/a.py``)?"""
    return later.key == earlier.key or (
        later.check == earlier.check
        and later.command is not None
        and earlier.command is not None
        and covers(later.command, earlier.command)
    )


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
                caveat=latest.caveat,
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
    Evidence ranks by origin: a failure a runner or a gate reported is resolved
    only by a later report, never by what a tool's output says.
    """
    checks = [op for op in ops if op.check is not None and op.result_seq is not None]
    failures: list[Operation] = []
    for i, op in enumerate(checks):
        if op.ok is not False:
            continue
        resolved = superseded = False
        told = op.origin != "agent"
        for later in checks[i + 1 :]:
            if (told and later.origin == "agent") or later.tool == "runner":
                # a tool's output does not overrule a runner's or a gate's report, and
                # a runner report no call ran resolves nothing
                continue
            same = later.key == op.key
            if not same and not stands_for(later, op):
                continue
            resolved = later.ok is True
            # a later failure of the same check stands for this one: whether the
            # check is resolved is that run's question (failed, failed, passed: done);
            # a later run that proved nothing (masked, hollow, weakened) settles nothing
            # either way, and the runs after it still count
            superseded = same and later.ok is False
            if resolved or superseded:
                break
        if not resolved and not superseded:
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
    if command is not None:
        shell = _shell_write_paths(command)
        return list(shell) if shell else None
    name = call.name.lower()
    args = call.arguments if isinstance(call.arguments, dict) else {}
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


@functools.lru_cache(maxsize=8192)
def _shell_write_paths(command: str) -> tuple[str | None, ...]:
    """The paths a shell command writes (``None`` for a write verb's unnamed target)."""
    paths: list[str | None] = []
    for match in _SHELL_WRITE.finditer(command):
        path = match.group("redir") or match.group("tee") or match.group("sed")
        if path is not None:
            paths.append(path.strip("'\""))
        elif match.group("verb"):
            paths.append(None)
    return tuple(dict.fromkeys(paths))


def edits(entries: Iterable[LedgerEntry]) -> list[Edit]:
    """Writes in ledger order. A write whose result failed is kept with ``ok=False``."""
    return edits_of(operations(entries))


def edits_of(ops: Iterable[Operation]) -> list[Edit]:
    """:func:`edits` from the entries' :func:`operations` (each call's written paths
    were read when it was paired: nothing is parsed again)."""
    return [
        Edit(
            seq=op.call_seq,
            tool=op.tool,
            path=path,
            ok=op.ok if op.result_seq is not None else None,
            at=op.at,
        )
        for op in ops
        for path in op.writes
    ]


def last_edit_seq(ops: Iterable[Operation]) -> int | None:
    """Sequence number of the latest write that did not fail, if any (``ops`` are
    :func:`operations` of the entries)."""
    seqs = [e.seq for e in edits_of(ops) if e.ok is not False]
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
    running = RunningFingerprint()
    running.feed(entries)
    return running.value


class RunningFingerprint:
    """:func:`fingerprint` of a growing log, fed only what was added: ``count``
    entries so far (a ledger keeps one per session, a reviewer one per copy)."""

    __slots__ = ("_digest", "count")

    def __init__(self) -> None:
        self._digest = hashlib.blake2b(digest_size=16)
        self.count = 0

    def feed(self, entries: Iterable[LedgerEntry]) -> None:
        digest = self._digest
        for entry in entries:
            data = encode(entry)
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
            self.count += 1

    @property
    def value(self) -> str:
        return "fp:" + self._digest.copy().hexdigest()
