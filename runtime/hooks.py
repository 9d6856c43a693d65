"""Agent CLI hooks: feed DoneCheck from the agent's own lifecycle events.

``donecheck install <agent>`` writes the configuration; each event comes here
(through ``donecheck hook`` on stdin, or an ``http`` hook). What a payload means and
how the answer looks is the agent's adapter's (:mod:`donecheck.runtime.clients`); what
DoneCheck does with it is the same for every agent:

* a **prompt** opens the session or starts a new task in it — unless the "prompt" is
  not the user's: a Stop hook's continuation or a client's notice (a background
  sub-agent's ``<task-notification>``) continues the task it belongs to.
* a finished **tool** call is recorded with its result as the client sent them, and
  the files a file tool or a patch wrote are snapshotted.
* a **stop** reviews the answer on what the hooks recorded. The transcript file is
  written asynchronously and may lag the hook (the final message, even the last tool
  result, not yet there), so it is read only where the hooks recorded no tool call — a
  configuration with a Stop hook alone — and then only once it holds the answer under
  review, and only its steps after the last one the ledger has: nothing older is ever
  appended after something newer. A stop while a background sub-agent still runs is
  not reviewed: the turn that reads its result is. A steer is answered the client's
  own way to keep the agent going, with a note the user sees, within the clients'
  size limits.
* an **interrupt** or the session's **end** cancels a task the agent never finished.

The block cap (:class:`BlockCap`) is a last guard; the loop's round limit ends a task
first, with its end reason on the card.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from donecheck.actors.actions import read_action
from donecheck.actors.errors import InputError, TranscriptError, UnknownSessionError
from donecheck.actors.evidence.background import notices
from donecheck.actors.evidence.pairing import TASK_RESULT
from donecheck.actors.messages import ControllerAction, Steer, ToolCall
from donecheck.runtime.clients import adapter, adapters
from donecheck.runtime.endpoint import Agent, session_id_for
from donecheck.runtime.gates import find_gates, watch_gates
from donecheck.runtime.replay import NewInput, ToolImages, replay_events
from donecheck.runtime.transcripts.openai import Transcript, named_tool_images
from donecheck.runtime.transcripts.roles import not_the_users
from donecheck.runtime.workspace import named_inputs

__all__ = [
    "MESSAGE_LIMIT",
    "Agent",
    "BlockCap",
    "HookReply",
    "HookState",
    "checklist_of",
    "handle",
    "session_id_for",
    "stop_event_id",
]

_UNKNOWN_REQUEST = "(the user's request was not recorded by the hooks)"
MESSAGE_LIMIT = 9_000
"""Characters of a checklist handed back through a hook: Claude Code moves hook
output over 10,000 characters to a file the model must open itself."""
TRANSCRIPT_WAIT_S = 3.0
"""How long a Stop waits for a lagging transcript to hold the answer it reviews."""


GatePolicy = Callable[[str], str]
"""Why gates may not run for a folder (``""``: they may): the service's
:class:`~donecheck.runtime.gates.GateAccess` for its caller."""


@dataclass(frozen=True, slots=True)
class HookReply:
    """What the hook answers (JSON for the client) and a note for logs."""

    output: dict[str, Any] = field(default_factory=dict)
    note: str = ""


class BlockCap:
    """DoneCheck's own cap on consecutive blocked stops of one session (Codex has none,
    and Claude Code's ``stop_hook_active`` does not cap): past ``limit`` blocks with no
    new user prompt between, a stop is let through with a note. The loop's round limit
    ends a task first; this holds even if the loop's state were lost."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def reset(self, session_id: str) -> None:
        with self._lock:
            self._counts.pop(session_id, None)

    def allow(self, session_id: str) -> bool:
        """Count one more block; whether it may still block."""
        with self._lock:
            count = self._counts.get(session_id, 0) + 1
            self._counts[session_id] = count
            while len(self._counts) > 100_000:
                self._counts.pop(next(iter(self._counts)))
            return count <= self.limit


