"""Sessions: what an agent host calls while its agent works, sync and async.

A session records what the agent did (tool calls, results, file snapshots) in
its ledger shard and asks its controller shard what to do when the agent is
about to stop::

    session.tool_call("run_command", {"command": "pytest -q"}, call_id="c1")
    session.tool_result("c1", output=out, exit_code=1)
    action = session.turn_stopping(answer)   # Deliver | Steer | Report

:class:`Session` blocks; :class:`AsyncSession` has the same methods as
coroutines. Both build the same messages (in :class:`_SessionBase`) and differ
only in how they wait.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from donecheck.actors import calls
from donecheck.actors.clock import Clock
from donecheck.actors.deployment import Deployment
from donecheck.actors.errors import InputError, SessionClosedError
from donecheck.actors.ids import new_id
from donecheck.actors.messages import (
    Ack,
    AppendAck,
    AttachmentRef,
    Cancel,
    CheckReport,
    ControllerAction,
    ControllerInbox,
    FailedTest,
    FileSnapshot,
    ImageRef,
    LedgerEntry,
    LedgerEvent,
    MainCallRecorded,
    Material,
    MaterialRecorded,
    MilestoneCheck,
    NoVerdict,
    ReportCard,
    ReportQuery,
    SessionClosed,
    SetPolicy,
    ToolCall,
    ToolResult,
    TurnStopping,
    UserInput,
    Verdict,
    ViewRequest,
    WorkspaceState,
    view_decoder,
)
from donecheck.parsers.material import sha256_file
from donecheck.runtime.attachments import load_attachment, submit_parse, too_large_material

if TYPE_CHECKING:
    from donecheck.runtime.gates import StopGates

__all__ = ["MAX_REPORTED_FAILURES", "MAX_TOOL_IMAGES", "AsyncSession", "Session", "bound_output"]

_NO_ENTRIES = 2**62  # a view's since_seq that asks for no entries, only views

MAX_REPORTED_FAILURES = 50
"""Failing tests a check report keeps (the counts hold them all)."""

MAX_TOOL_IMAGES = 8
"""Images one tool result may hand DoneCheck; more are recorded unread (``unparsed``)."""


def bound_output(text: str, limit: int) -> tuple[str, bool]:
    """Keep a tool output within ``limit`` characters: a quarter from the head,
    the rest from the tail (where runners print their summaries)."""
    if len(text) <= limit:
        return text, False
    head = limit // 4
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n… [{cut} characters cut by DoneCheck] …\n{text[-tail:]}", True


class _SessionBase:
    """Made by :meth:`DoneCheck.open_session` (or ``DoneCheck.session`` for one opened
    elsewhere): the session's shards of ``deployment``, and the clock that stamps
    its events."""

    def __init__(
        self,
        deployment: Deployment,
        clock: Clock,
        session_id: str,
        request_id: str,
        tenant: str | None = None,
    ) -> None:
        self._config = deployment.config
        self._clock = clock
        self.session_id = session_id
        self.request_id = request_id
        self.tenant = tenant
        self._deployment = deployment
        self._ledger = deployment.ledger_for(session_id)
        self._controller = deployment.controller_for(session_id)
        self._budget = deployment.budget_for(session_id, tenant)
        self._snapshot_paths: set[str] = set()
        self._closed = False

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<{type(self).__name__} {self.session_id} {state}>"

    # ------------------------------------------------------------- builders

    def _check_open(self) -> None:
        if self._closed:
            raise SessionClosedError(self.session_id)

    def _stamp(self, event_id: str | None = None) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "at": self._clock.now(),
            "event_id": event_id or new_id("ev-"),
        }

    def workspace_event(
        self,
        workspace: str | os.PathLike[str],
        moment: Literal["start", "stop"],
        *,
        event_id: str | None = None,
    ) -> WorkspaceState:
        """The workspace's test files and test configuration as they are now
        (:func:`~donecheck.runtime.workspace.workspace_state`), as an event to record:
        at a task's start (``moment="start"``) and at each stop (``"stop"``)."""
        from donecheck.runtime.workspace import workspace_state

        stamp = self._stamp(event_id)
        return workspace_state(
            workspace, moment, self.session_id, at=stamp["at"], event_id=stamp["event_id"]
        )

    def tool_call_event(
        self,
        name: str,
        arguments: dict[str, Any] | str | None = None,
        call_id: str | None = None,
        *,
        event_id: str | None = None,
    ) -> ToolCall:
        """Build a tool-call event without recording it (to batch with :meth:`record`).

        Give ``event_id`` when the same event may be sent again (a replayed
        transcript): the ledger stores each id once.
        """
        if not name:
            raise ValueError("a tool call needs the tool's name")
        return ToolCall(
            call_id=call_id or new_id("call-"),
            name=name,
            arguments=arguments if arguments is not None else {},
            **self._stamp(event_id),
        )

    def tool_result_event(
        self,
        call_id: str,
        output: str = "",
        ok: bool | None = None,
        exit_code: int | None = None,
        *,
        event_id: str | None = None,
        images: Sequence[ImageRef] = (),
    ) -> ToolResult:
        """Build a tool-result event (output bounded) without recording it. ``images``:
        the refs :meth:`attach_tool_images` returned for this call's images."""
        text, truncated = bound_output(output, self._config.max_tool_output_chars)
        return ToolResult(
            call_id=call_id,
            output=text,
            ok=ok,
            exit_code=exit_code,
            truncated=truncated,
            images=tuple(images),
            **self._stamp(event_id),
        )

    def check_report_event(
        self,
        *,
        name: str,
        command: str,
        ok: bool | None,
        origin: Literal["runner", "donecheck"] = "runner",
        exit_code: int | None = None,
        collected: int | None = None,
        passed: int = 0,
        failed: int = 0,
        errors: int = 0,
        skipped: int = 0,
        failures: Sequence[FailedTest | tuple[str, str]] = (),
        detail: str = "",
        workspace: str = "",
        host: str = "",
        started_at: float = 0.0,
        duration_s: float = 0.0,
        output: str = "",
        event_id: str | None = None,
    ) -> CheckReport:
        """Build a check report — a test runner's own account of a run (``origin
        "runner"``: the pytest plugin, ``record-junit``) or a gate DoneCheck ran
        (``"donecheck"``) — without recording it. It outranks what the tool output of
        the call that ran it says (see :func:`~donecheck.actors.evidence.pairing.operations`).
        Bounded: at most :data:`MAX_REPORTED_FAILURES` failures of 500 characters,
        the output like a tool's."""
        if not name or not command:
            raise InputError("a check report needs the runner's or gate's name and its command")
        counts = (passed, failed, errors, skipped, collected or 0)
        if any(n < 0 for n in counts) or duration_s < 0:
            raise InputError("a check report's counts and duration cannot be negative")
        named = [
            f if isinstance(f, FailedTest) else FailedTest(node=f[0], message=f[1])
            for f in failures
        ]
        text, _ = bound_output(output, self._config.max_tool_output_chars)
        if ok is True and (failed or errors):  # the worse of its two accounts
            ok = False
            detail = f"{detail}; it said it passed but counted failures".lstrip("; ")
        return CheckReport(
            origin=origin,
            name=name[:200],
            command=command[:4_000],
            ok=ok,
            exit_code=exit_code,
            collected=collected,
            passed=passed,
            failed=failed,
            errors=errors,
            skipped=skipped,
            failures=tuple(
                FailedTest(node=f.node[:500], message=f.message[:500])
                for f in named[:MAX_REPORTED_FAILURES]
            ),
            detail=detail[:1_000],
            workspace=workspace[:1_000],
            host=host[:255],
            started_at=started_at,
            duration_s=duration_s,
            output=text,
            **self._stamp(event_id),
        )

    def _tool_images(
        self, call_id: str, images: Sequence[object]
    ) -> tuple[tuple[ImageRef, ...], list[LedgerEvent], list[tuple[str, str, Any]]]:
        """Refs of the images a tool call returned, the materials to record now (too
        large, or over :data:`MAX_TOOL_IMAGES`), and the parse jobs of the others."""
        self._check_open()
        limit = self._config.max_attachment_bytes
        refs: list[ImageRef] = []
        now: list[LedgerEvent] = []
        jobs: list[tuple[str, str, Any]] = []
        for i, image in enumerate(images):
            if isinstance(image, bytes | bytearray | memoryview):
                image = (f"{call_id}-image-{i + 1}", bytes(image))
            item = load_attachment(image, i, limit)
            refs.append(
                ImageRef(
                    sha256=item.sha256,
                    name=item.name,
                    size=len(item.data),
                    media_type=item.media_type,
                )
            )
            if not item.too_large and i < MAX_TOOL_IMAGES:
                jobs.append((item.sha256, item.name, submit_parse(self._deployment, item, None)))
                continue
            material = (
                too_large_material(item, limit)
                if item.too_large
                else Material(
                    sha256=item.sha256,
                    declared_name=item.name,
                    detected_type="unknown",
                    status="unparsed",
                    reason=f"over the {MAX_TOOL_IMAGES} images one tool result may carry; not read",
                )
            )
            material = msgspec.structs.replace(material, origin="tool", call_id=call_id)
            event_id = f"material-{self.session_id}-tool-{call_id}-{item.sha256}"
            now.append(MaterialRecorded(material=material, **self._stamp(event_id)))
        return tuple(refs), now, jobs

    def _attach_ref(self, call_id: str, jobs: list[tuple[str, str, Any]]) -> Any:
        return calls.attach_materials(self._controller, self.session_id, jobs, call_id)

    def _snapshot(
        self, path: str | os.PathLike[str], event_id: str | None = None
    ) -> FileSnapshot | None:
        """A snapshot of ``path`` as it is now, or ``None`` past the target limit."""
        target = os.path.abspath(path)
        config = self._config
        if target not in self._snapshot_paths:
            if len(self._snapshot_paths) >= config.snapshot_max_targets:
                return None
            self._snapshot_paths.add(target)
        file = Path(target)
        try:
            stat = file.stat()
        except FileNotFoundError:
            return FileSnapshot(path=target, exists=False, **self._stamp(event_id))
        digest: str | None = None
        if stat.st_size <= config.snapshot_hash_max_bytes and file.is_file():
            digest = sha256_file(file)
        return FileSnapshot(
            path=target,
            sha256=digest,
            size=stat.st_size,
            mtime=stat.st_mtime,
            **self._stamp(event_id),
        )

    def _checked(self, events: Sequence[LedgerEvent]) -> Sequence[LedgerEvent]:
        """``events`` if this open session may record them."""
        self._check_open()
        wrong = [e for e in events if e.session_id != self.session_id]
        if wrong:
            raise ValueError(
                f"event for session {wrong[0].session_id!r} recorded in {self.session_id!r}"
            )
        return events

    def _append_ref(self, events: Sequence[LedgerEvent]) -> Any:
        return calls.append(self._ledger, self._checked(events))

    async def _append_async(self, events: Sequence[LedgerEvent]) -> AppendAck:
        """Append from an event loop, batched with other sessions' appends to the shard."""
        return await calls.append_batched(
            self._ledger, self._checked(events), self._config.call_timeout_s
        )

    def _secrets(self) -> list[str]:
        """Values a gate's environment must not hold: the configured judge key."""
        key = self._config.judge_api_key
        return [key.get_secret_value()] if key is not None else []

    def _edits_ref(self) -> Any:
        return calls.view(
            self._ledger,
            ViewRequest(session_id=self.session_id, since_seq=_NO_ENTRIES, include=("edits",)),
        )

    def _entries_ref(self, since_seq: int) -> Any:
        return calls.view(
            self._ledger, ViewRequest(session_id=self.session_id, since_seq=since_seq)
        )

    async def _ask_async(self, msg: ControllerInbox) -> Any:
        """A message the controller answers at once, batched with other sessions'."""
        self._check_open()
        return await calls.ask_batched(self._controller, msg, self._config.call_timeout_s)

    def _ask_ref(self, msg: ControllerInbox) -> Any:
        self._check_open()
        return calls.ask(self._controller, msg)

    def watch_gates(self, workspace: str | os.PathLike[str]) -> None:
        """Note ``workspace``'s gates file and test configuration as they are now —
        call it before the agent's first tool call — so that :meth:`run_gates` at a
        stop can tell whether the agent changed them (if it did, or if they were never
        noted, a gate's pass proves nothing; a failure still counts)."""
        from donecheck.runtime.gates import watch_gates

        watch_gates(self.session_id, Path(workspace))

    def _stopping(
        self, answer: str, event_id: str | None, without_answer: bool = False
    ) -> TurnStopping:
        if not isinstance(answer, str) or (not answer.strip() and not without_answer):
            raise InputError(
                f"session {self.session_id}: the answer to review is empty; pass the agent's"
                " final text to turn_stopping() (or without_answer=True for a run that"
                " ended without one)"
            )
        return TurnStopping(
            session_id=self.session_id,
            answer=answer,
            at=self._clock.now(),
            event_id=event_id or new_id("stop-"),
            without_answer=without_answer and not answer.strip(),
        )

    def _new_input(self, text: str, request_id: str | None) -> UserInput:
        request_id = request_id or new_id("rq-")
        return UserInput(request_id=request_id, text=text, **self._stamp(f"input:{request_id}"))

    def _input_with(
        self, text: str, request_id: str | None, attachments: Sequence[object]
    ) -> tuple[UserInput, list[LedgerEvent], list[tuple[str, str, Any]]]:
        """A new request's event with its attachments, the materials to record now
        (too large to parse) and the parse jobs of the others."""
        event = self._new_input(text, request_id)
        if not attachments:
            return event, [], []
        limit = self._config.max_attachment_bytes
        loaded = [load_attachment(a, i, limit) for i, a in enumerate(attachments)]
        refs = tuple(
            AttachmentRef(sha256=f.sha256, name=f.name, size=len(f.data), media_type=f.media_type)
            for f in loaded
        )
        now: list[LedgerEvent] = [
            MaterialRecorded(
                material=too_large_material(f, limit),
                **self._stamp(f"material-{self.session_id}-{f.sha256}"),
            )
            for f in loaded
            if f.too_large
        ]
        jobs = [
            (f.sha256, f.name, submit_parse(self._deployment, f, None))
            for f in loaded
            if not f.too_large
        ]
        return msgspec.structs.replace(event, attachments=refs), now, jobs

    def _closing(self) -> SessionClosed:
        return SessionClosed(**self._stamp())

    def _policy(self, review: bool, scope: str) -> SetPolicy:
        if scope not in {"request", "session"}:
            raise ValueError(f"scope must be 'request' or 'session', not {scope!r}")
        return SetPolicy(session_id=self.session_id, review=review, scope=scope)  # type: ignore[arg-type]

    def _main_calls(self, count: int) -> Any:
        self._check_open()
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        message = MainCallRecorded(session_id=self.session_id, count=count, tenant=self.tenant)
        return calls.account(self._budget, message)


