"""Plain text and code: encoding detected and validated, binary rejected, line-numbered blocks."""

from __future__ import annotations

from donecheck.parsers.base import ParseContext
from donecheck.parsers.detect import Detection
from donecheck.parsers.encoding import decode_text
from donecheck.parsers.material import Material

__all__ = ["TextParser"]

_TEXT_LIKE = {
    "application/javascript",
    "application/x-sh",
    "application/x-yaml",
    "application/toml",
    "application/x-wine-extension-ini",
    "application/x-subrip",
    "application/x-ndjson",
    "application/x-httpd-php",
    "application/sql",
}


class TextParser:
    recipe = "text-2"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime.startswith("text/") or detection.mime in _TEXT_LIKE

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        decoded = decode_text(data)
        if decoded is None:
            return out.fail("binary or undecodable: not text in any detected encoding")
        if decoded.encoding not in {"utf-8", "ascii"}:
            out.warn(f"encoding: {decoded.encoding}" + (" (detected)" if decoded.guessed else ""))
        lines = decoded.text.splitlines()
        per_block = ctx.limits.lines_per_block
        out.stats["lines"] = float(len(lines))
        for start in range(0, len(lines), per_block):
            chunk = lines[start : start + per_block]
            body = "\n".join(f"{start + i + 1:>5} | {line}" for i, line in enumerate(chunk))
            if not out.add("text", body):
                out.stop(
                    f"text budget of {ctx.limits.text_chars} characters reached at line"
                    f" {start + 1} of {len(lines)}"
                )
                break
        return out.build()
