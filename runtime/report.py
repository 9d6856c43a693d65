"""Report cards for people (text, a self-contained HTML page) and programs (JSON).

A card says what was verified and why the loop stopped: the verdict chain
(``A1 need_fix → A2 pass``), rounds used, the end reason, each finding with the
evidence it cites, each acceptance item with its coverage, what stayed
unverified, and usage with the cost ``N + 2 + R``. What the user's materials
literally say (quoted from source blocks, with their ids) is shown apart from
the findings, which are labelled as judgements — by a rule or by the judge model.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from donecheck.actors.messages import Finding, ReportCard, ReportedRun, UsageSummary
from donecheck.actors.redact import redact

__all__ = ["card_html", "card_json", "card_text", "end_reason_text", "rechecks", "usage_text"]

_REASONS = {
    "pass": "passed",
    "skipped": "not reviewed (a short first answer that claims nothing, nothing done)",
    "round_limit": "round limit reached",
    "time_limit": "time limit reached",
    "budget": "the judge was refused by the aux budget; the rules alone do not pass it",
    "no_progress": "blocked: no progress between rounds",
    "blocked": "blocked",
    "unverified": "could not verify",
    "cancelled": "cancelled",
    "opted_out": "opted out (DoneCheck turned off)",
}
_KINDS = (("pre_analysis", "pre-analysis"), ("review", "review"), ("milestone", "milestone"))


def end_reason_text(reason: str | None, *, one_shot: bool = False) -> str:
    if one_shot and reason is None:
        return "one review of a recorded conversation (no loop ran)"
    return _REASONS.get(reason or "", reason or "still open")


def _judged_by(finding: Finding) -> str:
    return f"rule {finding.rule}" if finding.rule else "judge model"


def rechecks(card: ReportCard) -> int:
    """``R``: the task's reviews after the first (from the accountant for old cards)."""
    if card.reviews:
        return card.rechecks
    return card.usage.rechecks if card.usage is not None else 0


def usage_text(card: ReportCard) -> str:
    """Main calls, aux calls itemised with their tokens, and the cost ``N + 2 + R``."""
    usage = card.usage or UsageSummary(session_id=card.session_id)
    parts = []
    for kind, label in _KINDS:
        calls = usage.aux_calls.get(kind, 0)
        if calls:
            tokens = usage.aux_tokens_by_kind.get(kind)
            parts.append(f"{label} {calls}" + (f" ({tokens:,} tokens)" if tokens else ""))
    if usage.retries:
        parts.append(f"{usage.retries} retried attempt(s)")
    if usage.unknown_calls:
        parts.append(f"{usage.unknown_calls} with unreported usage")
    if usage.invalid_reports:
        parts.append(f"{usage.invalid_reports} usage report(s) refused (negative counts)")
    if usage.overruns:
        parts.append(
            f"OVERRUN: {usage.overruns} answer(s) {usage.overrun_tokens:,} output tokens"
            " past their grant"
        )
    cap = f" of {usage.cap:,}" if usage.cap else ""
    r = rechecks(card)
    n = usage.main_calls
    judged = bool(usage.aux_calls.get("review"))
    if parts:
        review = f"review model calls: {', '.join(parts)}; {usage.aux_tokens:,}{cap} review tokens"
    else:
        review = f"reviews by rules only: no model calls, 0{cap} review tokens"
    cost = (
        f"cost N + 2 + R = {n} + 2 + {r} = {n + 2 + r} calls (N the agent's calls, 2 for the"
        f" pre-analysis and first review, R = {r} re-review(s)"
        + ("" if judged or not (card.reviews or r) else "; rules-only reviews cost nothing")
        + ")"
    )
    return f"{n} agent model call(s); {review}; {cost}"


MARKER_LEGEND = (
    "[DoneCheck Ak] in an answer marks what the agent added for answer Ak, after review"
    " round k-1: a reader sees which round added what"
)


def reviewer_text(card: ReportCard) -> str:
    """Who judged the latest review, how, and why later ones asked no model."""
    if card.judge:
        text = f"judged by {card.judge}" + (
            f" at temperature {card.temperature:g}" if card.temperature is not None else ""
        )
    else:
        text = "rules only (no model: the same evidence always gives the same verdict)"
    if card.judge_stopped:
        text += f"; later reviews by rules only: {card.judge_stopped}"
    return text


