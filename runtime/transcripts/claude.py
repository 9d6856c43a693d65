"""Claude Code transcripts (JSONL) and hook payloads, read into session events.

Two forms, told apart by their content:

* a **session file** (``~/.claude/projects/<project>/<session>.jsonl``): lines with a
  ``type`` (``user``, ``assistant``, and since 2.1 many bookkeeping kinds —
  attachments, queue operations, cost state — each stamped with ``sessionId``) and a
  ``message``;
* a **stream** (``claude -p --output-format stream-json --verbose``): the same
  ``user``/``assistant`` messages between a ``system``/``init`` line and a
  ``result`` line, with ``system`` lines for hooks and tasks. The prompt was the
  command line's argument and is not in it: ``request_known`` is false.

A ``message``'s ``content`` is a string or a list of blocks: ``text``, ``tool_use``
(``id``, ``name``, ``input``), ``tool_result`` (``tool_use_id``, ``content``,
``is_error``), ``image`` (base64 ``source``). A user line carrying tool results may
also hold the tool's structured result (``toolUseResult`` in a session file,
``tool_use_result`` in a stream; for Bash ``stdout``/``stderr``/…), which is
preferred to the text. Unknown fields are ignored; a line that is not valid JSON is
reported with its line number in the warnings and the rest is read.

Who said what: lines the client injected (``isMeta``, ``isSynthetic`` — a skill's
SKILL.md, a reminder) and user text the user never typed (:mod:`.roles`) are never
the request. A sub-agent's lines (``isSidechain``, or ``parent_tool_use_id`` in a
stream) give neither the request nor the answer; its tool calls are evidence only
once its report reached the agent — the ``Agent``/``Task`` call's result, or for a
background one its completed ``task_notification`` — otherwise they are left out
and the card says so.

Event ids come from Claude's own ids (``tool_use_id``), so replaying the same
transcript at every stop adds nothing twice.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from donecheck.actors.actions import read_action
from donecheck.actors.errors import TranscriptError
from donecheck.actors.evidence.background import notices
from donecheck.actors.evidence.pairing import TASK_RESULT
from donecheck.runtime.transcripts.openai import (
    Step,
    Transcript,
    json_line,
    named_tool_images,
    read_transcript_text,
)
from donecheck.runtime.transcripts.pairing import Pairing
from donecheck.runtime.transcripts.roles import continuation, not_the_users

__all__ = [
    "load_claude_jsonl",
    "merged",
    "not_typed",
    "parse_claude_lines",
    "response_images",
    "result_text",
    "subagent_files",
    "tool_output",
]


def load_claude_jsonl(path: str | Path) -> Transcript:
    """Read a Claude Code session transcript (``~/.claude/projects/…/<session>.jsonl``),
    with its sub-agents' files beside it."""
    subagents = [read_transcript_text(f).splitlines() for f in subagent_files(Path(path))]
    return parse_claude_lines(read_transcript_text(path).splitlines(), str(path), subagents)


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
        task = response.get("backgroundTaskId")
        if isinstance(task, str) and task:  # what Claude Code tells the model of it
            text = f"{text}\nCommand running in background with ID: {task}".strip()
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


_NOT_TYPED = (
    "isMeta",  # reminders, hook context, caveats
    "is_meta",
    "isSynthetic",  # a skill's SKILL.md, host-composed context
    "client_composed",
    "seeded_summon",
    "text_not_typed",
    "textNotTyped",
    "synthetic_message",
    "hidden_from_transcript",
    "isCompactSummary",  # the summary that replaces a compacted conversation
    "isVisibleInTranscriptOnly",
    "turnCompanion",
)
"""Flags with which Claude Code marks a line no person typed. The CLI's own test of
"not human" (2.1.332, ``MG``/``k1r`` in the bundled ``cli.js``) checks ``isSynthetic``,
``is_meta``, ``isMeta``, ``client_composed``, ``seeded_summon``, ``text_not_typed``,
``synthetic_message``, ``hidden_from_transcript`` and an ``initiator`` other than
``user``; its session reader also skips ``isCompactSummary``, ``turnCompanion`` and
``isVisibleInTranscriptOnly`` lines."""


def not_typed(record: dict[str, Any]) -> bool:
    """A line Claude Code marks as not typed by a person (:data:`_NOT_TYPED`)."""
    if any(bool(record.get(flag)) for flag in _NOT_TYPED):
        return True
    initiator = record.get("initiator")
    return initiator is not None and initiator != "user"


_NOTIFIED = re.compile(
    r"<task-notification>\s*<task-id>([^<]*)</task-id>\s*<tool-use-id>([^<]*)</tool-use-id>"
    r".*?<status>completed</status>",
    re.S,
)


