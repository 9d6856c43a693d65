"""One review's evidence, worked out from a session's ledger: :func:`build_view`.

The ledger (:mod:`donecheck.actors.ledger`) calls it on the log it holds, with the
operations it paired as the entries arrived; a test calls it on entries it built.
Everything the rules, a judge's prompt and the loop read from the ledger is here,
computed once per review — the reviewer never sees a log entry:

* the request's **scope** (:mod:`.scope`) and, within it, the operations with their
  latest outcomes — a pass that came only after the tests were weakened
  (:mod:`.integrity`) demoted to "proved nothing";
* from those: the checks whose latest run failed (with how it ended and what
  weakened or masked it since), the unresolved errors (:mod:`.errors`), the passing
  runs after the last edit, the runs that proved nothing, the writes, the files a
  tool showed, the latest run of each check for the card;
* the session's materials, which attachments were read (:mod:`.reads`), the
  approval statements of every source, the fingerprint and the progress digest;
* for a judge's prompt, when asked: the checks, the writes, the bounded tool log
  (:mod:`.excerpt`) and the full text behind each id it shows.

Every list is capped; a cap that cut something is named in ``truncated``.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import msgspec

from donecheck.actors.actions import Action
from donecheck.actors.actions.model import CHANGES, Touch
from donecheck.actors.evidence.errors import unresolved_errors
from donecheck.actors.evidence.excerpt import excerpt_of
from donecheck.actors.evidence.index import EvidenceIndex
from donecheck.actors.evidence.integrity import (
    Weakened,
    changes,
    classify,
    same_file,
    settled,
    weakened,
)
from donecheck.actors.evidence.pairing import (
    Pairing,
    checks,
    command_of,
    stands_for,
    unresolved_failures,
)
from donecheck.actors.evidence.reads import reads_of
from donecheck.actors.evidence.runner import (
    output_summary,
    passed_count,
    report_summary,
    tool_error,
)
from donecheck.actors.evidence.scope import scope_of
from donecheck.actors.evidence.shell import check_segments, run_levels
from donecheck.actors.evidence.writes import edits_of, script_runs
from donecheck.actors.messages import (
    ApprovalStatement,
    CheckReport,
    Edit,
    EvidenceRequest,
    EvidenceView,
    FailedCheck,
    FileSnapshot,
    LedgerEntry,
    Material,
    MaterialRecorded,
    Operation,
    PassingRun,
    ReportedRun,
    Scope,
    SessionOpened,
    SuiteChange,
    ToolCall,
    ToolResult,
    UserInput,
    WeakenedRun,
    WorkspaceState,
)
from donecheck.actors.words.approval import (
    MAX_STATEMENTS,
    Source,
    source_statements,
    statements_of,
)
from donecheck.actors.words.attachments import needed_attachments
from donecheck.actors.words.claims import asks_to_change, category_of_check, names_as_verifier

__all__ = [
    "CAPS",
    "SourceReader",
    "ViewParts",
    "base_view",
    "build_view",
    "completed",
    "entry_sources",
    "progress_digest",
    "run_summary",
]

_T = TypeVar("_T")

CAPS = {
    "failed": 200,
    "errors": 200,
    "passing": 500,
    "writes": 5_000,
    "looked": 5_000,
    "edits": 60,
    "checks": 200,
    "runs": 20,
    "names": 20_000,
}
"""The most of each list a view carries (the latest kept). ``edits`` and ``checks``:
what a judge's prompt lists; ``runs``: the card lists the last 20 checks; ``names``:
the words kept of one passing test run's output."""

_RESULT_TEXT_CHARS = 400
_TEXT_CHARS = 65_536
"""The most of one entry's text a judge's prompt may quote back (a stored tool
output is at most ``max_tool_output_chars``, 64 KiB by default, already)."""
_TEXTS_CHARS = 2_000_000
_TEXT_AFTER = 1_000
"""Past ``_TEXTS_CHARS`` of texts in all, each further one is its first 1,000
characters: every id the prompt shows stays citable, the view stays bounded."""
_NAMES = re.compile(r"(?:^|(?<=[\s/]))([^\s/]+)")
_TEST_RUNS = frozenset({"test"})


def _asked(request: str) -> Callable[[str], bool]:
    """Whether the request asks for a file to be changed (not only named as what a
    check runs): its test changes are then the agent's work, not a weakening."""

    def asked(path: str) -> bool:
        given = path.replace("\\", "/")
        name = given.rstrip("/").rsplit("/", 1)[-1]
        if given.endswith("/") or "." not in name:  # a folder: named as one (``tests/``)
            name += "/"
        return (
            name.lower() in request.lower()
            and asks_to_change(request, name)
            and not names_as_verifier(request, name)
        )

    return asked


def _demoted(op: Operation, why: Weakened) -> Operation:
    return msgspec.structs.replace(
        op,
        ok=None,
        status_source="weakened",
        caveat=f"it passed only after the tests were weakened ({why.why})"
        if why.failed is not None
        else f"it did not run the real test runner ({why.why})",
    )


def run_summary(
    op: Operation, reports: dict[int, CheckReport], results: dict[int, ToolResult]
) -> str:
    """How a run ended, from the report that told it, else from its tool output."""
    report = reports.get(op.report_seq) if op.report_seq is not None else None
    if report is not None:
        return report_summary(report)
    result = results.get(op.result_seq) if op.result_seq is not None else None
    return output_summary(result.output) if result is not None else ""


