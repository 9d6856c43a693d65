"""A judge model's answer → a verdict DoneCheck can act on, or none at all.

Parsing falls back in levels and never guesses a fix:

1. JSON: the whole answer, else a JSON object inside a code fence or in prose —
   the contract ``{"decision", "findings": [{"requirement", "problem",
   "evidence": [ids], "recheck"}], "summary"}`` or the older
   ``{"completed": bool, "problems": [...]}``;
2. a line format (``DECISION: need_fix`` / ``FINDING: requirement | problem |
   E3, E5 | recheck`` / ``SUMMARY: …``, or ``completed: false`` with bullets);
3. nothing usable → ``None``: the caller reports "could not verify", keeps the
   raw text, and triggers no fix.

:func:`check_findings` then holds the verdict to what the judge was given:
every cited id must exist in it, and a quote in a finding must appear literally
in a block it cites (or in the answer or request). A finding that fails either
check, or cites no ledger or material evidence, is downgraded: it asks for
evidence instead of a fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from donecheck.actors.messages import Coverage, CoverageStatus, Decision, Finding
from donecheck.actors.words.claims import asks_for_harm
from donecheck.actors.words.grants import actions_in
from donecheck.actors.words.lang import PACKS

__all__ = [
    "SAFE_RECHECK",
    "Checked",
    "Given",
    "ParsedVerdict",
    "check_findings",
    "json_objects",
    "parse_verdict",
    "quotes_in",
    "safe_recheck",
]

_MAX_TEXT = 200_000
_MAX_STARTS = 400
_MAX_FINDINGS = 20
_FIELD_CHARS = 1_500
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.S)
_DECISIONS: dict[str, Decision] = {
    "pass": "pass",
    "passed": "pass",
    "need_evidence": "need_evidence",
    "needs_evidence": "need_evidence",
    "need_fix": "need_fix",
    "needs_fix": "need_fix",
    "fix": "need_fix",
    "blocked": "blocked",
}
_ID = re.compile(r"\b(?:E\d{1,7}|AC\d{1,3}|ANSWER|REQUEST|[0-9a-f]{12}#\d{1,6})\b")
_QUOTE = re.compile(r"“([^”]{6,600})”|\"([^\"]{6,600})\"|「([^」]{6,600})」|‘([^’]{6,600})’")
_COVERAGE: dict[str, CoverageStatus] = {
    "covered": "covered",
    "done": "covered",
    "met": "covered",
    "missing": "missing",
    "not_done": "missing",
    "unmet": "missing",
    "not_verified": "not_verified",
    "unknown": "not_verified",
}


@dataclass(frozen=True, slots=True)
class ParsedVerdict:
    decision: Decision
    findings: tuple[Finding, ...]
    summary: str
    form: Literal["json", "embedded_json", "legacy", "lines"]
    coverage: tuple[tuple[str, CoverageStatus, tuple[str, ...]], ...] = ()


def _clip(value: object, limit: int = _FIELD_CHARS) -> str:
    text = value if isinstance(value, str) else "" if value is None else str(value)
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _decision(value: object) -> Decision | None:
    if not isinstance(value, str):
        return None
    key = re.sub(r"[\s-]+", "_", value.strip().lower())
    return _DECISIONS.get(key)


def _ids(value: object) -> tuple[str, ...]:
    """Evidence ids from a list or a string; ``[E3]`` and ``E3,E5`` both work."""
    items: list[object] = value if isinstance(value, list) else [value]
    found: list[str] = []
    for item in items[:50]:
        if isinstance(item, str):
            text = item.strip().strip("[]()")
            if text and " " not in text and "," not in text and len(text) <= 64:
                found.append(text)
            else:
                found.extend(_ID.findall(item))
    return tuple(dict.fromkeys(found))


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """JSON objects in ``text``: the whole of it, then fenced blocks, then any
    ``{`` that starts a valid object, in order. Bounded in size and attempts."""
    text = text[:_MAX_TEXT]
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            whole = json.loads(stripped)
        except (ValueError, RecursionError):
            pass
        else:
            if isinstance(whole, dict):
                yield whole
    for block in _FENCE.findall(text):
        try:
            value = json.loads(block.strip())
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            yield value
    decoder = json.JSONDecoder()
    starts = 0
    index = text.find("{")
    while index != -1 and starts < _MAX_STARTS:
        starts += 1
        try:
            value, end = decoder.raw_decode(text, index)
        except (ValueError, RecursionError):
            index = text.find("{", index + 1)
            continue
        if isinstance(value, dict):
            yield value
        index = text.find("{", end)


def _finding(raw: object) -> Finding | None:
    if isinstance(raw, str):
        if not raw.strip():
            return None  # an empty problem says nothing
        return Finding(requirement="", problem=_clip(raw), evidence=_ids(_ID.findall(raw)))
    if not isinstance(raw, dict):
        return None
    problem = raw.get("problem") or raw.get("issue") or raw.get("description")
    if not isinstance(problem, str) or not problem.strip():
        return None
    return Finding(
        requirement=_clip(raw.get("requirement") or raw.get("item") or ""),
        problem=_clip(problem),
        evidence=_ids(raw.get("evidence") or raw.get("evidence_ids") or ()),
        recheck=_clip(raw.get("recheck") or raw.get("verify") or ""),
    )


def _coverage(raw: object) -> tuple[tuple[str, CoverageStatus, tuple[str, ...]], ...]:
    if not isinstance(raw, list):
        return ()
    found = []
    for entry in raw[:100]:
        if not isinstance(entry, dict) or not isinstance(entry.get("item"), str):
            continue
        status = _COVERAGE.get(str(entry.get("status", "")).strip().lower().replace(" ", "_"))
        if status is None:
            continue
        found.append((entry["item"].strip(), status, _ids(entry.get("evidence") or ())))
    return tuple(found)


def _from_object(
    obj: Mapping[str, Any], form: Literal["json", "embedded_json"]
) -> ParsedVerdict | None:
    decision = _decision(obj.get("decision"))
    if decision is not None:
        raw_findings = obj.get("findings", [])
        if not isinstance(raw_findings, list):
            return None
        findings = [f for f in (_finding(r) for r in raw_findings[:_MAX_FINDINGS]) if f]
        return ParsedVerdict(
            decision=decision,
            findings=tuple(findings),
            summary=_clip(obj.get("summary") or ""),
            form=form,
            coverage=_coverage(obj.get("coverage")),
        )
    completed = obj.get("completed")
    problems = obj.get("problems", [])
    if isinstance(completed, bool) and isinstance(problems, list):
        findings = [f for f in (_finding(p) for p in problems[:_MAX_FINDINGS]) if f]
        legacy: Decision = "pass" if completed and not findings else "need_fix"
        return ParsedVerdict(
            decision=legacy,
            findings=tuple(findings),
            summary=_clip(obj.get("summary") or ""),
            form="legacy",
        )
    return None


def _labels(name: str) -> str:
    """Each language pack's words for one label of the line format, as alternatives."""
    return "|".join(p.verdict_labels[name] for p in PACKS if p.verdict_labels.get(name))


_LINE_DECISION = re.compile(
    rf"(?im)^\s*[*#>\s]*(?:{_labels('decision')})\s*\**\s*[:：]"
    r"\s*\**\s*([A-Za-z_ -]+?)\s*\**\s*$"
)
_LINE_COMPLETED = re.compile(
    rf"(?im)^\s*(?:{_labels('completed')})\s*[:：]\s*({_labels('answers')})\b"
)
_YES = frozenset(_labels("yes").split("|"))
_LINE_FINDING = re.compile(rf"(?im)^\s*(?:{_labels('finding')})\s*\d*\s*[:：]\s*(.+)$")
_LINE_BULLET = re.compile(r"(?m)^\s*(?:[-*•]|\d{1,2}[.)])\s+(.+)$")
_LINE_SUMMARY = re.compile(rf"(?im)^\s*(?:{_labels('summary')})\s*[:：]\s*(.+)$")


def _from_lines(text: str) -> ParsedVerdict | None:
    text = text[:_MAX_TEXT]
    decision: Decision | None = None
    match = _LINE_DECISION.search(text)
    if match:
        decision = _decision(match.group(1))
    if decision is None:
        completed = _LINE_COMPLETED.search(text)
        if completed is None:
            return None
        decision = "pass" if completed.group(1).lower() in _YES else "need_fix"
    lines = _LINE_FINDING.findall(text) or _LINE_BULLET.findall(text)
    findings = []
    for line in lines[:_MAX_FINDINGS]:
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) >= 2:
            ids = _ids(parts[2]) if len(parts) > 2 else _ids(_ID.findall(line))
            findings.append(
                Finding(
                    requirement=_clip(parts[0]),
                    problem=_clip(parts[1]),
                    evidence=ids,
                    recheck=_clip(parts[3]) if len(parts) > 3 else "",
                )
            )
        elif line.strip():
            findings.append(
                Finding(requirement="", problem=_clip(line), evidence=_ids(_ID.findall(line)))
            )
    if decision == "pass" and findings and not match:
        decision = "need_fix"  # "completed: yes" with problems listed is not a pass
    summary = _LINE_SUMMARY.search(text)
    return ParsedVerdict(
        decision=decision,
        findings=tuple(findings),
        summary=_clip(summary.group(1)) if summary else "",
        form="lines",
    )


