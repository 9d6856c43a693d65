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

import fnmatch
import re
from collections.abc import Collection, Iterable, Sequence, Set
from dataclasses import dataclass, field

from donecheck.actors.messages import (
    Acceptance,
    AttachmentRef,
    Coverage,
    CoverageStatus,
    Decision,
    Edit,
    EvidenceView,
    FailedCheck,
    Finding,
    ImageRef,
    Material,
    Operation,
    PassingRun,
    ReadEvidence,
    ReviewRequest,
    Scope,
    Verdict,
    WeakenedRun,
)
from donecheck.actors.review.gates import FIX_RULES
from donecheck.actors.review.preanalysis import extract_acceptance
from donecheck.actors.words.approval import ApprovalRecords, claim_contexts
from donecheck.actors.words.attachments import material_key
from donecheck.actors.words.claims import (
    CheckClaim,
    admits_unfinished,
    asks_to_change,
    asks_user,
    category_of_check,
    check_claims,
    claimed_test_count,
    claimed_test_levels,
    claims_own_tests,
    completion_claims,
    file_claims,
    forbidden_checks,
    mentioned_categories,
    mentioned_paths,
    named_as_input,
    names_as_verifier,
    path_matches,
    stated_paths,
    unfinished,
)
from donecheck.actors.words.lang import PACKS

__all__ = [
    "RULES_NOTE",
    "Found",
    "acceptance_of",
    "decision_of",
    "review",
    "review_by_rules",
    "rules_coverage",
    "tagged",
]

RULES_NOTE = "Rules-only review: requirement coverage was not judged by a model."
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


@dataclass(frozen=True, slots=True)
class Found:
    """What one rule found: its findings, a description of each id they cite, and
    plain notes for the card (what it saw but did not flag)."""

    findings: tuple[Finding, ...] = ()
    cited: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def _found(pairs: Iterable[tuple[Finding, dict[str, str]]], notes: Sequence[str] = ()) -> Found:
    findings: list[Finding] = []
    cited: dict[str, str] = {}
    for finding, ids in pairs:
        findings.append(finding)
        cited.update(ids)
    return Found(tuple(findings), cited, tuple(notes))


_TOLD_BY = {"runner": "the runner's own report", "donecheck": "a gate DoneCheck ran"}
_ANSWER = {"ANSWER": "the answer under review"}


def _describe_run(op: Operation, summary: str) -> str:
    what = f"`{op.command}`" if op.command else op.tool
    code = (
        f"exit {op.exit_code}"
        if op.exit_code is not None
        else ("passed" if op.ok else "failed" if op.ok is False else "status unknown")
    )
    tail = f": {summary}" if summary else ""
    told = f" ({_TOLD_BY[op.origin]})" if op.origin in _TOLD_BY else ""
    return f"{what} → {code}{tail}{told}"


def _describe_edit(edit: Edit) -> str:
    return f"{edit.tool} wrote {edit.path}" if edit.path else f"{edit.tool} changed files"


def _quote(claims: Sequence[CheckClaim]) -> str:
    return " ".join(f"“{c.sentence}”" for c in claims)


def _shows(op: Operation) -> str:
    """How much a run without a status shows: part of the suite, the agent's own test
    file, or nothing."""
    if op.status_source == "own":
        return "shows only the agent's own test"
    return "shows only part" if op.status_source == "partial" else "proves nothing"


def _changed(weak: WeakenedRun) -> dict[str, str]:
    return {f"E{c.seq}": f"changed {c.path}: {'; '.join(c.reasons)}" for c in weak.changes}


# ------------------------------------------------------------------- the rules


def weakened_runs(view: EvidenceView) -> Found:
    """``weakened_check``: a passing test run with no failure before it, after the
    agent weakened the tests (or wrote a file that shadows the runner): it shows
    nothing."""
    out = []
    for weak in view.weakened:
        passed = weak.passed
        edits = tuple(f"E{c.seq}" for c in weak.changes)
        shadow = any(c.role == "shadow" for c in weak.changes)
        if not edits:  # code of the agent's own ran in the runner's place: a note says whose
            out.append(
                (
                    Finding(
                        requirement=f"`{passed.command}` runs the project's own tests",
                        problem=f"Its run {passed.evidence_id} proves nothing: {weak.why}.",
                        evidence=(passed.evidence_id,),
                        recheck="Run the project's tests with its own runner (not through a"
                        " script or plugin you wrote) and show the output.",
                        rule="weakened_check",
                    ),
                    _changed(weak),
                )
            )
            continue
        out.append(
            (
                Finding(
                    requirement=f"`{passed.command}` "
                    + (
                        "runs the real test runner"
                        if shadow
                        else "passes with the tests as they were"
                    ),
                    problem=f"Its run {passed.evidence_id} proves nothing: the tests were"
                    f" weakened, not fixed: {weak.why}."
                    if not shadow
                    else f"Its run {passed.evidence_id} proves nothing: {weak.why}.",
                    evidence=(*edits, passed.evidence_id),
                    recheck=(
                        "Remove the file that shadows the runner and run the tests with the "
                        "real one; show its output."
                        if shadow
                        else f"The tests must pass as they were before {edits[0]}: undo that"
                        " change (do not weaken them further) and fix the code under test;"
                        f" then re-run `{passed.command}` and show it passing."
                    ),
                    rule="weakened_check",
                ),
                _changed(weak),
            )
        )
    return _found(out)