def _weakened_run(found: Weakened) -> WeakenedRun:
    return WeakenedRun(
        passed=found.passed,
        failed=found.failed,
        changes=tuple(
            SuiteChange(seq=c.seq, path=c.path, role=c.role, reasons=c.reasons)
            for c in found.changes
        ),
        why=found.why,
    )


def _weakening_of(weak: dict[int, Weakened], failed: Operation) -> Weakened | None:
    """The weakened pass that came after ``failed`` (same check, or one covering it)."""
    for found in weak.values():
        later = found.passed
        if found.failed is None or later.call_seq < failed.call_seq:
            continue
        if stands_for(later, failed):
            return found
    return None


def _nothing_since(ops: Sequence[Operation], failed: Operation) -> Operation | None:
    """The latest later run of the same check that proved nothing (masked, hollow)."""
    later = [
        op
        for op in ops
        if op.call_seq > failed.call_seq
        and op.check == failed.check
        and op.ok is None
        and op.caveat
    ]
    return later[-1] if later else None


def _passing_after(ops: Sequence[Operation], after: int) -> dict[str, list[Operation]]:
    """Check category → passing runs after seq ``after``, for the categories whose
    latest run since then passed: a later masked run (its outcome unknown) undoes
    the showing — it may have failed — while a hollow one (nothing ran) does not."""
    shown: dict[str, list[Operation]] = {}
    for op in ops:
        if op.check is None or op.call_seq <= after or op.result_seq is None:
            continue
        if op.ok is None and op.status_source != "masked":
            continue  # hollow, or no status at all: says nothing either way
        if op.ok is True and op.tool == "runner":
            continue  # a runner report that no call ran shows nothing
        for category in category_of_check(op.check):
            if op.ok is True:
                shown.setdefault(category, []).append(op)
            else:
                shown.pop(category, None)  # failed or masked since the pass
    return shown


def _names(output: str) -> frozenset[str]:
    """The words of a run's output that follow its start, a space or a ``/``."""
    found: set[str] = set()
    for match in _NAMES.finditer(output):
        found.add(match.group(1))
        if len(found) >= CAPS["names"]:
            break
    return frozenset(found)


def _latest_per_category(ops: Iterable[Operation]) -> dict[str, Operation]:
    latest: dict[str, Operation] = {}
    for op in ops:
        for category in category_of_check(op.check or ""):
            latest[category] = op
    return latest


def _looked(
    ops: Sequence[Operation], actions: Mapping[int, Action], results: dict[int, ToolResult]
) -> dict[str, str]:
    """Files the agent's tools showed → the evidence id of the latest showing."""
    looked: dict[str, str] = {}
    for op in ops:
        action = actions.get(op.call_seq)
        if action is None or op.result_seq is None or op.ok is False:
            continue
        if op.ok is None:  # no status: the tool showed content, not an error
            result = results.get(op.result_seq)
            if result is None or not result.output.strip() or tool_error(result.output):
                continue
        for path in action.shown:
            looked.pop(path, None)
            looked[path] = op.evidence_id
    return looked


def _compared(began: WorkspaceState | None, stopped: WorkspaceState | None) -> str:
    """What the card says of the workspace's test files the review compared."""
    if began is None and stopped is None:
        return ""
    seen = began or stopped
    assert seen is not None
    said = (
        f"{len(began.files)} test and configuration file(s) at the task's start"
        if began is not None
        else "no record of the task's start"
    )
    if stopped is not None:
        same = began is not None and {(f.path, f.sha256) for f in began.files} == {
            (f.path, f.sha256) for f in stopped.files
        }
        said += f", {len(stopped.files)} at the latest stop" + (" (unchanged)" if same else "")
    missed = "; ".join(s.missed for s in (began, stopped) if s is not None and s.missed)
    return (
        f"Compared the workspace's own files ({seen.root}): {said}"
        + (f"; {missed}" if missed else "")
        + "."
    )


_INFERRED = 5
"""The most tools the card names as read by their arguments' shape."""


def _inferred(ops: Sequence[Operation]) -> tuple[str, ...]:
    """``name:kind:E<seq>`` of the first call of each tool no dialect row names."""
    first: dict[str, str] = {}
    for op in ops:
        if op.inferred and op.tool not in first and len(first) < _INFERRED:
            first[op.tool] = f"{op.tool}:{op.action}:E{op.call_seq}"
    return tuple(first.values())


def _reported_runs(
    ops: Sequence[Operation], reports: dict[int, CheckReport], results: dict[int, ToolResult]
) -> tuple[ReportedRun, ...]:
    """The latest run of each check, with who told its outcome, for the card (at
    most the last ``CAPS["runs"]`` checks)."""
    latest: dict[str, Operation] = {}
    for op in ops:
        if op.check is not None and op.result_seq is not None:
            latest.pop(op.key, None)
            latest[op.key] = op
    runs: list[ReportedRun] = []
    for op in list(latest.values())[-CAPS["runs"] :]:
        report = reports.get(op.report_seq) if op.report_seq is not None else None
        outcome = {True: "passed", False: "failed", None: "proved nothing"}[op.ok]
        if report is None:
            runs.append(
                ReportedRun(
                    evidence=op.evidence_id,
                    origin="agent",
                    name=op.check or op.tool,
                    command=op.command or op.tool,
                    outcome=outcome,
                    counts=run_summary(op, reports, results),
                    detail=op.caveat,
                )
            )
            continue
        where = ":".join(p for p in (report.host, report.workspace) if p)
        runs.append(
            ReportedRun(
                evidence=op.evidence_id,
                origin=report.origin,
                name=report.name,
                command=report.command,
                outcome=outcome,
                counts=report.counts,
                where=where,
                duration_s=round(report.duration_s, 3),
                detail=report.detail,
            )
        )
    return tuple(runs)


