"""Claude Code transcripts (JSONL) and hook payloads, read into session events.

Transcript lines have a ``type`` (``user``, ``assistant``, …) and a ``message``
whose ``content`` is a string or a list of blocks: ``text``, ``tool_use``
(``id``, ``name``, ``input``), ``tool_result`` (``tool_use_id``, ``content``,
``is_error``), ``image`` (base64 ``source``). A user line carrying tool results
may also have ``toolUseResult`` (for Bash: ``stdout``/``stderr``/…). Unknown
fields are ignored. A line that is not valid JSON is reported with its line
number in the transcript's warnings and the rest is read. Meta lines
(``isMeta``) and system lines are skipped; a subagent's (``isSidechain``) tool
calls count as evidence, its text does not.

Event ids come from Claude's own ids (``tool_use_id``), so replaying the same
transcript at every stop adds nothing twice.
"""

from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path
from typing import Any

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.openai import (
    Step,
    Transcript,
    json_line,
    named_tool_images,
    read_transcript_text,
)
from donecheck.runtime.transcripts.pairing import Pairing
from donecheck.runtime.transcripts.roles import not_the_users

__all__ = [
    "load_claude_jsonl",
    "parse_claude_lines",
    "response_images",
    "result_text",
    "tool_output",
]


def load_claude_jsonl(path: str | Path) -> Transcript:
    """Read a Claude Code session transcript (``~/.claude/projects/…/<session>.jsonl``)."""
    return parse_claude_lines(read_transcript_text(path).splitlines(), str(path))