_CANCELLED = re.compile(
    r"\s*(?:<tool_use_error>)?\s*Sibling tool call errored\s*(?:</tool_use_error>)?\s*$"
)
NOT_RUN = "[not run: Claude Code cancelled this call because a parallel tool call failed]"
_REJECTED = re.compile(
    r"\s*(?:User rejected tool use|The user doesn't want to proceed with this tool use)"
)
REJECTED = "[not run: the user rejected this tool call]"
"""The result DoneCheck records for a call Claude Code cancelled before it ran."""


def _finished_shell(structured: Any) -> bool:
    """A Bash result Claude Code did not mark as an error, of a command that ran to
    its end in the foreground: it exited 0 (Claude Code marks any other exit
    "Exit code N", or explains it in ``returnCodeInterpretation``: grep's 1 is "No
    matches found"). Not one interrupted or sent to the background."""
    return (
        isinstance(structured, dict)
        and ("stdout" in structured or "stderr" in structured)
        and not structured.get("interrupted")
        and not structured.get("backgroundTaskId")
        and "returnCodeInterpretation" not in structured
    )


def _launched(structured: Any) -> bool:
    """An ``Agent`` call's result that only says the sub-agent started in the
    background (``{"isAsync": true, "status": "async_launched", …}``)."""
    return isinstance(structured, dict) and (
        structured.get("isAsync") is True or structured.get("status") == "async_launched"
    )


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
        self.stream = False
        self.result = ""
        self.failed = ""
        """The CLI's own error, when its result record says the run failed."""
        # sub-agents (stream-json: lines with ``parent_tool_use_id``): each step's
        # parent call, and the parent calls whose result reached the agent
        self.side_of: dict[int, str] = {}
        self.received: set[str] = set()
        self.agent_calls: set[str] = set()
        self.side_lines = 0
        self.alone = False  # a sub-agent's file read on its own: its lines are the conversation

    def line(self, number: int, raw: str) -> None:
        record = json_line(number, raw, self.warnings)
        if not isinstance(record, dict) or not_typed(record):
            return
        kind = record.get("type")
        if kind == "system" and record.get("subtype") == "init":
            self.stream = True  # `claude -p --output-format stream-json`
            self.answer = []  # each turn of the agent starts with one: its text is the answer
        if kind == "result" and isinstance(record.get("result"), str):
            self.result = str(record["result"])  # the run's final text, as the CLI gave it
        if kind == "result":
            body = record if "subtype" in record else record.get("message")
            if isinstance(body, dict) and body.get("is_error"):
                # a stream's last record: the run failed (it may have failed to start)
                self.stream = True
                errors = [str(e).split("\n", 1)[0] for e in body.get("errors") or []]
                self.failed = "; ".join(dict.fromkeys(errors[:3])) or str(body.get("subtype"))
        if kind == "system" and record.get("subtype") == "task_notification":
            # stream-json: a background sub-agent's report reached the agent
            if record.get("status") == "completed":
                self._heard(record.get("tool_use_id"), record.get("task_id"))
        message = record.get("message")
        if kind not in {"user", "assistant"} or not isinstance(message, dict):
            return
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.warnings.append(f"line {number}: message content is not text or blocks")
            return
        # a sub-agent's line: marked in a session file, or (stream-json) by the tool
        # call of the parent it works for
        # whose line: the agent's, or a sub-agent's — named by the parent's call
        # (stream-json) or by its agent id (a sub-agent file beside the session)
        parent = record.get("parent_tool_use_id")
        if not parent and record.get("isSidechain") and record.get("agentId"):
            parent = f"agent:{record['agentId']}"
        if self.alone:
            parent = None
        side = (bool(record.get("isSidechain")) or bool(parent)) and not self.alone
        self.side_lines += side
        first = len(self.steps)
        if kind == "assistant":
            self._assistant(blocks, side)
        else:
            # the tool's structured result: ``toolUseResult`` in a session file,
            # ``tool_use_result`` in stream-json
            structured = record.get("toolUseResult", record.get("tool_use_result"))
            self._user(number, blocks, structured, side)
        if parent:
            self.side_of.update((n, str(parent)) for n in range(first, len(self.steps)))

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
                starts_agent = read_action(
                    str(block.get("name", "?")), args if isinstance(args, dict) else {}
                ).kind
                if starts_agent == "sub-agent" and isinstance(given, str):
                    self.agent_calls.add(given)
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
                if failed and _CANCELLED.match(output):
                    # Claude Code never ran it: a parallel call beside it failed first
                    failed, output = False, NOT_RUN
                elif failed and _REJECTED.match(output):
                    # the user said no: nothing ran, and nothing of the agent's failed
                    failed, output = False, REJECTED
                elif code is None and not failed and _finished_shell(structured):
                    code = 0  # Bash marks a non-zero exit as an error ("Exit code 1")
                if given in self.agent_calls and not _launched(structured):
                    # a sub-agent's report, as the result of the call that started it
                    agent = structured.get("agentId") if isinstance(structured, dict) else None
                    self._heard(given, agent)
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
        for t in texts:  # a background sub-agent's report, as a notification
            for agent, call in _NOTIFIED.findall(t):
                self._heard(call, agent)
            for task, notice in notices(t):  # a background command's end: its result
                self.steps.append(
                    Step(kind="result", call_id=f"{TASK_RESULT}{task}", output=notice)
                )
        text = "\n".join(t for t in texts if t.strip() and not not_the_users(t))
        if not text:
            if any(continuation(t) or t.lstrip().startswith("<task-notification>") for t in texts):
                self.answer = []  # the agent answers again: that answer is the final one
            return
        if not self.opened or (not self.acted and not self.pending_user):
            self.request.append(text)  # the first request (possibly in several lines)
            self.opened = True
        else:
            self.pending_user.append(text)  # a new request: a new task
            self.answer = []
        self.acted = False

    def _heard(self, call: Any, agent: Any) -> None:
        """The sub-agent started by ``call`` (agent id ``agent``) reported back."""
        if call:
            self.received.add(str(call))
        if agent:
            self.received.add(f"agent:{agent}")

    def kept_apart(self) -> tuple[list[Step], list[str]]:
        """The steps the agent can rely on, and a note per sub-agent left out: a
        sub-agent's tool calls are evidence only once its report reached the agent
        (its ``Agent`` call's result, or the notification of a background one)."""
        unheard: dict[str, int] = {}
        steps = []
        for n, step in enumerate(self.steps):
            parent = self.side_of.get(n)
            if parent is not None and parent not in self.received:
                unheard[parent] = unheard.get(parent, 0) + 1
            else:
                steps.append(step)
        notes = [
            f"the sub-agent of call {parent} never reported back to the agent: its {count}"
            " step(s) are not evidence"
            for parent, count in unheard.items()
        ]
        return steps, notes

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


