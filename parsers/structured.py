"""Structured text: CSV/TSV tables, JSON, Jupyter notebooks.

* CSV/TSV: encoding and delimiter detected, rows in blocks of up to 50 with the
  header repeated.
* JSON: validated (an invalid file is ``failed`` with the position of the
  error), then shown pretty-printed with line numbers.
* Notebooks: markdown cells as text (``#`` lines as headings), code cells with
  their outputs (streams, results, errors); image outputs are named, not shown.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from donecheck.parsers.base import MaterialBuilder, ParseContext, markdown_table
from donecheck.parsers.detect import IPYNB, Detection
from donecheck.parsers.encoding import decode_text
from donecheck.parsers.material import Material

__all__ = ["CsvParser", "JsonParser", "NotebookParser"]

_ROWS_PER_BLOCK = 50
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _numbered(out: MaterialBuilder, text: str, per_block: int) -> None:
    lines = text.splitlines()
    for start in range(0, len(lines), per_block):
        chunk = lines[start : start + per_block]
        body = "\n".join(f"{start + i + 1:>5} | {line}" for i, line in enumerate(chunk))
        if not out.add("code", body):
            out.stop(f"text budget reached at line {start + 1} of {len(lines)}")
            return


class CsvParser:
    recipe = "csv-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in {"text/csv", "text/tab-separated-values"}

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        decoded = decode_text(data)
        if decoded is None:
            return out.fail("not decodable as text")
        if decoded.encoding not in {"utf-8", "ascii", "utf-8-sig"}:
            out.warn(f"encoding: {decoded.encoding}" + (" (detected)" if decoded.guessed else ""))
        text = decoded.text
        try:
            dialect: Any = csv.Sniffer().sniff(text[:20_000], delimiters=",;\t|")
        except csv.Error:
            dialect = csv.excel_tab if ctx.detection.mime.endswith("values") else csv.excel
        rows: list[list[str]] = []
        total = 0
        try:
            for row in csv.reader(io.StringIO(text), dialect):
                total += 1
                if len(rows) < ctx.limits.rows_per_sheet:
                    rows.append([c.strip() for c in row[: ctx.limits.columns]])
        except csv.Error as exc:
            out.warn(f"stopped at row {total + 1}: {exc}")
            out.stop(f"malformed CSV at row {total + 1}")
        rows = [r for r in rows if any(r)]
        if not rows:
            return out.fail("no rows")
        delimiter = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(
            dialect.delimiter, repr(dialect.delimiter)
        )
        out.stats.update(rows=float(total), columns=float(max(map(len, rows))))
        out.add("meta", f"{total} rows × {max(map(len, rows))} columns, {delimiter}-separated")
        header = rows[0]
        for start in range(0, len(rows), _ROWS_PER_BLOCK):
            chunk = rows[start : start + _ROWS_PER_BLOCK]
            shown = chunk if start == 0 else [header, *chunk]
            label = f"rows {start + 1}–{start + len(chunk)}"
            if not out.add(
                "table", f"{label}\n{markdown_table(shown)}", rows=tuple(tuple(r) for r in chunk)
            ):
                break
        if total > ctx.limits.rows_per_sheet:
            out.stop(f"row limit: read {ctx.limits.rows_per_sheet} of {total} rows")
        return out.build()


class JsonParser:
    recipe = "json-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime == "application/json"

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        decoded = decode_text(data)
        if decoded is None:
            return out.fail("not decodable as text")
        try:
            document = json.loads(decoded.text)
        except json.JSONDecodeError as exc:
            return out.fail(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except RecursionError:
            return out.fail("invalid JSON: nested too deeply")
        kind = type(document).__name__
        size = len(document) if isinstance(document, dict | list) else 1
        out.add(
            "meta",
            f"JSON {'object' if kind == 'dict' else kind} with {size} "
            f"{'keys' if kind == 'dict' else 'items'}",
        )
        try:
            pretty = json.dumps(document, indent=2, ensure_ascii=False)
        except (ValueError, RecursionError):
            pretty = decoded.text
        _numbered(out, pretty, ctx.limits.lines_per_block)
        return out.build()


class NotebookParser:
    recipe = "ipynb-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime == IPYNB

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        try:
            notebook = json.loads(data)
            cells = notebook["cells"]
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            return out.fail(f"invalid notebook: {exc}")
        language = (
            notebook.get("metadata", {}).get("kernelspec", {}).get("language")
            or notebook.get("metadata", {}).get("language_info", {}).get("name")
            or "code"
        )
        out.stats["cells"] = float(len(cells))
        for number, cell in enumerate(cells, start=1):
            if out.full or ctx.out_of_time():
                break
            if not isinstance(cell, dict):
                continue
            source = _joined(cell.get("source", ""))
            kind = cell.get("cell_type")
            if kind == "markdown":
                for line in source.splitlines():
                    match = re.match(r"^(#{1,6})\s+(.*)", line)
                    if match:
                        out.add("heading", match.group(2), level=len(match.group(1)))
                body = "\n".join(
                    line for line in source.splitlines() if not re.match(r"^#{1,6}\s", line)
                )
                out.add("text", body)
            elif kind == "code":
                count = cell.get("execution_count")
                label = f"In [{count if count is not None else ' '}] ({language}, cell {number})"
                out.add("code", f"{label}:\n{source}")
                outputs = [_output(o) for o in cell.get("outputs", []) if isinstance(o, dict)]
                shown = "\n".join(o for o in outputs if o)
                if shown:
                    out.add("text", f"Output of cell {number}:\n{shown}")
            elif source.strip():
                out.add("text", source)
        return out.build()


def _joined(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value)


def _output(output: dict[str, Any]) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return _joined(output.get("text", "")).rstrip()
    if kind == "error":
        trace = "\n".join(_ANSI.sub("", str(line)) for line in output.get("traceback", []))
        return trace or f"{output.get('ename')}: {output.get('evalue')}"
    if kind in {"execute_result", "display_data"}:
        data = output.get("data", {})
        if "text/plain" in data:
            return _joined(data["text/plain"]).rstrip()
        images = [k for k in data if k.startswith("image/")]
        if images:
            return f"[{images[0]} output not shown]"
    return ""