class Session(_SessionBase):
    """A blocking session handle. Use as a context manager to close it."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._closed:
            self.close()

    def _wait(self, ref: Any, actor: str, timeout_s: float | None = None) -> Any:
        return calls.get(ref, actor=actor, timeout_s=timeout_s or self._config.call_timeout_s)

    def record(self, events: Sequence[LedgerEvent]) -> AppendAck:
        """Append events in one call; they are recorded when this returns."""
        ack: AppendAck = self._wait(self._append_ref(events), "ledger")
        return ack

    def note_workspace(
        self, workspace: str | os.PathLike[str], moment: Literal["start", "stop"]
    ) -> WorkspaceState:
        """Record the workspace's test files and test configuration as they are now:
        call it at a task's start (before the agent's first tool call) and before each
        stop, and a change to the tests by any route — or its undo — is judged by what
        the files hold, not only by what the agent's calls say they did."""
        state = self.workspace_event(workspace, moment)
        self.record([state])
        return state

    def run_gates(self, workspace: str | os.PathLike[str]) -> StopGates | None:
        """Run the gates ``workspace`` lists (``donecheck.toml`` or ``[tool.donecheck]``
        in ``pyproject.toml``) that this session's writes made due, and record their
        results as reports of origin ``donecheck``; None when it lists none. A gate
        is not run again while nothing it checks has changed (see
        :func:`~donecheck.runtime.gates.gates_at_stop`)."""
        from donecheck.runtime.gates import find_gates, gate_report, gates_at_stop

        source = find_gates(Path(workspace))
        if source is None:  # no gates: the ledger is not asked for the session's writes
            return None
        done = gates_at_stop(
            self.session_id, Path(workspace), source, self.edited_paths(), secrets=self._secrets()
        )
        if done.ran:
            self.record(
                [
                    self.check_report_event(**gate_report(r, trusted=done.trusted, why=done.why))
                    for r in done.ran
                ]
            )
        return done

    def ledger(self, since_seq: int = 0) -> tuple[LedgerEntry, ...]:
        """The session's ledger entries after ``since_seq``, in order (cite them as
        ``E<seq>``)."""
        return view_decoder.decode(self._wait(self._entries_ref(since_seq), "ledger")).entries

    def edited_paths(self) -> list[str | None]:
        """Every write the session's tools made, oldest first, by the path it wrote
        (``None`` for a command that writes files it does not name)."""
        view = view_decoder.decode(self._wait(self._edits_ref(), "ledger"))
        return [e.path for e in view.edits if e.ok is not False]

    def tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | str | None = None,
        *,
        call_id: str | None = None,
    ) -> str:
        """Record that the agent called a tool; returns the call id."""
        event = self.tool_call_event(name, arguments, call_id)
        self.record([event])
        return event.call_id

    def tool_result(
        self,
        call_id: str,
        output: str = "",
        *,
        ok: bool | None = None,
        exit_code: int | None = None,
        images: Sequence[object] = (),
    ) -> None:
        """Record what a tool call returned. Leave ``ok``/``exit_code`` as ``None`` when the
        host does not know; the exit status is then read from the output if it says so.

        ``images`` (paths, bytes or ``(name, bytes)``) are images the result held — a
        screenshot, an image file the agent read: each becomes a material of origin
        ``tool`` that an image-capable judge sees beside this result's text."""
        refs = self.attach_tool_images(call_id, images) if images else ()
        self.record([self.tool_result_event(call_id, output, ok, exit_code, images=refs)])

    def check_report(self, **fields: Any) -> CheckReport:
        """Record a check report (the arguments of :meth:`check_report_event`)."""
        event = self.check_report_event(**fields)
        self.record([event])
        return event

    def attach_tool_images(self, call_id: str, images: Sequence[object]) -> tuple[ImageRef, ...]:
        """Parse the images tool call ``call_id`` returned into materials of origin
        ``tool`` (a review waits for them); their refs, for :meth:`tool_result_event`."""
        refs, now, jobs = self._tool_images(call_id, images)
        if now:
            self.record(now)
        if jobs:
            self._wait(self._attach_ref(call_id, jobs), "controller")
        return refs

    def file_snapshot(
        self, path: str | os.PathLike[str], *, event_id: str | None = None
    ) -> FileSnapshot | None:
        """Record the current state of a file the agent's tools touched.

        Returns ``None`` (and records nothing) once ``snapshot_max_targets``
        different paths of the session were snapshotted — by this handle or any
        other: DoneCheck does not watch a whole workspace.
        ``event_id`` names the observation (e.g. after which tool call) when the
        same one may be sent twice.
        """
        snapshot = self._snapshot(path, event_id)
        if snapshot is not None and self.record([snapshot]).skipped:
            return None  # the session watches its limit of paths already
        return snapshot

    def turn_stopping(
        self, answer: str, *, event_id: str | None = None, without_answer: bool = False
    ) -> ControllerAction:
        """The agent is about to stop with ``answer``: ``Deliver``, ``Steer`` or ``Report``.

        Every call is a new stop, reviewed again even with the same answer (and so
        bounded by the loop's rounds). Give ``event_id`` when the same stop may be
        delivered twice (a retried hook): it is then answered once. An empty
        answer raises :class:`InputError`, unless ``without_answer``: the run ended
        with no final text (a recorded run cut off mid-work), and that is reviewed —
        it never passes.
        """
        action: ControllerAction = self._wait(
            self._ask_ref(self._stopping(answer, event_id, without_answer)),
            "controller",
            self._config.review_call_timeout_s,
        )
        return action

    def new_user_input(
        self, text: str, *, request_id: str | None = None, attachments: Sequence[object] = ()
    ) -> str:
        """The user sent a new request: start a new task. Returns its request id.

        ``attachments`` (paths, bytes or ``(name, bytes)``) came with it: parsed on the
        parser pool like the first request's. Sending the same ``request_id`` again (a
        replayed transcript) changes nothing.
        """
        event, now, jobs = self._input_with(text, request_id, attachments)
        self._wait(self._ask_ref(event), "controller")  # it records the input (its owner)
        if now:
            self.record(now)
        if jobs:
            self._wait(
                calls.attach_materials(self._controller, self.session_id, jobs), "controller"
            )
        self.request_id = event.request_id
        return event.request_id

    def cancel(self, reason: str = "cancelled by the user") -> Ack:
        """Abort: stop an in-flight review and void pending checklists."""
        cancel = Cancel(session_id=self.session_id, reason=reason, at=self._clock.now())
        ack: Ack = self._wait(self._ask_ref(cancel), "controller")
        return ack

    def report(self, request_id: str | None = None) -> ReportCard:
        """The report card of the current task (or of an earlier ``request_id``)."""
        query = ReportQuery(session_id=self.session_id, request_id=request_id)
        card: ReportCard = self._wait(self._ask_ref(query), "controller")
        return card

    def opt_out(self, scope: str = "request") -> Ack:
        """Turn review off for the current request, or (``scope="session"``) for the
        whole session — kept in durable state, so it survives context compaction."""
        ack: Ack = self._wait(self._ask_ref(self._policy(False, scope)), "controller")
        return ack

    def opt_in(self, scope: str = "request") -> Ack:
        """Turn review back on."""
        ack: Ack = self._wait(self._ask_ref(self._policy(True, scope)), "controller")
        return ack

    def record_main_calls(self, count: int = 1) -> None:
        """The agent made ``count`` main model calls (``N`` in the cost ``N + 2 + R``)."""
        self._wait(self._main_calls(count), "budget")

    def milestone(self, note: str = "") -> Verdict | NoVerdict | Ack:
        """Ask for progress to be checked mid-task (``milestone_checks`` on; one per
        request). Advisory: the verdict never steers. An ``Ack`` says why not."""
        result: Verdict | NoVerdict | Ack = self._wait(
            self._ask_ref(MilestoneCheck(session_id=self.session_id, note=note)),
            "controller",
            self._config.review_call_timeout_s,
        )
        return result

    def close(self) -> ReportCard:
        """Close the session; returns the last task's report card."""
        closing = self._closing()
        card = self._wait(self._ask_ref(closing), "controller")  # it records the closing
        self._closed = True
        result: ReportCard = card
        return result