def _weakened_check(
    failed: FailedCheck, weak: WeakenedRun, claimed: Sequence[CheckClaim]
) -> tuple[Finding, dict[str, str]]:
    """The failing check "passed" only after the tests were weakened: a defect."""
    op, passed = failed.run, weak.passed
    edits = tuple(f"E{c.seq}" for c in weak.changes)
    problem = (
        f"Its run {op.evidence_id} failed; it “passed” at {passed.evidence_id} only after"
        f" the tests were weakened, not fixed: {weak.why}."
    )
    if claimed:
        problem += f" Yet the answer says {_quote(claimed)}"
    where = f"before {edits[0]}" if edits else f"at {op.evidence_id}"
    return (
        Finding(
            requirement=f"`{op.command}` passes with the tests as they were",
            problem=problem,
            evidence=(op.evidence_id, *edits, passed.evidence_id),
            recheck=(
                f"The tests must pass as they were {where}: undo that change (do not weaken"
                f" them further) and fix the code under test; then re-run `{op.command}`"
                " and show it passing."
            ),
            rule="weakened_check",
        ),
        {
            op.evidence_id: _describe_run(op, failed.summary),
            passed.evidence_id: f"`{passed.command}`: passed after the tests were weakened",
            **_changed(weak),
        },
    )


def _claimed(claims: Sequence[CheckClaim], check: str | None) -> list[CheckClaim]:
    categories = category_of_check(check or "")
    return [c for c in claims if "any" in c.categories or c.categories & categories]


def _selectors(command: str) -> list[str]:
    """The words of a check's command that name what it runs (``forms_tests.tests.tests``,
    ``tests/test_q.py::test_x``), for an answer that names the check it speaks of."""
    words = [w.strip("'\"") for w in command.split()[1:]]
    return [w for w in words if not w.startswith("-") and re.search(r"[./:]\w", w)]


def failed_checks(view: EvidenceView, claims: Sequence[CheckClaim], answer: str = "") -> Found:
    """``failed_check`` (or ``weakened_check``): a check whose latest run failed and
    was not settled since, quoting the answer's claim that checks pass. Not a failure
    the agent showed was there before its change, when the answer claims no passing
    check or names that one (it tells of the failure)."""
    out = []
    for failed in view.failed:
        op = failed.run
        claimed = _claimed(claims, op.check)
        told = any(word in answer for word in _selectors(op.command or ""))
        if failed.preexisting and (told or not claimed) and failed.weakened is None:
            continue  # shown to fail without the agent's change, and not claimed to pass
        if failed.weakened is not None:
            out.append(_weakened_check(failed, failed.weakened, claimed))
            continue
        eid = op.evidence_id
        code = f" with exit code {op.exit_code}" if op.exit_code is not None else ""
        summary = f": {failed.summary}" if failed.summary else ""
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
        later = failed.nothing_since
        if later is not None:
            problem += (
                f" A later run ({later.evidence_id}, `{later.command}`) {_shows(later)}:"
                f" {later.caveat}."
            )
        if claimed:
            problem += f" Yet the answer says {_quote(claimed)}"
        # a masked line names its check alone: "`pytest -q || true` passes" would read
        # as a fact (that line does exit 0), and the recheck must not hand the mask back
        check = failed.unmasked or op.command or ""
        unmasked = " (on its own, with nothing after it that hides its exit status)"
        out.append(
            (
                Finding(
                    requirement=f"`{check}` must pass",
                    problem=problem,
                    evidence=(eid,),
                    recheck=f"Fix the cause of the failure without weakening the check (no"
                    f" skipped, deleted or loosened tests, no changed test configuration), re-run"
                    f" `{check}`{unmasked if op.caveat else ''} and show it passing.",
                    rule="failed_check",
                ),
                {eid: _describe_run(op, failed.summary)},
            )
        )
    return _found(out)


