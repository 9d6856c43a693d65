"""A small, real tool-using agent, checked by DoneCheck at every stop.

The agent talks to any OpenAI-compatible chat-completions endpoint with three
tools — ``read_file``, ``write_file`` and ``run_command`` — confined to a
workspace directory. It is wired to DoneCheck through the session API:

* every tool call and its result are recorded (files it writes are snapshotted);
* every model call is counted (``N`` in the cost ``N + 2 + R``);
* when the model stops with an answer, the answer goes to ``turn_stopping``:
  ``Deliver`` ends the turn, ``Report`` ends it with DoneCheck's reason, and
  ``Steer`` hands the checklist back to the same conversation as the next
  message (marked as DoneCheck's, not the user's), with the same tools.

``examples/agent_loop.py`` runs it against an endpoint of your choice;
``donecheck demo`` runs it against the scripted provider on a sample task.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from donecheck.actors.errors import DoneCheckError, InputError
from donecheck.actors.evidence.runner import output_summary
from donecheck.actors.judge import is_loopback
from donecheck.actors.messages import ControllerAction, Deliver, Report, ReportCard, Steer

if TYPE_CHECKING:
    from donecheck.runtime.api import DoneCheck

__all__ = ["TOOLS", "AgentResult", "Workspace", "run_agent"]

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file of the workspace.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Create or overwrite a text file of the workspace.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "run_command",
            "description": "Run a shell command in the workspace; returns output and exit code.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    },
]

SYSTEM = (
    "You are a careful coding agent. Use the tools to read, change and test files in the "
    "workspace. When you are done, answer with a short summary of what you did and how "
    "you verified it."
)
_READ_LIMIT = 100_000
_COMMAND_TIMEOUT_S = 120.0


class Workspace:
    """The agent's files. Paths outside the root are refused, not followed."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def _path(self, path: str) -> Path:
        target = (self.root / path).resolve()
        if target != self.root and self.root not in target.parents:
            raise InputError(f"{path}: outside the workspace")
        return target

    def run(self, name: str, args: dict[str, Any]) -> tuple[str, int]:
        """Run one tool; (output, exit code). A bad call is an error for the model."""
        try:
            if name == "read_file":
                data = self._path(str(args["path"])).read_bytes()[:_READ_LIMIT]
                return data.decode("utf-8", "replace"), 0
            if name == "write_file":
                target = self._path(str(args["path"]))
                target.parent.mkdir(parents=True, exist_ok=True)
                content = str(args.get("content", ""))
                target.write_text(content, encoding="utf-8")
                return f"wrote {len(content.encode())} bytes to {args['path']}", 0
            if name == "run_command":
                done = subprocess.run(
                    str(args["command"]),
                    shell=True,
                    cwd=self.root,
                    capture_output=True,
                    text=True,
                    timeout=_COMMAND_TIMEOUT_S,
                    env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                )
                output = (done.stdout + done.stderr)[-_READ_LIMIT:]
                return f"{output}\nExit code: {done.returncode}", done.returncode
            return f"unknown tool {name!r}", 1
        except KeyError as exc:
            return f"missing argument {exc}", 1
        except subprocess.TimeoutExpired:
            return f"the command ran longer than {_COMMAND_TIMEOUT_S:g} s and was stopped", 124
        except (OSError, InputError) as exc:
            return f"{type(exc).__name__}: {exc}", 1


@dataclass
class AgentResult:
    answer: str
    action: ControllerAction | None
    """DoneCheck's last action (``None``: the agent ran without DoneCheck)."""
    messages: list[dict[str, Any]]
    model_calls: int = 0
    steps: list[str] = field(default_factory=list)
    """One line per step, for a reader: tool calls, DoneCheck's steers, answers."""
    model_tokens: int = 0
    """Tokens the agent's model reported (prompt and completion)."""

    @property
    def report(self) -> ReportCard:
        if self.action is None:
            raise DoneCheckError("the agent ran without DoneCheck: there is no report card")
        return self.action.report


def _short(text: str, limit: int = 100) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