def entry_sources(
    entries: Iterable[LedgerEntry], calls: dict[str, ToolCall] | None = None
) -> Iterator[Source]:
    """Texts of the ledger that can record an approval, in ledger order, each with the
    id that cites it: user inputs, tool outputs (titled by their command) and each
    block of an attached material (titled by its name); never an answer. ``calls``:
    the tool calls of the entries before these, by id (kept up to date)."""
    calls = {} if calls is None else calls
    for entry in entries:
        event = entry.event
        if isinstance(event, UserInput):
            yield Source(f"E{entry.seq}", event.text)
        elif isinstance(event, SessionOpened):
            yield Source(f"E{entry.seq}", event.request)
        elif isinstance(event, ToolCall):
            calls[event.call_id] = event
        elif isinstance(event, ToolResult):
            call = calls.get(event.call_id)
            title = (command_of(call) or str(call.arguments)) if call is not None else ""
            yield Source(f"E{entry.seq}", event.output, title[:200])
        elif isinstance(event, MaterialRecorded):
            material = event.material
            name = material.declared_name
            if material.origin == "tool":
                name += f" (returned by tool call {material.call_id})"
            yield from (Source(b.source_id, b.text, name) for b in material.blocks)


class SourceReader:
    """The approval statements of a growing log (:func:`entry_sources`), each entry
    read once: :meth:`statements` reads only the entries added since its last call."""

    __slots__ = ("_calls", "_statements", "count")

    def __init__(self) -> None:
        self.count = 0
        self._calls: dict[str, ToolCall] = {}
        self._statements: list[ApprovalStatement] = []

    def statements(self, entries: Sequence[LedgerEntry]) -> list[ApprovalStatement]:
        """The statements of ``entries`` (the log read so far, grown), at most
        ``MAX_STATEMENTS``, in order."""
        said = self._statements
        if self.count < len(entries) and len(said) < MAX_STATEMENTS:
            for source in entry_sources(entries[self.count :], self._calls):
                said.extend(source_statements(source))
                if len(said) >= MAX_STATEMENTS:
                    del said[MAX_STATEMENTS:]
                    break
        self.count = len(entries)
        return said


def progress_digest(ops: Iterable[Operation], files: Iterable[FileSnapshot]) -> str:
    """The latest result per operation and the latest snapshot per file, as a digest:
    re-running a failing check that fails the same way changes nothing; editing a
    file (seen by a tool or a snapshot) or getting a different result does."""
    latest: dict[str, tuple[bool | None, int | None]] = {}
    for op in ops:
        latest[op.key] = (op.ok, op.exit_code)
    state: dict[str, tuple[bool, str | None, int | None, float | None]] = {}
    for snap in files:
        state[snap.path] = (snap.exists, snap.sha256, snap.size, snap.mtime)
    digest = hashlib.blake2b(digest_size=12)
    for key in sorted(latest):
        digest.update(repr((key, latest[key])).encode())
    for path in sorted(state):
        digest.update(repr((path, state[path])).encode())
    return digest.hexdigest()


def _in_scope(index: EvidenceIndex, scope: Scope) -> Iterator[tuple[int, ToolCall | ToolResult]]:
    """The request's tool calls and results, in ledger order."""
    merged: Iterable[tuple[int, ToolCall | ToolResult]] = heapq.merge(
        index.calls.items(), index.results.items(), key=lambda item: item[0]
    )
    return ((seq, event) for seq, event in merged if scope.includes(seq))


def _entry_texts(index: EvidenceIndex, scope: Scope, wanted: set[str]) -> dict[str, str]:
    """Full text behind each wanted ledger id of the request: a result with its call's
    arguments, within the bounds above, the newest first."""
    calls: dict[str, ToolCall] = {}
    texts: dict[str, str] = {}

    def call_text(call: ToolCall) -> str:
        args = call.arguments
        shown = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        return f"{call.name} {command_of(call) or ''} {shown}"

    for seq, event in _in_scope(index, scope):
        if isinstance(event, ToolCall):
            calls[event.call_id] = event
            if f"E{seq}" in wanted:
                texts[f"E{seq}"] = call_text(event)
        elif f"E{seq}" in wanted:
            call = calls.get(event.call_id)
            texts[f"E{seq}"] = f"{call_text(call) if call else ''}\n{event.output}"
    used = 0
    for eid in reversed(texts):
        text = texts[eid][: _TEXT_CHARS if used < _TEXTS_CHARS else _TEXT_AFTER]
        texts[eid] = text
        used += len(text)
    return texts


