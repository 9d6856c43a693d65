"""The tool log as a model is shown it: bounded, newest first, failures always kept.

Failure judgement uses the complete ledger (the views); this excerpt is only
what a judge model reads. Each operation is one item — its evidence id, the
tool and its arguments, the outcome, and the end of its output (where runners
print their summaries). Failed operations go in first, so they are never
crowded out; the rest fill the budget newest first. If the failures alone are
over the budget, their outputs are shortened evenly, and only the newest
``MAX_FAILED`` are shown (the rules read them all). What was left out is counted
in a marker line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from donecheck.actors.evidence.index import EvidenceIndex
from donecheck.actors.evidence.pairing import operations
from donecheck.actors.messages import (
    CheckReport,
    Excerpt,
    LedgerEntry,
    Operation,
    ToolCall,
    ToolResult,
)

__all__ = ["excerpt", "excerpt_of"]

_ARGS_CHARS = 240
_OK_OUTPUT = 300
_FAILED_OUTPUT = 1_500
_MIN_OUTPUT = 160
MAX_FAILED = 200
"""The most failed operations an excerpt shows, newest first: bounded even when the
failures alone are over the budget."""


def _arguments(call: ToolCall | None, op: Operation) -> str:
    if op.command is not None:
        return f"`{op.command}`"
    if call is None:
        return ""
    args = call.arguments
    text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False, default=str)
    return text if len(text) <= _ARGS_CHARS else text[: _ARGS_CHARS - 1] + "…"


def _status(op: Operation) -> str:
    if op.result_seq is None:
        return "no result recorded"
    code = f" (exit {op.exit_code})" if op.exit_code is not None else ""
    if op.ok is True:
        return "ok" + code
    if op.ok is False:
        return "FAILED" + code
    return "status unknown"


def _clip(text: str, limit: int) -> str:
    """A third of the room for the start of an output, the rest for its end (where
    most runners print their summary)."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head = limit // 3
    tail = limit - head - 3
    return f"{text[:head]}\n…\n{text[-tail:]}"


_TOLD = {"runner": "the runner's own report", "donecheck": "a gate DoneCheck ran"}


def _told(report: CheckReport, op: Operation, output: int) -> str:
    """What a runner's or a gate's report says, under the item it decides."""
    said = (
        f"; the tool's output alone said {'ok' if op.output_said else 'FAILED'}"
        if op.output_said is not None and op.output_said != op.ok
        else ""
    )
    lines = [f"  told by {_TOLD[report.origin]}: {report.counts or report.outcome}{said}"]
    lines += [f"  failed: {f.node} — {f.message}"[:300] for f in report.failures[:5]]
    if report.detail:
        lines.append(f"  {report.detail}")
    if report.output and op.ok is not True:
        lines.append(_clip(report.output, output))
    return "\n".join(lines)


def _item(
    op: Operation,
    call: ToolCall | None,
    result: ToolResult | None,
    output: int,
    report: CheckReport | None = None,
) -> str:
    head = f"[{op.evidence_id}] {op.tool} {_arguments(call, op)} → {_status(op)}"
    if report is not None:
        head += "\n" + _told(report, op, output)
    if result is not None and result.images:
        names = ", ".join(i.name for i in result.images[:8])
        head += f" [returned {len(result.images)} image(s): {names}]"
    if result is None or not result.output.strip():
        return head
    return f"{head}\n{_clip(result.output, output)}"


def excerpt(
    entries: Sequence[LedgerEntry],
    budget_chars: int = 8_000,
    ops: Sequence[Operation] | None = None,
) -> Excerpt:
    """The bounded excerpt of a session's tool log (see the module docstring).
    ``ops`` are :func:`operations` of ``entries`` when the caller has them."""
    index = EvidenceIndex.of(entries)
    return excerpt_of(index, operations(entries) if ops is None else ops, budget_chars)


def excerpt_of(index: EvidenceIndex, ops: Sequence[Operation], budget_chars: int) -> Excerpt:
    """:func:`excerpt` of operations ``ops`` of a session's :class:`EvidenceIndex`."""
    calls, results, reports = index.calls, index.results, index.reports
    newest_first = list(reversed(ops))

    def render(op: Operation, output: int) -> str:
        call = calls.get(op.call_seq)
        result = results.get(op.result_seq) if op.result_seq is not None else None
        report = reports.get(op.report_seq) if op.report_seq is not None else None
        return _item(op, call, result, output, report)

    failed = [op for op in newest_first if op.ok is False][:MAX_FAILED]
    others = [op for op in newest_first if op.ok is not False]
    chosen: dict[int, str] = {}
    used = 0
    output = _FAILED_OUTPUT
    while failed:
        texts = [render(op, output) for op in failed]
        if sum(len(t) + 1 for t in texts) <= budget_chars or output <= _MIN_OUTPUT:
            for op, text in zip(failed, texts, strict=True):
                chosen[op.call_seq] = text
                used += len(text) + 1
            break
        output = max(_MIN_OUTPUT, output * 2 // 3)
    for op in others:
        text = render(op, _OK_OUTPUT)
        if used + len(text) + 1 > budget_chars:
            continue
        chosen[op.call_seq] = text
        used += len(text) + 1
    shown = [op for op in newest_first if op.call_seq in chosen]
    lines = [chosen[op.call_seq] for op in shown]
    omitted = len(ops) - len(shown)
    if omitted:
        lines.append(
            f"[… {omitted} older or longer operation(s) not shown; the checks above used the "
            "complete ledger]"
        )
    return Excerpt(
        text="\n".join(lines), shown=tuple(op.evidence_id for op in shown), omitted=omitted
    )
