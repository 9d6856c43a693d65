"""How often DoneCheck decides right: reviewed transcripts against expected decisions.

The expected file is a JSON object ``{"<file name>": {"decision": "…", "why": "…"}}``;
an entry may also list the ``rules`` that should fire and the session's ``lang``.
:func:`score` compares, and :class:`Evaluation` gives the figures: agreement,
the confusion matrix, false passes (first: the worst defect), per-rule precision
and recall, and per-language and per-form breakdowns — as text, as JSON lines in
the benchmark format, or as a self-contained HTML page.

A **false pass** is a session that should not pass (expected ``need_evidence``,
``need_fix`` or ``blocked``) that DoneCheck let through: decided ``pass``, or
``skipped`` review as a trivial stop. A **false alarm** is the other way: an
honest session that should pass (expected ``pass`` or ``skipped``) that DoneCheck
steered or stopped — the next worst defect, since it costs the user a round and
teaches the agent to game the checker.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from donecheck.actors.errors import InputError
from donecheck.actors.review.gates import FIX_RULES

__all__ = [
    "DECISIONS",
    "Evaluation",
    "Expected",
    "Observed",
    "load_expected",
    "score",
]

DECISIONS = ("pass", "need_evidence", "need_fix", "blocked", "skipped", "unverified")
LET_THROUGH = frozenset({"pass", "skipped"})
"""Decisions that let the turn end without a fix."""


@dataclass(frozen=True, slots=True)
class Expected:
    decision: str
    why: str = ""
    rules: tuple[str, ...] | None = None
    """Rules that should fire (``None``: not labelled, no recall for this session)."""
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Observed:
    """One transcript as DoneCheck reviewed it."""

    name: str
    form: str
    lang: str
    decision: str
    rules: tuple[str, ...] = ()
    seconds: float = 0.0
    tokens: int = 0


def load_expected(path: Path) -> tuple[dict[str, Expected], list[str]]:
    """The expected decisions in ``path``, and one line per entry that cannot be used.

    Raises :class:`InputError` when the file itself cannot be read as a JSON object.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: invalid JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object of file name → expectation")
    expected: dict[str, Expected] = {}
    problems: list[str] = []
    for name, entry in data.items():
        if not isinstance(entry, dict) or entry.get("decision") not in DECISIONS:
            problems.append(
                f"{path}: entry {name!r}: needs a decision, one of {', '.join(DECISIONS)}"
            )
            continue
        rules = entry.get("rules")
        if rules is not None and not (
            isinstance(rules, list) and all(isinstance(r, str) for r in rules)
        ):
            problems.append(f"{path}: entry {name!r}: rules must be a list of rule names")
            continue
        expected[name] = Expected(
            decision=entry["decision"],
            why=str(entry.get("why", "")),
            rules=tuple(rules) if rules is not None else None,
            lang=entry.get("lang") if isinstance(entry.get("lang"), str) else None,
        )
    return expected, problems


@dataclass(frozen=True, slots=True)
class RuleScore:
    rule: str
    fired: int
    correct: int
    labelled: int
    found: int
    false_alarms: int = 0
    """Honest sessions (expected to pass) it fired on that were steered or stopped."""

    @property
    def precision(self) -> float | None:
        return self.correct / self.fired if self.fired else None

    @property
    def recall(self) -> float | None:
        return self.found / self.labelled if self.labelled else None


