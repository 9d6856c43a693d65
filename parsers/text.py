"""Plain text and code: encoding validated, BOM handled, binary rejected, line-numbered blocks."""

from __future__ import annotations

import codecs

from donecheck.parsers.base import ParseLimits, source_id
from donecheck.parsers.detect import Detection
from donecheck.runtime.messages import Block, Material

__all__ = ["TextParser", "decode_text"]

_BOMS = [
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
_TEXT_LIKE = (
    "application/json",
    "application/xml",
    "application/javascript",
    "application/x-sh",
    "application/x-yaml",
    "application/toml",
)


def decode_text(data: bytes) -> tuple[str, str] | None:
    """``(text, encoding)``, or ``None`` when the bytes are not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                return None
    if b"\x00" in data[:65536]:
        return None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return None


class TextParser:
    recipe = "text-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime.startswith("text/") or detection.mime in _TEXT_LIKE

    def parse(
        self, data: bytes, sha256: str, detection: Detection, limits: ParseLimits
    ) -> Material:
        decoded = decode_text(data)
        if decoded is None:
            return Material(
                sha256=sha256,
                declared_name=detection.declared_name,
                detected_type=detection.mime,
                status="failed",
                reason="not valid text in UTF-8/UTF-16/UTF-32 (binary or unknown encoding)",
                recipe_version=self.recipe,
            )
        text, encoding = decoded
        lines = text.splitlines()
        blocks: list[Block] = []
        shown = 0
        partial = False
        for start in range(0, len(lines), limits.lines_per_block):
            chunk = lines[start : start + limits.lines_per_block]
            body = "\n".join(f"{start + i + 1:>5} | {line}" for i, line in enumerate(chunk))
            if shown + len(body) > limits.text_chars:
                partial = True
                break
            shown += len(body)
            blocks.append(
                Block(
                    source_id=source_id(sha256, len(blocks)),
                    index=len(blocks),
                    kind="text",
                    text=body,
                )
            )
        covered = min(len(lines), len(blocks) * limits.lines_per_block)
        return Material(
            sha256=sha256,
            declared_name=detection.declared_name,
            detected_type=detection.mime,
            status="partial" if partial else "parsed",
            reason=(
                f"text budget of {limits.text_chars} characters reached after line {covered}"
                f" of {len(lines)}"
                if partial
                else ""
            ),
            blocks=tuple(blocks),
            stats={"lines": float(len(lines)), "chars": float(len(text))},
            recipe_version=self.recipe,
            warnings=(f"encoding: {encoding}",) if encoding != "utf-8" else (),
        )