async def run_agent(
    dc: DoneCheck | None,
    task: str,
    workspace: Path,
    *,
    base_url: str,
    model: str,
    api_key: str | None = None,
    allow_remote: bool = False,
    max_steps: int = 40,
    on_step: Callable[[str], None] | None = None,
) -> AgentResult:
    """Run the agent on ``task`` until DoneCheck delivers or reports the turn.

    With ``dc=None`` the agent runs unchecked: its first answer ends the turn (the
    baseline ``benchmarks/loop_outcomes.py`` compares against)."""
    host = urlsplit(base_url).hostname or ""
    if not allow_remote and not is_loopback(host):
        raise DoneCheckError(
            f"the agent's model host {host!r} is not a loopback address; pass"
            " allow_remote=True (--remote) to send the task there"
        )
    files = Workspace(workspace)
    steps: list[str] = []

    def note(line: str) -> None:
        steps.append(line)
        if on_step is not None:
            on_step(line)

    session = await dc.open_session_async(task) if dc is not None else None
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": task},
    ]
    headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
    calls = tokens = 0
    async with httpx.AsyncClient(
        base_url=base_url.rstrip("/"), headers=headers, timeout=120, trust_env=allow_remote
    ) as http:
        for _ in range(max_steps):
            response = await http.post(
                "/chat/completions",
                json={"model": model, "messages": messages, "tools": TOOLS, "temperature": 0},
            )
            calls += 1
            if session is not None:
                await session.record_main_calls(1)
            if response.status_code != 200:
                raise DoneCheckError(
                    f"the agent's model answered HTTP {response.status_code}: "
                    + _short(response.text, 200)
                )
            body = response.json()
            tokens += int((body.get("usage") or {}).get("total_tokens") or 0)
            message = body["choices"][0]["message"]
            messages.append(
                {k: v for k, v in message.items() if k in {"role", "content", "tool_calls"}}
            )
            tool_calls = message.get("tool_calls") or []
            for call in tool_calls:
                name = call["function"]["name"]
                try:
                    args = json.loads(call["function"].get("arguments") or "{}")
                except ValueError:
                    args = {}
                if session is not None:
                    await session.tool_call(name, args, call_id=call["id"])
                output, code = await asyncio.to_thread(files.run, name, args)
                if session is not None:
                    await session.tool_result(call["id"], output, exit_code=code)
                    if name == "write_file" and code == 0:
                        await session.file_snapshot(files.root / str(args.get("path", "")))
                what = args.get("command") or args.get("path") or ""
                note(f"agent    {name} {what} → exit {code}: {_short(output_summary(output))}")
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
            if tool_calls:
                continue
            answer = str(message.get("content") or "")
            note(f"agent    answers: {_short(answer, 160)}")
            if session is None:
                return AgentResult(answer, None, messages, calls, steps, tokens)
            action = await session.turn_stopping(answer)
            if isinstance(action, Steer):
                note(
                    f"DoneCheck steers (round {action.round}): "
                    + _short(action.report.findings[0].problem if action.report.findings else "")
                )
                messages.append({"role": "user", "content": action.message})
                continue
            assert isinstance(action, Deliver | Report)
            outcome = "delivers" if isinstance(action, Deliver) else "reports"
            note(
                f"DoneCheck {outcome}: {action.report.decision}, "
                f"end reason {action.report.end_reason!r}"
            )
            await session.close()
            return AgentResult(answer, action, messages, calls, steps, tokens)
    decision = (await session.close()).decision if session is not None else "unchecked"
    raise DoneCheckError(
        f"the agent did not finish within {max_steps} model calls (last decision: {decision})"
    )


def main(argv: list[str] | None = None) -> int:
    """``python examples/agent_loop.py``: run the agent on a task in a workspace."""
    import argparse

    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.report import card_text

    parser = argparse.ArgumentParser(
        description="A small tool-using agent (read_file, write_file, run_command) over an"
        " OpenAI-compatible endpoint, checked by DoneCheck at every stop."
    )
    parser.add_argument("task", help="what the agent should do")
    parser.add_argument("--workspace", type=Path, required=True, help="the agent's folder")
    parser.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--model", required=True)
    parser.add_argument("--api-key-env", metavar="VAR", help="variable holding the API key")
    parser.add_argument(
        "--remote", action="store_true", help="allow a model host other than loopback"
    )
    args = parser.parse_args(argv)
    key = os.environ.get(args.api_key_env) if args.api_key_env else None
    if args.api_key_env and not key:
        print(f"agent_loop: error: {args.api_key_env} is not set", file=sys.stderr)
        return 2
    args.workspace.mkdir(parents=True, exist_ok=True)
    dc = DoneCheck.start()
    try:
        result = asyncio.run(
            run_agent(
                dc,
                args.task,
                args.workspace,
                base_url=args.base_url,
                model=args.model,
                api_key=key,
                allow_remote=args.remote,
                on_step=print,
            )
        )
    except DoneCheckError as exc:
        print(f"agent_loop: error: {exc}", file=sys.stderr)
        return 1
    finally:
        dc.shutdown()
    print()
    print(card_text(result.report, session="the agent's turn"))
    return 0 if isinstance(result.action, Deliver) else 1