def parse_verdict(text: str) -> ParsedVerdict | None:
    """The judge's verdict, or ``None`` when nothing in ``text`` is one."""
    if not isinstance(text, str) or not text.strip():
        return None
    whole = text.strip().startswith("{")
    for n, obj in enumerate(json_objects(text)):
        parsed = _from_object(obj, "json" if whole and n == 0 else "embedded_json")
        if parsed is not None:
            return parsed
    return _from_lines(text)


# ------------------------------------------------------------------ checking


def _squash(text: str) -> str:
    return " ".join(text.split())


def quotes_in(text: str) -> list[str]:
    """Quoted passages (6+ characters) in a finding's text."""
    return [next(g for g in m.groups() if g) for m in _QUOTE.finditer(text)]


@dataclass(frozen=True, slots=True)
class Given:
    """What the judge was shown: every citable id with its full text."""

    texts: Mapping[str, str]
    evidence: frozenset[str]
    """Ids that count as evidence for a fix: ledger entries and material blocks."""
    describe: Mapping[str, str] = field(default_factory=dict)

    def contains(self, quote: str, ids: tuple[str, ...]) -> bool:
        wanted = _squash(quote)
        pool = [*ids, "ANSWER", "REQUEST"]
        return any(wanted in _squash(self.texts.get(i, "")) for i in pool)


