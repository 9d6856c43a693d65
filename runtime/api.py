"""The entry point: start (or attach to) a deployment and open sessions on it.

>>> dc = DoneCheck.start()                      # embedded local Ray instance
>>> dc = DoneCheck.start(address="auto")        # the running cluster on this node
>>> dc = DoneCheck.start(address="ray://head:10001")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from donecheck.actors import calls
from donecheck.actors.clock import Clock, SystemClock
from donecheck.actors.config import Config, load_config
from donecheck.actors.deployment import Deployment, LocalDeployment
from donecheck.actors.errors import ActorUnavailableError, AttachmentError, DeploymentError
from donecheck.actors.ids import check_session_id, new_id, shard_of
from donecheck.actors.messages import (
    AttachmentRef,
    ImageRef,
    ImageRole,
    LedgerEvent,
    Material,
    MaterialRecorded,
    ParseRequest,
    Policy,
    SessionOpened,
    SessionSummary,
    TaskQuery,
)
from donecheck.runtime.attachments import (
    Loaded,
    load_attachment,
    submit_parse,
    too_large_material,
    unreadable_material,
)
from donecheck.runtime.session import AsyncSession, Session

__all__ = ["DoneCheck"]


class DoneCheck:
    """A handle to a running DoneCheck deployment (its actors on Ray)."""

    def __init__(
        self, deployment: Deployment, *, started_ray: bool = False, clock: Clock | None = None
    ) -> None:
        self.deployment = deployment
        self.clock: Clock = clock or SystemClock()
        self._started_ray = started_ray
        self._stopped = False

    @classmethod
    def start(
        cls,
        address: str | None = None,
        *,
        config: Config | None = None,
        progress: Callable[[str], None] | None = None,
        **overrides: Any,
    ) -> DoneCheck:
        """Start DoneCheck, or attach to the one already running.

        ``address=None`` uses the Ray instance this process is connected to, or
        starts an embedded local one. ``"auto"`` connects to the cluster running
        on this node; ``"ray://host:port"`` to a remote cluster (DoneCheck must
        be installed on its nodes). Actors are created in ``config.namespace``;
        if they exist already, this driver attaches to them and adopts their
        layout. On a cluster the actors are detached and outlive this driver.
        ``progress`` is told each step as it begins (starting Ray takes seconds).
        """
        import time

        from donecheck.actors.deploy import deploy, disconnect, init_ray  # Ray: only here

        say = progress or (lambda _: None)
        config = config or load_config(**overrides)
        began = time.monotonic()
        say(
            "starting a local Ray instance"
            if address is None
            else f"connecting to the Ray cluster at {address}"
        )
        started = init_ray(address, config)
        say(f"Ray is up ({time.monotonic() - began:.1f} s); starting DoneCheck's actors")
        try:
            deployment = deploy(config, detached=address is not None)
        except Exception as exc:
            if started:
                disconnect()
            raise DeploymentError(f"could not deploy DoneCheck's actors: {exc}") from exc
        return cls(deployment, started_ray=started)

    @classmethod
    def start_local(cls, *, config: Config | None = None, **overrides: Any) -> DoneCheck:
        """DoneCheck in this process, without Ray: the same actor classes on one event
        loop (parsers on their own threads and worker processes). For one-shot work —
        reviewing files, a corpus, a script — it starts in milliseconds; sessions live
        as long as this handle. ``shutdown()`` stops it."""
        from donecheck.actors.inprocess import deploy_local

        return cls(deploy_local(config or load_config(**overrides)))

    @property
    def local(self) -> bool:
        """Whether the deployment runs in this process (:meth:`start_local`)."""
        return isinstance(self.deployment, LocalDeployment)

    @property
    def config(self) -> Config:
        return self.deployment.config

    def __enter__(self) -> DoneCheck:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # -------------------------------------------------------------- sessions

    def _prepare(
        self,
        request: str,
        attachments: Sequence[object],
        images: Sequence[object],
        policy: Policy | None,
        session_id: str | None,
    ) -> tuple[SessionOpened, list[LedgerEvent], list[tuple[str, str, Any]]]:
        """The opening message (the controller records it), the materials too large to
        parse (the host records them after it), and the parse jobs."""
        config = self.config
        session_id = check_session_id(session_id) if session_id else new_id("s-")
        loaded_files = [
            load_attachment(a, i, config.max_attachment_bytes) for i, a in enumerate(attachments)
        ]
        loaded_images = [
            load_attachment(a, i, config.max_attachment_bytes) for i, a in enumerate(images)
        ]
        opened = SessionOpened(
            session_id=session_id,
            request_id=new_id("rq-"),
            request=request,
            attachments=tuple(
                AttachmentRef(
                    sha256=f.sha256, name=f.name, size=len(f.data), media_type=f.media_type
                )
                for f in loaded_files
            ),
            images=tuple(
                ImageRef(sha256=f.sha256, name=f.name, size=len(f.data), media_type=f.media_type)
                for f in loaded_images
            ),
            policy=policy or Policy(),
            at=self.clock.now(),
            event_id=new_id("ev-"),
        )
        now_events: list[LedgerEvent] = []
        jobs: list[tuple[str, str, Any]] = []
        roles: list[tuple[Loaded, ImageRole | None]] = [(f, None) for f in loaded_files]
        roles += [(f, "reference") for f in loaded_images]
        for item, role in roles:
            if item.too_large:
                now_events.append(
                    MaterialRecorded(
                        session_id=session_id,
                        material=self._too_large(item),
                        at=self.clock.now(),
                        event_id=f"material-{session_id}-{item.sha256}",
                    )
                )
            else:
                jobs.append((item.sha256, item.name, self._parse_ref(item, role)))
        return opened, now_events, jobs

    def _parse_ref(self, item: Loaded, role: ImageRole | None) -> Any:
        return submit_parse(self.deployment, item, role)

    def _too_large(self, item: Loaded) -> Material:
        return too_large_material(item, self.config.max_attachment_bytes)

    def open_session(
        self,
        request: str,
        *,
        attachments: Sequence[object] = (),
        images: Sequence[object] = (),
        policy: Policy | None = None,
        session_id: str | None = None,
    ) -> Session:
        """Open a session with the user's first request.

        ``attachments`` and ``images`` are paths, bytes, or ``(name, bytes)``
        pairs; they are parsed in parallel on the parser pool while the agent
        works, and every review waits for them.
        """
        opened, too_large, jobs = self._prepare(request, attachments, images, policy, session_id)
        controller = self.deployment.controller_for(opened.session_id)
        timeout = self.config.call_timeout_s
        # the controller records the opening in the ledger (the event's one owner)
        calls.get(calls.ask(controller, opened), actor="controller", timeout_s=timeout)
        if too_large:
            ledger = self.deployment.ledger_for(opened.session_id)
            calls.get(calls.append(ledger, too_large), actor="ledger", timeout_s=timeout)
        if jobs:
            calls.get(
                calls.attach_materials(controller, opened.session_id, jobs),
                actor="controller",
                timeout_s=timeout,
            )
        return Session(
            self.deployment, self.clock, opened.session_id, opened.request_id, opened.policy.tenant
        )

    async def open_session_async(
        self,
        request: str,
        *,
        attachments: Sequence[object] = (),
        images: Sequence[object] = (),
        policy: Policy | None = None,
        session_id: str | None = None,
    ) -> AsyncSession:
        """:meth:`open_session` for an event loop."""
        opened, too_large, jobs = self._prepare(request, attachments, images, policy, session_id)
        controller = self.deployment.controller_for(opened.session_id)
        timeout = self.config.call_timeout_s
        # the controller records the opening in the ledger (the event's one owner);
        # both calls batched with other sessions' (see actors/batching.py)
        await calls.ask_batched(controller, opened, timeout)
        if too_large:
            ledger = self.deployment.ledger_for(opened.session_id)
            await calls.append_batched(ledger, too_large, timeout)
        if jobs:
            await calls.aget(
                calls.attach_materials(controller, opened.session_id, jobs),
                actor="controller",
                timeout_s=timeout,
            )
        return AsyncSession(
            self.deployment, self.clock, opened.session_id, opened.request_id, opened.policy.tenant
        )

    # --------------------------------------------------------------- parsing

    def _submit_parse(self, item: object, index: int, role: ImageRole | None) -> Any:
        loaded = load_attachment(item, index, self.config.max_attachment_bytes)
        if loaded.too_large:
            return calls.put(self._too_large(loaded))
        return self._parse_ref(loaded, role)

    def parse(self, item: object, *, role: ImageRole | None = None) -> Material:
        """Parse one attachment (a path, bytes, or ``(name, bytes)``) on the parser pool."""
        ref = self._submit_parse(item, 0, role)
        timeout = self.config.parse_timeout_s + self.config.call_timeout_s
        material: Material = calls.get(ref, actor="parser", timeout_s=timeout)
        return material

    def parse_many(self, items: Sequence[object], *, window: int = 3) -> list[Material]:
        """Parse many attachments in parallel on the pool; results in input order.

        Each file goes to the parser that owns its hash (whose cache may hold it)
        unless that parser already has ``window`` files in hand, in which case it
        goes to the least busy one: a batch keeps every parser working even when
        the hashes fall unevenly. One file that fails, hangs or crashes its parser
        gives a ``failed`` Material; the others are unaffected.
        """
        config = self.config
        parsers = self.deployment.parsers
        results: list[Material | None] = [None] * len(items)
        pending = list(range(len(items)))
        pending.reverse()
        load = [0] * len(parsers)
        in_flight: dict[Any, tuple[int, int, int]] = {}
        timeout = config.parse_timeout_s + config.call_timeout_s
        while pending or in_flight:
            while pending:
                index = pending[-1]
                try:
                    loaded = load_attachment(items[index], index, config.max_attachment_bytes)
                except AttachmentError as exc:  # a FIFO, a device, a vanished file: its own result
                    results[pending.pop()] = unreadable_material(exc)
                    continue
                if loaded.too_large:
                    results[pending.pop()] = self._too_large(loaded)
                    continue
                owner = shard_of(loaded.sha256, len(parsers))
                target = (
                    owner
                    if load[owner] < window
                    else min(range(len(parsers)), key=load.__getitem__)
                )
                if load[target] >= window:
                    break
                pending.pop()
                request = ParseRequest(
                    sha256=loaded.sha256, declared_name=loaded.name, size=len(loaded.data)
                )
                ref = calls.parse(parsers[target], request, loaded.data)
                in_flight[ref] = (index, target, owner)
                load[target] += 1
            done = calls.first_done(list(in_flight), timeout)
            if not done:
                raise ActorUnavailableError("parser", "no file finished in time", timeout)
            for ref in done:
                index, target, owner = in_flight.pop(ref)
                load[target] -= 1
                results[index] = calls.get(ref, actor="parser", timeout_s=timeout)
                if target != owner:  # the owner's cache answers the next request for it
                    calls.remember(parsers[owner], ref)
        return [m for m in results if m is not None]

    def session(self, session_id: str) -> Session:
        """A handle to a session opened elsewhere (another process, an earlier call)."""
        check_session_id(session_id)
        controller = self.deployment.controller_for(session_id)
        task = calls.get(
            calls.ask(controller, TaskQuery(session_id=session_id)),
            actor="controller",
            timeout_s=self.config.call_timeout_s,
        )
        return Session(self.deployment, self.clock, session_id, task.request_id)

    def sessions(self, limit: int = 100) -> list[SessionSummary]:
        """The deployment's sessions, most recently updated first (at most ``limit``)."""
        refs = [calls.list_sessions(c, limit) for c in self.deployment.controllers]
        found: list[SessionSummary] = [
            summary
            for shard in calls.get(refs, actor="controller", timeout_s=self.config.call_timeout_s)
            for summary in shard
        ]
        found.sort(key=lambda s: s.updated_at, reverse=True)
        return found[:limit]

    # ------------------------------------------------------------ operations

    def statistics(self) -> dict[str, Any]:
        """Each actor's ``statistics()``: sessions, events, reviews, in flight, cache hits."""
        return self.deployment.statistics(self.config.call_timeout_s)

    def shutdown(self, *, stop_deployment: bool = False) -> None:
        """Disconnect. An embedded Ray instance this handle started is stopped with
        its actors; on a cluster the deployment keeps running for other drivers
        unless ``stop_deployment=True``."""
        if self._stopped:
            return
        self._stopped = True
        if stop_deployment or self.local:
            self.deployment.kill()
        if self._started_ray:
            from donecheck.actors.deploy import disconnect

            disconnect()