_TIMESTAMP = re.compile(r'"timestamp"\s*:\s*"([^"]+)"')


def merged(lines: list[str], subagents: Sequence[list[str]]) -> list[str]:
    """The session's lines and its sub-agents' (``<session>/subagents/agent-*.jsonl``)
    in the order they were written, by each line's ``timestamp`` (a line without one
    keeps the place after the line before it)."""
    if not subagents:
        return lines
    keyed: list[tuple[str, int, int, str]] = []
    for rank, block in enumerate([lines, *subagents]):
        stamp = ""
        for number, raw in enumerate(block):
            found = _TIMESTAMP.search(raw[:4000]) or _TIMESTAMP.search(raw)
            stamp = found.group(1) if found else stamp
            keyed.append((stamp, rank, number, raw))
    keyed.sort(key=lambda k: k[:3])
    return [k[3] for k in keyed]


def parse_claude_lines(
    lines: list[str], source: str = "<transcript>", subagents: Sequence[list[str]] = ()
) -> Transcript:
    """Parse transcript lines (and the lines of its sub-agents' files); raises
    :class:`TranscriptError` only when nothing usable is left."""
    reader = _read(merged(lines, subagents), source, alone=False)
    notes: list[str] = []
    if not reader.opened and not reader.answer and reader.side_lines and not subagents:
        reader = _read(lines, source, alone=True)
        notes.append(
            "A sub-agent's conversation, read on its own: its request is the prompt the"
            " parent agent gave it, not the user's."
        )
    if not reader.opened and not reader.stream and not reader.steps and not reader.answer:
        raise TranscriptError(
            source,
            "no user prompt in the transcript"
            + (f" ({len(reader.warnings)} broken lines)" if reader.warnings else ""),
        )
    if reader.pending_user and not reader.stream:
        raise TranscriptError(
            source, "the transcript ends with a user message: there is no answer to review"
        )
    answer = "\n\n".join(reader.answer) or reader.result
    steps, unheard = reader.kept_apart()
    if reader.failed and not answer:
        notes.append(f"The CLI ended the run with an error and no answer: {reader.failed[:300]}")
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer=answer,
        images=reader.images,
        steps=steps,
        warnings=reader.warnings,
        notes=[*notes, *unheard],
        form="claude-stream" if reader.stream else "claude-code",
        request_known=reader.opened,
    )


def _read(lines: list[str], source: str, *, alone: bool) -> _Reader:
    reader = _Reader(source)
    reader.alone = alone
    for number, raw in enumerate(lines, start=1):
        reader.line(number, raw)
    return reader


def subagent_files(path: Path) -> list[Path]:
    """The sub-agent conversations Claude Code keeps beside a session file:
    ``<session>.jsonl`` → ``<session>/subagents/agent-*.jsonl``."""
    folder = path.with_suffix("") / "subagents"
    return sorted(folder.glob("agent-*.jsonl")) if folder.is_dir() else []