def _tool_results(index: EvidenceIndex, scope: Scope) -> dict[str, tuple[str, str]]:
    """Per tool call id that returned images: where (``E7 (`read_file a.png`)``) and
    the start of the result's text, so each image sits beside what it belongs to."""
    calls: dict[str, ToolCall] = {}
    found: dict[str, tuple[str, str]] = {}
    for seq, event in _in_scope(index, scope):
        if isinstance(event, ToolCall):
            calls[event.call_id] = event
        elif event.images:
            call = calls.get(event.call_id)
            what = ""
            if call is not None:
                args = (
                    call.arguments
                    if isinstance(call.arguments, str)
                    else json.dumps(call.arguments, ensure_ascii=False)
                )
                what = f" (`{call.name} {args[:120]}`)"
            text = " ".join(event.output.split())
            if len(text) > _RESULT_TEXT_CHARS:
                text = text[: _RESULT_TEXT_CHARS - 1] + "…"
            found[event.call_id] = (f"E{seq}{what}", text or "(no text)")
    return found


class _Capped:
    """Keeps the latest ``CAPS[name]`` of a list and says which lists it cut."""

    def __init__(self) -> None:
        self.cut: list[str] = []

    def __call__(self, name: str, items: Sequence[_T]) -> tuple[_T, ...]:
        cap = CAPS[name]
        if len(items) <= cap:
            return tuple(items)
        self.cut.append(f"{name}: the latest {cap} of {len(items)}")
        return tuple(items[-cap:])


@dataclass(frozen=True, slots=True)
class ViewParts:
    """What a view's optional parts — the approval statements, a judge prompt's
    checks, writes, tool log and texts — are worked out from: kept beside the base
    view, so a second ask for the same request on the same log adds them to it
    instead of building the view again."""

    index: EvidenceIndex
    scope: Scope
    ops: list[Operation]
    """The request's operations, weakened passes demoted."""
    unsettled: list[Operation]
    scoped_edits: list[Edit]
    last_edit: Edit | None
    materials: list[Material]
    cut: tuple[str, ...]
    """What the base view's caps cut."""


_OUTPUT_SUFFIXES = frozenset({".log", ".txt", ".out", ".xml", ".json", ".html", ".lcov"})
"""What a check writes of its own run (``pytest | tee test.log``, ``--junitxml``)."""
_INERT_SUFFIXES = frozenset({".log", ".patch", ".diff", ".orig", ".rej"})
_DOC_SUFFIXES = frozenset({".md", ".rst", ".adoc"})
_DOC_NAMES = re.compile(r"(?i)^(?:changelog|changes|history|news|license|authors|notice)\b")
_CACHES = frozenset({".pytest_cache", "__pycache__", ".mypy_cache", ".ruff_cache", ".cache"})
_ELSEWHERE = re.compile(r"^(?:/tmp/|/var/tmp/|~/|/root/\.|/home/[^/]+/\.)")
"""Absolute paths no project run reads: scratch space and the agent's own dot folders
(``~/.claude/plans/``)."""
_TEST_DATA = re.compile(r"(?:^|/)(?:tests?|fixtures?|testdata|spec)(?:/|$)", re.I)


_AUTOLOADED = re.compile(
    r"(?i)^(?:conftest\.py|__init__\.py|sitecustomize\.py|usercustomize\.py|setup\.py"
    r"|.*\.(?:pth|cfg|ini|toml|json|ya?ml|lock|mod|sum|gradle|xml|props|targets)"
    r"|\.env.*|makefile|gemfile|rakefile|.*\.config\.[cm]?[jt]s|jest\.setup\.[cm]?[jt]s)$"
)
"""Files a runner or a build loads without being named — configuration, a package's
``__init__``, pytest's ``conftest.py`` — whose removal can change any run."""
_WORD = re.compile(r"[\w-]+")


def _scratch_removed(edit: Edit, actions: Mapping[int, Action]) -> bool:
    """Whether ``edit`` only deletes a file the agent itself created in this session
    (its first touch a whole-file write) and nothing loads unnamed or names: its own
    reproduction script or a throwaway test, cleaned up after the run. Taking it away
    puts that file back as it was before the session, which no run of the project's
    own checks depended on."""
    path = edit.path
    action = actions.get(edit.seq)
    if path is None or action is None:
        return False
    mine = [t for t in action.touches if t.path and same_file(t.path, path)]
    if not mine or any(t.op != "delete" for t in mine):
        return False
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if _AUTOLOADED.match(base) or "." not in base.lstrip("."):
        return False  # configuration, or a folder
    stem = base.rsplit(".", 1)[0]
    first: str | None = None
    for seq in sorted(actions):
        if seq >= edit.seq:
            break
        for touch in actions[seq].touches:
            if touch.path and same_file(touch.path, path):
                first = first or touch.op
            elif touch.new and stem in _WORD.findall(touch.new):
                return False  # another file names it: an import, a call
    return first == "write"


_ARTIFACT_SUFFIXES = frozenset(
    """.png .jpg .jpeg .gif .bmp .webp .svg .pdf .eps .ps .csv .tsv .npy .npz .pkl .pickle
    .dat .out .txt .json .html .wav .mp3 .mp4 .db .sqlite""".split()
)


