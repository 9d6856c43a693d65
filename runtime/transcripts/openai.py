"""Agent conversations as chat messages, read into session events.

Accepted: a JSON file holding ``{"messages": [...]}`` (with an optional
``system``) or a bare list of messages, in OpenAI chat-completions form or in
Anthropic Messages form (content blocks ``tool_use`` / ``tool_result``,
``image`` and ``document`` with a base64 ``source``).

* ``user`` content is a string or a list of parts: ``text``, ``image_url`` (data
  URLs are decoded into images; other URLs are noted, never fetched) and
  ``file`` (``filename`` + base64 ``file_data``, with or without a data-URL
  prefix) become the request text, images and attachments. The first user
  message opens the session; a later one (after the assistant replied) is a new
  user request, i.e. a new task.
* ``assistant`` ``tool_calls`` (``function.arguments`` a JSON string) or
  ``tool_use`` blocks are tool calls; ``tool`` messages (``tool_call_id``) or
  ``tool_result`` blocks are their results, with ``is_error`` as a failure. The
  legacy ``function_call`` / ``function`` pair is accepted too. Results are
  paired with calls as providers write them (:mod:`.pairing`): ids that repeat
  in every message or are missing, parallel calls, results out of order.
* The final assistant message's text is the answer under review.

Exit statuses are not guessed here: a result's ``Exit code: N`` or test-runner
summary is read from its text by the evidence functions when it is reviewed.
Problems that make the file unusable raise :class:`TranscriptError` naming the
file, the message and what is wrong; recoverable oddities become warnings.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from donecheck.actors.actions import read_action
from donecheck.actors.errors import TranscriptError
from donecheck.runtime.attachments import file_kind, why_missing
from donecheck.runtime.transcripts.pairing import Pairing

__all__ = [
    "MAX_TRANSCRIPT_BYTES",
    "Step",
    "Transcript",
    "json_line",
    "load_openai",
    "named_tool_images",
    "parse_openai",
    "read_transcript_text",
]

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
_DATA_URL = re.compile(r"^data:(?P<mime>[\w.+-]+/[\w.+-]+)?(?:;[^,;]+)*?(?P<b64>;base64)?,", re.S)


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded event, in conversation order."""

    kind: str  # "call" | "result" | "user"
    call_id: str = ""
    name: str = ""
    arguments: dict[str, Any] | str = field(default_factory=dict)
    output: str = ""
    ok: bool | None = None
    exit_code: int | None = None
    text: str = ""
    images: tuple[tuple[str, bytes], ...] = ()
    """A result's images (a screenshot, an image file read): ``(name, bytes)`` each."""


