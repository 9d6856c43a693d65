"""Tool calls paired with their results: one :class:`Operation` per unit of work.

* :func:`command_of` — the shell command a tool call ran (its parsing is in
  :mod:`.shell`).
* :func:`operations` / :class:`Pairing` — every tool call paired with its result and
  outcome (:mod:`.runner`), and the runner and gate reports merged into the call
  that ran them.
* :func:`check_runs` / :func:`unresolved_failures` — the latest result per check,
  so "failed then passed" differs from "passed then failed".
* :func:`checks` — each check with its latest run, as a judge's prompt lists them.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterable, Sequence

import msgspec

from donecheck.actors.actions import Action, ActionReader, read_action
from donecheck.actors.evidence.background import Finished, finished, notice_file, started
from donecheck.actors.evidence.runner import Outcome, outcome
from donecheck.actors.evidence.shell import NOISE, check_run, normalise_command, simple_commands
from donecheck.actors.evidence.writes import edits_of
from donecheck.actors.messages import (
    Check,
    CheckReport,
    Edit,
    LedgerEntry,
    Operation,
    StatusSource,
    ToolCall,
    ToolResult,
)
from donecheck.actors.words.claims import category_of_check

__all__ = [
    "TASK_RESULT",
    "Pairing",
    "check_runs",
    "checks",
    "command_of",
    "covers",
    "edits",
    "operations",
    "report_kind",
    "stands_for",
    "unresolved_failures",
]

# -------------------------------------------------------------------- commands


TASK_RESULT = "task:"
"""The ``call_id`` prefix of a result the client told about a background task (a
notice in the user's turn), not a call's: ``task:<its id>``."""


def command_of(call: ToolCall) -> str | None:
    """The shell command a tool call ran, or ``None`` when it ran none (read through
    the dialect table: :func:`~donecheck.actors.actions.read_action`)."""
    return read_action(call.name, call.arguments).command


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

    __slots__ = (
        "_awaiting", "_background", "_by_call", "_finished", "_ops", "_reader", "_reports",
        "_told", "_writers", "actions", "count",
    )  # fmt: skip

    def __init__(self) -> None:
        self.count = 0
        """Entries fed so far."""
        self._ops: list[Operation] = []
        self._by_call: dict[str, int] = {}
        self._writers: set[str] = set()
        self._finished: dict[int, float] = {}
        self._reports: list[tuple[int, CheckReport]] = []
        self._reader = ActionReader()
        self.actions: dict[int, Action] = {}
        """Each call's :class:`~donecheck.actors.actions.Action`, by its seq."""
        self._background: dict[str, int] = {}
        """A background task's id or output file → the run that started it."""
        self._awaiting: dict[str, tuple[int, bool]] = {}
        """A call fetching a background task's output → the run that started it, and
        whether it reads the task's output file (what it shows is the output)."""
        self._told: dict[int, int] = {}
        """A background run → the exit code the client's notice said it ended with."""

    def feed(self, entries: Iterable[LedgerEntry]) -> None:
        ops, by_call, writers = self._ops, self._by_call, self._writers
        for entry in entries:
            self.count += 1
            event = entry.event
            if isinstance(event, ToolCall):
                action = self._reader.read(event.name, event.arguments)
                self.actions[entry.seq] = action
                command = action.command
                if command is None and action.changes_files:
                    writers.add(event.call_id)
                origin = self._background.get(action.task) if action.task else None
                if origin is not None:
                    self._awaiting[event.call_id] = (origin, False)
                for path in action.shown:  # its output file, read
                    if path in self._background:
                        self._awaiting[event.call_id] = (self._background[path], True)
                by_call[event.call_id] = len(ops)
                ops.append(
                    Operation(
                        key=_operation_key(event, command),
                        tool=event.name,
                        call_seq=entry.seq,
                        command=command,
                        check=check_run(command).kind if command else None,
                        at=event.at,
                        writes=action.writes,
                        action=action.kind,
                        inferred=action.inferred,
                    )
                )
            elif isinstance(event, ToolResult):
                index = by_call.get(event.call_id)
                if event.call_id in self._awaiting:
                    self._came_back(*self._awaiting.pop(event.call_id), entry.seq, event)
                if index is None and event.call_id.startswith(TASK_RESULT):
                    # the client's notice that a background task ended: a run's outcome
                    # (or a task none of its checks started: nothing of theirs)
                    told = self._background.get(event.call_id.removeprefix(TASK_RESULT))
                    if told is not None:
                        self._came_back(told, False, entry.seq, event)
                        output_file = notice_file(event.output)
                        if output_file:  # a later read of it shows what the run printed
                            self._background.setdefault(output_file, told)
                    continue
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
                went_on = started(event.output) if ops[index].check is not None else None
                if went_on is not None:  # it runs on: its result comes back later
                    for key in went_on:
                        if key:
                            self._background[key] = index
            elif isinstance(event, CheckReport):
                self._reports.append((entry.seq, event))

    def _came_back(self, index: int, by_file: bool, seq: int, event: ToolResult) -> None:
        """A background run's result, fetched by a later call (``seq``; ``by_file``: a
        read of its output file): the run's own outcome, read from what came back, as
        if the run had waited for it."""
        done = finished(event.output)
        op = self._ops[index]
        notice = event.call_id.startswith(TASK_RESULT)
        if done is None:
            if not by_file or event.ok is False:
                return  # still running: nothing came back yet
            # what the file holds: its summary says, with the status a notice gave
            done = Finished(event.output, self._told.get(index))
        elif notice and done.exit_code is not None:
            self._told[index] = done.exit_code
        result = outcome(
            ToolResult(
                session_id=event.session_id,
                call_id=event.call_id,
                output=done.output,
                exit_code=done.exit_code,
                at=event.at,
            ),
            op.command,
        )
        if notice and result.source == "hollow" and not done.output.strip():
            result = Outcome(  # the notice gives a status, and leaves the output in a file
                None, result.exit_code, "hollow",
                f"the client's notice says it ended with exit code {done.exit_code};"
                " what it printed was not read",
            )  # fmt: skip
        self._finished[index] = event.at
        self._ops[index] = msgspec.structs.replace(
            op,
            result_seq=seq,
            ok=result.ok,
            exit_code=result.exit_code,
            status_source=result.source,
            caveat=result.caveat,
        )

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


@functools.lru_cache(maxsize=8192)
def _selection(command: str) -> tuple[frozenset[str], frozenset[str]]:
    """(path-like targets, selector expressions) of a check command."""
    targets: set[str] = set()
    selectors: set[str] = set()
    for argv in simple_commands(command):
        if argv and argv[0] in NOISE:
            continue  # cd /w && mix credo a.ex: the folder is where, not what, it checks
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


def check_targets(command: str) -> frozenset[str]:
    """The paths a check command names as what it checks (``pytest tests/a.py``)."""
    return _selection(command)[0]


def stands_for(later: Operation, earlier: Operation) -> bool:
    """Can ``later``'s outcome settle ``earlier``'s: the same operation, or a run of the
    same check — alone or in a line of checks — that covers it (``pytest`` after
    ``pytest tests/a.py``)?"""
    return later.key == earlier.key or (
        earlier.check is not None
        and (later.check == earlier.check or _runs_kind(later.check, earlier.check))
        and later.command is not None
        and earlier.command is not None
        and covers(later.command, earlier.command)
    )


def _runs_kind(chain: str | None, kind: str) -> bool:
    """Whether a line of checks runs ``kind`` among others (``mix compile+mix credo``
    runs ``mix credo``): when the line passed, each of its checks did."""
    return chain is not None and "+" in chain and set(kind.split("+")) <= set(chain.split("+"))


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


def checks(
    ops: Sequence[Operation],
    last_edit: int | None,
    unresolved: Sequence[Operation] | None = None,
) -> list[Check]:
    """Every check the agent ran, with its latest result, in order of first run.

    ``resolved``: the latest run failed but a later passing run of a covering
    command of the same kind (``pytest`` after ``pytest tests/a.py``) re-checked it.
    ``stale``: the latest run passed before the last edit.
    """
    runs = check_runs(ops)
    failing = {op.key for op in (unresolved_failures(ops) if unresolved is None else unresolved)}
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
                resolved=latest.ok is False and key not in failing,
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


def edits(entries: Iterable[LedgerEntry]) -> list[Edit]:
    """Writes in ledger order. A write whose result failed is kept with ``ok=False``."""
    return edits_of(operations(entries))