def _artifact_removed(edit: Edit, actions: Mapping[int, Action]) -> bool:
    """Whether ``edit`` only deletes what a script the agent itself wrote in this session
    made when it ran (``plt.savefig('repro.png')`` in its ``repro.py``; not a test's
    data): the run's leftover, which no check of the project reads."""
    path = edit.path
    action = actions.get(edit.seq)
    if path is None or action is None or _TEST_DATA.search(path):
        return False
    mine = [t for t in action.touches if t.path and same_file(t.path, path)]
    if not mine or any(t.op != "delete" for t in mine):
        return False
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if "." not in base or "." + base.rsplit(".", 1)[-1].lower() not in _ARTIFACT_SUFFIXES:
        return False
    for seq in sorted(actions):
        if seq >= edit.seq:
            break
        for touch in actions[seq].touches:
            if touch.path and same_file(touch.path, path):
                return False  # a tool wrote or read it: not a script's leftover
            if (
                touch.op == "write"
                and touch.new
                and touch.path
                and base in touch.new
                and _scratch(touch.path, actions)
            ):
                return True
    return False


_TEST_FOLDER = re.compile(r"(?i)(?:^|/)(?:tests?|specs?|__tests__|testing)(?:/|$)")


def _discards_tests(path: str | None) -> bool:
    """Whether putting ``path`` back from git can take tests away: a test file, a folder
    that holds tests, or the whole tree (``git stash``, ``git checkout .``)."""
    if path is None or path.strip("./") == "":
        return True
    return classify(path) == "test" or bool(_TEST_FOLDER.search(path.rstrip("/") + "/"))


def _discarded_by_git(
    ops: Sequence[Operation], actions: Mapping[int, Action], weak: Mapping[int, Weakened]
) -> dict[int, Weakened]:
    """Passing test runs that settle a failure only because git put the tests back
    between them (``git checkout -- tests/test_x.py``, ``git restore tests/``, ``git
    stash``): the tests the task began with — uncommitted, maybe the user's own new
    ones — were thrown away, not made to pass. Not when the restore undoes the agent's
    own earlier change to those files (undoing a weakening), nor when a ``git stash``
    was popped again before the run."""
    out: dict[int, Weakened] = {}
    order = sorted(actions)
    failures: list[Operation] = []
    for op in ops:
        if op.check is None or op.result_seq is None:
            continue
        if op.ok is False:
            failures.append(op)
            continue
        if op.ok is not True or op.call_seq in weak:
            continue
        failed = next((f for f in failures if stands_for(op, f)), None)
        if failed is None:
            continue
        changed: list[str] = []
        discarded: tuple[int, str] | None = None
        for seq in order:
            if seq >= op.call_seq:
                break
            for touch in actions[seq].touches:
                if touch.op == "restore" and seq > failed.call_seq:
                    whole = touch.path is None or touch.path.strip("./") == ""
                    mine = any(
                        _discards_tests(p)
                        if whole
                        else same_file(p, str(touch.path))
                        or p.startswith(str(touch.path).rstrip("/") + "/")
                        for p in changed
                    )  # undoing the agent's own change (to the tests, for a whole tree)
                    if _discards_tests(touch.path) and not mine:
                        discarded = (seq, touch.path or "the whole tree")
                elif touch.op in CHANGES and touch.path is not None:
                    changed.append(touch.path)
                if touch.op == "write" and touch.source == "stash" and discarded is not None:
                    if discarded[1] == "the whole tree":
                        discarded = None  # the stash came back before the run
        if discarded is not None:
            seq, what = discarded
            out[op.call_seq] = Weakened(
                op,
                failed,
                (),
                note=f"E{seq} put {what if what == 'the whole tree' else f'`{what}`'} back as git"
                " had it: the tests the task began with were thrown away, not made to pass",
            )
    return out


def _undoes(action: Action, earlier: Sequence[Action]) -> bool:
    """Whether ``action`` takes back a change the agent made before (``earlier``): git
    puts a changed file back; an edit replaces the new text with the old again; a sed
    deletes the lines an earlier edit or sed added."""
    from donecheck.actors.actions.sed import deleted_patterns, parse, substitutions

    def plain(text: str) -> str:
        return re.sub(r"\\(.)", r"\1", text)

    def literal(pattern: str) -> str:
        """A pattern as the text it matches where it is plain: ``^``/``$`` anchors
        say where, not what (``s/^    hit/        hit/`` is undone by
        ``s/^        hit/    hit/``)."""
        return plain(re.sub(r"(?<!\\)\$$", "", pattern.removeprefix("^")))

    def swaps(touch: Touch) -> list[tuple[str, str]]:
        found = parse(touch.new, touch.extended) if touch.op == "sed" and touch.new else None
        return [(literal(p), plain(r)) for p, r in substitutions(found or ())]

    made = [t for a in earlier for t in a.touches if t.op in CHANGES and t.path]
    for touch in action.touches:
        same = [t for t in made if touch.path is None or same_file(str(t.path), touch.path)]
        if not same:
            continue
        if touch.op == "restore":
            return True
        if touch.op == "edit" and any(
            t.op == "edit" and t.old == touch.new and t.new == touch.old for t in same
        ):
            return True
        mine = swaps(touch)
        if mine and any((r, p) in mine for t in same for p, r in swaps(t)):
            return True  # s/B/A/ after s/A/B/
        script = parse(touch.new, touch.extended) if touch.op == "sed" and touch.new else None
        for pattern in deleted_patterns(script or ()):
            try:
                deleted = re.compile(pattern) if pattern else None
            except re.error:
                deleted = None
            if deleted is not None and any(
                t.new and deleted.search(t.new) for t in same if t.op in {"edit", "sed"}
            ):
                return True
    return False