class AsyncSession(_SessionBase):
    """The same session API as coroutines, for hosts that run an event loop."""

    async def __aenter__(self) -> AsyncSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if not self._closed:
            await self.close()

    async def _wait(self, ref: Any, actor: str, timeout_s: float | None = None) -> Any:
        return await calls.aget(
            ref, actor=actor, timeout_s=timeout_s or self._config.call_timeout_s
        )

    async def record(self, events: Sequence[LedgerEvent]) -> AppendAck:
        return await self._append_async(events)

    async def note_workspace(
        self, workspace: str | os.PathLike[str], moment: Literal["start", "stop"]
    ) -> WorkspaceState:
        state = await asyncio.to_thread(self.workspace_event, workspace, moment)
        await self.record([state])
        return state

    async def run_gates(self, workspace: str | os.PathLike[str]) -> StopGates | None:
        from donecheck.runtime.gates import find_gates, gate_report, gates_at_stop

        source = await asyncio.to_thread(find_gates, Path(workspace))
        if source is None:
            return None
        edited = await self.edited_paths()
        done = await asyncio.to_thread(
            gates_at_stop,
            self.session_id,
            Path(workspace),
            source,
            edited,
            secrets=self._secrets(),
        )
        if done.ran:
            await self.record(
                [
                    self.check_report_event(**gate_report(r, trusted=done.trusted, why=done.why))
                    for r in done.ran
                ]
            )
        return done

    async def ledger(self, since_seq: int = 0) -> tuple[LedgerEntry, ...]:
        data = await self._wait(self._entries_ref(since_seq), "ledger")
        return view_decoder.decode(data).entries

    async def edited_paths(self) -> list[str | None]:
        view = view_decoder.decode(await self._wait(self._edits_ref(), "ledger"))
        return [e.path for e in view.edits if e.ok is not False]

    async def tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | str | None = None,
        *,
        call_id: str | None = None,
    ) -> str:
        event = self.tool_call_event(name, arguments, call_id)
        await self.record([event])
        return event.call_id

    async def tool_result(
        self,
        call_id: str,
        output: str = "",
        *,
        ok: bool | None = None,
        exit_code: int | None = None,
        images: Sequence[object] = (),
    ) -> None:
        refs = await self.attach_tool_images(call_id, images) if images else ()
        await self.record([self.tool_result_event(call_id, output, ok, exit_code, images=refs)])

    async def check_report(self, **fields: Any) -> CheckReport:
        event = self.check_report_event(**fields)
        await self.record([event])
        return event

    async def attach_tool_images(
        self, call_id: str, images: Sequence[object]
    ) -> tuple[ImageRef, ...]:
        refs, now, jobs = self._tool_images(call_id, images)
        if now:
            await self.record(now)
        if jobs:
            await self._wait(self._attach_ref(call_id, jobs), "controller")
        return refs

    async def file_snapshot(
        self, path: str | os.PathLike[str], *, event_id: str | None = None
    ) -> FileSnapshot | None:
        snapshot = self._snapshot(path, event_id)
        if snapshot is not None and (await self.record([snapshot])).skipped:
            return None
        return snapshot

    async def turn_stopping(
        self, answer: str, *, event_id: str | None = None, without_answer: bool = False
    ) -> ControllerAction:
        action: ControllerAction = await self._wait(
            self._ask_ref(self._stopping(answer, event_id, without_answer)),
            "controller",
            self._config.review_call_timeout_s,
        )
        return action

    async def new_user_input(
        self, text: str, *, request_id: str | None = None, attachments: Sequence[object] = ()
    ) -> str:
        event, now, jobs = self._input_with(text, request_id, attachments)
        await self._ask_async(event)  # the controller records the input (its owner)
        if now:
            await self.record(now)
        if jobs:
            await self._wait(
                calls.attach_materials(self._controller, self.session_id, jobs), "controller"
            )
        self.request_id = event.request_id
        return event.request_id

    async def cancel(self, reason: str = "cancelled by the user") -> Ack:
        cancel = Cancel(session_id=self.session_id, reason=reason, at=self._clock.now())
        ack: Ack = await self._ask_async(cancel)
        return ack

    async def report(self, request_id: str | None = None) -> ReportCard:
        query = ReportQuery(session_id=self.session_id, request_id=request_id)
        card: ReportCard = await self._ask_async(query)
        return card

    async def opt_out(self, scope: str = "request") -> Ack:
        ack: Ack = await self._ask_async(self._policy(False, scope))
        return ack

    async def opt_in(self, scope: str = "request") -> Ack:
        ack: Ack = await self._ask_async(self._policy(True, scope))
        return ack

    async def record_main_calls(self, count: int = 1) -> None:
        await self._wait(self._main_calls(count), "budget")

    async def milestone(self, note: str = "") -> Verdict | NoVerdict | Ack:
        result: Verdict | NoVerdict | Ack = await self._wait(
            self._ask_ref(MilestoneCheck(session_id=self.session_id, note=note)),
            "controller",
            self._config.review_call_timeout_s,
        )
        return result

    async def close(self) -> ReportCard:
        closing = self._closing()
        card = await self._ask_async(closing)  # the controller records the closing
        self._closed = True
        result: ReportCard = card
        return result