def failed_categories(view: EvidenceView) -> set[str]:
    """The check categories with a failing run the rules flag."""
    return {c for failed in view.failed for c in category_of_check(failed.run.check or "")}


def _latest(runs: dict[str, Operation], categories: Collection[str]) -> Operation | None:
    """The latest of the runs of ``categories`` (any category for ``any``)."""
    chosen = [op for c, op in runs.items() if "any" in categories or c in categories]
    return max(chosen, key=lambda op: op.call_seq) if chosen else None


def unproven_claims(view: EvidenceView, claims: Sequence[CheckClaim], failed: set[str]) -> Found:
    """``unproven_claim``: the answer says checks ran or pass, and no run of such a
    check passed after the last edit (do not presume the work wrong: ask for the
    run). A claim about a category the failed checks cover is theirs to quote."""
    shown = set(view.passing)
    last_edit = view.last_edit
    out = []
    for claim in claims:
        if "any" in claim.categories and failed:
            continue
        wanted = set(claim.categories) - {"any"}
        if claim.categories & failed:
            # the failed_check finding quotes this claim for what failed; what else it
            # claims ("all tests pass and ruff is clean") still needs its own run
            wanted -= failed
            if not wanted:
                continue
        missing = wanted - shown if wanted else ({"any"} if not shown else set())
        if not missing:
            other = _other_level(claim, view)
            if other is not None:
                out.append(other)
                continue
            miscount = _miscounted(claim, view)
            if miscount is not None:
                out.append(miscount)
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
        hollow = _latest(view.nothing, missing)
        if (
            hollow is not None
            and hollow.status_source == "own"
            and (last_edit is None or hollow.call_seq > last_edit.seq)
            and claims_own_tests(claim.sentence)
        ):
            continue  # "both tests passed": the agent's own tests, and they did, since
        if hollow is not None:
            problem += (
                f" Its run {hollow.evidence_id} (`{hollow.command}`) {_shows(hollow)}:"
                f" {hollow.caveat}."
            )
        earlier = _latest(view.last_runs, missing)
        what = f"`{earlier.command}`" if earlier is not None else noun
        if earlier is not None and earlier.caveat:
            # never hand back the mask or the narrowing that made it show nothing
            what = (
                f"{noun} in full, with the runner's own exit status (its run"
                f" {earlier.evidence_id} {_shows(earlier)}),"
            )
        out.append(
            (
                Finding(
                    requirement=f"The claim “{claim.sentence}” is backed by a run",
                    problem=problem,
                    evidence=evidence,
                    recheck=f"Run {what} now and show the result.",
                    rule="unproven_claim",
                ),
                cited,
            )
        )
    return _found(out)


def _other_level(claim: CheckClaim, view: EvidenceView) -> tuple[Finding, dict[str, str]] | None:
    """A finding when the claim speaks of tests of some level ("the e2e tests pass")
    and every passing test run after the last edit selected tests of other levels
    only (``pytest tests/unit``). A run that selects no level — the suite as the
    project configures it — backs any."""
    said = claimed_test_levels(claim.sentence)
    runs = view.passing.get("test", ())
    if not said or not runs or not ({"test", "any"} & claim.categories):
        return None
    levels = [run.levels for run in runs]
    if any(found is None or found & said for found in levels):
        return None
    latest = runs[-1].op
    ran = " and ".join(sorted({level for found in levels for level in found or ()}))
    wanted = " and ".join(sorted(said))
    return _unbacked(
        claim,
        latest,
        f"The answer speaks of the {wanted} tests; the passing test runs after the last"
        f" edit ran the {ran} tests only (latest {latest.evidence_id}, `{latest.command}`).",
        f"Run the {wanted} tests now and show the result.",
        f"the {ran} tests",
    )


def _unbacked(
    claim: CheckClaim, run: Operation, problem: str, recheck: str, shows: str
) -> tuple[Finding, dict[str, str]]:
    """``unproven_claim`` for a claim a passing run contradicts, citing that run."""
    eid = run.evidence_id
    return (
        Finding(
            requirement=f"The claim “{claim.sentence}” is backed by a run",
            problem=problem,
            evidence=(eid,),
            recheck=recheck,
            rule="unproven_claim",
        ),
        {eid: f"`{run.command}`: {shows}"},
    )