def _redacted(value: Any) -> Any:
    """Every string in a JSON-ready value with keys and passwords masked."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    return value


def card_json(card: ReportCard, *, session: str, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """One JSON-ready object per reviewed session (secrets masked, as in every report:
    a tool output the agent printed may hold a key)."""
    return _redacted(_card_json(card, session=session, warnings=warnings))  # type: ignore[no-any-return]


def _card_json(card: ReportCard, *, session: str, warnings: Sequence[str]) -> dict[str, Any]:
    usage = card.usage
    return {
        "session": session,
        "decision": card.decision,
        "end_reason": card.end_reason,
        "chain": [f"{link.label} {link.decision}" for link in card.chain],
        "rounds_used": card.rounds_used,
        "max_rounds": card.max_rounds,
        "reviews": card.reviews,
        "one_shot": card.one_shot,
        "judge_errors": list(card.judge_errors),
        "findings": [
            {
                "requirement": f.requirement,
                "problem": f.problem,
                "evidence": list(f.evidence),
                "recheck": f.recheck,
                "judged_by": _judged_by(f),
            }
            for f in card.findings
        ],
        "cited": dict(card.cited),
        "sources_say": dict(card.quotes),
        "runs": [
            {
                "evidence": r.evidence,
                "origin": r.origin,
                "name": r.name,
                "command": r.command,
                "outcome": r.outcome,
                "counts": r.counts,
                "where": r.where,
                "duration_s": r.duration_s,
                "detail": r.detail,
            }
            for r in card.runs
        ],
        "acceptance": [
            {
                "item": c.item,
                "requirement": c.requirement,
                "status": c.status,
                "evidence": list(c.evidence),
                "note": c.note,
            }
            for c in card.coverage
        ],
        "unverified": list(card.unverified),
        "notes": list(card.notes),
        "usage": None
        if usage is None
        else {
            "main_calls": usage.main_calls,
            "aux_calls": dict(usage.aux_calls),
            "aux_tokens": usage.aux_tokens,
            "aux_tokens_by_kind": dict(usage.aux_tokens_by_kind),
            "retries": usage.retries,
            "unknown_usage_calls": usage.unknown_calls,
            "invalid_usage_reports": usage.invalid_reports,
            "overruns": usage.overruns,
            "overrun_tokens": usage.overrun_tokens,
            "rechecks": rechecks(card),
            "cost_calls": usage.main_calls + 2 + rechecks(card),
            "cap": usage.cap,
        },
        "reviewer": {
            "judge": card.judge or None,
            "temperature": card.temperature,
            "judge_stopped": card.judge_stopped or None,
        },
        "assumptions": list(card.assumptions),
        "marker_legend": MARKER_LEGEND if len(card.chain) > 1 else None,
        "warnings": list(warnings),
    }


ORIGIN_TEXT = {
    "agent": "agent's tool output",
    "runner": "runner report",
    "donecheck": "gate run by DoneCheck",
}


def run_text(run: ReportedRun) -> str:
    """``E7 runner report: `pytest -q` failed (2 failed, 10 passed) …`` — one line."""
    counts = f" ({run.counts})" if run.counts else ""
    where = f" on {run.where}" if run.where else ""
    took = f" in {run.duration_s:g} s" if run.duration_s is not None else ""
    detail = f"; {run.detail}" if run.detail else ""
    return (
        f"{run.evidence} {ORIGIN_TEXT[run.origin]}: `{run.command}` {run.outcome}{counts}"
        f"{where}{took}{detail}"
    )


def card_text(card: ReportCard, *, session: str, warnings: Sequence[str] = ()) -> str:
    """A few readable lines: decision, each finding with its evidence, notes."""
    decision = card.decision or "unverified"
    lines = [f"{decision:<13} {session}"]
    if card.chain and len(card.chain) > 1:
        lines.append("  chain: " + " → ".join(f"{c.label} {c.decision}" for c in card.chain))
    if card.one_shot:
        lines.append("  review: one (a recorded conversation, reviewed once; no loop ran)")
    elif card.rounds_used:
        lines.append(f"  rounds: {card.rounds_used} of {card.max_rounds}")
    if card.end_reason and card.end_reason not in {"pass", None} and card.end_reason != decision:
        lines.append(f"  stopped: {end_reason_text(card.end_reason)}")
    if card.request:
        lines.append(f"  request: {card.request}")
    if card.answer:
        label = f" ({card.chain[-1].label})" if card.chain else ""
        lines.append(f"  answer{label}: {card.answer}")
    if card.chain and not card.one_shot:
        lines.append(f"  reviewer: {reviewer_text(card)}")
    if len(card.chain) > 1:
        lines.append(f"  markers: {MARKER_LEGEND}")
    for problem in card.judge_errors:
        lines.append(f"  judge unavailable: {problem}")
    for n, finding in enumerate(card.findings, 1):
        lines.append(f"  {n}. {finding.requirement}")
        lines.append(f"     {finding.problem}")
        for eid in finding.evidence:
            lines.append(f"     evidence {eid}: {card.cited.get(eid, '(see ledger)')}")
        if finding.recheck:
            lines.append(f"     recheck: {finding.recheck}")
    for eid, text in card.quotes.items():
        lines.append(f"  source {eid} says: “{' '.join(text.split())}”")
    if any(r.origin != "agent" for r in card.runs):
        lines.append("  checks (latest run, by origin):")
        lines.extend(f"    {run_text(r)}" for r in card.runs)
    if card.coverage:
        lines.append("  acceptance:")
        for c in card.coverage:
            status = {"covered": "covered", "missing": "MISSING"}.get(c.status, "not verified")
            ids = f" [{', '.join(c.evidence)}]" if c.evidence else ""
            how = f" ({c.note})" if c.note and c.note != "not verified" else ""
            text = c.requirement if len(c.requirement) <= 80 else c.requirement[:79] + "…"
            lines.append(f"    {c.item} {status}{ids}{how}: {text}")
    if card.assumptions:
        lines.append("  assumptions (the pre-analysis took these as given; not requirements):")
        lines.extend(f"    - {a}" for a in card.assumptions)
    for item in card.unverified:
        lines.append(f"  unverified: {item}")
    for note in card.notes:
        lines.append(f"  note: {note}")
    if card.usage is not None and (card.usage.main_calls or card.usage.aux_calls):
        lines.append(f"  usage: {usage_text(card)}")
    for warning in warnings:
        lines.append(f"  warning: {warning}")
    return redact("\n".join(lines))


# ------------------------------------------------------------------------ HTML

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",
"Noto Sans CJK JP","Source Han Sans SC","PingFang SC","Hiragino Sans","Microsoft YaHei",
"WenQuanYi Micro Hei",sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d232a}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin:0}h3{font-size:1rem;margin:1.2rem 0 .3rem}
section{border:1px solid #d5dae0;border-radius:8px;padding:1rem 1.2rem;margin:1.2rem 0}
nav{margin:1rem 0}nav table td:first-child{width:9rem}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:1rem;font-weight:600;
font-size:.85rem;margin-right:.5rem;color:#fff;background:#6b7480}
.pass{background:#1f7a3a}.need_fix{background:#b42318}.need_evidence{background:#b54708}
.blocked,.unverified,.budget{background:#5b21b6}.skipped,.opted_out{background:#6b7480}
table{border-collapse:collapse;width:100%;margin:.3rem 0}
td,th{border-top:1px solid #e4e7ec;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{font-size:.8rem;color:#555;font-weight:600}
code,.id{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK SC",
monospace;font-size:.88em}
blockquote{margin:.4rem 0;padding:.3rem .8rem;border-left:4px solid #2563eb;background:#f3f6fc}
.judgement{font-size:.8rem;color:#555}.muted{color:#555}
details pre{white-space:pre-wrap;background:#f6f7f9;padding:.6rem;border-radius:6px}
"""


