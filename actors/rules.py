"""The rules-only reviewer: hard gates and evidence checks, no model.

Every finding cites ledger entries (``E<seq>``). The gates:

``failed_check``
    A check (tests, linters, type checkers, builds) whose latest run failed and
    was not re-run successfully → ``need_fix``, citing the failing result. When
    the answer claims checks pass, the finding quotes the claim.
``unproven_claim``
    The answer claims checks ran/passed, but the ledger has no passing run of
    such a check after the last edit → ``need_evidence`` (do not presume the
    implementation is wrong: ask for the run).

When no gate fires the verdict is ``pass`` and the notes say that requirement
coverage was not judged by a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from donecheck.actors.claims import CheckClaim, category_of_check, check_claims
from donecheck.runtime.evidence import edits, operations, unresolved_failures
from donecheck.runtime.messages import (
    Decision,
    Edit,
    Finding,
    LedgerEntry,
    Operation,
    ReviewRequest,
    ToolResult,
    Verdict,
)

__all__ = ["RULES_NOTE", "decision_of", "output_summary", "review_by_rules"]

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


def decision_of(findings: Sequence[Finding], fix_rules: frozenset[str]) -> Decision:
    """``need_fix`` if any finding needs a fix, else ``need_evidence`` if any, else pass."""
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


def _describe_run(op: Operation, results: dict[int, ToolResult]) -> str:
    what = f"`{op.command}`" if op.command else op.tool
    code = (
        f"exit {op.exit_code}"
        if op.exit_code is not None
        else ("passed" if op.ok else "failed" if op.ok is False else "status unknown")
    )
    result = results.get(op.result_seq) if op.result_seq is not None else None
    tail = f": {output_summary(result.output)}" if result is not None else ""
    return f"{what} → {code}{tail}"


def _describe_edit(edit: Edit) -> str:
    return f"{edit.tool} wrote {edit.path}" if edit.path else f"{edit.tool} changed files"


def _quote(claims: Sequence[CheckClaim]) -> str:
    return " ".join(f"“{c.sentence}”" for c in claims)


def review_by_rules(request: ReviewRequest) -> Verdict:
    """Apply the gates to one review request. Pure: same request, same verdict."""
    entries: Sequence[LedgerEntry] = request.entries
    ops = operations(entries)
    results = {e.seq: e.event for e in entries if isinstance(e.event, ToolResult)}
    writes = [e for e in edits(entries) if e.ok is not False]
    last_edit = writes[-1] if writes else None
    claims = check_claims(request.answer)
    findings: list[Finding] = []
    cited: dict[str, str] = {}

    failed_categories: set[str] = set()
    for op in unresolved_failures(ops):
        assert op.check is not None
        categories = category_of_check(op.check)
        failed_categories |= categories
        claimed = [c for c in claims if "any" in c.categories or c.categories & categories]
        eid = op.evidence_id
        cited[eid] = _describe_run(op, results)
        code = f" with exit code {op.exit_code}" if op.exit_code is not None else ""
        result = results.get(op.result_seq) if op.result_seq is not None else None
        summary = f": {output_summary(result.output)}" if result is not None else ""
        problem = f"Its latest run ({eid}) failed{code}{summary}."
        if claimed:
            problem += f" Yet the answer says {_quote(claimed)}"
        findings.append(
            Finding(
                requirement=f"`{op.command}` passes",
                problem=problem,
                evidence=(eid,),
                recheck=f"Fix the cause, re-run `{op.command}` and show it passing.",
                rule="failed_check",
            )
        )

    after = last_edit.seq if last_edit is not None else 0
    shown: set[str] = set()  # categories with a passing run after the last edit
    for op in ops:
        if op.check is not None and op.ok is True and op.call_seq > after:
            shown |= category_of_check(op.check)
    for claim in claims:
        if "any" in claim.categories and failed_categories:
            continue
        if claim.categories & failed_categories:
            continue  # the failed_check finding already quotes this claim
        wanted = set(claim.categories) - {"any"}
        missing = wanted - shown if wanted else ({"any"} if not shown else set())
        if not missing:
            continue
        evidence: tuple[str, ...] = ()
        noun = " and ".join(_CATEGORY_NOUN[c] for c in sorted(missing))
        if last_edit is not None:
            eid = f"E{last_edit.seq}"
            cited[eid] = _describe_edit(last_edit)
            evidence = (eid,)
            problem = f"No run of {noun} passed after the last edit ({eid}: {cited[eid]})."
        else:
            problem = f"The ledger shows no passing run of {noun}."
        earlier = [
            op
            for op in ops
            if op.check is not None
            and op.command is not None
            and ("any" in missing or missing & category_of_check(op.check))
        ]
        what = f"`{earlier[-1].command}`" if earlier else noun
        findings.append(
            Finding(
                requirement=f"The claim “{claim.sentence}” is backed by a run",
                problem=problem,
                evidence=evidence,
                recheck=f"Run {what} now and show the result.",
                rule="unproven_claim",
            )
        )

    decision = decision_of(findings, frozenset({"failed_check"}))
    summary = {
        "pass": "No gate fired: no failed check and no unproven claim in the ledger.",
        "need_fix": "A check the agent ran is failing.",
        "need_evidence": "The answer claims results the ledger does not show.",
        "blocked": "",
    }[decision]
    return Verdict(
        review_id=request.review_id,
        decision=decision,
        findings=tuple(findings),
        summary=summary,
        reviewer="rules",
        notes=(RULES_NOTE,),
        cited=cited,
    )