@dataclass
class Evaluation:
    pairs: list[tuple[Observed, Expected]]
    missing: list[str] = field(default_factory=list)
    """Expected entries with no transcript."""
    unexpected: list[str] = field(default_factory=list)
    """Transcripts with no expectation."""
    unreadable: list[str] = field(default_factory=list)
    """One line per transcript that could not be read or reviewed."""

    # ---------------------------------------------------------------- figures

    @property
    def total(self) -> int:
        return len(self.pairs)

    @property
    def agreed(self) -> int:
        return sum(o.decision == e.decision for o, e in self.pairs)

    @property
    def agreement(self) -> float:
        return self.agreed / self.total if self.total else 0.0

    @property
    def false_passes(self) -> list[tuple[Observed, Expected]]:
        return [
            (o, e)
            for o, e in self.pairs
            if o.decision in LET_THROUGH and e.decision not in LET_THROUGH
        ]

    @property
    def false_alarms(self) -> list[tuple[Observed, Expected]]:
        return [
            (o, e)
            for o, e in self.pairs
            if e.decision in LET_THROUGH and o.decision not in LET_THROUGH
        ]

    @property
    def labels(self) -> list[str]:
        seen = {o.decision for o, _ in self.pairs} | {e.decision for _, e in self.pairs}
        return [d for d in DECISIONS if d in seen]

    def confusion(self) -> dict[tuple[str, str], int]:
        """(expected, decided) → sessions."""
        return dict(Counter((e.decision, o.decision) for o, e in self.pairs))

    def rules(self) -> list[RuleScore]:
        """Per rule: how often it fired, how often rightly, and (where sessions are
        labelled with the rules they should fire) how many of those it found.

        Without labels a firing counts as right when the session should not pass and,
        for a need_fix rule, is expected ``need_fix``."""
        names = sorted({r for o, _ in self.pairs for r in o.rules} | self._labelled_rules())
        out: list[RuleScore] = []
        for rule in names:
            fired = correct = labelled = found = alarms = 0
            for o, e in self.pairs:
                did = rule in o.rules
                alarms += did and e.decision in LET_THROUGH and o.decision not in LET_THROUGH
                if e.rules is not None:
                    should = rule in e.rules
                    labelled += should
                    found += should and did
                    correct += should and did
                elif did:
                    wanted = (
                        {"need_fix"}
                        if rule in FIX_RULES
                        else {"need_fix", "need_evidence", "blocked"}  # blocked: reported
                    )
                    correct += e.decision in wanted
                fired += did
            out.append(RuleScore(rule, fired, correct, labelled, found, alarms))
        return out

    @property
    def honest(self) -> int:
        """Sessions expected to pass: what a rule's false alarms are counted against."""
        return sum(e.decision in LET_THROUGH for _, e in self.pairs)

    def _labelled_rules(self) -> set[str]:
        return {r for _, e in self.pairs if e.rules for r in e.rules}

    def breakdown(self, key: str) -> list[tuple[str, int, int, int, int]]:
        """Per language (``lang``) or form (``form``): sessions, agreed, false passes,
        false alarms."""
        groups: dict[str, list[tuple[Observed, Expected]]] = {}
        for o, e in self.pairs:
            groups.setdefault(getattr(o, key), []).append((o, e))
        return [
            (
                name,
                len(rows),
                sum(o.decision == e.decision for o, e in rows),
                sum(o.decision in LET_THROUGH and e.decision not in LET_THROUGH for o, e in rows),
                sum(e.decision in LET_THROUGH and o.decision not in LET_THROUGH for o, e in rows),
            )
            for name, rows in sorted(groups.items())
        ]

    def figures(self) -> list[dict[str, Any]]:
        """One figure per line, in the benchmark format (``bench``, ``metric``, …)."""
        lines: list[dict[str, Any]] = []

        def add(metric: str, value: float, unit: str, **params: Any) -> None:
            lines.append(
                {
                    "bench": "eval",
                    "metric": metric,
                    "value": round(value, 4),
                    "unit": unit,
                    "params": params,
                }
            )

        add("sessions", self.total, "count")
        add("agreement", self.agreement, "ratio")
        add("false_passes", len(self.false_passes), "count")
        add("false_alarms", len(self.false_alarms), "count")
        add("honest_sessions", self.honest, "count")
        add("missing_transcripts", len(self.missing), "count")
        add("unexpected_transcripts", len(self.unexpected), "count")
        add("unreadable_transcripts", len(self.unreadable), "count")
        for (want, got), n in sorted(self.confusion().items()):
            add("confusion", n, "count", expected=want, decided=got)
        for r in self.rules():
            if r.precision is not None:
                add("rule_precision", r.precision, "ratio", rule=r.rule, fired=r.fired)
            if r.recall is not None:
                add("rule_recall", r.recall, "ratio", rule=r.rule, labelled=r.labelled)
            add("rule_false_alarms", r.false_alarms, "count", rule=r.rule, honest=self.honest)
        for key in ("lang", "form"):
            for name, n, agreed, false, alarms in self.breakdown(key):
                add("agreement", agreed / n, "ratio", **{key: name, "sessions": n})
                add("false_passes", false, "count", **{key: name})
                add("false_alarms", alarms, "count", **{key: name})
        seconds = [o.seconds for o, _ in self.pairs]
        if seconds:
            add("review_seconds_mean", sum(seconds) / len(seconds), "s")
            add("review_seconds_max", max(seconds), "s")
        add("aux_tokens", sum(o.tokens for o, _ in self.pairs), "tokens")
        return lines

    # -------------------------------------------------------------- rendering

    def text(self) -> str:
        out: list[str] = []
        out.append(
            f"agreement {self.agreed}/{self.total} = {self.agreement:.1%}; "
            f"false passes {len(self.false_passes)}; false alarms {len(self.false_alarms)}"
        )
        if self.false_passes:
            out.append("\nFALSE PASSES (decided pass or skipped; should not pass):")
            for o, e in self.false_passes:
                out.append(f"  {o.name}: decided {o.decision}, expected {e.decision} — {e.why}")
        if self.false_alarms:
            out.append("\nFALSE ALARMS (an honest session steered or stopped; should pass):")
            for o, e in self.false_alarms:
                out.append(f"  {o.name}: decided {o.decision}, expected {e.decision} — {e.why}")
        out.append("\nconfusion (rows: expected, columns: decided)")
        labels = self.labels
        matrix = self.confusion()
        width = max([len(x) for x in labels] + [8])
        out.append(" " * (width + 2) + " ".join(f"{x:>{width}}" for x in labels))
        for want in labels:
            cells = " ".join(f"{matrix.get((want, got), 0):>{width}}" for got in labels)
            out.append(f"{want:<{width}}  {cells}")
        disagreements = [(o, e) for o, e in self.pairs if o.decision != e.decision]
        flagged = [*self.false_passes, *self.false_alarms]
        others = [pair for pair in disagreements if pair not in flagged]
        if others:
            out.append("\nother disagreements:")
            for o, e in others:
                out.append(f"  {o.name}: decided {o.decision}, expected {e.decision} — {e.why}")
        out.append(
            f"\nper rule: fired, precision, recall, false alarms (of {self.honest} honest sessions)"
        )
        for r in self.rules():
            out.append(
                f"  {r.rule:<18} {r.fired:>4}  {_ratio(r.precision):>7}  {_ratio(r.recall):>7}"
                f"  {r.false_alarms:>4}"
            )
        out.append(
            "  (precision: of the sessions a rule fired on, the share that should not pass —"
            " for a fix rule, that should be need_fix; recall: of the sessions labelled with"
            " the rule, the share it fired on, — where none is labelled; false alarms: honest"
            " sessions it fired on that were steered or stopped)"
        )
        for key, title in (("lang", "per language"), ("form", "per form")):
            out.append(f"\n{title}: sessions, agreement, false passes, false alarms")
            for name, n, agreed, false, alarms in self.breakdown(key):
                out.append(f"  {name:<14} {n:>4}  {agreed / n:>7.1%}  {false:>3}  {alarms:>3}")
        for title, names in (
            ("expected but no transcript", self.missing),
            ("transcripts with no expectation", self.unexpected),
            ("unreadable", self.unreadable),
        ):
            if names:
                out.append(f"\n{title} ({len(names)}):")
                out.extend(f"  {n}" for n in names)
        return "\n".join(out)

    def html(self) -> str:
        """A self-contained page: the figures and the confusion matrix drawn as SVG."""
        labels = self.labels
        matrix = self.confusion()
        peak = max(matrix.values(), default=1)
        cell = 64
        left, top = 130, 110
        size_w = left + cell * len(labels) + 20
        size_h = top + cell * len(labels) + 20
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_w}" height="{size_h}" '
            'role="img" aria-label="confusion matrix">',
            f'<text x="{left}" y="16" font-size="13">decided →</text>',
            f'<text x="4" y="{top - 8}" font-size="13">expected ↓</text>',
        ]
        for j, got in enumerate(labels):
            x = left + j * cell + cell / 2
            parts.append(
                f'<text x="{x}" y="{top - 8}" font-size="11" text-anchor="start" '
                f'transform="rotate(-45 {x} {top - 8})">{html.escape(got)}</text>'
            )
        for i, want in enumerate(labels):
            y = top + i * cell
            parts.append(
                f'<text x="{left - 6}" y="{y + cell / 2 + 4}" font-size="11" '
                f'text-anchor="end">{html.escape(want)}</text>'
            )
            for j, got in enumerate(labels):
                n = matrix.get((want, got), 0)
                x = left + j * cell
                false = got in LET_THROUGH and want not in LET_THROUGH and n
                shade = 0.12 + 0.88 * n / peak if n else 0.0
                fill = (
                    f"rgba(200,30,30,{shade:.2f})"
                    if false
                    else f"rgba(30,110,200,{shade:.2f})"
                    if want != got
                    else f"rgba(20,150,60,{shade:.2f})"
                )
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                    f'fill="{fill if n else "#f4f4f4"}" stroke="#ccc"/>'
                    f'<text x="{x + cell / 2 - 1}" y="{y + cell / 2 + 5}" font-size="14" '
                    f'text-anchor="middle">{n}</text>'
                )
        parts.append("</svg>")
        svg = "".join(parts)
        rows = "".join(
            f"<tr><td>{html.escape(r.rule)}</td><td>{r.fired}</td><td>{_ratio(r.precision)}</td>"
            f"<td>{_ratio(r.recall)}</td><td>{r.false_alarms}</td></tr>"
            for r in self.rules()
        )
        breakdowns = "".join(
            f"<h2>Per {title}</h2><table><tr><th>{title}</th><th>sessions</th><th>agreement</th>"
            "<th>false passes</th><th>false alarms</th></tr>"
            + "".join(
                f"<tr><td>{html.escape(name)}</td><td>{n}</td><td>{agreed / n:.1%}</td>"
                f"<td>{false}</td><td>{alarms}</td></tr>"
                for name, n, agreed, false, alarms in self.breakdown(key)
            )
            + "</table>"
            for key, title in (("lang", "language"), ("form", "form"))
        )
        false_rows = "".join(
            f"<li><b>{html.escape(o.name)}</b>: decided {o.decision}, expected {e.decision} — "
            f"{html.escape(e.why)}</li>"
            for o, e in self.false_passes
        )
        other_rows = "".join(
            f"<li>{html.escape(o.name)}: decided {o.decision}, expected {e.decision} — "
            f"{html.escape(e.why)}</li>"
            for o, e in self.pairs
            if o.decision != e.decision and (o, e) not in self.false_passes
        )
        alarm_rows = "".join(
            f"<li><b>{html.escape(o.name)}</b>: decided {o.decision}, expected {e.decision} — "
            f"{html.escape(e.why)}</li>"
            for o, e in self.false_alarms
        )
        reported = "".join(
            f"<h2>{title} ({len(names)})</h2><ul>"
            + "".join(f"<li>{html.escape(n)}</li>" for n in names)
            + "</ul>"
            for title, names in (
                ("Expected but no transcript", self.missing),
                ("Transcripts with no expectation", self.unexpected),
                ("Unreadable", self.unreadable),
            )
            if names
        )
        return (
            "<!doctype html><html><head><meta charset='utf-8'><title>DoneCheck eval</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;"
            "text-align:right}td:first-child,th:first-child{text-align:left}"
            ".bad{color:#b00}</style></head><body>"
            f"<h1>DoneCheck eval: {self.agreed}/{self.total} agree ({self.agreement:.1%})</h1>"
            f"<p class='{'bad' if self.false_passes else ''}'>False passes: "
            f"{len(self.false_passes)}</p>"
            + (f"<ul class='bad'>{false_rows}</ul>" if false_rows else "")
            + f"<p class='{'bad' if self.false_alarms else ''}'>False alarms (honest sessions"
            f" steered or stopped): {len(self.false_alarms)}</p>"
            + (f"<ul class='bad'>{alarm_rows}</ul>" if alarm_rows else "")
            + "<h2>Confusion matrix</h2>"
            + svg
            + "<p>Green: agreed; blue: another decision; red: a false pass.</p>"
            + (f"<h2>Other disagreements</h2><ul>{other_rows}</ul>" if other_rows else "")
            + "<h2>Per rule</h2><table><tr><th>rule</th><th>fired</th><th>precision</th>"
            f"<th>recall</th><th>false alarms (of {self.honest} honest)</th></tr>{rows}</table>"
            + breakdowns
            + reported
            + "</body></html>"
        )


def _ratio(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def score(
    observed: Iterable[Observed],
    expected: dict[str, Expected],
    unreadable: Sequence[str] = (),
    unreadable_names: Iterable[str] = (),
) -> Evaluation:
    """Pair each reviewed transcript with its expectation, by file name. A file that
    could not be read (``unreadable_names``) is not also reported as missing."""
    pairs: list[tuple[Observed, Expected]] = []
    unexpected: list[str] = []
    seen: set[str] = set(unreadable_names)
    for o in observed:
        seen.add(o.name)
        want = expected.get(o.name)
        if want is None:
            unexpected.append(o.name)
            continue
        if want.lang is not None:
            o = Observed(o.name, o.form, want.lang, o.decision, o.rules, o.seconds, o.tokens)
        pairs.append((o, want))
    missing = sorted(name for name in expected if name not in seen)
    return Evaluation(pairs, missing, sorted(unexpected), list(unreadable))
