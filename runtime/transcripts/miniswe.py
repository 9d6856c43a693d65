"""mini-SWE-agent trajectories (``<instance>.traj.json``, ``trajectory_format``
``mini-swe-agent-1``), the form SWE-bench runs of mini-SWE-agent are published in.

One JSON object ``{"info", "messages", "trajectory_format", "instance_id"}``:
``info`` holds ``exit_status`` (``Submitted``, ``LimitsExceeded``, an exception's
name), ``submission`` (the final diff), ``mini_version`` and the run's ``config``;
``messages`` is the conversation with the model, in chat form, with no tool calls:

* ``system`` — the harness's instructions; ``user`` first — the task (a
  ``<pr_description>`` and the harness's ``<instructions>``);
* ``assistant`` — a ``THOUGHT:`` and exactly one fenced ``bash`` block, the command
  it runs (``extra`` holds the provider's raw response);
* each later ``user`` message is what the harness saw: ``<returncode>N</returncode>``
  and ``<output>…</output>`` (or, for long output, a ``<warning>`` with
  ``<output_head>``, ``<elided_chars>``, ``<output_tail>``), a format error when the
  reply held no single command, or a timeout notice;
* the run ends with the command ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git
  add -A && git diff --cached`` (``MINI_SWE_AGENT_FINAL_OUTPUT`` in older releases),
  whose output — the diff — is the last user message.

The request is the task's ``<pr_description>`` (the instructions around it are the
harness's, the same for every task: how to work, how to submit). The answer is what
the agent said as it submitted: the ``THOUGHT`` of its last
message, after the one before it when that last one only signs off.
"""

from __future__ import annotations

import re
from typing import Any

from donecheck.actors.errors import TranscriptError
from donecheck.runtime.transcripts.openai import Step, Transcript

__all__ = ["is_mini_swe_agent", "parse_mini_swe_agent"]

_BASH = re.compile(r"```bash\s*\n(?P<command>.*?)\n```", re.S)
"""The harness's own ``action_regex`` (mini-SWE-agent 1.x): other fenced blocks in a
reply (```` ```python ````) are its words, not a command."""
_RETURNCODE = re.compile(r"\A\s*<returncode>\s*(-?\d+)\s*</returncode>\s*", re.S)
_OUTPUT = re.compile(r"<output>\n?(?P<text>.*?)\n?</output>", re.S)
_HEAD_TAIL = re.compile(
    r"<output_head>\n?(?P<head>.*?)\n?</output_head>.*?<output_tail>\n?(?P<tail>.*?)\n?</output_tail>",
    re.S,
)
_SUBMIT = re.compile(r"\b(?:COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b")
_THOUGHT = re.compile(r"\A\s*THOUGHT:\s*", re.I)
_TASK = re.compile(r"<pr_description>\s*(?P<task>.*?)\s*</pr_description>", re.S)
_SIGN_OFF = 80
"""A last message whose thought is shorter only signs off ("I'm done."): the one
before it says what was done."""


def is_mini_swe_agent(data: Any) -> bool:
    """Whether decoded JSON is a mini-SWE-agent trajectory."""
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        return False
    if str(data.get("trajectory_format", "")).startswith("mini-swe-agent"):
        return True
    info = data.get("info")
    return isinstance(info, dict) and "mini_version" in info


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
    return ""


def _thought(text: str) -> str:
    """The reply's words, its command block left out."""
    found = _BASH.search(text)
    words = text[: found.start()] if found else text
    return _THOUGHT.sub("", words).strip()


def _observation(text: str) -> tuple[str, int | None]:
    """What the harness reported of a command: its output and exit status."""
    code = _RETURNCODE.match(text)
    if code is None:
        return text.strip(), None
    rest = text[code.end() :]
    found = _OUTPUT.search(rest)
    if found is not None:
        return found.group("text"), int(code.group(1))
    cut = _HEAD_TAIL.search(rest)
    if cut is not None:
        return f"{cut.group('head')}\n[…]\n{cut.group('tail')}", int(code.group(1))
    return rest.strip(), int(code.group(1))


def parse_mini_swe_agent(data: Any, source: str = "<mini-swe-agent trajectory>") -> Transcript:
    """Read a mini-SWE-agent trajectory; :class:`TranscriptError` when it is none or
    holds no task."""
    if not is_mini_swe_agent(data):
        raise TranscriptError(source, "not a mini-SWE-agent trajectory")
    messages = [m for m in data["messages"] if isinstance(m, dict)]
    users = [n for n, m in enumerate(messages) if m.get("role") == "user"]
    if not users:
        raise TranscriptError(source, "no task (user message) in the mini-SWE-agent trajectory")
    request = _text(messages[users[0]].get("content")).strip()
    notes = []
    task = _TASK.search(request)
    if task is not None and task.group("task").strip():  # the harness's rules are not the task
        notes.append(
            "the request is the task's <pr_description>; the harness's own instructions around"
            " it (how to work, how to submit) were not read as requirements"
        )
        request = task.group("task").strip()
    steps: list[Step] = []
    thoughts: list[str] = []
    waiting: str | None = None
    warnings: list[str] = []
    for n, message in enumerate(messages[users[0] + 1 :], start=users[0] + 1):
        text = _text(message.get("content"))
        if message.get("role") == "assistant":
            thoughts.append(_thought(text))
            commands = _BASH.findall(text)
            if len(commands) != 1:
                waiting = None  # the harness answers with a format error, no command ran
                continue
            waiting = f"call-{n}"
            steps.append(
                Step(kind="call", call_id=waiting, name="bash", arguments={"command": commands[0]})
            )
        elif message.get("role") == "user" and waiting is not None:
            output, code = _observation(text)
            called = steps[-1].arguments if steps else {}
            ran = called.get("command", "") if isinstance(called, dict) else ""
            submitted = code is None and bool(_SUBMIT.search(str(ran)))
            steps.append(
                Step(
                    kind="result",
                    call_id=waiting,
                    output=output,
                    exit_code=0 if submitted else code,
                    ok=None if submitted or code is not None else False,
                )
            )
            waiting = None
    answer = thoughts[-1] if thoughts else ""
    if len(thoughts) > 1 and len(answer) < _SIGN_OFF:
        answer = f"{thoughts[-2]}\n\n{answer}".strip()
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    status = str(info.get("exit_status") or "")
    if status and status != "Submitted":
        notes.append(f"the run ended {status!r}, not by submitting")
        answer = ""  # no answer: the harness cut it off
    return Transcript(
        source=source,
        request=request,
        answer=answer,
        steps=steps,
        warnings=warnings,
        form="mini-swe-agent",
        notes=notes,
    )