@dataclass(slots=True)
class Transcript:
    source: str
    request: str
    answer: str
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    images: list[tuple[str, bytes]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    form: str = "openai"
    """The import form it was read from (see :mod:`.detect`)."""
    request_known: bool = True
    """Whether the user's request is in the file (a ``claude -p`` stream and a ``codex
    exec --json`` log carry none: it was the command line's argument)."""
    notes: list[str] = field(default_factory=list)
    """What the reader left out or could not tell, for the report card."""


def json_line(number: int, raw: str, warnings: list[str]) -> Any:
    """One line of a JSON Lines transcript, decoded; ``None`` for a blank line, and
    for one that is not JSON (a warning says which line, and that it was skipped)."""
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        warnings.append(f"line {number}: not valid JSON ({exc.msg}); skipped")
        return None


def answer_in_calls(steps: Iterable[Step]) -> str:
    """The final answer an agent gave through a tool among ``steps`` (Roo Code's and
    Cline's ``attempt_completion``, Gemini CLI's ``complete_task``, OpenHands'
    ``finish``, SWE-agent's ``submit``: the action table's ``answer`` rows), or
    ``""``. A run that ends with such a call ended with that answer."""
    given = ""
    for step in steps:
        if step.kind == "call":
            action = read_action(step.name, step.arguments)
            if action.kind == "answer" and action.text.strip():
                given = action.text
    return given


def read_transcript_text(path: str | Path) -> str:
    """The text of a transcript file, or :class:`TranscriptError` naming what is wrong."""
    path = Path(path)
    source = str(path)
    try:
        info = path.stat()
    except OSError as exc:
        fallback = "no such file" if isinstance(exc, FileNotFoundError) else ""
        why = why_missing(path, fallback) or f"cannot read: {exc.strerror or exc}"
        raise TranscriptError(source, why) from None
    size = info.st_size
    if not stat.S_ISREG(info.st_mode):
        raise TranscriptError(source, f"not a regular file ({file_kind(info.st_mode)})")
    if size > MAX_TRANSCRIPT_BYTES:
        raise TranscriptError(
            source, f"file is {size} bytes, over the {MAX_TRANSCRIPT_BYTES} byte limit"
        )
    raw = path.read_bytes()
    if not raw.strip():
        raise TranscriptError(source, "file is empty")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TranscriptError(source, f"not UTF-8 text (byte {exc.start})") from None


def load_openai(path: str | Path) -> Transcript:
    """Read and parse one transcript file."""
    text = read_transcript_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptError(
            str(path), f"invalid JSON: {exc.msg} (column {exc.colno})", exc.lineno
        ) from None
    return parse_openai(data, str(path))


def parse_openai(data: Any, source: str = "<transcript>") -> Transcript:
    """Parse decoded JSON (``{"messages": [...]}`` or a list) into a :class:`Transcript`."""
    if isinstance(data, dict):
        if "messages" not in data:
            raise TranscriptError(source, 'expected a list of messages or {"messages": [...]}')
        messages = data["messages"]
    else:
        messages = data
    if not isinstance(messages, list):
        raise TranscriptError(source, f"messages must be a list, not {type(messages).__name__}")
    if not messages:
        raise TranscriptError(source, "the transcript has no messages")
    return _Reader(source).read(messages)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.attachments: list[tuple[str, bytes]] = []
        self.images: list[tuple[str, bytes]] = []
        self.steps: list[Step] = []
        self.request_parts: list[str] = []
        self.opened = False
        self.last_assistant: tuple[int, str, bool] | None = None  # (index, text, had calls)
        self.pending_user: list[str] = []
        self.legacy_calls: list[str] = []
        self.pairing = Pairing()

    def fail(self, index: int, role: str, problem: str) -> TranscriptError:
        return TranscriptError(self.source, f"message {index + 1} ({role}): {problem}")

    def read(self, messages: list[Any]) -> Transcript:
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                raise TranscriptError(
                    self.source, f"message {index + 1} is a {type(message).__name__}, not an object"
                )
            role = message.get("role")
            if not isinstance(role, str):
                raise TranscriptError(self.source, f"message {index + 1} has no role")
            if role in {"system", "developer"}:
                continue
            if role == "user":
                self._user(index, message)
            elif role == "assistant":
                self._assistant(index, message)
            elif role in {"tool", "function"}:
                self._tool(index, role, message)
            else:
                raise self.fail(
                    index, role, "unknown role (expected system, developer, user, assistant, tool)"
                )
        if not self.opened:
            raise TranscriptError(self.source, "no user message: nothing was asked")
        if self.pending_user:
            raise TranscriptError(
                self.source, "the transcript ends with a user message: there is no answer to review"
            )
        if self.last_assistant is None:
            raise TranscriptError(self.source, "no assistant message: there is no answer to review")
        index, answer, had_calls = self.last_assistant
        if had_calls and not answer.strip():
            raise TranscriptError(
                self.source,
                f"the transcript ends with tool calls (message {index + 1}), not a final answer",
            )
        return Transcript(
            source=self.source,
            request="\n\n".join(self.request_parts),
            answer=answer,
            attachments=self.attachments,
            images=self.images,
            steps=self.steps,
            warnings=self.warnings,
        )

    # ------------------------------------------------------------------ roles

    def _user(self, index: int, message: dict[str, Any]) -> None:
        content = message.get("content")
        if isinstance(content, list) and any(_is_block(b, "tool_result") for b in content):
            self._tool_results(index, content)  # Anthropic: results come as a user turn
            return
        text = self._content(index, "user", content, allow_files=True)
        if not self.opened:
            self.request_parts.append(text)
            self.opened = True
            return
        if self.last_assistant is None:  # user, user: one request in two messages
            self.request_parts.append(text)
            return
        self.pending_user.append(text)

    def _flush_user(self) -> None:
        if self.pending_user:
            self.steps.append(Step(kind="user", text="\n\n".join(self.pending_user)))
            self.pending_user = []

    def _assistant(self, index: int, message: dict[str, Any]) -> None:
        if not self.opened:
            raise self.fail(index, "assistant", "comes before any user message")
        self._flush_user()
        before = len(self.steps)
        content = message.get("content")
        uses: list[dict[str, Any]] = []
        if isinstance(content, list):
            uses = [b for b in content if _is_block(b, "tool_use")]
            content = [b for b in content if not _is_block(b, "tool_use")]
        text = self._content(index, "assistant", content, allow_files=False)
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise self.fail(index, "assistant", "tool_calls must be a list")
        for n, call in enumerate(calls):
            self._tool_call(index, n, call)
        for block in uses:
            arguments = block.get("input")
            given = block.get("id")
            self.steps.append(
                Step(
                    kind="call",
                    call_id=self.pairing.call(given if isinstance(given, str) else None, index),
                    name=str(block.get("name") or "?"),
                    arguments=arguments if isinstance(arguments, dict | str) else {},
                )
            )
        legacy = message.get("function_call")
        if isinstance(legacy, dict):
            call_id = self.pairing.call(f"legacy-{index + 1}", index)
            self._tool_call(index, 0, {"id": call_id, "function": legacy}, registered=True)
            self.legacy_calls.append(call_id)
        acted = bool(calls) or bool(uses) or isinstance(legacy, dict)
        given = answer_in_calls(self.steps[before:])
        self.last_assistant = (index, "\n\n".join(t for t in (text, given) if t.strip()), acted)

    def _tool_call(self, index: int, n: int, call: Any, *, registered: bool = False) -> None:
        where = f"tool_calls[{n}]"
        if not isinstance(call, dict):
            raise self.fail(index, "assistant", f"{where} is not an object")
        function = call.get("function")
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise self.fail(index, "assistant", f"{where} has no function name")
        given = call.get("id")
        if registered:
            call_id = str(given)
        else:  # unique in the transcript, whatever the provider reused or left out
            call_id = self.pairing.call(given if isinstance(given, str) else None, index)
        raw_args = function.get("arguments", "{}")
        arguments: dict[str, Any] | str
        if isinstance(raw_args, dict):
            arguments = raw_args
        elif isinstance(raw_args, str):
            try:
                decoded = json.loads(raw_args) if raw_args.strip() else {}
            except json.JSONDecodeError:
                decoded = raw_args
                self.warnings.append(
                    f"message {index + 1}: {where} arguments are not valid JSON; kept as text"
                )
            arguments = decoded if isinstance(decoded, dict) else raw_args
        else:
            raise self.fail(index, "assistant", f"{where} arguments must be a JSON string")
        self.steps.append(
            Step(kind="call", call_id=call_id, name=function["name"], arguments=arguments)
        )

    def _tool(self, index: int, role: str, message: dict[str, Any]) -> None:
        self._flush_user()
        if role == "function":
            if not self.legacy_calls:
                raise self.fail(index, role, "a function result with no function_call before it")
            call_id = self.pairing.result(self.legacy_calls.pop(0))[0]
        else:
            given = message.get("tool_call_id")
            given = given if isinstance(given, str) and given else None
            if given is None and not self.pairing.unanswered:
                raise self.fail(index, role, "tool_call_id is missing, and no call is waiting")
            call_id = self._paired(index, given)
        images: list[tuple[str, bytes]] = []
        output = self._content(
            index, role, message.get("content"), allow_files=False, tool_images=images
        )
        self.steps.append(
            Step(
                kind="result",
                call_id=call_id,
                output=output,
                images=named_tool_images(call_id, images),
            )
        )

    def _paired(self, index: int, given: str | None) -> str:
        call_id, how = self.pairing.result(given)
        if how == "unknown":
            self.warnings.append(
                f"message {index + 1}: a result for no pending tool call ({given!r}); kept"
            )
        elif how == "position" and given:
            self.warnings.append(
                f"message {index + 1}: result id {given!r} matches no pending call; paired"
                " by position"
            )
        return call_id

    def _tool_results(self, index: int, blocks: list[Any]) -> None:
        """Anthropic Messages form: ``tool_result`` blocks in a user turn."""
        self._flush_user()
        for block in blocks:
            if not _is_block(block, "tool_result"):
                continue
            given = block.get("tool_use_id")
            call_id = self._paired(index, given if isinstance(given, str) else None)
            content = block.get("content")
            output = _block_text(content)
            images: list[tuple[str, bytes]] = []
            for n, part in enumerate(content if isinstance(content, list) else []):
                if _is_block(part, "image"):
                    image = self._image(index, "user", n, part)
                    if image is not None:
                        images.append(image)
            failed = bool(block.get("is_error"))
            self.steps.append(
                Step(
                    kind="result",
                    call_id=call_id,
                    output=output,
                    ok=False if failed else None,
                    images=named_tool_images(call_id, images),
                )
            )

    # --------------------------------------------------------------- content

    def _content(
        self,
        index: int,
        role: str,
        content: Any,
        *,
        allow_files: bool,
        tool_images: list[tuple[str, bytes]] | None = None,
    ) -> str:
        """The text of a message's content. Images and files of a user message become
        the request's; images of a tool message go to ``tool_images``."""
        if content is None:
            return ""
        if isinstance(content, str):
            return content
        if not isinstance(content, list):
            raise self.fail(
                index,
                role,
                f"content must be a string or a list of parts, not {type(content).__name__}",
            )
        texts: list[str] = []
        for n, part in enumerate(content):
            if isinstance(part, str):
                texts.append(part)
                continue
            if not isinstance(part, dict):
                raise self.fail(index, role, f"content[{n}] is not an object")
            kind = part.get("type")
            if not isinstance(kind, str):
                self.warnings.append(
                    f"message {index + 1} ({role}): content[{n}] has no type; ignored"
                )
                continue
            if kind in {"text", "input_text", "output_text"}:
                text = part.get("text")
                if not isinstance(text, str):
                    raise self.fail(index, role, f"content[{n}] text part has no text")
                texts.append(text)
            elif kind == "refusal":
                texts.append(str(part.get("refusal", "")))
            elif kind in {"image_url", "image"} and tool_images is not None:
                image = self._image(index, role, n, part)
                if image is not None:
                    tool_images.append(image)
                    texts.append("[image]")
            elif kind in {"image_url", "file"} and allow_files:
                self._file_part(index, role, n, part)
            elif kind in {"image", "document"} and allow_files:
                self._source_part(index, role, n, part)
            elif kind in {"image_url", "file", "image", "document"}:
                self.warnings.append(f"message {index + 1} ({role}): content[{n}] {kind} ignored")
            else:
                self.warnings.append(
                    f"message {index + 1} ({role}): content[{n}] of type {kind!r} ignored"
                )
        return "\n".join(texts)

    def _image(
        self, index: int, role: str, n: int, part: dict[str, Any]
    ) -> tuple[str, bytes] | None:
        """``(extension, bytes)`` of an ``image_url`` part (a data URL) or an Anthropic
        ``image`` block (inline base64); ``None``, with a warning, for a link."""
        if part.get("type") == "image":
            source = part.get("source")
            if not isinstance(source, dict) or source.get("type") != "base64":
                self.warnings.append(
                    f"message {index + 1}: content[{n}] image is not inline base64; skipped"
                )
                return None
            data = self._b64(index, role, n, str(source.get("data", "")))
            mime = str(source.get("media_type") or "")
            return (mime.split("/")[-1].split("+")[0] or "bin") if mime else "bin", data
        spec = part.get("image_url")
        url = spec.get("url") if isinstance(spec, dict) else spec
        if not isinstance(url, str):
            raise self.fail(index, role, f"content[{n}] image_url has no url")
        if not url.startswith("data:"):
            self.warnings.append(
                f"message {index + 1}: image {url[:80]!r} is a link; not fetched (no network)"
            )
            return None
        given, data = self._decode_data_url(index, role, n, url)
        return (given or "image/png").split("/")[-1].split("+")[0], data

    def _file_part(self, index: int, role: str, n: int, part: dict[str, Any]) -> None:
        if part["type"] == "image_url":
            image = self._image(index, role, n, part)
            if image is not None:
                self.images.append((f"image-{len(self.images) + 1}.{image[0]}", image[1]))
            return
        spec = part.get("file")
        if not isinstance(spec, dict):
            raise self.fail(index, role, f"content[{n}] file part has no 'file' object")
        name = spec.get("filename")
        file_data = spec.get("file_data")
        if not isinstance(file_data, str):
            if isinstance(spec.get("file_id"), str):
                self.warnings.append(
                    f"message {index + 1}: file {spec['file_id']!r} is referenced by id only;"
                    " its content is not in the transcript"
                )
                return
            raise self.fail(index, role, f"content[{n}] file part has no file_data")
        if file_data.startswith("data:"):
            _, data = self._decode_data_url(index, role, n, file_data)
        else:
            data = self._b64(index, role, n, file_data)
        if not isinstance(name, str) or not name:
            name = f"attachment-{len(self.attachments) + 1}"
        self.attachments.append((name, data))

    def _source_part(self, index: int, role: str, n: int, part: dict[str, Any]) -> None:
        """Anthropic ``image`` / ``document`` blocks with a base64 ``source``."""
        if part["type"] == "image":
            image = self._image(index, role, n, part)
            if image is not None:
                self.images.append((f"image-{len(self.images) + 1}.{image[0]}", image[1]))
            return
        source = part.get("source")
        if not isinstance(source, dict) or source.get("type") != "base64":
            self.warnings.append(
                f"message {index + 1}: content[{n}] {part['type']} is not inline base64; skipped"
            )
            return
        data = self._b64(index, role, n, str(source.get("data", "")))
        mime = str(source.get("media_type") or "")
        ext = (mime.split("/")[-1].split("+")[0] or "bin") if mime else "bin"
        title = part.get("title")
        name = title if isinstance(title, str) and title else None
        self.attachments.append((name or f"attachment-{len(self.attachments) + 1}.{ext}", data))

    def _decode_data_url(self, index: int, role: str, n: int, url: str) -> tuple[str | None, bytes]:
        match = _DATA_URL.match(url)
        if match is None:
            raise self.fail(index, role, f"content[{n}] has a malformed data URL")
        body = url[match.end() :]
        if match.group("b64"):
            return match.group("mime"), self._b64(index, role, n, body)
        return match.group("mime"), unquote_to_bytes(body)

    def _b64(self, index: int, role: str, n: int, text: str) -> bytes:
        try:
            return base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise self.fail(index, role, f"content[{n}] is not valid base64") from None


def named_tool_images(
    call_id: str, images: list[tuple[str, bytes]]
) -> tuple[tuple[str, bytes], ...]:
    """``(extension, bytes)`` pairs named after the tool call that returned them."""
    safe = re.sub(r"[^\w.-]+", "_", call_id)[:60] or "tool"
    return tuple((f"{safe}-image-{k}.{ext}", data) for k, (ext, data) in enumerate(images, 1))


def _is_block(block: Any, kind: str) -> bool:
    return isinstance(block, dict) and block.get("type") == kind


def _block_text(content: Any) -> str:
    """The text of a ``tool_result``'s content: a string, or blocks (text kept, an
    image noted)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif _is_block(block, "text"):
                parts.append(str(block.get("text", "")))
            elif _is_block(block, "image"):
                parts.append("[image]")
        return "\n".join(parts)
    return "" if content is None else json.dumps(content, ensure_ascii=False)[:10_000]