_FAILING_NAMES = re.compile(
    r"(?m)^(?:FAILED|ERROR|FAIL:|ERROR:)\s+(\S+)|^FAILED \((.+)\)\s*$"
    r"|^_{3,} (\S+) _{3,}\s*$"  # a failure's section header (pytest's, SymPy's bin/test)
)


def _failure_shape(output: str) -> frozenset[str]:
    """What a failing run's output names as failing: its failed tests' ids and its
    summary of failures ("FAILED (errors=1)"), to tell the same failure again."""
    found = set()
    for match in _FAILING_NAMES.finditer(output[-20_000:]):
        found.add(match.group(1) or match.group(2) or match.group(3))
    return frozenset(found)


_UNDO_SCAN = 2_000
"""The calls searched for an undo (a bound: each run looks back through them)."""


def _first_touches(actions: Mapping[int, Action]) -> dict[str, str]:
    """Each path the session's tools named → what its first touch did."""
    first: dict[str, str] = {}
    for seq in sorted(actions):
        for touch in actions[seq].touches:
            if touch.path:
                first.setdefault(touch.path, touch.op)
    return first


def _scratch(path: str, actions: Mapping[int, Action]) -> bool:
    """A file the agent created whole and may throw away (a reproduction script): its
    state is no part of the code under test."""
    return _first_touches(actions).get(path) == "write"


def _preexisting(
    failed: Operation,
    ops: Sequence[Operation],
    actions: Mapping[int, Action],
    results: Mapping[int, ToolResult],
) -> str:
    """Why the failure of ``failed`` is not the agent's doing: the same check failed
    the same way (the same failing tests) both with the agent's change and with it
    undone — how an agent shows that a failure it leaves was there before it."""
    order = sorted(actions)
    first = _first_touches(actions)  # scratch files: created whole by a first write

    def shape(op: Operation) -> frozenset[str]:
        seen = results.get(op.result_seq) if op.result_seq is not None else None
        return _failure_shape(seen.output) if seen is not None else frozenset()

    def undone(op: Operation) -> int | None:
        """The undo after which every file the agent changed was back as it found it,
        when that is the state ``op`` ran in."""
        changed: dict[str, bool] = {}  # path: changed from how the agent found it
        last_undo: int | None = None
        for s in order:
            if s >= op.call_seq:
                break
            earlier = [actions[e] for e in order if e < s]
            paths = [
                t.path
                for t in actions[s].touches
                if t.path and t.op in CHANGES - {"delete"} and first.get(t.path) != "write"
            ]
            if not paths:
                continue
            if _undoes(actions[s], earlier) and any(changed.get(p) for p in paths):
                for p in paths:
                    changed[p] = False
                last_undo = s
            else:
                for p in paths:
                    changed[p] = True
        return last_undo if last_undo is not None and not any(changed.values()) else None

    same = [o for o in ops if o.ok is False and _same_check(o, failed)]
    if len(same) < 2 or len(order) > _UNDO_SCAN:
        return ""  # one run shows nothing of before; a very long session is not searched
    wanted = shape(failed)
    if not wanted:
        return ""
    runs = [o for o in same if shape(o) == wanted]
    without = [(o, u) for o in runs if (u := undone(o)) is not None]
    with_change = [o for o in runs if undone(o) is None]
    if not without or not with_change:
        return ""
    other, undo = without[-1]
    return (
        f"{other.evidence_id} ran it with the agent's change undone (E{undo}) and it failed"
        " the same way"
    )


def _same_check(one: Operation, other: Operation) -> bool:
    """Runs of one check, whatever else the command line ran or selected: the same
    operation, the same kind of check over the same or a covering selection
    (``pytest a.py b.py`` and ``pytest a.py``), or a line of checks that runs it
    (``bin/test t.py && python repro.py``) — their failures are then told apart by
    what failed, not by how the command was put."""
    if one.key == other.key:
        return True
    if one.check is None or other.check is None:
        return False
    kinds = set(one.check.split("+")) & set(other.check.split("+"))
    return bool(kinds) and (
        stands_for(one, other) or stands_for(other, one) or "+" in one.check + other.check
    )


def _own_test_runs(ops: Sequence[Operation], actions: Mapping[int, Action]) -> dict[int, str]:
    """Passing test runs (by call seq) that show only what the agent itself wrote: a
    test script it wrote or changed in the session (``run_tests.sh``: what it prints is
    the agent's), or a test file it created whole and ran by itself (``python3
    test_repro.py``). Edits to a project's own test file are the integrity rules' to
    judge. Each with why."""
    from donecheck.actors.evidence.shell import test_script_path

    out: dict[int, str] = {}
    for op in ops:
        if op.ok is not True or not (op.check or "").endswith(" test") or op.command is None:
            continue
        script = test_script_path(op.command)
        if script is None:
            continue
        first = ""
        for seq in sorted(actions):
            if seq >= op.call_seq:
                break
            for touch in actions[seq].touches:
                if touch.path and same_file(touch.path, script) and touch.op in CHANGES:
                    first = first or touch.op
        if not first:
            continue
        if op.check == "python test":
            if first == "write":
                out[op.call_seq] = (
                    f"`{script}` is a test file the agent wrote itself in this session, run on"
                    " its own: the project's tests did not run"
                )
        else:
            out[op.call_seq] = (
                f"`{script}` is a test script the agent wrote or changed itself: it shows what"
                " that script prints"
            )
    return out