class HookState:
    """What one service's hooks remember between calls: DoneCheck's block cap, and
    which sessions have their tool calls recorded by hooks (so a Stop reviews those,
    not a transcript that may lag)."""

    def __init__(self, block_limit: int, sessions: int = 100_000) -> None:
        self.cap = BlockCap(block_limit)
        self._recorded: OrderedDict[str, None] = OrderedDict()
        self._sessions = sessions
        self._lock = threading.Lock()

    def recorded(self, session_id: str) -> None:
        with self._lock:
            self._recorded[session_id] = None
            self._recorded.move_to_end(session_id)
            while len(self._recorded) > self._sessions:
                self._recorded.popitem(last=False)

    def hooks_record(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._recorded


_STATES: weakref.WeakKeyDictionary[Any, HookState] = weakref.WeakKeyDictionary()
_STATES_LOCK = threading.Lock()


def state_for(dc: Any) -> HookState:
    """The hook state of deployment ``dc``: one per deployment, made on first use,
    gone with it."""
    with _STATES_LOCK:
        found = _STATES.get(dc)
        if found is None:
            found = _STATES[dc] = HookState(dc.config.max_rounds + 1)
        return found


def stop_event_id(payload: dict[str, Any], answer: str, agent: Agent = "claude-code") -> str:
    """Names one Stop: the same hook delivered again (a retry) gets the same id; a
    later stop — the agent went on and stopped again, even with the same words —
    gets a new one, because the transcript has grown (the continuation is written
    to it). Claude Code's ``stop_hook_active`` stops count like any other."""
    path = payload.get("transcript_path")
    try:
        size = os.path.getsize(path) if isinstance(path, str) and path else None
    except OSError:
        size = None
    if size is None:  # no transcript to tell a retry from a new stop: a new stop
        return "stop-" + os.urandom(8).hex()
    raw = json.dumps([session_id_for(payload, agent), size, answer]).encode()
    return "stop-" + hashlib.blake2b(raw, digest_size=12).hexdigest()


# -------------------------------------------------------------- transcripts


def _load(path: str, agent: Agent) -> Transcript | None:
    try:
        return adapter(agent).load_log(path)
    except TranscriptError:
        return None


def _transcript(payload: dict[str, Any], agent: Agent, answer: str = "") -> Transcript | None:
    """The session's transcript (``None`` when the payload names none, or it cannot be
    read); with ``answer``, waited for (up to :data:`TRANSCRIPT_WAIT_S`) until it holds
    that answer. A named transcript that is not there is an input error."""
    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        return None
    deadline = time.monotonic() + TRANSCRIPT_WAIT_S
    while not Path(path).is_file():  # a client may write its log behind its hooks
        if time.monotonic() >= deadline:
            raise InputError(f"the hook payload's transcript_path {path!r} does not exist")
        time.sleep(0.05)
    while True:
        found = _load(path, agent)
        caught_up = found is not None and (not answer or _same(found.answer, answer))
        if caught_up or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _replay_new_steps(session: Any, transcript: Transcript) -> None:
    """Record the transcript's steps after the last one the ledger already holds:
    what is newer goes in, in order; nothing older lands after something newer."""
    known = {e.event.call_id for e in session.ledger() if isinstance(e.event, ToolCall)}
    last = max(
        (n for n, s in enumerate(transcript.steps) if s.kind == "call" and s.call_id in known),
        default=-1,
    )
    newer = Transcript(
        source=transcript.source,
        request=transcript.request,
        answer=transcript.answer,
        steps=[
            s
            for s in transcript.steps[last + 1 :]
            if not (s.kind == "result" and s.call_id in known)
        ],
        form=transcript.form,
    )
    for item in replay_events(session, newer):
        if isinstance(item, NewInput):
            session.new_user_input(item.text, request_id=item.request_id)
        elif isinstance(item, ToolImages):
            session.attach_tool_images(item.call_id, item.images)
        else:
            session.record(item)


def checklist_of(output: dict[str, Any]) -> str | None:
    """The checklist a hook's answer hands the agent (whichever agent it answers), or
    ``None`` when it lets the agent stop."""
    for client in adapters():
        found = client.checklist_of(output)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------- events


def _session(
    dc: Any, payload: dict[str, Any], agent: Agent = "claude-code", request: str | None = None
) -> Any:
    session_id = session_id_for(payload, agent)
    try:
        return dc.session(session_id)
    except UnknownSessionError:
        transcript = _transcript(payload, agent) if request is None else None
        text = request or (transcript.request if transcript is not None else _UNKNOWN_REQUEST)
        return dc.open_session(text, session_id=session_id)


def _known(dc: Any, payload: dict[str, Any], agent: Agent) -> Any | None:
    try:
        return dc.session(session_id_for(payload, agent))
    except UnknownSessionError:
        return None


def _written(name: str, arguments: dict[str, Any] | str) -> list[str]:
    """Files a file tool or a patch wrote, as the call names them (a shell command's
    are not snapshotted: its writes are read from the command itself)."""
    action = read_action(name, arguments)
    if action.command is not None:
        return []
    return [path for path in action.writes if path is not None]


def _readable(cwd: Any) -> TypeGuard[str]:
    """Whether the payload's ``cwd`` is a folder on this host, whose test files and
    named inputs DoneCheck reads (it only reads them; running a gate there is what
    the service's gate access rule guards)."""
    return isinstance(cwd, str) and bool(cwd) and os.path.isdir(cwd)


def _prompt(
    dc: Any, payload: dict[str, Any], agent: Agent, state: HookState, gates: GatePolicy | None
) -> HookReply:
    prompt = str(payload.get("prompt") or "")
    session_id = session_id_for(payload, agent)
    if not_the_users(prompt):  # a continuation or a client's notice: the same task
        # a background run ended: the notice is its result (Claude Code runs this hook
        # for its task notifications too, ``source: "system"`` in its hook schema)
        for task, notice in notices(prompt):
            _tell(dc, session_id, task, notice)
        return HookReply(note="not a user request: the task goes on")
    state.cap.reset(session_id)
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd and os.path.isdir(cwd):
        watch_gates(session_id, Path(cwd))  # the gates file as the user left it
    # the files the request names as inputs, lying in the workspace, are materials
    inputs = named_inputs(prompt, cwd) if _readable(cwd) else []
    extra = {"attachments": inputs} if inputs else {}
    try:
        session = dc.session(session_id)
        session.new_user_input(prompt, **extra)
    except UnknownSessionError:
        session = dc.open_session(prompt, session_id=session_id, **extra)
    if _readable(cwd):  # the tests as they are before the agent's first tool call
        session.note_workspace(cwd, "start")
    return HookReply(note="task started")


def _tell(dc: Any, session_id: str, task: str, notice: str) -> None:
    """Record the client's notice that background task ``task`` ended as that task's
    result (``call_id`` ``task:<id>``), in a session that is already open."""
    try:
        session = dc.session(session_id)
    except UnknownSessionError:
        return  # no task is open here: nothing ran in the background
    digest = hashlib.blake2b(notice.encode(), digest_size=8).hexdigest()
    session.record(
        [
            session.tool_result_event(
                f"{TASK_RESULT}{task}", notice, None, None, event_id=f"notice:{task}:{digest}"
            )
        ]
    )


def _tool(
    dc: Any, payload: dict[str, Any], agent: Agent, state: HookState, gates: GatePolicy | None
) -> HookReply:
    session = _session(dc, payload, agent)
    tool = adapter(agent).tool(payload)
    call_id = tool.call_id
    if call_id is None:  # stable across hook processes (hash() is salted per process)
        raw = json.dumps([tool.name, tool.arguments], sort_keys=True, default=str).encode()
        call_id = f"{tool.name}-{hashlib.blake2b(raw, digest_size=8).hexdigest()}"
    images = named_tool_images(call_id, tool.images)
    refs = session.attach_tool_images(call_id, images) if images else ()
    session.record(
        [
            session.tool_call_event(tool.name, tool.arguments, call_id, event_id=f"call:{call_id}"),
            session.tool_result_event(
                call_id, tool.output, tool.ok, tool.exit_code, event_id=f"result:{call_id}",
                images=refs,
            ),
        ]
    )  # fmt: skip
    state.recorded(session.session_id)
    cwd = str(payload.get("cwd") or ".")
    for n, path in enumerate(_written(tool.name, tool.arguments)):
        session.file_snapshot(os.path.join(cwd, path), event_id=f"snapshot:{call_id}:{n}")
    return HookReply(note="recorded")


def _gates(session: Any, payload: dict[str, Any], policy: GatePolicy | None) -> str:
    """Run the due gates of the payload's workspace (its ``cwd``, when this host has
    it and ``policy`` allows it) before the review; a few words on what they did,
    for the hook's note."""
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd or not os.path.isdir(cwd):
        return ""
    if policy is not None:
        refused = policy(cwd)
        if refused:
            return f" (gates not run: {refused})" if find_gates(Path(cwd)) else ""
    done = session.run_gates(cwd)
    if done is None:
        return ""
    if done.problem:
        return f" (gates not run: {done.problem})"
    said = [f"{r.name} {r.status} in {r.duration_s:.1f} s" for r in done.ran]
    said += [f"{r.name} {r.status} (unchanged since its last run)" for r in done.reused]
    return f" (gates: {'; '.join(said)})" if said else ""


def bounded(message: str, session_id: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` within ``limit`` characters: its head and its tail (the round's
    rules), with the middle named as cut and where the whole checklist is."""
    if len(message) <= limit:
        return message
    marker = (
        f"\n[… {{n}} characters cut here; the whole checklist: "
        f"donecheck report --session {session_id}]\n"
    )
    tail = min(2_500, limit // 3)
    head = limit - tail - len(marker) - 8
    cut = len(message) - head - tail
    return message[:head] + marker.format(n=cut) + message[-tail:]


def _note(action: ControllerAction, session_id: str, gates: str) -> str:
    """The line the user sees: the decision, what happens next, where the card is."""
    card = action.report
    chain = " → ".join(f"{link.label} {link.decision}" for link in card.chain)
    head = f"DoneCheck: {card.decision or 'unverified'}"
    if isinstance(action, Steer):
        head += f" — round {action.round} of {card.max_rounds}: the agent goes on with a checklist"
    elif card.end_reason and card.end_reason not in {"pass", "skipped", "opted_out"}:
        head += f" — not verified; stopped ({card.end_reason})"
        head += f" after {chain}" if chain else ""
    elif chain:
        head += f" ({chain})"
    return f"{head}{gates}. Card: donecheck report --session {session_id}"


def _stop(
    dc: Any, payload: dict[str, Any], agent: Agent, state: HookState, gates: GatePolicy | None
) -> HookReply:
    client = adapter(agent)
    session = _session(dc, payload, agent)
    session_id = session.session_id
    answer = client.answer(payload)
    running = client.waiting_on(payload)
    if running:
        note = (
            f"DoneCheck: not reviewed yet — {', '.join(running)} still running; the turn "
            "that reads its result is reviewed"
        )
        return HookReply(output=client.let_stop(note), note=note)
    transcript = None
    if not state.hooks_record(session_id):  # no PostToolUse hooks: the transcript is all
        transcript = _transcript(payload, agent, answer)
        if transcript is not None:
            _replay_new_steps(session, transcript)
    if not answer.strip():  # a client that sends no last_assistant_message
        transcript = transcript or _transcript(payload, agent)
        answer = transcript.answer if transcript is not None else ""
    if not answer.strip():
        note = "DoneCheck: no final text to review; the turn was not checked"
        return HookReply(output=client.let_stop(note), note=note)
    ran = _gates(session, payload, gates)
    if _readable(payload.get("cwd")):
        session.note_workspace(payload["cwd"], "stop")  # the tests as they are at this stop
    action = session.turn_stopping(answer, event_id=stop_event_id(payload, answer, agent))
    note = _note(action, session_id, ran)
    if isinstance(action, Steer):
        if state.cap.allow(session_id):
            return HookReply(
                output=client.steer(bounded(action.message, session_id), note), note=note
            )
        note += f" (not blocked: {state.cap.limit} stops in a row were blocked already)"
        return HookReply(output=client.let_stop(note), note=note)
    state.cap.reset(session_id)
    return HookReply(output=client.let_stop(note), note=note)


def _interrupt(
    dc: Any, payload: dict[str, Any], agent: Agent, state: HookState, gates: GatePolicy | None
) -> HookReply:
    session = _known(dc, payload, agent)
    if session is None:
        return HookReply(note="no DoneCheck session to cancel")
    session.cancel("the user interrupted the turn")
    return HookReply(note="task cancelled: the user interrupted it")


def _session_end(
    dc: Any, payload: dict[str, Any], agent: Agent, state: HookState, gates: GatePolicy | None
) -> HookReply:
    """The session ended: a task the agent never finished is cancelled (a finished
    one keeps its end reason)."""
    session = _known(dc, payload, agent)
    if session is None:
        return HookReply(note="no DoneCheck session")
    why = str(payload.get("reason") or "other")
    session.cancel(f"the session ended before the agent finished ({why})")
    return HookReply(note="session ended")


_HANDLERS: dict[
    str, Callable[[Any, dict[str, Any], Agent, HookState, GatePolicy | None], HookReply]
] = {
    "prompt": _prompt,
    "tool": _tool,
    "interrupt": _interrupt,
    "end": _session_end,
}


def handle(
    dc: Any,
    payload: dict[str, Any],
    agent: Agent = "claude-code",
    state: HookState | None = None,
    *,
    gates: GatePolicy | None = None,
) -> HookReply:
    """Apply one hook payload of ``agent`` (a registered agent CLI) to the DoneCheck
    deployment ``dc``. ``gates`` says where a stop may run the workspace's gates (the
    service passes its access rule; ``None``, for a caller in the user's own process:
    anywhere)."""
    kind = adapter(agent).event(payload)
    state = state or state_for(dc)
    if kind == "stop":
        return _stop(dc, payload, agent, state, gates)
    handler = _HANDLERS.get(kind)
    if handler is None:
        return HookReply(note=f"ignored hook event {str(payload.get('hook_event_name'))!r}")
    return handler(dc, payload, agent, state, gates)