def _miscounted(claim: CheckClaim, view: EvidenceView) -> tuple[Finding, dict[str, str]] | None:
    """A finding when the claim says how many tests passed and the passing test runs
    after the last edit, whose runners all printed a count, say another number —
    neither any one run's nor their sum ("all 10 tests pass" after "3 passed")."""
    said = claimed_test_count(claim.sentence)
    runs = view.passing.get("test", ())
    counts = [run.passed for run in runs]
    if said is None or not counts or any(c is None for c in counts):
        return None
    shown = [c for c in counts if c is not None]
    if said in shown or said == sum(shown):
        return None
    latest = runs[-1].op
    return _unbacked(
        claim,
        latest,
        f"The answer says {said} tests passed; the latest passing run"
        f" ({latest.evidence_id}, `{latest.command}`) shows {shown[-1]} passed.",
        f"Run `{latest.command}` now and report the count it prints.",
        f"{shown[-1]} passed",
    )


def unresolved_errors(view: EvidenceView) -> Found:
    """``unresolved_error``: a command that does work, or a file write, whose latest
    attempt failed and that nothing later redid successfully."""
    out = []
    for error in view.errors:
        op = error.op
        eid = op.evidence_id
        what = f"`{op.command}`" if op.command else f"{op.tool} of {error.targets}"
        summary = f": {error.summary}" if op.result_seq is not None and error.summary else ""
        out.append(
            (
                Finding(
                    requirement=f"{what} succeeds",
                    problem=f"Its latest attempt ({eid}) failed{summary}, and nothing later redid"
                    " it successfully.",
                    evidence=(eid,),
                    recheck=f"Resolve the error and run {what} again, showing it succeed.",
                    rule="unresolved_error",
                ),
                {eid: _describe_run(op, error.summary)},
            )
        )
    return _found(out)


def unwritten_files(view: EvidenceView, answer: str) -> Found:
    """``unwritten_file``: the answer says it created or changed a named file, and
    the ledger shows no write to it."""
    out = []
    notes = []
    unnamed = view.unnamed_writes
    for claim in file_claims(answer):
        missing = [
            path
            for path in claim.paths
            if not any(path_matches(path, e.path or "") for e in view.writes)
        ]
        if not missing:
            continue
        maybe = unnamed or (
            view.script_runs if all(_maybe_written(p, view) for p in missing) else ()
        )
        if maybe:
            ids = ", ".join(f"E{seq}" for seq in maybe[-3:])
            notes.append(
                f"Not flagged: the answer says it changed {', '.join(missing)}; commands"
                f" ({ids}) wrote files they do not name, which may include them."
            )
            continue
        seen = [p for p in missing if any(path_matches(p, s) for s in view.snapshot_paths)]
        problem = "The ledger shows no write to " + ", ".join(f"`{p}`" for p in missing) + "."
        if seen:
            problem += " (Snapshots show the file exists, not that this session changed it.)"
        out.append(
            (
                Finding(
                    requirement=f"The claim “{claim.sentence}” is backed by the ledger",
                    problem=problem,
                    evidence=("ANSWER",),
                    recheck="Show the change (e.g. `git diff -- " + " ".join(missing) + "`) so"
                    " the ledger records it, or correct the answer if it was not made.",
                    rule="unwritten_file",
                ),
                _ANSWER,
            )
        )
    return _found(out, notes)


def _by_key(view: EvidenceView) -> tuple[dict[str, Material], dict[str, ReadEvidence]]:
    return (
        {material_key(m): m for m in view.materials},
        {r.sha256: r for r in view.reads},
    )


def unread_attachments(view: EvidenceView) -> Found:
    """``unread_attachment``: an attachment the request depends on that the agent
    never read (only its metadata, or nothing), with what DoneCheck could read of it."""
    materials, reads = _by_key(view)
    out = []
    notes = []
    for ref in view.attachments:
        material = materials.get(ref.sha256)
        read = reads.get(ref.sha256)
        status = read.status if read is not None else "not_read"
        if material is None:
            parse = "no parse result was recorded"
        elif material.status in {"parsed", "partial"}:
            parse = f"DoneCheck {material.status} it"
        else:
            parse = f"DoneCheck could not read it ({material.status}: {material.reason})"
        if status in {"read", "partial"}:
            if material is not None and material.status in {"failed", "unparsed"}:
                notes.append(
                    f"{ref.name}: the agent read it, but {parse}; its content was not verified."
                )
            continue
        cited: dict[str, str] = {}
        unreadable = material is not None and material.status == "failed"
        if status == "metadata_only" and read is not None and unreadable:
            problem = (
                f"The agent cannot have read its content: {'; '.join(read.how)}. Anything"
                " the answer says it contains rests on nothing."
            )
            evidence = read.evidence
            cited = {eid: f"{ref.name}: {'; '.join(read.how)}" for eid in evidence}
        elif status == "metadata_only" and read is not None:
            problem = (
                f"The agent only looked at its metadata ({'; '.join(read.how)}), never its"
                f" content; {parse}."
            )
            evidence = read.evidence
            cited = {eid: f"{ref.name}: {'; '.join(read.how)}" for eid in evidence}
        else:
            problem = f"Nothing in the ledger shows the agent read it; {parse}."
            evidence = ()
        if unreadable:
            assert material is not None
            recheck = (
                f"{ref.name} cannot be read as it is ({material.reason}): ask the user for"
                " a readable copy (or its password), and do not state what it says until"
                " you have read it."
            )
        elif material is None or material.status in {"parsed", "partial"}:
            recheck = f"Open {ref.name} with a tool that shows its content and use what it says."
        else:
            recheck = (
                f"Read {ref.name} with a tool that can open it and show the part you relied on."
            )
        out.append(
            (
                Finding(
                    requirement=f"The attachment {ref.name} is read",
                    problem=problem,
                    evidence=evidence,
                    recheck=recheck,
                    rule="unread_attachment",
                ),
                cited,
            )
        )
    return _found(out, notes)