def _can_change_runs(
    writes: Sequence[Edit], ops: Sequence[Operation], actions: Mapping[int, Action]
) -> list[Edit]:
    """The writes that can change what a check run checked — those after a passing run
    make it stale. Not: a check's own log or report (written by its own command), a
    log, a patch of the change, a cache, scratch space or the agent's own notes,
    documentation no check reads (a doctest of it makes it count), and the removal of
    a script the agent wrote itself that nothing loads or names."""
    checks = [op for op in ops if op.check is not None and op.command]
    own = {op.call_seq for op in checks}
    commands = " ".join(op.command or "" for op in checks).lower()
    kept = []
    for edit in writes:
        path = edit.path
        if path is None:
            kept.append(edit)
            continue
        name = path.replace("\\", "/").rstrip("/")
        base = name.rsplit("/", 1)[-1]
        suffix = "." + base.rsplit(".", 1)[-1].lower() if "." in base else ""
        if edit.seq in own and suffix in _OUTPUT_SUFFIXES:
            continue  # the run's own log or report
        if suffix in _INERT_SUFFIXES or set(name.split("/")) & _CACHES:
            continue
        if (
            _ELSEWHERE.match(name)
            or _scratch_removed(edit, actions)
            or _artifact_removed(edit, actions)
        ):
            continue
        documentation = (suffix in _DOC_SUFFIXES or _DOC_NAMES.match(base)) and not (
            _TEST_DATA.search(name) or "doctest" in commands or base.lower() in commands
        )
        if documentation:
            continue
        kept.append(edit)
    return kept


def build_view(
    entries: Sequence[LedgerEntry],
    request: EvidenceRequest,
    *,
    ops: Sequence[Operation] | None = None,
    actions: Mapping[int, Action] | None = None,
    index: EvidenceIndex | None = None,
    snapshot_targets: int = 24,
    statements: Sequence[ApprovalStatement] | None = None,
) -> EvidenceView:
    """The evidence of ``request`` from a session's ``entries`` (seq order), given —
    when the caller keeps them as the log grows, as the ledger does — the session's
    operations ``ops`` and their ``actions`` (a :class:`~.pairing.Pairing`'s), its
    :class:`~.index.EvidenceIndex` and the approval statements of ``entries``
    (:func:`entry_sources`). With all of them no entry is read again: only what
    they hold. :func:`base_view` and :func:`completed` are its two halves."""
    view, parts = base_view(
        entries, request, ops=ops, actions=actions, index=index, snapshot_targets=snapshot_targets
    )
    return completed(view, parts, request, entries, statements)


def _passing_run(op: Operation, results: Mapping[int, ToolResult]) -> PassingRun:
    """A passing run; for a test run, the files its output lists and the count of
    tests its runner says passed."""
    result = results.get(op.result_seq) if op.result_seq is not None else None
    if result is None or not op.check or not _TEST_RUNS & category_of_check(op.check):
        return PassingRun(op=op)
    return PassingRun(
        op=op,
        names=_names(result.output),
        passed=passed_count(result.output),
        levels=run_levels(op.command) if op.command else None,
    )


