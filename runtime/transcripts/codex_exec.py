"""``codex exec --json`` output: the events Codex prints on stdout, read into session events.

One JSON object per line (``codex-rs/exec/src/exec_events.rs``)::

    {"type": "thread.started", "thread_id": …}
    {"type": "turn.started"}
    {"type": "item.started" | "item.updated" | "item.completed", "item": {"id", "type", …}}
    {"type": "turn.completed", "usage": {…}} | {"type": "turn.failed", "error": {…}}
    {"type": "error", "message": …}

Items: ``command_execution`` (``command``, ``aggregated_output``, ``exit_code``,
``status``) is a shell call and its result; ``file_change`` (``changes`` of ``path``
and ``kind`` add/update/delete, ``status``) a write of those files, its content not
shown; ``mcp_tool_call`` (``server``, ``tool``, ``arguments``, ``result``/``error``) a
tool call; ``collab_tool_call`` (``spawn_agent``, ``send_input``, ``wait``,
``close_agent``, with ``agents_states``) a sub-agent call whose result is what the
agent received — the sub-agent's state and message; its own steps are not in the
stream, so they are never the parent's evidence; a ``request_user_input`` event's
questions stand as the answer unless the agent says more after them;
``agent_message`` the agent's text (the last one is the answer);
``reasoning``, ``plan``, ``todo_list``, ``web_search`` are not evidence; ``error``
items and events are warnings. Only completed items count: a command still running
when the stream ends is a call with no result.

The user's prompt is not in the stream (it was ``codex exec``'s argument): the
transcript's request is unknown (``request_known=False``) unless given another way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.codex import codex_arguments
from donecheck.runtime.transcripts.openai import Step, Transcript, json_line, read_transcript_text

__all__ = ["EXEC_TYPES", "load_codex_exec", "parse_codex_exec_lines"]

EXEC_TYPES = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "item.plan.delta",
        "request_user_input",
        "error",
    }
)


def load_codex_exec(path: str | Path) -> Transcript:
    return parse_codex_exec_lines(read_transcript_text(path).splitlines(), str(path))


def _command(raw: Any) -> str:
    """``/bin/bash -lc 'pytest -q'`` → ``pytest -q`` (the shell wrapper Codex adds)."""
    import shlex

    text = str(raw or "")
    try:
        argv = shlex.split(text)
    except ValueError:
        return text
    shaped = codex_arguments("shell", {"command": argv})
    return str(shaped.get("command", text)) if isinstance(shaped, dict) else text


def parse_codex_exec_lines(lines: list[str], source: str = "<codex exec>") -> Transcript:
    """Read ``codex exec --json`` lines; :class:`TranscriptError` when none is an event."""
    steps: list[Step] = []
    warnings: list[str] = []
    answer = ""
    events = 0
    pending: dict[str, int] = {}  # item id → index of its call step, for a later result
    for number, raw in enumerate(lines, start=1):
        record = json_line(number, raw, warnings)
        if not isinstance(record, dict) or record.get("type") not in EXEC_TYPES:
            continue
        events += 1
        kind = record["type"]
        if kind == "request_user_input":  # the agent asks the user and waits
            questions = [
                str(q.get("question") or q.get("header") or "")
                for q in record.get("questions") or []
                if isinstance(q, dict)
            ]
            answer = " ".join(q for q in questions if q) or answer
            continue
        if kind == "error" or kind == "turn.failed":
            error = record.get("error") if kind == "turn.failed" else record
            message = error.get("message") if isinstance(error, dict) else error
            warnings.append(f"line {number}: Codex reported an error: {str(message)[:300]}")
            continue
        item = record.get("item")
        if not isinstance(item, dict) or kind not in {"item.started", "item.completed"}:
            continue
        item_id = str(item.get("id") or f"line{number}")
        call_id = f"exec-{item_id}"
        item_type = item.get("type")
        if item_type == "agent_message" and kind == "item.completed":
            answer = str(item.get("text") or "")
        elif item_type == "error":
            warnings.append(f"line {number}: {str(item.get('message'))[:300]}")
        elif item_type == "command_execution":
            if item_id not in pending:
                pending[item_id] = len(steps)
                steps.append(
                    Step(
                        kind="call",
                        call_id=call_id,
                        name="exec_command",
                        arguments={"command": _command(item.get("command"))},
                    )
                )
            if kind == "item.completed":
                code = item.get("exit_code")
                failed = item.get("status") in {"failed", "declined"}
                steps.append(
                    Step(
                        kind="result",
                        call_id=call_id,
                        output=str(item.get("aggregated_output") or ""),
                        exit_code=code if isinstance(code, int) else None,
                        ok=False if failed and not isinstance(code, int) else None,
                    )
                )
        elif item_type == "file_change" and kind == "item.completed":
            changes = [c for c in item.get("changes") or [] if isinstance(c, dict)]
            verbs = {"add": "Add", "delete": "Delete", "update": "Update"}
            patch = "".join(
                f"*** {verbs.get(str(c.get('kind')), 'Update')} File: {c.get('path')}\n"
                for c in changes
            )
            steps.append(
                Step(
                    kind="call",
                    call_id=call_id,
                    name="apply_patch",
                    arguments={"input": f"*** Begin Patch\n{patch}*** End Patch\n"},
                )
            )
            failed = item.get("status") == "failed"
            steps.append(
                Step(
                    kind="result",
                    call_id=call_id,
                    output="patch failed" if failed else "patch applied",
                    # the rollout's apply_patch output says "Exit code: 0" for the same
                    # change: the same status here
                    exit_code=None if failed else 0,
                    ok=False if failed else None,
                )
            )
        elif item_type == "collab_tool_call" and kind == "item.completed":
            # a Codex sub-agent: what the agent receives is its state and report, never
            # the sub-agent's own steps (they are not in this stream)
            prompt = item.get("prompt")
            steps.append(
                Step(
                    kind="call",
                    call_id=call_id,
                    name=f"collab.{item.get('tool')}",
                    arguments={
                        "prompt": prompt if isinstance(prompt, str) else "",
                        "receivers": list(item.get("receiver_thread_ids") or []),
                    },
                )
            )
            states = item.get("agents_states")
            report = "\n".join(
                f"{thread}: {state.get('status')}"
                + (f" — {state['message']}" if state.get("message") else "")
                for thread, state in (states.items() if isinstance(states, dict) else [])
                if isinstance(state, dict)
            )
            failed = item.get("status") == "failed"
            steps.append(
                Step(kind="result", call_id=call_id, output=report, ok=False if failed else None)
            )
        elif item_type == "mcp_tool_call" and kind == "item.completed":
            name = f"{item.get('server')}.{item.get('tool')}"
            arguments = item.get("arguments")
            steps.append(
                Step(
                    kind="call",
                    call_id=call_id,
                    name=name,
                    arguments=arguments if isinstance(arguments, dict) else {},
                )
            )
            error = item.get("error")
            result = item.get("result")
            content = result.get("content") if isinstance(result, dict) else None
            texts = [
                str(part.get("text"))
                for part in content or []
                if isinstance(part, dict) and part.get("type") == "text"
            ]
            output = (
                str(error.get("message"))
                if isinstance(error, dict)
                else "\n".join(texts) or json.dumps(result, ensure_ascii=False)[:20_000]
            )
            steps.append(
                Step(
                    kind="result",
                    call_id=call_id,
                    output=output,
                    ok=False if error else None,
                )
            )
    if not events:
        raise TranscriptError(source, "no codex exec --json events in the file")
    return Transcript(
        source=source,
        request="",
        answer=answer,
        steps=steps,
        warnings=warnings,
        form="codex-exec",
        request_known=False,
    )