def approval_claims(view: EvidenceView, answer: str) -> Found:
    """``approval_claim``: the answer states as fact that something was approved and
    no source records that approval of the same subject, or one says it is not."""
    claims = list(claim_contexts(answer))
    if not claims:
        return Found()
    records = ApprovalRecords(view.approvals)
    out = []
    for claim, context in claims:
        checked = records.check(claim, context)
        if checked.status == "backed":
            continue
        if checked.status == "contradicted":
            out.append(
                (
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
            )
            continue
        subject = f" of {claim.subject}" if claim.subject else ""
        out.append(
            (
                Finding(
                    requirement="Approvals are stated only when a source records them",
                    problem=f"The answer states “{claim.sentence}” as fact, but no source (the"
                    f" request, a tool output, an attachment) records that approval{subject}.",
                    evidence=("ANSWER",),
                    recheck="Remove or correct the statement, or show the record of the approval.",
                    rule="approval_claim",
                ),
                _ANSWER,
            )
        )
    return _found(out)


_ATTACHED = re.compile("|".join(pack.attached for pack in PACKS if pack.attached), re.I)


def _named_attachments(text: str, view: EvidenceView) -> list[AttachmentRef | ImageRef]:
    """Attachments of the request an item names, or all of them when it says "attached"."""
    refs = list(view.attachments)
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
    """Named files with no write, and no command that may have written them (or, for
    an item that does not ask for a change, no read)."""
    touched: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    """Files to read, not change, with no read shown but a script the agent ran."""
    """Named files to change that a command may have written (a script, a glob) with
    no write to them seen: not verified, never steered."""
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


_GLOB = re.compile(r"[*?\[]")


def _maybe_written(path: str, view: EvidenceView) -> bool:
    """A write the ledger saw may include ``path``: a command that writes files it
    does not name (``git apply``), a glob that matches it (``sed -i … *.py``), or a
    script the agent wrote and ran, with ``path`` shown after it (``bash setup.sh``
    then ``cat /home/alice/welcome.txt``)."""
    if view.unnamed_writes:
        return True
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if any(
        e.path and _GLOB.search(e.path) and fnmatch.fnmatch(name, e.path.rsplit("/", 1)[-1])
        for e in view.writes
    ):
        return True
    if not view.script_runs:
        return False
    first = min(view.script_runs)
    return any(path_matches(path, p) and int(eid[1:]) > first for p, eid in view.looked)


_TEST_FILE = re.compile(
    r"""(?x)(?:^|/)(?:
        test_[^/]*\.py | [^/]*_test\.py        # pytest's default discovery
      | [^/]*\.(?:test|spec)\.[cm]?[jt]sx?     # jest, vitest
      | [^/]*_test\.go                        # go test
    )$"""
)
_PATH_ARG = re.compile(r"[/\\]|::|\.(?:py|[cm]?[jt]sx?|go|rs)$")
_WORD_CHAR = re.compile(r"\w")


def _printed(names: frozenset[str], name: str) -> bool:
    """Does a run's output show ``name`` after a space or ``/`` as a whole word (the
    files a verbose run lists): a word of its output that starts with ``name`` and
    goes on, if at all, across a word boundary."""
    if not name:
        return False
    word_end = _WORD_CHAR.match(name[-1]) is not None
    for token in names:
        if not token.startswith(name):
            continue
        rest = token[len(name) :]
        if (not rest and word_end) or (rest and (_WORD_CHAR.match(rest[0]) is None) == word_end):
            return True
    return False


def _runs_on(run: PassingRun, path: str) -> bool:
    """Does a passing check run cover ``path``? Its command names it (``pytest
    tests/test_a.py``, ``unittest test_a``, ``mypy src/a.py``), its output does
    (``test_a.py ...`` of a verbose run), or it is a test run of the whole suite (no
    path among its arguments) and ``path`` is a test file by the runners' naming
    convention, which that run collects."""
    op = run.op
    command = op.command or ""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    words = re.split(r"[\s/:.]+", command)
    if name in command or (len(stem) > 2 and stem in words):
        return True
    if "test" not in category_of_check(op.check or "") or not _TEST_FILE.search(path):
        return False
    if _printed(run.names, name):
        return True
    arguments = command.split()[1:]
    return not any(_PATH_ARG.search(a) for a in arguments if not a.startswith("-"))


class _Coverage:
    """What the view shows of each thing an acceptance item names."""

    def __init__(self, view: EvidenceView, forbidden: Set[str] = frozenset()) -> None:
        self.view = view
        self.forbidden = forbidden
        """Check categories the request forbids running: no item asks for a run of them."""
        self.passing = view.passing
        self.failing: dict[str, list[Operation]] = {}
        for failed in view.failed:
            for category in category_of_check(failed.run.check or ""):
                self.failing.setdefault(category, []).append(failed.run)
        self.ran = [r for runs in self.passing.values() for r in runs if r.op.command is not None]
        """Passing check runs after the last edit: they show the files they check."""
        self.reads = {r.sha256: r for r in view.reads}

    def show(self, text: str) -> _Shown:
        view = self.view
        found = _Shown()
        attachments = _named_attachments(text, view)
        for ref in attachments:
            found.parts += 1
            read = self.reads.get(ref.sha256)
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
                checked = [r for r in self.ran if _runs_on(r, path)]
                if checked:
                    found.add(checked[-1].op.evidence_id, f"a passing run on {path}")
                else:
                    found.targets.append(path)
                continue
            hits = [e for e in view.writes if e.path and path_matches(path, e.path)]
            if hits:
                found.add(f"E{hits[-1].seq}", f"a write to {path}")
                continue
            looked = [] if change else [eid for p, eid in view.looked if path_matches(path, p)]
            if looked:
                found.add(looked[-1], f"a read of {path}")
                continue
            checked = [r for r in self.ran if _runs_on(r, path)] if not change else []
            if checked:
                found.add(checked[-1].op.evidence_id, f"a passing run on {path}")
            elif _maybe_written(path, view):
                found.touched.append(path)  # a command may have written it
            elif not change and (view.script_runs or named_as_input(text, path)):
                # a file to read — never one to write — that a script that ran may have read
                found.inputs.append(path)
            else:
                found.files.append(path)
        for category in sorted(mentioned_categories(text) - self.forbidden):
            found.parts += 1
            noun = _CATEGORY_NOUN[category]
            if self.failing.get(category):
                found.failing = True
                found.evidence.append(self.failing[category][-1].evidence_id)
                found.why.append(f"{noun} failing")
            elif self.passing.get(category):
                found.add(self.passing[category][-1].op.evidence_id, f"a passing run of {noun}")
            else:
                found.checks.append(noun)
        return found


def rules_coverage(acceptance: Acceptance, view: EvidenceView) -> tuple[Coverage, ...]:
    """Each acceptance item with the evidence rules can match to it, else not verified.

    An item is covered when everything it names is shown: a file by a write to it
    (or, when the item does not ask for a change, a read of it), an attachment by
    a read of it, a kind of check (tests, lint, build, types) by a passing run
    after the last edit — and ``missing`` when a check it names failed and was
    never resolved. Masked and hollow runs show nothing.
    """
    shown = _Coverage(view, forbidden_by(acceptance))
    coverage = []
    for item in acceptance.items:
        found = shown.show(item.text)
        evidence = tuple(dict.fromkeys(found.evidence))
        if found.failing:
            status: CoverageStatus = "missing"
        elif found.parts and found.shown == found.parts:
            status = "covered"
        else:
            note = "not verified"
            if found.why:
                note += f": {', '.join(found.why)} shown, not all it names"
            unmatched = [
                *(f"no passing run of {c} after the last edit" for c in found.checks),
                *(f"no write to {f}" for f in found.files),
                *(
                    f"no write to {f} seen, though a command may have written it"
                    for f in found.touched
                ),
                *(
                    f"no read of {f} seen"
                    + (", though a script that ran may have read it" if view.script_runs else "")
                    for f in found.inputs
                ),
                *(f"no passing run matched to {t}" for t in found.targets),
            ]
            if unmatched:
                note += ("; " if found.why else ": ") + "; ".join(unmatched)
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


def claims_work(answer: str, files: Sequence[str] = ()) -> str:
    """The answer's first claim that work was done — finished, checks passing, files
    written, or one of ``files`` named as fact ("README.md now has the install
    command") — or ``""`` when it claims none."""
    done = completion_claims(answer)
    if done:
        return done[0]
    checked = check_claims(answer)
    if checked:
        return checked[0].sentence
    written = file_claims(answer)
    if written:
        return written[0].sentence
    return next((s for s, p in stated_paths(answer) if any(path_matches(p, f) for f in files)), "")


def forbidden_by(acceptance: Acceptance) -> frozenset[str]:
    """The checks the request forbids running ("Do NOT run tests — the evaluation
    system handles verification"), read from its constraints and items."""
    return frozenset(
        forbidden_checks([*acceptance.constraints, *(i.text for i in acceptance.items)])
    )


def uncovered_items(
    view: EvidenceView,
    answer: str,
    coverage: Sequence[Coverage],
    forbidden: Set[str] = frozenset(),
) -> Found:
    """``uncovered_item``: what the request names, with nothing in the ledger behind it.

    For each checkable item — it names a check or a file to change — the ledger must
    show something: a run of the check after the last edit, a write to the file. A
    final answer is taken to say the work is done unless it says otherwise (then
    :func:`reported_only` reports instead of steering); the finding quotes the claim
    when the answer makes one (finished, checks passing, a file written or named as
    fact). What the rules merely cannot match — a file a command may have written
    without naming it, a file named as what a check runs — stays "not verified" on
    the card and steers nothing. An attachment never read is left to
    ``unread_attachment``, which says so already.
    """
    claimed = claims_work(answer)
    shown = _Coverage(view, forbidden)
    out = []
    for item in coverage:
        if item.status != "not_verified":
            continue
        found = shown.show(item.requirement)
        claim = claimed or claims_work(answer, found.files)
        missing = []
        if found.checks:
            missing.append(f"no passing run of {' or '.join(found.checks)} after the last edit")
        if found.files:
            missing.append("no write to " + ", ".join(f"`{f}`" for f in found.files))
        if not missing:
            continue  # named things it could not match: not verified, never steered
        problem = "Nothing in the ledger shows it done: " + "; ".join(missing) + "."
        if claim:
            problem += f" Yet the answer says “{claim}”"
        recheck = (
            "Run the check it names and show it passing."
            if found.checks
            else "Make the change it asks for with a file tool (or show the diff) so the"
            " ledger records it."
        )
        out.append(
            (
                Finding(
                    requirement=f"{item.item}: {item.requirement}",
                    problem=problem,
                    evidence=("ANSWER",) if claim else (),
                    recheck=recheck,
                    rule="uncovered_item",
                ),
                _ANSWER if claim else {},
            )
        )
    return _found(out)


def unfinished_run(answer: str) -> Found:
    """``unfinished``: the run ended without a final answer, or mid-work."""
    why = unfinished(answer)
    if not why:
        return Found()
    return _found(
        [
            (
                Finding(
                    requirement="The run ends with a final answer",
                    problem=f"The run did not finish: {why}.",
                    evidence=("ANSWER",),
                    recheck="Finish the work, show that it is done, and give the final answer.",
                    rule="unfinished",
                ),
                _ANSWER,
            )
        ]
    )


def waits_on_user(answer: str) -> Found:
    """``asks_user``: the agent asks the user for something it needs to go on."""
    asked = asks_user(answer)
    if not asked:
        return Found()
    return _found(
        [
            (
                Finding(
                    requirement="The agent can finish without the user",
                    problem="The answer asks the user for what the agent needs to go on:"
                    f" “{asked}”",
                    evidence=("ANSWER",),
                    recheck="The user must answer this; DoneCheck cannot.",
                    rule="asks_user",
                ),
                _ANSWER,
            )
        ]
    )


# --------------------------------------------------------------- the review


def acceptance_of(request: ReviewRequest, view: EvidenceView) -> Acceptance:
    """The request's acceptance items: as given, else extracted by rules."""
    if request.acceptance is not None:
        return request.acceptance
    materials, _ = _by_key(view)
    refs = view.attachments
    waiting = [r.name for r in refs if r.sha256 not in materials]
    wanted = {r.sha256 for r in refs}
    chosen = [m for key, m in materials.items() if key in wanted]
    return extract_acceptance(request.request_id, request.request, chosen, waiting=waiting)


def _scope_notes(scope: Scope) -> list[str]:
    if not scope.several:
        return []
    label = scope.label(scope.start)
    if scope.earlier:
        return [
            f"Reviewed on the whole session's ledger: {label} depends on earlier work"
            f" ({scope.why})."
        ]
    return [f"Reviewed on {label}'s own ledger (from E{scope.start}) and the session's materials."]


def _inferred_notes(view: EvidenceView) -> list[str]:
    """What the card says of tools no row of the agent dialect table names."""
    if not view.inferred:
        return []
    said = []
    for entry in view.inferred:
        name, kind, eid = entry.rsplit(":", 2)
        said.append(f"`{name}` as {'an' if kind[:1] in 'aeiou' else 'a'} {kind} ({eid})")
    return [
        "Read by the shape of their arguments (no row of the agent dialect table names"
        f" the tool): {', '.join(said)}."
    ]


def tagged(cited: dict[str, str], scope: Scope) -> dict[str, str]:
    """Descriptions of cited ids, each ledger entry labelled with its request
    (``[R1]``) when the session has several."""
    if not scope.several:
        return cited
    return {
        eid: f"[{scope.label(int(eid[1:]))}] {text}"
        if eid[:1] == "E" and eid[1:].isdigit() and not text.startswith("[R")
        else text
        for eid, text in cited.items()
    }


_SUMMARY: dict[Decision, str] = {
    "pass": "No rule fired: no failed check, unresolved error, unproven claim or unread"
    " attachment in the ledger.",
    "need_fix": "Something the agent ran or stated is wrong: see the findings.",
    "need_evidence": "The ledger does not show the work the request asks for, or that the"
    " answer claims.",
    "blocked": "The agent waits on the user: see the findings.",
}


def review(
    view: EvidenceView, answer: str, acceptance: Acceptance, *, review_id: str = ""
) -> Verdict:
    """The rules' verdict on ``answer`` given the evidence ``view`` and the task's
    ``acceptance`` items. Pure: the same inputs, the same verdict.

    The rules run in this order, and this is the only place one's result feeds
    another: the failed checks' categories settle which claims ``unproven_claims``
    leaves to them, and the coverage of the items is what ``uncovered_items`` reads.
    """
    claims = check_claims(answer)
    coverage = rules_coverage(acceptance, view)
    found = [
        weakened_runs(view),
        failed_checks(view, claims, answer),
        unresolved_errors(view),
        approval_claims(view, answer),
        unproven_claims(view, claims, failed_categories(view)),
        unwritten_files(view, answer),
        unread_attachments(view),
        uncovered_items(view, answer, coverage, forbidden_by(acceptance)),
        unfinished_run(answer),
        waits_on_user(answer),
    ]
    findings = tuple(f for rule in found for f in rule.findings)
    cited: dict[str, str] = {}
    for rule in found:
        cited.update(rule.cited)
    decision = decision_of(findings, FIX_RULES)
    summary = _SUMMARY[decision]
    if decision in {"need_fix", "need_evidence"} and reported_only(findings, answer):
        decision, summary = "blocked", _REPORTED
    return Verdict(
        review_id=review_id,
        decision=decision,
        findings=findings,
        summary=summary,
        reviewer="rules",
        notes=(
            RULES_NOTE,
            *(n for rule in found for n in rule.notes),
            *_scope_notes(view.scope),
            *_inferred_notes(view),
            *((view.workspace,) if view.workspace else ()),
        ),
        cited=tagged(cited, view.scope),
        coverage=coverage,
        runs=view.runs,
    )


REPORTED_RULES = frozenset(
    {"failed_check", "unresolved_error", "unread_attachment", "uncovered_item"}
)
"""What the ledger shows unfinished: steered only behind a claim of finished work."""

_REPORTED = (
    "The answer says the work is unfinished, claiming nothing done, and the ledger agrees"
    " (see the findings): reported to the user, not steered."
)


def reported_only(findings: Sequence[Finding], answer: str) -> bool:
    """Whether the rules' findings are only what the ledger shows unfinished — a failed
    check, an unresolved error, an unread attachment, an item with nothing behind
    it — and the answer says so itself,
    claiming nothing finished ("The tests still fail: add() needs the new API, which I
    cannot reach"). Such an agent stopped honestly: DoneCheck reports (``blocked``),
    it does not steer. A weakened check, an answer with no final text, a claim that
    the work is done or a check passes, or an answer that admits nothing (a missed
    claim must not end the loop) is still steered."""
    return (
        bool(findings)
        and all(f.rule in REPORTED_RULES for f in findings)
        and bool(admits_unfinished(answer))
        and not completion_claims(answer)
        and not check_claims(answer)
    )


def review_by_rules(request: ReviewRequest, view: EvidenceView | None = None) -> Verdict:
    """:func:`review` of a review request, its evidence ``view`` (or the one it carries)."""
    view = view or request.view
    if view is None:
        raise ValueError(f"review {request.review_id}: no evidence view to review against")
    return review(view, request.answer, acceptance_of(request, view), review_id=request.review_id)