def base_view(
    entries: Sequence[LedgerEntry],
    request: EvidenceRequest,
    *,
    ops: Sequence[Operation] | None = None,
    actions: Mapping[int, Action] | None = None,
    index: EvidenceIndex | None = None,
    snapshot_targets: int = 24,
) -> tuple[EvidenceView, ViewParts]:
    """The view every review of ``request`` reads (``request.prompt`` and
    ``request.approvals`` aside), and the parts :func:`completed` adds those from."""
    index = index if index is not None else EvidenceIndex.of(entries, snapshot_targets)
    if ops is None or actions is None:
        pairing = Pairing()
        pairing.feed(entries)
        ops, actions = pairing.operations(), pairing.actions
    session_ops = list(ops)
    scope = scope_of(index.starts, request.request_id, request.request, session_ops)
    scoped = [op for op in session_ops if scope.includes(op.call_seq)]
    scoped_edits = [e for e in edits_of(session_ops) if scope.includes(e.seq)]
    results, reports, calls = index.results, index.reports, index.calls
    asked = _asked(request.request)
    began, stopped = index.workspace(scope.start if not scope.earlier else 0)
    found = changes(actions, scoped, results, asked, began)
    if stopped is not None:  # what the workspace holds at the latest stop settles the rest
        failed_outputs = [
            r.output
            for op in scoped
            if op.ok is False and op.check and (r := results.get(op.result_seq or -1))
        ]
        found = settled(found, began, stopped[1], stopped[0], failed_outputs, asked, scoped)
    touched = [
        t.path for op in scoped if (a := actions.get(op.call_seq)) for t in a.touches if t.path
    ]
    weak = weakened(scoped, found, results, reports, touched)
    weak.update(_discarded_by_git(scoped, actions, weak))
    own = _own_test_runs(scoped, actions)
    ops_ = [
        _demoted(op, weak[op.call_seq])
        if op.call_seq in weak
        else msgspec.structs.replace(op, ok=None, status_source="own", caveat=own[op.call_seq])
        if op.call_seq in own
        else op
        for op in scoped
    ]
    writes = [e for e in scoped_edits if e.ok is not False]
    capped = _Capped()

    # a run of the agent's own test file shows only that file — yet it is that file's
    # run: a later pass of it settles its earlier failure (the script fixed, the fix
    # shown), as a pass of any check settles its own
    unsettled = unresolved_failures(
        [op if op.call_seq in own else demoted for op, demoted in zip(scoped, ops_, strict=True)]
    )
    failed = [
        FailedCheck(
            run=op,
            summary=run_summary(op, reports, results),
            weakened=_weakened_run(w) if (w := _weakening_of(weak, op)) is not None else None,
            nothing_since=_nothing_since(ops_, op),
            unmasked=" && ".join(check_segments(op.command)) if op.caveat and op.command else "",
            preexisting=_preexisting(op, ops_, actions, results),
        )
        for op in unsettled
    ]
    unfailed = [  # a weakened pass with no failure before it, not re-run for real since
        _weakened_run(w)
        for w in weak.values()
        if w.failed is None
        and not any(
            op.call_seq > w.passed.call_seq and op.ok is True and op.key == w.passed.key
            for op in ops_
        )
    ]
    relevant = _can_change_runs(writes, ops_, actions)
    last_edit = relevant[-1] if relevant else None
    passing = {
        category: capped(
            "passing",
            [_passing_run(op, results) for op in runs],
        )
        for category, runs in _passing_after(
            ops_, last_edit.seq if last_edit is not None else 0
        ).items()
    }
    named: dict[str, Edit] = {}
    for edit in writes:
        if edit.path is not None:
            named.pop(edit.path, None)
            named[edit.path] = edit
    unnamed = [e.seq for e in writes if e.path is None][-3:]
    looked = _looked(ops_, actions, results)
    materials = list(index.materials.values())
    start = index.start_of(request.request_id)
    view = EvidenceView(
        session_id=request.session_id,
        request_id=request.request_id,
        last_seq=len(entries),
        progress=progress_digest(session_ops, index.snapshots.values()),
        scope=scope,
        acted=bool(calls) and next(reversed(calls)) > start,
        attachments=tuple(
            needed_attachments(
                index.first_request, index.attachments, request.request_id, request.request
            )
        ),
        materials=tuple(materials),
        reads=tuple(reads_of(index, session_ops, actions)),
        failed=capped("failed", failed),
        weakened=tuple(unfailed),
        errors=capped("errors", unresolved_errors(ops_, scoped_edits, results, actions)),
        passing=passing,
        nothing=_latest_per_category(
            op for op in ops_ if op.check is not None and op.ok is None and op.caveat
        ),
        last_runs=_latest_per_category(
            op for op in ops_ if op.check is not None and op.command is not None
        ),
        last_edit=last_edit,
        writes=capped("writes", list(named.values())),
        unnamed_writes=tuple(unnamed),
        script_runs=tuple(script_runs(ops_, writes)[-3:]),
        snapshot_paths=tuple(index.snapshot_paths),
        looked=capped("looked", list(looked.items())),
        runs=_reported_runs(ops_, reports, results),
        inferred=_inferred(scoped),
        workspace=_compared(began, stopped[1] if stopped is not None else None),
    )
    parts = ViewParts(
        index=index,
        scope=scope,
        ops=ops_,
        unsettled=unsettled,
        scoped_edits=scoped_edits,
        last_edit=last_edit,
        materials=materials,
        cut=tuple(capped.cut),
    )
    if capped.cut:
        view = msgspec.structs.replace(view, truncated=tuple(capped.cut))
    return view, parts


def completed(
    view: EvidenceView,
    parts: ViewParts,
    request: EvidenceRequest,
    entries: Sequence[LedgerEntry] = (),
    statements: Sequence[ApprovalStatement] | None = None,
) -> EvidenceView:
    """``view`` (from :func:`base_view`) with what ``request`` asks beyond it: the
    approval statements (``statements``, else read from ``entries``) and a judge
    prompt's parts."""
    capped = _Capped()
    capped.cut = list(parts.cut)
    if request.approvals:  # the request's own statements first, then the ledger's, in order
        said = statements if statements is not None else statements_of(entry_sources(entries))
        approvals = [*statements_of([Source("REQUEST", request.request)]), *said]
        view = msgspec.structs.replace(view, approvals=tuple(approvals[:MAX_STATEMENTS]))
    ops_, last_edit, index, scope = parts.ops, parts.last_edit, parts.index, parts.scope
    materials = parts.materials
    if request.prompt:
        listed = capped(
            "checks",
            checks(ops_, last_edit.seq if last_edit is not None else None, parts.unsettled),
        )
        edits = capped("edits", parts.scoped_edits)
        log = excerpt_of(index, ops_, request.excerpt_chars)
        shown = {c.latest for c in listed} | {f"E{e.seq}" for e in edits} | set(log.shown)
        shown.update(eid for read in view.reads for eid in read.evidence)
        view = msgspec.structs.replace(
            view,
            checks=listed,
            edits=edits,
            excerpt=log,
            texts=_entry_texts(index, scope, shown),
            tool_results=_tool_results(index, scope)
            if any(m.origin == "tool" for m in materials)
            else {},
        )
    if capped.cut:
        view = msgspec.structs.replace(view, truncated=tuple(capped.cut))
    return view