SAFE_RECHECK = (
    "Show the evidence that settles this, without weakening the tests, their configuration"
    " or the gates."
)
"""What a checklist line asks instead of a judge's recheck that would weaken the checks."""


def safe_recheck(recheck: str, request: str) -> str:
    """``recheck``, unless it tells the agent to weaken what verifies its work (a
    judge's "skip the flaky test", "change the assertion to expect 5") or to delete,
    publish or act outside the workspace ("rm -rf .git", "twine upload", "git push
    --force") and the request itself asks for no such thing: then
    :data:`SAFE_RECHECK`."""
    if not recheck:
        return recheck
    if asks_for_harm(recheck) and not asks_for_harm(request):
        return SAFE_RECHECK
    if actions_in(recheck) - actions_in(request):
        return SAFE_RECHECK
    return recheck


@dataclass(frozen=True, slots=True)
class Checked:
    decision: Decision
    findings: tuple[Finding, ...]
    notes: tuple[str, ...]
    coverage: tuple[Coverage, ...]
    downgraded: int = 0
    rejected: tuple[str, ...] = ()
    """Citations of the judge's that are not so: ids it was not given, quotes its
    citations do not contain. One is enough to stop paying for its reviews (S4)."""


def check_findings(
    parsed: ParsedVerdict, given: Given, items: Mapping[str, str] | None = None
) -> Checked:
    """Hold the verdict to the evidence it was given (see the module docstring).

    ``items`` maps acceptance item ids to their text, for the coverage list.
    """
    notes: list[str] = []
    kept: list[Finding] = []
    rejected: list[str] = []
    fix_grade = 0
    downgraded = 0
    for n, finding in enumerate(parsed.findings, start=1):
        valid = tuple(e for e in finding.evidence if e in given.texts)
        invalid = [e for e in finding.evidence if e not in given.texts]
        bad_quotes = [
            q
            for q in quotes_in(f"{finding.requirement} {finding.problem}")
            if not given.contains(q, valid)
        ]
        problems = []
        if invalid:
            problems.append(f"cited {', '.join(invalid[:5])}, which it was not given")
        if bad_quotes:
            problems.append(
                f"quoted “{_clip(bad_quotes[0], 80)}”, which its citations do not contain"
            )
        rejected.extend(f"judge finding {n} {p}" for p in problems)
        if not any(e in given.evidence for e in valid):
            problems.append("cited no ledger entry or material")
        if problems:
            downgraded += 1
            if parsed.decision == "need_fix":
                notes.append(
                    f"Judge finding {n} {'; '.join(problems)}: it asks for evidence, not a fix."
                )
        else:
            fix_grade += 1
        recheck = safe_recheck(finding.recheck, given.texts.get("REQUEST", ""))
        if recheck != finding.recheck:
            kinds = sorted(actions_in(finding.recheck) - actions_in(given.texts.get("REQUEST", "")))
            asked = f"asked for {' and '.join(kinds)}" if kinds else "asked to weaken the checks"
            notes.append(
                f"Judge finding {n} {asked} (“{_clip(finding.recheck, 80)}”):"
                " the checklist asks for evidence instead; a review grants no such action."
            )
        kept.append(
            Finding(
                requirement=finding.requirement or "A requirement of the request",
                problem=finding.problem,
                evidence=valid,
                recheck=recheck or "Show the evidence that settles this.",
                rule=None,
            )
        )
    decision = parsed.decision
    if decision == "need_fix" and not fix_grade:
        decision = "need_evidence"
    if decision in {"need_fix", "need_evidence"} and not kept:
        notes.append(f"The judge said {parsed.decision} but named no finding.")
    coverage = _checked_coverage(parsed, given, items or {})
    for item, _, ids in parsed.coverage:
        unknown = [e for e in ids if e not in given.texts]
        if unknown:
            rejected.append(f"its coverage of {item} cited {', '.join(unknown[:5])}, not given")
    return Checked(decision, tuple(kept), tuple(notes), coverage, downgraded, tuple(rejected))


def _checked_coverage(
    parsed: ParsedVerdict, given: Given, items: Mapping[str, str]
) -> tuple[Coverage, ...]:
    said = {item: (status, ids) for item, status, ids in parsed.coverage}
    result = []
    for item_id, text in items.items():
        status, ids = said.get(item_id, ("not_verified", ()))
        valid = tuple(e for e in ids if e in given.evidence)
        note = ""
        if status == "covered" and not valid:
            status, note = "not_verified", "the judge cited no valid evidence for it"
        elif status == "not_verified":
            note = "not verified"
        result.append(
            Coverage(item=item_id, requirement=text, status=status, evidence=valid, note=note)
        )
    return tuple(result)