def _e(text: object) -> str:
    return html.escape(redact(str(text)), quote=True)


_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def _md(text: object) -> str:
    """``text`` escaped, with its `inline code` shown as code (not as backticks)."""
    return _INLINE_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", _e(text))


_ORDER = (
    "need_fix",
    "need_evidence",
    "unverified",
    "budget",
    "blocked",
    "skipped",
    "opted_out",
    "pass",
)
"""Decisions by how much they ask of the reader: a page lists the worst first."""


def _severity(card: ReportCard) -> int:
    return _order_key(card.decision or "unverified")


def _card_section(
    name: str, card: ReportCard, warnings: Sequence[str], *, anchor: str, shared: dict[str, str]
) -> str:
    decision = card.decision or "unverified"
    parts = [
        f'<section id="{anchor}" data-decision="{_e(decision)}">',
        f'<h2><span class="badge {_e(decision)}">{_e(decision)}</span>{_e(name)}</h2>',
    ]
    facts = []
    if card.chain:
        facts.append(
            "verdict chain: " + " → ".join(f"{_e(c.label)} {_e(c.decision)}" for c in card.chain)
        )
    if not card.one_shot:
        facts.append(f"rounds used: {card.rounds_used} of {card.max_rounds}")
    facts.append(f"end reason: {_e(end_reason_text(card.end_reason, one_shot=card.one_shot))}")
    if card.chain and not card.one_shot:
        facts.append(f"reviewer: {_e(reviewer_text(card))}")
    parts.append(f'<p class="muted">{" · ".join(facts)}</p>')
    if card.request:
        parts.append(
            f'<p><b>Request:</b></p><blockquote class="asked">{_md(card.request)}</blockquote>'
        )
    if card.answer:
        label = f" ({_e(card.chain[-1].label)})" if card.chain else ""
        parts.append(
            f'<p><b>Final answer{label}:</b></p><blockquote class="answered">'
            f"{_md(card.answer)}</blockquote>"
        )
    if len(card.chain) > 1:
        parts.append(f'<p class="muted">markers: {_e(MARKER_LEGEND)}</p>')
    if card.quotes:
        parts.append("<h3>What the materials say (quoted verbatim)</h3>")
        for eid, text in card.quotes.items():
            parts.append(f'<blockquote><span class="id">[{_e(eid)}]</span> {_e(text)}</blockquote>')
    if card.findings:
        parts.append("<h3>Findings (judgements)</h3><table>")
        parts.append("<tr><th>#</th><th>requirement and problem</th><th>evidence</th></tr>")
        for n, f in enumerate(card.findings, 1):
            evidence = "<br>".join(
                f'<span class="id">{_e(eid)}</span>: {_md(card.cited.get(eid, "(see ledger)"))}'
                for eid in f.evidence
            )
            recheck = f"<br><i>recheck:</i> {_md(f.recheck)}" if f.recheck else ""
            parts.append(
                f"<tr><td>{n}</td><td><b>{_md(f.requirement)}</b><br>{_md(f.problem)}{recheck}"
                f'<br><span class="judgement">judgement by {_e(_judged_by(f))}</span></td>'
                f"<td>{evidence or '—'}</td></tr>"
            )
        parts.append("</table>")
    if any(r.origin != "agent" for r in card.runs):
        parts.append("<h3>Checks (latest run of each, with who told its outcome)</h3><table>")
        parts.append(
            "<tr><th>evidence</th><th>origin</th><th>command</th><th>outcome</th>"
            "<th>where, how long</th></tr>"
        )
        for r in card.runs:
            took = f"{r.duration_s:g} s" if r.duration_s is not None else ""
            where = " · ".join(p for p in (r.where, took) if p)
            counts = f" ({_e(r.counts)})" if r.counts else ""
            parts.append(
                f"<tr><td class=id>{_e(r.evidence)}</td><td>{_e(ORIGIN_TEXT[r.origin])}</td>"
                f"<td><code>{_e(r.command)}</code></td><td>{_e(r.outcome)}{counts}</td>"
                f"<td>{_e(where) or '—'}</td></tr>"
            )
        parts.append("</table>")
    if card.coverage:
        parts.append("<h3>Acceptance items</h3><table>")
        parts.append("<tr><th>item</th><th>requirement</th><th>status</th><th>evidence</th></tr>")
        for c in card.coverage:
            status = c.status.replace("_", " ")
            said = c.note.strip()
            note = (
                f' <span class="muted">({_e(said)})</span>'
                if said and said.lower() != status
                else ""
            )
            parts.append(
                f"<tr><td>{_e(c.item)}</td><td>{_md(c.requirement)}</td><td>{_e(status)}{note}"
                f"</td><td class=id>{_e(', '.join(c.evidence) or '—')}</td></tr>"
            )
        parts.append("</table>")
    if card.assumptions:
        parts.append("<h3>Assumptions (the pre-analysis took these as given)</h3><ul>")
        parts.extend(f"<li>{_e(a)}</li>" for a in card.assumptions)
        parts.append("</ul>")
    if card.unverified:
        parts.append("<h3>What stayed unverified</h3><ul>")
        parts.extend(f"<li>{_e(u)}</li>" for u in card.unverified)
        parts.append("</ul>")
    usage = usage_text(card) if card.usage is not None else ""
    if usage and usage not in shared:
        parts.append(f"<h3>Usage and cost</h3><p>{_e(usage)}</p>")
    pointed = [shared[line] for line in (*card.notes, usage) if line in shared]
    if pointed:
        parts.append(
            '<p class="muted">Also: '
            + ", ".join(f'<a href="#{n}">{n}</a>' for n in dict.fromkeys(pointed))
            + " (notes at the top of the page)</p>"
        )
    notes = [
        *(f"judge unavailable: {p}" for p in card.judge_errors),
        *(n for n in card.notes if n not in shared),
        *(f"warning: {w}" for w in warnings),
    ]
    if notes:
        parts.append("<h3>Notes</h3><ul>")
        parts.extend(f"<li>{_e(n)}</li>" for n in notes)
        parts.append("</ul>")
    for n, raw in enumerate(card.raw_reviews, 1):
        parts.append(
            f"<details><summary>raw review text {n} (the judge model's own words)</summary>"
            f"<pre>{_e(raw)}</pre></details>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def _shared(cards: Sequence[ReportCard]) -> list[str]:
    """Notes (and usage lines) that several cards of a page say alike — at least two
    and at least half of them: said once at the top, each card pointing to them."""
    if len(cards) < 2:
        return []
    said: dict[str, int] = {}
    for card in cards:
        lines = [*card.notes, *([usage_text(card)] if card.usage is not None else [])]
        for line in dict.fromkeys(lines):
            said[line] = said.get(line, 0) + 1
    return [line for line, n in said.items() if n >= 2 and 2 * n >= len(cards)]


def card_html(
    cards: Sequence[tuple[str, ReportCard, Sequence[str]]], *, title: str = "DoneCheck report"
) -> str:
    """One self-contained HTML page (inline CSS, no scripts) for ``(name, card,
    warnings)`` triples, every text escaped: an index with the count of each decision
    and a link to every card, the notes every card shares said once, then the cards,
    the ones that ask most of the reader first."""
    ordered = sorted(cards, key=lambda entry: _severity(entry[1]))  # stable: same order within
    counts: dict[str, int] = {}
    for _, card, _ in ordered:
        key = card.decision or "unverified"
        counts[key] = counts.get(key, 0) + 1
    summary = ", ".join(f"{counts[k]} {k}" for k in sorted(counts, key=_order_key))
    shared = _shared([card for _, card, _ in ordered])
    anchors = [f"card-{n}" for n in range(1, len(ordered) + 1)]
    index = ""
    if len(ordered) > 1:
        rows = []
        for anchor, (name, card, _) in zip(anchors, ordered, strict=True):
            decision = card.decision or "unverified"
            first = card.findings[0].requirement if card.findings else ""
            rows.append(
                f'<tr><td><span class="badge {_e(decision)}">{_e(decision)}</span></td>'
                f'<td><a href="#{anchor}">{_e(name)}</a></td><td>{_md(first)}</td></tr>'
            )
        index = (
            '<nav aria-label="index"><table><tr><th>decision</th><th>session</th>'
            "<th>first finding</th></tr>" + "".join(rows) + "</table></nav>"
        )
    labels = {line: f"N{n}" for n, line in enumerate(shared, 1)}
    top = ""
    if shared:
        top = (
            '<h3>Notes several sessions share</h3><ul class="shared">'
            + "".join(f'<li id="{labels[n]}"><b>{labels[n]}</b> {_e(n)}</li>' for n in shared)
            + "</ul>"
        )
    body = "\n".join(
        _card_section(name, card, warnings, anchor=anchor, shared=labels)
        for anchor, (name, card, warnings) in zip(anchors, ordered, strict=True)
    )
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1><p class=muted>{len(cards)} session(s): {_e(summary)}</p>"
        f"{index}{top}{body}</body></html>\n"
    )


def _order_key(decision: str) -> int:
    return _ORDER.index(decision) if decision in _ORDER else 2
