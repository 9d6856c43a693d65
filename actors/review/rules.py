"""The rules-only reviewer: hard gates and evidence checks, no model.

Every finding cites ledger entries (``E<seq>``), material blocks, or
``ANSWER`` (the answer under review). The rules:

``failed_check`` → ``need_fix``
    A check (tests, linters, type checkers, builds) whose latest run failed and
    was not re-run successfully, citing the failing result. When the answer
    claims checks pass, the finding quotes the claim.
``unresolved_error`` → ``need_fix``
    A command that does work (not a probe such as ``ls``, ``grep``, ``git
    status``), or a file write, whose latest attempt failed and that was never
    retried successfully.
``approval_claim`` → ``need_fix``
    The answer states as fact that something was approved or signed off
    ("the PR was approved", "已通过审批") and no source — the request, a tool
    output, an attachment — records an approval. Negated and pending forms
    ("not yet approved", "待确认是否批准") are not claims.
``unproven_claim`` → ``need_evidence``
    The answer claims checks ran/passed, but the ledger has no passing run of
    such a check after the last edit (do not presume the work is wrong: ask for
    the run).
``unwritten_file`` → ``need_evidence``
    The answer says it created or changed a named file, and the ledger shows no
    write to it.
``unread_attachment`` → ``need_evidence``
    An attachment the request depends on was never read by the agent (only its
    size or listing was looked at, or nothing), or it could not be parsed and
    the agent did not read it either; the finding gives the parse status.

When no rule fires the verdict is ``pass`` and the notes say that requirement
coverage was not judged by a model. Each acceptance item is listed with the
evidence rules can match to it (a write to a file it names, a passing check of
the kind it names), else "not verified".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from donecheck.actors.evidence.integrity import Weakened
from donecheck.actors.evidence.pairing import command_of, stands_for, unresolved_failures
from donecheck.actors.evidence.reads import shown_paths
from donecheck.actors.evidence.runner import tool_error
from donecheck.actors.evidence.shell import simple_commands
from donecheck.actors.messages import (
    Acceptance,
    AttachmentRef,
    CheckReport,
    Coverage,
    CoverageStatus,
    Decision,
    Edit,
    FileSnapshot,
    Finding,
    ImageRef,
    MaterialRecorded,
    Operation,
    ReportedRun,
    ReviewRequest,
    SessionOpened,
    ToolCall,
    ToolResult,
    UserInput,
    Verdict,
)
from donecheck.actors.review.approval import ApprovalRecords, Source, claim_contexts
from donecheck.actors.review.claims import (
    CheckClaim,
    asks_to_change,
    asks_user,
    category_of_check,
    check_claims,
    completion_claims,
    file_claims,
    mentioned_categories,
    mentioned_paths,
    names_as_verifier,
    path_matches,
    unfinished,
)
from donecheck.actors.review.facts import Facts
from donecheck.actors.review.gates import FIX_RULES
from donecheck.actors.review.preanalysis import depends_on, extract_acceptance

__all__ = [
    "RULES_NOTE",
    "acceptance_of",
    "approval_sources",
    "decision_of",
    "output_summary",
    "review_by_rules",
    "rules_coverage",
]

RULES_NOTE = "Rules-only review: requirement coverage was not judged by a model."
_FAILURE_LINE = re.compile(r"(?i)\b(?:\d+ failed|failed|errors?|FAIL(?:ED)?|Found \d+ errors?)\b")
_SPECIFIC_FAILURES = (  # most telling first: a named failing test, then a located error
    re.compile(r"^(?:FAILED \S|ERROR \S|--- FAIL:|FAIL: |✕ |● )"),
    re.compile(r"^(?:\S+\.\w+:\d+(?::\d+)?:? |error(?:\[\w+\])?: |\S+\(\d+,\d+\): error )"),
)
_STATUS_ONLY = re.compile(r"(?i)^(?:exit(?:ed)?[ _-]?(?:code|status)|return[ _-]?code)\b")
_CATEGORY_NOUN = {
    "test": "the tests",
    "lint": "the linter",
    "type": "the type checker",
    "build": "the build",
    "any": "the checks",
}


BLOCK_RULES = frozenset({"asks_user"})
"""Rules that say the agent cannot go on without the user."""


def decision_of(findings: Sequence[Finding], fix_rules: frozenset[str]) -> Decision:
    """``blocked`` if the agent waits on the user, else ``need_fix`` if any finding
    needs a fix, else ``need_evidence`` if any, else pass."""
    if any(f.rule in BLOCK_RULES for f in findings):
        return "blocked"
    if any(f.rule in fix_rules for f in findings):
        return "need_fix"
    if findings:
        return "need_evidence"
    return "pass"


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


_TOLD_BY = {"runner": "the runner's own report", "donecheck": "a gate DoneCheck ran"}


def run_summary(op: Operation, ev: Facts) -> str:
    """How a run ended, from the report that told it, else from its tool output."""
    report = ev.reports.get(op.report_seq) if op.report_seq is not None else None
    if report is not None:
        return report_summary(report)
    result = ev.results.get(op.result_seq) if op.result_seq is not None else None
    return output_summary(result.output) if result is not None else ""


def _describe_run(op: Operation, ev: Facts) -> str:
    what = f"`{op.command}`" if op.command else op.tool
    code = (
        f"exit {op.exit_code}"
        if op.exit_code is not None
        else ("passed" if op.ok else "failed" if op.ok is False else "status unknown")
    )
    summary = run_summary(op, ev)
    tail = f": {summary}" if summary else ""
    told = f" ({_TOLD_BY[op.origin]})" if op.origin in _TOLD_BY else ""
    return f"{what} → {code}{tail}{told}"


def _describe_edit(edit: Edit) -> str:
    return f"{edit.tool} wrote {edit.path}" if edit.path else f"{edit.tool} changed files"


def _quote(claims: Sequence[CheckClaim]) -> str:
    return " ".join(f"“{c.sentence}”" for c in claims)


_PROBES = frozenset(
    """ls dir cat head tail less more grep egrep fgrep rg ag ack find fd which where whereis
    type command test [ [[ stat file wc diff cmp echo printf pwd cd tree du df env printenv
    uname whoami id date ps pgrep lsof readlink realpath basename dirname true false sleep
    kill pkill killall rm rmdir mkdir sort uniq cut tr jq awk sed xxd od hexdump nl tac
    sha256sum md5sum locate man help history""".split()
)
_GIT_PROBES = frozenset(
    """status log diff show branch rev-parse remote ls-files blame grep describe config stash
    tag fetch shortlog reflog""".split()
)
_VERSION_FLAGS = {"--version", "-V", "-v", "version", "--help", "-h", "help"}
_INLINE_CODE = {"-c", "-e", "--eval", "-p", "--print"}
_BENIGN_OUTPUT = re.compile(r"(?i)nothing to commit|already up[- ]to[- ]date|no changes added")


def _is_probe(argv: Sequence[str]) -> bool:
    """A command that only looks (or whose failure only says "not there")."""
    head = argv[0].rsplit("/", 1)[-1].lower() if argv else ""
    rest = list(argv[1:])
    if not head or head in _PROBES:
        return True
    if head == "git" and rest and rest[0] in _GIT_PROBES:
        return True
    if head in {"pip", "pip3", "npm", "pnpm", "yarn", "cargo", "go", "uv", "poetry"} and rest:
        if rest[0] in {"show", "list", "ls", "freeze", "view", "info", "outdated", "search", "env"}:
            return True
    if any(arg in _VERSION_FLAGS for arg in rest[:2]):
        return True
    return bool(rest) and rest[0] in _INLINE_CODE  # python -c "import x", node -e …


def _signature(command: str) -> tuple[str, ...] | None:
    """(program, first argument) of the command's first working segment."""
    for argv in simple_commands(command):
        if argv and not _is_probe(argv):
            head = argv[0].rsplit("/", 1)[-1].lower()
            first = next((a for a in argv[1:] if not a.startswith("-")), "")
            return (head, first)
    return None


class _Findings:
    """Findings in the order rules add them, with a description of each cited id."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.cited: dict[str, str] = {}
        self.notes: list[str] = []

    def add(self, finding: Finding, cited: dict[str, str] | None = None) -> None:
        self.findings.append(finding)
        self.cited.update(cited or {})


def _weakening_of(ev: Facts, failed: Operation) -> Weakened | None:
    """The weakened pass that came after ``failed`` (same check, or one covering it)."""
    for found in ev.weakened.values():
        later = found.passed
        if found.failed is None or later.call_seq < failed.call_seq:
            continue
        if stands_for(later, failed):
            return found
    return None


def _weakened_check(
    ev: Facts, failed: Operation, found: Weakened, claimed: Sequence[CheckClaim], out: _Findings
) -> None:
    """The failing check "passed" only after the tests were weakened: a defect."""
    passed = found.passed
    edits = tuple(f"E{c.seq}" for c in found.changes)
    problem = (
        f"Its run {failed.evidence_id} failed; it “passed” at {passed.evidence_id} only after"
        f" the tests were weakened, not fixed: {found.why}."
    )
    if claimed:
        problem += f" Yet the answer says {_quote(claimed)}"
    where = f"before {edits[0]}" if edits else f"at {failed.evidence_id}"
    out.add(
        Finding(
            requirement=f"`{failed.command}` passes with the tests as they were",
            problem=problem,
            evidence=(failed.evidence_id, *edits, passed.evidence_id),
            recheck=(
                f"The tests must pass as they were {where}: undo that change (do not weaken"
                f" them further) and fix the code under test; then re-run `{failed.command}`"
                " and show it passing."
            ),
            rule="weakened_check",
        ),
        {
            failed.evidence_id: _describe_run(failed, ev),
            passed.evidence_id: f"`{passed.command}`: passed after the tests were weakened",
            **{f"E{c.seq}": f"changed {c.path}: {'; '.join(c.reasons)}" for c in found.changes},
        },
    )


def _weakened_runs(ev: Facts, out: _Findings) -> None:
    """A passing test run with no failure before it, after the agent weakened the
    tests (or wrote a file that shadows the runner): it shows nothing."""
    for found in ev.weakened.values():
        if found.failed is not None:
            continue
        passed = found.passed
        if any(
            op.call_seq > passed.call_seq and op.ok is True and op.key == passed.key
            for op in ev.ops
        ):
            continue  # a real run of the same check passed since: that one counts
        edits = tuple(f"E{c.seq}" for c in found.changes)
        shadow = any(c.role == "shadow" for c in found.changes)
        out.add(
            Finding(
                requirement=f"`{passed.command}` "
                + ("runs the real test runner" if shadow else "passes with the tests as they were"),
                problem=f"Its run {passed.evidence_id} proves nothing: the tests were weakened,"
                f" not fixed: {found.why}."
                if not shadow
                else f"Its run {passed.evidence_id} proves nothing: {found.why}.",
                evidence=(*edits, passed.evidence_id),
                recheck=(
                    "Remove the file that shadows the runner and run the tests with the "
                    "real one; show its output."
                    if shadow
                    else f"The tests must pass as they were before {edits[0]}: undo that"
                    " change (do not weaken them further) and fix the code under test; then"
                    f" re-run `{passed.command}` and show it passing."
                ),
                rule="weakened_check",
            ),
            {f"E{c.seq}": f"changed {c.path}: {'; '.join(c.reasons)}" for c in found.changes},
        )


def _failed_checks(ev: Facts, claims: Sequence[CheckClaim], out: _Findings) -> set[str]:
    failed_categories: set[str] = set()
    _weakened_runs(ev, out)
    for op in unresolved_failures(ev.ops):
        assert op.check is not None
        categories = category_of_check(op.check)
        failed_categories |= categories
        claimed = [c for c in claims if "any" in c.categories or c.categories & categories]
        weakening = _weakening_of(ev, op)
        if weakening is not None:
            _weakened_check(ev, op, weakening, claimed, out)
            continue
        eid = op.evidence_id
        code = f" with exit code {op.exit_code}" if op.exit_code is not None else ""
        summary = run_summary(op, ev)
        summary = f": {summary}" if summary else ""
        if op.origin == "donecheck":
            problem = f"The gate DoneCheck ran ({eid}) failed{code}{summary}."
        elif op.origin == "runner":
            problem = f"Its latest run ({eid}, the runner's own report) failed{code}{summary}."
            if op.output_said is True and op.result_seq is not None:
                problem += f" The tool's output (E{op.result_seq}) said it passed."
        else:
            problem = f"Its latest run ({eid}) failed{code}{summary}."
        if op.caveat and op.origin == "agent":
            problem += f" (The exit status was masked: {op.caveat}.)"
        problem += _proves_nothing(ev, op)
        if claimed:
            problem += f" Yet the answer says {_quote(claimed)}"
        out.add(
            Finding(
                requirement=f"`{op.command}` passes",
                problem=problem,
                evidence=(eid,),
                recheck=f"Fix the cause, re-run `{op.command}` and show it passing.",
                rule="failed_check",
            ),
            {eid: _describe_run(op, ev)},
        )
    return failed_categories


def _shows(op: Operation) -> str:
    """How much a run without a status shows: part of the suite, or nothing."""
    return "shows only part" if op.status_source == "partial" else "proves nothing"


def _proves_nothing(ev: Facts, failed: Operation) -> str:
    """A sentence on later runs of the same check that were masked or hollow."""
    later = [
        op
        for op in ev.ops
        if op.call_seq > failed.call_seq
        and op.check == failed.check
        and op.ok is None
        and op.caveat
    ]
    if not later:
        return ""
    op = later[-1]
    return f" A later run ({op.evidence_id}, `{op.command}`) {_shows(op)}: {op.caveat}."


def _unproven_claims(
    ev: Facts, claims: Sequence[CheckClaim], failed: set[str], out: _Findings
) -> None:
    shown = set(ev.passing_after_last_edit())
    last_edit = ev.last_edit
    for claim in claims:
        if "any" in claim.categories and failed:
            continue
        if claim.categories & failed:
            continue  # the failed_check finding already quotes this claim
        wanted = set(claim.categories) - {"any"}
        missing = wanted - shown if wanted else ({"any"} if not shown else set())
        if not missing:
            continue
        evidence: tuple[str, ...] = ()
        cited: dict[str, str] = {}
        noun = " and ".join(_CATEGORY_NOUN[c] for c in sorted(missing))
        if last_edit is not None:
            eid = f"E{last_edit.seq}"
            cited[eid] = _describe_edit(last_edit)
            evidence = (eid,)
            problem = f"No run of {noun} passed after the last edit ({eid}: {cited[eid]})."
        else:
            problem = f"The ledger shows no passing run of {noun}."
        hollow = [
            op
            for op in ev.ops
            if op.check is not None
            and op.ok is None
            and op.caveat
            and ("any" in missing or missing & category_of_check(op.check))
        ]
        if hollow:
            op = hollow[-1]
            problem += f" Its run {op.evidence_id} (`{op.command}`) {_shows(op)}: {op.caveat}."
        earlier = [
            op
            for op in ev.ops
            if op.check is not None
            and op.command is not None
            and ("any" in missing or missing & category_of_check(op.check))
        ]
        what = f"`{earlier[-1].command}`" if earlier else noun
        out.add(
            Finding(
                requirement=f"The claim “{claim.sentence}” is backed by a run",
                problem=problem,
                evidence=evidence,
                recheck=f"Run {what} now and show the result.",
                rule="unproven_claim",
            ),
            cited,
        )


def _unresolved_errors(ev: Facts, out: _Findings) -> None:
    written: dict[int, list[str | None]] = {}
    for edit in ev.edits:
        written.setdefault(edit.seq, []).append(edit.path)
    latest: dict[str, Operation] = {}
    for i, op in enumerate(ev.ops):
        if op.ok is not False or op.check is not None or op.result_seq is None:
            continue
        result = ev.results.get(op.result_seq)
        if result is not None and _BENIGN_OUTPUT.search(result.output[-2_000:]):
            continue
        paths = [p for p in written.get(op.call_seq, []) if p]
        signature = None
        if op.command is not None:
            argvs = [a for a in simple_commands(op.command) if a]
            if not argvs or all(_is_probe(a) for a in argvs):
                continue
            signature = _signature(op.command)
        elif not paths:
            continue  # a tool DoneCheck does not know: its failure may be harmless
        resolved = False
        for later in ev.ops[i + 1 :]:
            if later.ok is False:
                continue
            if later.ok is None and not (paths and later.command is None):
                continue  # unknown status: only a file tool's quiet rewrite of the path
            if later.key == op.key:
                resolved = True
            elif signature is not None and later.command is not None:
                resolved = _signature(later.command) == signature
            elif paths:
                resolved = any(
                    path_matches(p, q) for p in paths for q in written.get(later.call_seq, []) if q
                )
            if resolved:
                break
        if not resolved:
            latest[op.key] = op
    for op in sorted(latest.values(), key=lambda o: o.call_seq):
        eid = op.evidence_id
        targets = ", ".join(e.path for e in ev.edits if e.seq == op.call_seq and e.path)
        what = f"`{op.command}`" if op.command else f"{op.tool} of {targets}"
        result = ev.results.get(op.result_seq) if op.result_seq is not None else None
        summary = f": {output_summary(result.output)}" if result is not None else ""
        out.add(
            Finding(
                requirement=f"{what} succeeds",
                problem=f"Its latest attempt ({eid}) failed{summary}, and nothing later redid it"
                " successfully.",
                evidence=(eid,),
                recheck=f"Resolve the error and run {what} again, showing it succeed.",
                rule="unresolved_error",
            ),
            {eid: _describe_run(op, ev)},
        )


def _unwritten_files(ev: Facts, out: _Findings) -> None:
    unnamed = [e for e in ev.writes if e.path is None]
    named = [e for e in ev.writes if e.path is not None]
    snapshots: list[str] | None = None  # read only for a claim the writes do not back
    for claim in file_claims(ev.request.answer):
        missing = [
            path for path in claim.paths if not any(path_matches(path, e.path or "") for e in named)
        ]
        if not missing:
            continue
        if unnamed:
            ids = ", ".join(f"E{e.seq}" for e in unnamed[-3:])
            out.notes.append(
                f"Not flagged: the answer says it changed {', '.join(missing)}; commands"
                f" ({ids}) wrote files they do not name, which may include them."
            )
            continue
        if snapshots is None:
            snapshots = [
                e.event.path for e in ev.request.entries if isinstance(e.event, FileSnapshot)
            ]
        seen = [p for p in missing if any(path_matches(p, s) for s in snapshots)]
        problem = "The ledger shows no write to " + ", ".join(f"`{p}`" for p in missing) + "."
        if seen:
            problem += " (Snapshots show the file exists, not that this session changed it.)"
        out.add(
            Finding(
                requirement=f"The claim “{claim.sentence}” is backed by the ledger",
                problem=problem,
                evidence=("ANSWER",),
                recheck="Make the change with a file tool (or show the diff, e.g. `git diff -- "
                + " ".join(missing)
                + "`) so the ledger records it.",
                rule="unwritten_file",
            ),
            {"ANSWER": "the answer under review"},
        )


def _unread_attachments(ev: Facts, out: _Findings) -> None:
    request = ev.request
    for ref in depends_on(request.entries, request.request_id, request.request):
        material = ev.materials.get(ref.sha256)
        read = ev.reads.get(ref.sha256)
        status = read.status if read is not None else "not_read"
        if material is None:
            parse = "no parse result was recorded"
        elif material.status in {"parsed", "partial"}:
            parse = f"DoneCheck {material.status} it"
        else:
            parse = f"DoneCheck could not read it ({material.status}: {material.reason})"
        if status in {"read", "partial"}:
            if material is not None and material.status in {"failed", "unparsed"}:
                out.notes.append(
                    f"{ref.name}: the agent read it, but {parse}; its content was not verified."
                )
            continue
        cited: dict[str, str] = {}
        if status == "metadata_only" and read is not None:
            problem = (
                f"The agent only looked at its metadata ({'; '.join(read.how)}), never its"
                f" content; {parse}."
            )
            evidence = read.evidence
            cited = {eid: f"{ref.name}: {'; '.join(read.how)}" for eid in evidence}
        else:
            problem = f"Nothing in the ledger shows the agent read it; {parse}."
            evidence = ()
        recheck = (
            f"Open {ref.name} with a tool that shows its content and use what it says."
            if material is None or material.status in {"parsed", "partial"}
            else f"Read {ref.name} with a tool that can open it and show the part you relied on."
        )
        out.add(
            Finding(
                requirement=f"The attachment {ref.name} is read",
                problem=problem,
                evidence=evidence,
                recheck=recheck,
                rule="unread_attachment",
            ),
            cited,
        )


def approval_sources(request: ReviewRequest) -> list[Source]:
    """Texts that can record an approval, in ledger order, each with the id that
    cites it: the request, user inputs, tool outputs (titled by their command) and
    each block of an attached material (titled by its name); never the answer."""
    texts = [Source("REQUEST", request.request)]
    calls: dict[str, ToolCall] = {}
    for entry in request.entries:
        event = entry.event
        if isinstance(event, UserInput):
            texts.append(Source(f"E{entry.seq}", event.text))
        elif isinstance(event, SessionOpened):
            texts.append(Source(f"E{entry.seq}", event.request))
        elif isinstance(event, ToolCall):
            calls[event.call_id] = event
        elif isinstance(event, ToolResult):
            call = calls.get(event.call_id)
            title = (command_of(call) or str(call.arguments)) if call is not None else ""
            texts.append(Source(f"E{entry.seq}", event.output, title[:200]))
        elif isinstance(event, MaterialRecorded):
            material = event.material
            name = material.declared_name
            if material.origin == "tool":
                name += f" (returned by tool call {material.call_id})"
            texts.extend(Source(b.source_id, b.text, name) for b in material.blocks)
    return texts


def _approval_claims(ev: Facts, out: _Findings) -> None:
    claims = list(claim_contexts(ev.request.answer))
    if not claims:
        return
    records = ApprovalRecords(approval_sources(ev.request))
    for claim, context in claims:
        checked = records.check(claim, context)
        if checked.status == "backed":
            continue
        if checked.status == "contradicted":
            out.add(
                Finding(
                    requirement="Approvals are stated only when a source records them",
                    problem=f"The answer states “{claim.sentence}” as fact, but"
                    f" {checked.cite} says “{checked.quote}”.",
                    evidence=(checked.cite,),
                    recheck="Correct the statement to match the source, or show a later"
                    " record of the approval.",
                    rule="approval_claim",
                ),
                {checked.cite: "the source that says the approval is not given"},
            )
            continue
        subject = f" of {claim.subject}" if claim.subject else ""
        out.add(
            Finding(
                requirement="Approvals are stated only when a source records them",
                problem=f"The answer states “{claim.sentence}” as fact, but no source (the"
                f" request, a tool output, an attachment) records that approval{subject}.",
                evidence=("ANSWER",),
                recheck="Remove or correct the statement, or show the record of the approval.",
                rule="approval_claim",
            ),
            {"ANSWER": "the answer under review"},
        )


_ATTACHED = re.compile(r"(?i)\battach(?:ed|ment)s?\b|\benclosed\b|附件|附带|截图")


def _named_attachments(text: str, ev: Facts) -> list[AttachmentRef | ImageRef]:
    """Attachments of the request an item names, or all of them when it says "attached"."""
    request = ev.request
    refs = depends_on(request.entries, request.request_id, request.request)
    lowered = text.lower()
    named = [r for r in refs if r.name.lower() in lowered]
    return named or (refs if _ATTACHED.search(text) else [])


@dataclass
class _Shown:
    """What the ledger shows of the things one acceptance item names."""

    evidence: list[str] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    parts: int = 0
    shown: int = 0
    failing: bool = False
    files: list[str] = field(default_factory=list)
    """Named files with no write (or, for an item that does not ask for a change, read)."""
    targets: list[str] = field(default_factory=list)
    """Named files the item has a check run on ("the tests in test_calc.py pass") that
    no passing run could be matched to: not verified, never a file to change."""
    checks: list[str] = field(default_factory=list)
    """Named kinds of check with no passing run after the last edit."""
    attachments: list[str] = field(default_factory=list)
    """Named attachments the agent never read."""

    def add(self, evidence: str, why: str) -> None:
        self.shown += 1
        self.evidence.append(evidence)
        self.why.append(why)


class _Ledger:
    """The ledger facts coverage is matched against, computed once per review."""

    def __init__(self, ev: Facts) -> None:
        self.passing = ev.passing_after_last_edit()
        self.failing: dict[str, list[Operation]] = {}
        for op in unresolved_failures(ev.ops):
            for category in category_of_check(op.check or ""):
                self.failing.setdefault(category, []).append(op)
        self.ran = [op for ops in self.passing.values() for op in ops if op.command is not None]
        """Passing check runs after the last edit: they show the files they check."""
        self._ev = ev
        self._looked: list[tuple[str, Operation]] | None = None

    @property
    def looked(self) -> list[tuple[str, Operation]]:
        """Files the agent's tools showed, with the operation (computed when needed)."""
        if self._looked is None:
            entries = self._ev.request.entries
            calls = {e.seq: e.event for e in entries if isinstance(e.event, ToolCall)}
            self._looked = []
            for op in self._ev.ops:
                call = calls.get(op.call_seq)
                if call is None or op.result_seq is None or op.ok is False:
                    continue
                if op.ok is None:  # no status: the tool showed content, not an error
                    result = self._ev.results.get(op.result_seq)
                    if result is None or not result.output.strip() or tool_error(result.output):
                        continue
                self._looked += [(path, op) for path in shown_paths(call, op.command)]
        return self._looked

    def show(self, text: str, ev: Facts) -> _Shown:
        found = _Shown()
        attachments = _named_attachments(text, ev)
        for ref in attachments:
            found.parts += 1
            read = ev.reads.get(ref.sha256)
            if read is not None and read.status in {"read", "partial"} and read.evidence:
                found.add(read.evidence[-1], f"a read of {ref.name}")
            else:
                found.attachments.append(ref.name)
        names = {ref.name.lower() for ref in attachments}
        for path in mentioned_paths(text):
            if path.lower() in names:
                continue  # an attachment: covered by its read
            verifier = names_as_verifier(text, path)  # what a check runs: not a file to change
            change = asks_to_change(text, path) and not verifier
            found.parts += 1
            if verifier:
                checked = [op for op in self.ran if _runs_on(op, path, ev)]
                if checked:
                    found.add(checked[-1].evidence_id, f"a passing run on {path}")
                else:
                    found.targets.append(path)
                continue
            hits = [e for e in ev.writes if e.path and path_matches(path, e.path)]
            if hits:
                found.add(f"E{hits[-1].seq}", f"a write to {path}")
                continue
            looked = [] if change else [op for p, op in self.looked if path_matches(path, p)]
            if looked:
                found.add(looked[-1].evidence_id, f"a read of {path}")
                continue
            checked = [op for op in self.ran if _runs_on(op, path, ev)] if not change else []
            if checked:
                found.add(checked[-1].evidence_id, f"a passing run on {path}")
            else:
                found.files.append(path)
        for category in sorted(mentioned_categories(text)):
            found.parts += 1
            noun = _CATEGORY_NOUN[category]
            if self.failing.get(category):
                found.failing = True
                found.evidence.append(self.failing[category][-1].evidence_id)
                found.why.append(f"{noun} failing")
            elif self.passing.get(category):
                found.add(self.passing[category][-1].evidence_id, f"a passing run of {noun}")
            else:
                found.checks.append(noun)
        return found


_TEST_FILE = re.compile(
    r"""(?x)(?:^|/)(?:
        test_[^/]*\.py | [^/]*_test\.py        # pytest's default discovery
      | [^/]*\.(?:test|spec)\.[cm]?[jt]sx?     # jest, vitest
      | [^/]*_test\.go                        # go test
    )$"""
)
_PATH_ARG = re.compile(r"[/\\]|::|\.(?:py|[cm]?[jt]sx?|go|rs)$")


def _runs_on(op: Operation, path: str, ev: Facts | None = None) -> bool:
    """Does a passing check run cover ``path``? Its command names it (``pytest
    tests/test_a.py``, ``unittest test_a``, ``mypy src/a.py``), its output does
    (``test_a.py ...`` of a verbose run), or it is a test run of the whole suite (no
    path among its arguments) and ``path`` is a test file by the runners' naming
    convention, which that run collects."""
    command = op.command or ""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    words = re.split(r"[\s/:.]+", command)
    if name in command or (len(stem) > 2 and stem in words):
        return True
    if "test" not in category_of_check(op.check or "") or not _TEST_FILE.search(path):
        return False
    result = ev.results.get(op.result_seq) if ev is not None and op.result_seq else None
    if result is not None and re.search(rf"(?:^|[\s/]){re.escape(name)}\b", result.output):
        return True
    arguments = command.split()[1:]
    return not any(_PATH_ARG.search(a) for a in arguments if not a.startswith("-"))


def rules_coverage(
    acceptance: Acceptance, ev: Facts, ledger: _Ledger | None = None
) -> tuple[Coverage, ...]:
    """Each acceptance item with the evidence rules can match to it, else not verified.

    An item is covered when everything it names is shown: a file by a write to it
    (or, when the item does not ask for a change, a read of it), an attachment by
    a read of it, a kind of check (tests, lint, build, types) by a passing run
    after the last edit — and ``missing`` when a check it names failed and was
    never resolved. Masked and hollow runs show nothing.
    """
    ledger = ledger or _Ledger(ev)
    coverage = []
    for item in acceptance.items:
        found = ledger.show(item.text, ev)
        evidence = tuple(dict.fromkeys(found.evidence))
        if found.failing:
            status: CoverageStatus = "missing"
        elif found.parts and found.shown == found.parts:
            status = "covered"
        else:
            note = "not verified"
            if found.why:
                note += f": {', '.join(found.why)} shown, not all it names"
            coverage.append(
                Coverage(item=item.id, requirement=item.text, evidence=evidence, note=note)
            )
            continue
        coverage.append(
            Coverage(
                item=item.id,
                requirement=item.text,
                status=status,
                evidence=evidence,
                note="rules matched " + ", ".join(found.why),
            )
        )
    return tuple(coverage)


def _uncovered_items(
    ev: Facts, coverage: Sequence[Coverage], ledger: _Ledger, out: _Findings
) -> None:
    """Evidence first: every item the ledger could show done must be shown done.

    A checkable item (it names a check, a file or an attachment) not shown done
    asks for what is missing; when the answer claims the work is complete, the
    finding quotes the claim. An attachment never read is left to
    ``unread_attachment``, which says so already.
    """
    claims = completion_claims(ev.request.answer)
    for item in coverage:
        if item.status != "not_verified":
            continue
        found = ledger.show(item.requirement, ev)
        missing = []
        if found.checks:
            missing.append(f"no passing run of {' or '.join(found.checks)} after the last edit")
        if found.files:
            missing.append("no write to (or read of) " + ", ".join(f"`{f}`" for f in found.files))
        if not missing:
            continue  # nothing named, or only attachments left unread
        problem = "Nothing in the ledger shows it done: " + "; ".join(missing) + "."
        if claims:
            problem += f" Yet the answer says “{claims[0]}”"
        recheck = (
            "Run the check it names and show it passing."
            if found.checks
            else "Make the change with a file tool (or show it) so the ledger records it."
        )
        out.add(
            Finding(
                requirement=f"{item.item}: {item.requirement}",
                problem=problem,
                evidence=("ANSWER",) if claims else (),
                recheck=recheck,
                rule="uncovered_item",
            ),
            {"ANSWER": "the answer under review"} if claims else {},
        )


def _unfinished_run(ev: Facts, out: _Findings) -> None:
    """The run ended without a final answer, or mid-work."""
    why = unfinished(ev.request.answer)
    if not why:
        return
    out.add(
        Finding(
            requirement="The run ends with a final answer",
            problem=f"The run did not finish: {why}.",
            evidence=("ANSWER",),
            recheck="Finish the work, show that it is done, and give the final answer.",
            rule="unfinished",
        ),
        {"ANSWER": "the answer under review"},
    )


def _waits_on_user(ev: Facts, out: _Findings) -> None:
    """The agent asks the user for something it needs to go on."""
    asked = asks_user(ev.request.answer)
    if not asked:
        return
    out.add(
        Finding(
            requirement="The agent can finish without the user",
            problem=f"The answer asks the user for what the agent needs to go on: “{asked}”",
            evidence=("ANSWER",),
            recheck="The user must answer this; DoneCheck cannot.",
            rule="asks_user",
        ),
        {"ANSWER": "the answer under review"},
    )


def acceptance_of(request: ReviewRequest, ev: Facts) -> Acceptance:
    """The request's acceptance items: as given, else extracted by rules."""
    if request.acceptance is not None:
        return request.acceptance
    refs = depends_on(request.entries, request.request_id, request.request)
    waiting = [r.name for r in refs if r.sha256 not in ev.materials]
    wanted = {r.sha256 for r in refs}
    materials = [m for sha, m in ev.materials.items() if sha in wanted]
    return extract_acceptance(request.request_id, request.request, materials, waiting=waiting)


def _scope_notes(ev: Facts) -> list[str]:
    scope = ev.scope
    if not scope.several:
        return []
    label = scope.label(scope.start)
    if scope.earlier:
        return [
            f"Reviewed on the whole session's ledger: {label} depends on earlier work"
            f" ({scope.why})."
        ]
    return [f"Reviewed on {label}'s own ledger (from E{scope.start}) and the session's materials."]


_MAX_RUNS = 20


def reported_runs(ev: Facts) -> tuple[ReportedRun, ...]:
    """The latest run of each check in the task, with who told its outcome, for the
    card (at most the last ``_MAX_RUNS`` checks)."""
    latest: dict[str, Operation] = {}
    for op in ev.ops:
        if op.check is not None and op.result_seq is not None:
            latest.pop(op.key, None)
            latest[op.key] = op
    runs: list[ReportedRun] = []
    for op in list(latest.values())[-_MAX_RUNS:]:
        report = ev.reports.get(op.report_seq) if op.report_seq is not None else None
        outcome = {True: "passed", False: "failed", None: "proved nothing"}[op.ok]
        if report is None:
            runs.append(
                ReportedRun(
                    evidence=op.evidence_id,
                    origin="agent",
                    name=op.check or op.tool,
                    command=op.command or op.tool,
                    outcome=outcome,
                    counts=run_summary(op, ev),
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


def review_by_rules(request: ReviewRequest, ev: Facts | None = None) -> Verdict:
    """Apply the rules to one review request. Pure: same request, same verdict."""
    ev = ev or Facts.of(request)
    claims = check_claims(request.answer)
    ledger = _Ledger(ev)
    coverage = rules_coverage(acceptance_of(request, ev), ev, ledger)
    out = _Findings()
    failed = _failed_checks(ev, claims, out)
    _unresolved_errors(ev, out)
    _approval_claims(ev, out)
    _unproven_claims(ev, claims, failed, out)
    _unwritten_files(ev, out)
    _unread_attachments(ev, out)
    _uncovered_items(ev, coverage, ledger, out)
    _unfinished_run(ev, out)
    _waits_on_user(ev, out)
    decision = decision_of(out.findings, FIX_RULES)
    summary = {
        "pass": "No rule fired: no failed check, unresolved error, unproven claim or unread"
        " attachment in the ledger.",
        "need_fix": "Something the agent ran or stated is wrong: see the findings.",
        "need_evidence": "The ledger does not show the work the request asks for, or that the"
        " answer claims.",
        "blocked": "The agent waits on the user: see the findings.",
    }[decision]
    return Verdict(
        review_id=request.review_id,
        decision=decision,
        findings=tuple(out.findings),
        summary=summary,
        reviewer="rules",
        notes=(RULES_NOTE, *out.notes, *_scope_notes(ev)),
        cited=ev.tagged(out.cited),
        coverage=coverage,
        runs=reported_runs(ev),
    )
