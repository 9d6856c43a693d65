"""Harbor ATIF trajectories (``trajectory.json``), read into session events.

ATIF — the Agent Trajectory Interchange Format, Harbor's RFC 0001 — is one JSON
object (the schema as Harbor 0.26's pydantic models define it, ``ATIF-v1.0`` …
``ATIF-v1.8``)::

    {"schema_version": "ATIF-v1.7", "session_id": …, "agent": {"name", "version",
     "model_name"}, "steps": [{"step_id", "source": "system"|"user"|"agent",
     "message": str | [content parts], "tool_calls": [{"tool_call_id",
     "function_name", "arguments"}], "observation": {"results": [{"source_call_id",
     "content", "subagent_trajectory_ref": [{"trajectory_id", "session_id",
     "trajectory_path"}], "extra"}]}, "metrics", "is_copied_context", "extra"}],
     "final_metrics": {…}, "subagent_trajectories": [<trajectory>, …]}

Read the way Harbor's converters write it (``harbor.agents.installed.claude_code``
and ``codex``):

* ``system`` steps are the system prompt: not read. ``user`` steps are the request
  unless the client injected them (Harbor keeps Claude Code's ``<system-reminder>``,
  ``<task-notification>`` and a skill's SKILL.md as user steps, and Codex's
  environment context: :mod:`.roles` tells them apart);
* an ``agent`` step's text is the answer when no tool call follows it; its tool
  calls are calls, each observation result the result of its ``source_call_id``.
  A result's exit status comes from the tool's structured result when the
  converter kept it (``extra.tool_result_metadata.tool_use_result`` — the Claude
  Code session file's ``toolUseResult``, read as the session reader reads it),
  else from Codex's ``metadata.exit_code`` or the ``[exit_code] N`` line Harbor
  writes;
* sub-agents: steps Harbor marks ``extra.is_sidechain`` (Claude Code's sub-agent
  conversations, merged into the parent's by time) give neither request nor
  answer, and their tool calls count only once a sub-agent's report reached the
  agent; a result's ``subagent_trajectory_ref`` to an embedded (or a neighbouring
  file's) trajectory brings that trajectory's calls in before the result that
  reported them;
* ``final_metrics`` — the agent's own token use and cost — is noted on the card.

Not read: images and audio in messages (named in the warnings).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from donecheck.actors.actions import read_action
from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.claude import tool_output
from donecheck.runtime.transcripts.codex import codex_arguments, exit_status
from donecheck.runtime.transcripts.openai import (
    Step,
    Transcript,
    answer_in_calls,
    read_transcript_text,
)
from donecheck.runtime.transcripts.roles import continuation, not_the_users

__all__ = ["is_atif", "load_atif", "parse_atif"]

MAX_SUBAGENT_DEPTH = 3
"""How deep sub-agent trajectories are followed (a sub-agent's sub-agent …)."""

_EXIT_LINE = re.compile(r"^\[exit_code\] (-?\d+)\s*$", re.M)
_NOTIFIED = re.compile(r"<tool-use-id>([^<]*)</tool-use-id>.*?<status>completed</status>", re.S)
_LAUNCHED = re.compile(r"Async agent launched|async_launched")


def is_atif(data: Any) -> bool:
    """A decoded JSON document that is an ATIF trajectory."""
    return (
        isinstance(data, dict)
        and str(data.get("schema_version", "")).startswith("ATIF-v")
        and isinstance(data.get("steps"), list)
    )


def load_atif(path: str | Path) -> Transcript:
    source = str(path)
    try:
        data = json.loads(read_transcript_text(path))
    except json.JSONDecodeError as exc:
        raise TranscriptError(source, f"invalid JSON: {exc.msg}", exc.lineno) from None
    return parse_atif(data, source, Path(path).parent)


def _text(message: Any, warnings: list[str], where: str) -> str:
    """The text of a message or result content: a string, or content parts."""
    if isinstance(message, str):
        return message
    if not isinstance(message, list):
        return "" if message is None else json.dumps(message, ensure_ascii=False)[:20_000]
    texts = []
    for part in message:
        if isinstance(part, dict) and part.get("type") == "text":
            texts.append(str(part.get("text") or ""))
        elif isinstance(part, dict) and part.get("type") in {"image", "audio"}:
            warnings.append(f"{where}: an {part['type']} part is not read")
    return "\n".join(texts)


def _result(content: str, extra: Any, codex: bool) -> tuple[str, int | None, bool | None]:
    """Output, exit status and failure of one observation result."""
    extra = extra if isinstance(extra, dict) else {}
    metadata = extra.get("tool_result_metadata")
    structured = metadata.get("tool_use_result") if isinstance(metadata, dict) else None
    failed = bool(
        extra.get("tool_result_is_error")
        or (isinstance(metadata, dict) and metadata.get("is_error"))
    )
    code: int | None = None
    if structured is not None:  # the session file's toolUseResult, kept by Harbor
        output, code = tool_output(structured)
        output = output or content
    else:
        output = content
    tool_metadata = extra.get("tool_metadata")
    if code is None and isinstance(tool_metadata, dict):  # Codex: {"exit_code": …}
        found = tool_metadata.get("exit_code")
        code = found if isinstance(found, int) else None
    if code is None:
        line = _EXIT_LINE.findall(content)
        code = int(line[-1]) if line else (exit_status(content) if codex else None)
    return output, code, (False if failed else None)


class _Reader:
    def __init__(self, source: str, folder: Path | None, agent: str) -> None:
        self.source = source
        self.folder = folder
        self.codex = agent == "codex"
        self.request: list[str] = []
        self.steps: list[Step] = []
        self.warnings: list[str] = []
        self.answer: list[str] = []
        self.opened = False
        self.acted = False
        self.pending_user: list[str] = []
        self.side_at: list[int] = []  # indexes of sub-agent steps
        self.heard = False  # a sub-agent's report reached the agent
        self.agent_calls: set[str] = set()

    def trajectory(self, data: dict[str, Any], depth: int, side: bool) -> None:
        embedded = {
            str(t.get("trajectory_id") or t.get("session_id")): t
            for t in data.get("subagent_trajectories") or []
            if isinstance(t, dict)
        }
        for n, step in enumerate(data.get("steps") or [], start=1):
            if isinstance(step, dict):
                self.step(step, f"step {n}", depth, side, embedded)
            else:
                self.warnings.append(f"step {n}: not an object; skipped")

    def step(
        self,
        step: dict[str, Any],
        where: str,
        depth: int,
        side: bool,
        embedded: dict[str, Any],
    ) -> None:
        extra = step.get("extra")
        side = side or (isinstance(extra, dict) and bool(extra.get("is_sidechain")))
        source = step.get("source")
        text = _text(step.get("message"), self.warnings, where)
        if source == "user" and not side:
            self._user(text)
        elif source == "agent":
            self._agent(step, text, where, depth, side, embedded)

    def _user(self, text: str) -> None:
        if not text.strip():
            return
        if not_the_users(text):
            if _NOTIFIED.search(text):
                self.heard = True  # a background sub-agent's report
            if continuation(text) or text.lstrip().startswith("<task-notification>"):
                self.answer = []  # the agent answers again: that answer is the final one
            return
        if not self.opened or (not self.acted and not self.pending_user):
            self.request.append(text)
            self.opened = True
        else:
            self.pending_user.append(text)
            self.answer = []
        self.acted = False

    def _agent(
        self,
        step: dict[str, Any],
        text: str,
        where: str,
        depth: int,
        side: bool,
        embedded: dict[str, Any],
    ) -> None:
        if self.pending_user and not side:
            self._add(Step(kind="user", text="\n\n".join(self.pending_user)), side)
            self.pending_user = []
        calls = [c for c in step.get("tool_calls") or [] if isinstance(c, dict)]
        if text.strip() and not side:
            self.answer.append(text)
        for call in calls:
            call_id = str(call.get("tool_call_id") or f"{where}-{len(self.steps)}")
            name = str(call.get("function_name") or "?")
            arguments = call.get("arguments")
            arguments = arguments if isinstance(arguments, dict) else {}
            if self.codex:
                shaped = codex_arguments(name, arguments)
                arguments = shaped if isinstance(shaped, dict) else arguments
            if read_action(name, arguments).kind == "sub-agent":
                self.agent_calls.add(call_id)
            self._add(Step(kind="call", call_id=call_id, name=name, arguments=arguments), side)
        if calls and not side:
            given = answer_in_calls(self.steps[-len(calls) :])
            # an answer given through a tool (attempt_completion, finish) is the answer
            self.answer = [*([text] if text.strip() else []), given] if given else []
        observation = step.get("observation")
        results = observation.get("results") if isinstance(observation, dict) else None
        for result in results or []:
            if isinstance(result, dict):
                self._observed(result, where, depth, side, embedded)
        if not side:
            self.acted = True

    def _observed(
        self,
        result: dict[str, Any],
        where: str,
        depth: int,
        side: bool,
        embedded: dict[str, Any],
    ) -> None:
        call_id = str(result.get("source_call_id") or "")
        content = _text(result.get("content"), self.warnings, where)
        for ref in result.get("subagent_trajectory_ref") or []:
            if isinstance(ref, dict):
                self._subagent(ref, where, depth, embedded)
        if call_id in self.agent_calls and not _LAUNCHED.search(content):
            self.heard = True  # a sub-agent's report, as its call's result
        output, code, ok = _result(content, result.get("extra"), self.codex)
        self._add(Step(kind="result", call_id=call_id, output=output, exit_code=code, ok=ok), side)

    def _subagent(
        self, ref: dict[str, Any], where: str, depth: int, embedded: dict[str, Any]
    ) -> None:
        """The sub-agent trajectory a result reports: embedded in the file, or a
        file beside it (``trajectory_path``)."""
        if depth >= MAX_SUBAGENT_DEPTH:
            self.warnings.append(f"{where}: sub-agents deeper than {MAX_SUBAGENT_DEPTH} not read")
            return
        found = embedded.get(str(ref.get("trajectory_id"))) or embedded.get(
            str(ref.get("session_id"))
        )
        path = ref.get("trajectory_path")
        if found is None and isinstance(path, str) and self.folder is not None:
            candidate = (self.folder / path).resolve()
            if candidate.is_file() and candidate.is_relative_to(self.folder.resolve()):
                try:
                    found = json.loads(read_transcript_text(candidate))
                except (TranscriptError, json.JSONDecodeError) as exc:
                    self.warnings.append(f"{where}: sub-agent trajectory {path}: {exc}")
        if isinstance(found, dict):
            self.trajectory(found, depth + 1, side=True)
            self.heard = True  # its parent's result holds what it reported
        else:
            self.warnings.append(f"{where}: the sub-agent trajectory it names is not here")

    def _add(self, step: Step, side: bool) -> None:
        if side:
            self.side_at.append(len(self.steps))
        self.steps.append(step)


def parse_atif(data: Any, source: str = "<trajectory>", folder: Path | None = None) -> Transcript:
    """Read a decoded ATIF trajectory; :class:`TranscriptError` when it is not one or
    holds nothing to review."""
    if not is_atif(data):
        raise TranscriptError(source, 'not an ATIF trajectory: no "schema_version": "ATIF-v…"')
    agent = data.get("agent") if isinstance(data.get("agent"), dict) else {}
    reader = _Reader(source, folder, str(agent.get("name") or ""))
    reader.trajectory(data, 0, side=False)
    if not reader.opened and not reader.steps and not reader.answer:
        raise TranscriptError(source, "the trajectory holds no user request and no agent step")
    if reader.pending_user:
        raise TranscriptError(
            source, "the trajectory ends with a user message: there is no answer to review"
        )
    notes: list[str] = []
    steps = reader.steps
    if reader.side_at and not reader.heard:
        dropped = set(reader.side_at)
        steps = [s for n, s in enumerate(reader.steps) if n not in dropped]
        notes.append(
            f"{len(dropped)} sub-agent step(s) are not evidence: no sub-agent's report"
            " reached the agent"
        )
    elif reader.side_at:
        notes.append(
            f"{len(reader.side_at)} sub-agent step(s) read as evidence: ATIF does not tie"
            " them to the call that started them, so they count once any sub-agent's"
            " report reached the agent"
        )
    metrics = data.get("final_metrics")
    if isinstance(metrics, dict):
        used = [
            f"{metrics[k]:,} {label}"
            for k, label in (
                ("total_prompt_tokens", "prompt tokens"),
                ("total_completion_tokens", "completion tokens"),
            )
            if isinstance(metrics.get(k), int)
        ]
        cost = metrics.get("total_cost_usd")
        if isinstance(cost, int | float):
            used.append(f"${cost:.4f}")
        if used:
            notes.append("The agent's own usage (ATIF final_metrics): " + ", ".join(used) + ".")
    return Transcript(
        source=source,
        request="\n\n".join(reader.request),
        answer="\n\n".join(reader.answer),
        steps=steps,
        warnings=reader.warnings,
        notes=notes,
        form="atif",
        request_known=reader.opened,
    )