def result_text(content: Any) -> str:
    """The text of a ``tool_result``'s content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, dict) and block.get("type") == "image":
                parts.append("[image]")
            elif isinstance(block, str):
                parts.append(block)
        return "\n".join(parts)
    return "" if content is None else json.dumps(content, ensure_ascii=False)[:10_000]


def tool_output(response: Any) -> tuple[str, int | None]:
    """Text and exit code of a tool's structured result (``toolUseResult`` or a hook's
    ``tool_response``): Bash gives ``stdout``/``stderr`` (and sometimes an exit code)."""
    if isinstance(response, str):
        return response, None
    if not isinstance(response, dict):
        return result_text(response), None
    code = next(
        (
            response[k]
            for k in ("exitCode", "exit_code", "returnCode", "returncode")
            if isinstance(response.get(k), int)
        ),
        None,
    )
    if "stdout" in response or "stderr" in response:
        text = "\n".join(str(response.get(k) or "") for k in ("stdout", "stderr")).strip()
        if response.get("interrupted"):
            text += "\n[interrupted]"
        return text, code
    if isinstance(response.get("file"), dict):  # Read: {"type": "text", "file": {"content": …}}
        return str(response["file"].get("content", "")), code
    if isinstance(response.get("structuredPatch"), list) and response.get("filePath"):
        # Edit: {"filePath", "oldString", "newString", "originalFile", "structuredPatch"}:
        # what changed, not the whole original file
        lines = [
            str(line)
            for hunk in response["structuredPatch"]
            if isinstance(hunk, dict)
            for line in hunk.get("lines", [])
        ]
        return "\n".join([f"updated {response['filePath']}", *lines]), code
    for key in ("content", "output", "result", "text"):
        if key in response:
            return result_text(response[key]), code
    return json.dumps(response, ensure_ascii=False)[:10_000], code


def response_images(response: Any) -> list[tuple[str, bytes]]:
    """``(extension, bytes)`` of each image in a tool's structured result: ``Read`` of
    an image (``{"type": "image", "file": {"base64": …, "type": "image/png"}}``) or
    content blocks with inline base64 images (an MCP screenshot tool). Images that
    do not decode are left out."""
    found: list[tuple[str, bytes] | None] = []
    blocks: Any = response
    if isinstance(response, dict):
        file = response.get("file")
        if response.get("type") == "image" and isinstance(file, dict):
            found.append(_decoded(file.get("base64"), file.get("type") or file.get("media_type")))
        blocks = response.get("content")
    for block in blocks if isinstance(blocks, list) else []:
        source = block.get("source") if isinstance(block, dict) else None
        if isinstance(source, dict) and block.get("type") == "image":
            if source.get("type") == "base64":
                found.append(_decoded(source.get("data"), source.get("media_type")))
    return [image for image in found if image is not None]


def _decoded(data: Any, mime: Any) -> tuple[str, bytes] | None:
    """``(extension, bytes)`` of base64 image data, or ``None`` when it does not decode."""
    if not isinstance(data, str):
        return None
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return str(mime or "image/png").split("/")[-1].split("+")[0] or "bin", decoded


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.request: list[str] = []
        self.steps: list[Step] = []
        self.images: list[tuple[str, bytes]] = []
        self.warnings: list[str] = []
        self.answer: list[str] = []
        self.opened = False
        self.acted = False  # the assistant did something since the last user text
        self.pending_user: list[str] = []
        self.pairing = Pairing()
        self.messages = 0

    def line(self, number: int, raw: str) -> None:
        record = json_line(number, raw, self.warnings)
        if not isinstance(record, dict) or record.get("isMeta") or record.get("isSynthetic"):
            return
        kind = record.get("type")
        message = record.get("message")
        if kind not in {"user", "assistant"} or not isinstance(message, dict):
            return
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.warnings.append(f"line {number}: message content is not text or blocks")
            return
        side = bool(record.get("isSidechain"))
        if kind == "assistant":
            self._assistant(blocks, side)
        else:
            self._user(number, blocks, record.get("toolUseResult"), side)

    def _assistant(self, blocks: list[Any], side: bool) -> None:
        self.messages += 1
        if self.pending_user and not side:
            self.steps.append(Step(kind="user", text="\n\n".join(self.pending_user)))
            self.pending_user = []
        texts = []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                args = block.get("input")
                given = block.get("id")
                self.steps.append(
                    Step(
                        kind="call",
                        call_id=self.pairing.call(
                            given if isinstance(given, str) else None, self.messages
                        ),
                        name=str(block.get("name", "?")),
                        arguments=args if isinstance(args, dict) else {},
                    )
                )
                self.answer = []
            elif block.get("type") == "text" and not side:
                texts.append(str(block.get("text", "")))
        if texts and not side:
            self.answer.extend(t for t in texts if t.strip())
        if not side:
            self.acted = True

    def _user(self, number: int, blocks: list[Any], structured: Any, side: bool) -> None:
        texts = []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "tool_result":
                given = block.get("tool_use_id")
                call_id, how = self.pairing.result(given if isinstance(given, str) else None)
                if how == "unknown":
                    self.warnings.append(f"line {number}: a result for no pending tool call")
                output = result_text(block.get("content"))
                code = None
                if structured is not None:
                    richer, code = tool_output(structured)
                    output = richer or output
                failed = bool(block.get("is_error"))
                content = block.get("content")
                images = [
                    image
                    for part in (content if isinstance(content, list) else [])
                    if isinstance(part, dict) and part.get("type") == "image"
                    if (image := self._image(number, part)) is not None
                ]
                self.steps.append(
                    Step(
                        kind="result",
                        call_id=call_id,
                        output=output,
                        ok=False if failed else None,
                        exit_code=code,
                        images=named_tool_images(call_id, images),
                    )
                )
            elif kind == "text" and not side:
                texts.append(str(block.get("text", "")))
            elif kind == "image" and not side:
                image = self._image(number, block)
                if image is not None:
                    self.images.append((f"image-{len(self.images) + 1}.{image[0]}", image[1]))
        text = "\n".join(t for t in texts if t.strip() and not not_the_users(t))
        if not text:
            return
        if not self.opened or (not self.acted and not self.pending_user):
            self.request.append(text)  # the first request (possibly in several lines)
            self.opened = True
        else:
            self.pending_user.append(text)  # a new request: a new task
            self.answer = []
        self.acted = False

    def _image(self, number: int, block: dict[str, Any]) -> tuple[str, bytes] | None:
        """``(extension, bytes)`` of an inline base64 image block, else ``None``."""
        source = block.get("source")
        if not isinstance(source, dict) or source.get("type") != "base64":
            self.warnings.append(f"line {number}: an image is not inline base64; skipped")
            return None
        image = _decoded(str(source.get("data", "")), source.get("media_type"))
        if image is None:
            self.warnings.append(f"line {number}: an image is not valid base64; skipped")
        return image


def parse_claude_lines(lines: list[str], source: str = "<transcript>") -> Transcript:
    """Parse transcript lines; raises :class:`TranscriptError` only when nothing usable is left."""
    reader = _Reader(source)
    for number, raw in enumerate(lines, start=1):
        reader.line(number, raw)
    if not reader.opened:
        raise TranscriptError(
            source,
            "no user prompt in the transcript"
            + (f" ({len(reader.warnings)} broken lines)" if reader.warnings else ""),
        )
    if reader.pending_user:
        raise TranscriptError(
            source, "the transcript ends with a user message: there is no answer to review"
        )
    if not reader.answer:
        raise TranscriptError(source, "the transcript has no final assistant text to review")
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer="\n\n".join(reader.answer),
        images=reader.images,
        steps=reader.steps,
        warnings=reader.warnings,
    )
