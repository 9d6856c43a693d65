"""DoneCheck over HTTP: a small ASGI app (Starlette, served by uvicorn in ``donecheck
serve``) in front of a deployment's session API.

Any host that speaks HTTP — a non-Python agent runtime, Claude Code's ``http`` hook
type, ``donecheck hook`` as a thin client — drives sessions here::

    POST /v1/sessions                       open a session {request, session_id?, policy?}
    GET  /v1/sessions                       the sessions, newest first
    POST /v1/sessions/{id}/events           record events (batched)
    POST /v1/sessions/{id}/stop             the agent is stopping {answer, event_id?}
    POST /v1/sessions/{id}/input            a new user request {text, request_id?}
    POST /v1/sessions/{id}/cancel           {reason?}
    POST /v1/sessions/{id}/opt-out          {scope: request | session}
    GET  /v1/sessions/{id}/report           the report card (JSON; ?format=html|card)
    GET  /v1/statistics                     every actor's statistics
    GET  /v1/health                         liveness (no token needed)
    POST /v1/hooks/{agent}                  an agent CLI's hook payload, answered as a hook
                                            (claude-code, codex: the registered adapters)
    GET  /openapi.json                      this API, described

Every other route needs ``Authorization: Bearer <token>`` when the service has a
token (always, when it listens beyond loopback). Bodies over ``max_body_bytes``
are refused with 413, JSON nested deeper than ``max_json_depth`` with 400; both say
why; a body that has not arrived within ``body_timeout_s`` gets 408. Errors are
``{"error": "…"}`` with 400 (bad input), 401, 404 (unknown session), 408, 413 or
503 (an actor did not answer).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import hmac
import json
import os
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from donecheck.actors.bounds import nesting_exceeds
from donecheck.actors.errors import (
    ActorUnavailableError,
    DoneCheckError,
    InputError,
    SessionClosedError,
    UnknownSessionError,
)
from donecheck.actors.ids import MAX_SESSION_ID, SESSION_ID_PATTERN
from donecheck.actors.messages import Deliver, FileSnapshot, LedgerEvent, Policy, Steer
from donecheck.runtime.clients import names as client_names
from donecheck.runtime.gates import GateAccess
from donecheck.runtime.report import card_html, card_json
from donecheck.runtime.session import AsyncSession

__all__ = ["Limits", "create_app", "openapi"]

API_VERSION = "1"


@dataclass(frozen=True, slots=True)
class Limits:
    max_body_bytes: int = 16 * 1024 * 1024
    max_json_depth: int = 64
    max_events: int = 5_000
    """Events in one ``POST …/events``."""
    body_timeout_s: float = 30.0
    """A client that has not sent its whole body by then gets 408 (a slow client
    cannot hold a connection and its buffer)."""
    hook_threads: int = 64
    """Hook payloads handled at once. The handler drives the session API, which waits
    on the actors; asyncio's default pool (6 threads on 2 cores) held 1,000 Stop hooks
    at once on Ray to 198 stops/s."""


# --------------------------------------------------------------------- bodies


class _Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


_Text = Annotated[
    str,
    msgspec.Meta(
        # a character that is not whitespace in Python's regular expressions nor in
        # JSON Schema's (ECMA): they disagree on \x1c-\x1f, \x85 and \ufeff, and a
        # client that follows the schema must not be refused
        pattern=r"[^\s\x1c-\x1f\x85\ufeff]",
        description="not empty or blank",
    ),
]


_SessionId = Annotated[
    str,
    msgspec.Meta(
        pattern=SESSION_ID_PATTERN,
        max_length=MAX_SESSION_ID,
        description="letters, digits and . _ : @ + -, starting with a letter or digit",
    ),
]


class OpenBody(_Body):
    request: _Text
    session_id: _SessionId | None = None
    policy: Policy | None = None
    workspace: str | None = None
    """The folder the agent works in, on the service's host: its gates file and test
    configuration are noted as they are now, before the agent's first tool call, so a
    later stop can tell what the agent changed (else a gate's pass proves nothing)."""


class ToolCallEvent(_Body, tag="tool_call", tag_field="type"):
    name: Annotated[str, msgspec.Meta(min_length=1)]
    arguments: dict[str, Any] | str = {}
    call_id: str | None = None
    event_id: str | None = None


# "(?!\n)$": Python's "$" also matches before a final newline, ECMA's (the
# OpenAPI document's) does not: with the look-ahead both mean "the end".
_BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?!\n)$"


class ImagePart(_Body):
    name: str
    data: Annotated[str, msgspec.Meta(pattern=_BASE64)]
    """Base64 of the image's bytes (standard alphabet, padded): the schema says so,
    so a client — or schemathesis — knows what is accepted before it sends."""


class ToolResultEvent(_Body, tag="tool_result", tag_field="type"):
    call_id: str
    output: str = ""
    ok: bool | None = None
    exit_code: int | None = None
    event_id: str | None = None
    images: list[ImagePart] = []


class FileSnapshotEvent(_Body, tag="file_snapshot", tag_field="type"):
    path: str
    exists: bool = True
    sha256: str | None = None
    size: int | None = None
    mtime: float | None = None
    event_id: str | None = None


_Count = Annotated[int, msgspec.Meta(ge=0)]


class FailedTestItem(_Body):
    node: Annotated[str, msgspec.Meta(max_length=2_000)]
    message: Annotated[str, msgspec.Meta(max_length=2_000)] = ""


class CheckReportEvent(_Body, tag="check_report", tag_field="type"):
    """A test runner's own report of one run (the pytest plugin, ``record-junit``).
    Recorded with origin ``runner``; a gate's result cannot be sent."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    command: Annotated[str, msgspec.Meta(min_length=1, max_length=4_000)]
    ok: bool | None
    exit_code: int | None = None
    collected: _Count | None = None
    passed: _Count = 0
    failed: _Count = 0
    errors: _Count = 0
    skipped: _Count = 0
    failures: Annotated[list[FailedTestItem], msgspec.Meta(max_length=1_000)] = []
    detail: Annotated[str, msgspec.Meta(max_length=2_000)] = ""
    workspace: Annotated[str, msgspec.Meta(max_length=2_000)] = ""
    host: Annotated[str, msgspec.Meta(max_length=255)] = ""
    started_at: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    duration_s: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    event_id: str | None = None


class EventsBody(_Body):
    events: list[ToolCallEvent | ToolResultEvent | FileSnapshotEvent | CheckReportEvent]


class StopBody(_Body):
    answer: _Text
    event_id: str | None = None
    workspace: str | None = None
    """A folder on the service's host: its due gates run before the review."""


class InputBody(_Body):
    text: _Text
    request_id: str | None = None


class CancelBody(_Body):
    reason: str = "cancelled by the user"


class OptOutBody(_Body):
    scope: Literal["request", "session"] = "request"


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# ------------------------------------------------------------------------ app


class _Service:
    def __init__(
        self,
        dc: Any,
        token: str | None,
        limits: Limits,
        gate_token: str | None = None,
        gates: GateAccess | None = None,
    ) -> None:
        self.dc = dc
        self.token = token
        self.gate_token = gate_token or token
        self.gates = gates or GateAccess()
        self.limits = limits
        self.sessions: OrderedDict[str, AsyncSession] = OrderedDict()
        self.hook_pool = concurrent.futures.ThreadPoolExecutor(
            limits.hook_threads, thread_name_prefix="donecheck-hook"
        )

    # ---------------------------------------------------------------- helpers

    def authorise(self, request: Request) -> None:
        if self.token is not None and not _bearer(request, self.token):
            raise HttpError(401, "a valid 'Authorization: Bearer <token>' header is required")

    def gates_refused(self, request: Request, folder: str) -> str:
        """Why this caller may not have ``folder``'s gates run (``""``: it may)."""
        authorised = self.gate_token is not None and _bearer(request, self.gate_token)
        return self.gates.refuses(folder, authorised=authorised)

    async def body(self, request: Request) -> Any:
        """The request's JSON, bounded in size and depth."""
        declared = request.headers.get("content-length")
        limit = self.limits.max_body_bytes
        if (
            declared is not None
            and declared.isascii()
            and declared.isdigit()
            and int(declared) > limit
        ):
            raise HttpError(413, f"the body is {declared} bytes, over the {limit} byte limit")
        chunks: list[bytes] = []

        async def read() -> None:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HttpError(413, f"the body is over the {limit} byte limit")
                chunks.append(chunk)

        try:
            await asyncio.wait_for(read(), self.limits.body_timeout_s)
        except TimeoutError:
            raise HttpError(
                408, f"the body did not arrive within {self.limits.body_timeout_s:g} s"
            ) from None
        raw = b"".join(chunks)
        if not raw.strip():
            raise HttpError(400, "the body is empty: send a JSON object")
        depth = self.limits.max_json_depth
        deep = (  # before any decoder recurses; a big body is scanned off the event loop
            await asyncio.to_thread(nesting_exceeds, raw, depth)
            if len(raw) > 65_536
            else nesting_exceeds(raw, depth)
        )
        if deep:
            raise HttpError(
                400, f"the JSON is nested deeper than {self.limits.max_json_depth} levels"
            )
        try:
            value = msgspec.json.decode(raw)
        except RecursionError:
            raise HttpError(400, "the JSON is nested too deeply") from None
        except msgspec.DecodeError as exc:
            raise HttpError(400, f"the body is not valid JSON: {exc}") from None
        if _LONG_DIGITS.search(raw):
            value = _big_ints_as_text(value)
            request.state.long_digits = True
        return value

    async def typed(self, request: Request, kind: type[Any]) -> Any:
        value = await self.body(request)
        try:
            return msgspec.convert(value, kind)
        except msgspec.ValidationError as exc:
            hint = (
                " (a whole number past 64 bits is kept as text, so it is not a number here)"
                if "got `str`" in str(exc) and getattr(request.state, "long_digits", False)
                else ""
            )
            raise HttpError(400, f"invalid body: {exc}{hint}") from None

    async def session(self, session_id: str) -> AsyncSession:
        found = self.sessions.get(session_id)
        if found is not None:
            self.sessions.move_to_end(session_id)
            return found
        sync = await asyncio.to_thread(self.dc.session, session_id)
        handle = AsyncSession(
            self.dc.deployment, self.dc.clock, session_id, sync.request_id, sync.tenant
        )
        self.sessions[session_id] = handle
        while len(self.sessions) > 10_000:
            self.sessions.popitem(last=False)
        return handle

    # ----------------------------------------------------------------- routes

    async def health(self, request: Request) -> Response:
        return JSONResponse(
            {"status": "ok", "api": API_VERSION, "namespace": self.dc.config.namespace}
        )

    async def open(self, request: Request) -> Response:
        body: OpenBody = await self.typed(request, OpenBody)
        if body.workspace is not None and not await asyncio.to_thread(
            os.path.isdir, body.workspace
        ):
            raise HttpError(404, f"workspace {body.workspace!r}: no such folder on this host")
        session = await self.dc.open_session_async(
            body.request, policy=body.policy, session_id=body.session_id
        )
        if body.workspace is not None:
            await asyncio.to_thread(session.watch_gates, body.workspace)
            await session.note_workspace(body.workspace, "start")
        self.sessions[session.session_id] = session
        return JSONResponse(
            {"session_id": session.session_id, "request_id": session.request_id}, status_code=201
        )

    async def list_sessions(self, request: Request) -> Response:
        limit = _int_param(request, "limit", 100, 1, 10_000)
        found = await asyncio.to_thread(self.dc.sessions, limit)
        return JSONResponse({"sessions": [msgspec.to_builtins(s) for s in found]})

    async def events(self, request: Request) -> Response:
        session = await self.session(request.path_params["session_id"])
        body: EventsBody = await self.typed(request, EventsBody)
        if len(body.events) > self.limits.max_events:
            raise HttpError(
                413, f"{len(body.events)} events in one call, over {self.limits.max_events}"
            )
        batch: list[LedgerEvent] = []
        for event in body.events:
            if isinstance(event, ToolCallEvent):
                batch.append(
                    session.tool_call_event(
                        event.name, event.arguments, event.call_id, event_id=event.event_id
                    )
                )
            elif isinstance(event, ToolResultEvent):
                refs: tuple[Any, ...] = ()
                if event.images:
                    refs = await session.attach_tool_images(
                        event.call_id, [(i.name, _b64(i.data, i.name)) for i in event.images]
                    )
                batch.append(
                    session.tool_result_event(
                        event.call_id,
                        event.output,
                        event.ok,
                        event.exit_code,
                        event_id=event.event_id,
                        images=refs,
                    )
                )
            elif isinstance(event, CheckReportEvent):
                batch.append(
                    session.check_report_event(
                        origin="runner",
                        name=event.name,
                        command=event.command,
                        ok=event.ok,
                        exit_code=event.exit_code,
                        collected=event.collected,
                        passed=event.passed,
                        failed=event.failed,
                        errors=event.errors,
                        skipped=event.skipped,
                        failures=[(f.node, f.message) for f in event.failures],
                        detail=event.detail,
                        workspace=event.workspace,
                        host=event.host,
                        started_at=event.started_at,
                        duration_s=event.duration_s,
                        event_id=event.event_id,
                    )
                )
            else:
                stamp: dict[str, Any] = {
                    "session_id": session.session_id,
                    "at": self.dc.clock.now(),
                }
                if event.event_id:
                    stamp["event_id"] = event.event_id
                batch.append(
                    FileSnapshot(
                        path=event.path,
                        exists=event.exists,
                        sha256=event.sha256,
                        size=event.size,
                        mtime=event.mtime,
                        **stamp,
                    )
                )
        ack = await session.record(batch) if batch else None
        return JSONResponse(
            {
                "recorded": len(batch),
                "skipped": ack.skipped if ack is not None else 0,
            }
        )

    async def stop(self, request: Request) -> Response:
        session = await self.session(request.path_params["session_id"])
        body: StopBody = await self.typed(request, StopBody)
        if body.workspace is not None:
            if not await asyncio.to_thread(os.path.isdir, body.workspace):
                raise HttpError(404, f"workspace {body.workspace!r}: no such folder on this host")
            refused = self.gates_refused(request, body.workspace)
            if refused:
                raise HttpError(403, f"gates not run: {refused}")
            await session.run_gates(body.workspace)
            await session.note_workspace(body.workspace, "stop")
        action = await session.turn_stopping(body.answer, event_id=body.event_id)
        kind = (
            "deliver"
            if isinstance(action, Deliver)
            else "steer"
            if isinstance(action, Steer)
            else "report"
        )
        return JSONResponse(
            {
                "action": kind,
                "decision": action.report.decision,
                "message": action.message if isinstance(action, Steer) else None,
                "round": action.round if isinstance(action, Steer) else None,
                "reason": getattr(action, "reason", None),
                "report": card_json(action.report, session=session.session_id),
            }
        )

    async def new_input(self, request: Request) -> Response:
        session = await self.session(request.path_params["session_id"])
        body: InputBody = await self.typed(request, InputBody)
        request_id = await session.new_user_input(body.text, request_id=body.request_id)
        return JSONResponse({"request_id": request_id})

    async def cancel(self, request: Request) -> Response:
        session = await self.session(request.path_params["session_id"])
        body: CancelBody = await self.typed(request, CancelBody)
        ack = await session.cancel(body.reason)
        return JSONResponse({"ok": True, "detail": ack.detail})

    async def opt_out(self, request: Request) -> Response:
        session = await self.session(request.path_params["session_id"])
        body: OptOutBody = await self.typed(request, OptOutBody)
        ack = await session.opt_out(body.scope)
        return JSONResponse({"ok": True, "detail": ack.detail})

    async def report(self, request: Request) -> Response:
        session_id = request.path_params["session_id"]
        session = await self.session(session_id)
        card = await session.report(request.query_params.get("request_id"))
        wanted = request.query_params.get("format", "")
        if wanted == "html" or (not wanted and "text/html" in request.headers.get("accept", "")):
            return HTMLResponse(card_html([(session_id, card, [])]))
        if wanted == "card":  # the card itself, for a client that renders it (report --session)
            return Response(msgspec.json.encode(card), media_type="application/json")
        if wanted not in {"", "json"}:
            raise HttpError(400, f"format must be json, html or card, not {wanted!r}")
        return JSONResponse(card_json(card, session=session_id))

    async def statistics(self, request: Request) -> Response:
        stats = await asyncio.to_thread(self.dc.statistics)
        return Response(
            json.dumps(stats, default=str, ensure_ascii=False), media_type="application/json"
        )

    def hook_route(self, agent: str) -> Callable[[Request], Awaitable[Response]]:
        """The endpoint of agent CLI ``agent``'s hooks (``/v1/hooks/<agent>``)."""

        async def hooked(request: Request) -> Response:
            return await self.hook(request, agent)

        return hooked

    async def hook(self, request: Request, agent: str) -> Response:
        from donecheck.runtime.hooks import handle

        payload = await self.body(request)
        if not isinstance(payload, dict):
            raise HttpError(400, "a hook payload is a JSON object")
        loop = asyncio.get_running_loop()

        def gates(folder: str) -> str:
            return self.gates_refused(request, folder)

        def run() -> Any:
            return handle(self.dc, payload, agent, gates=gates)

        reply = await loop.run_in_executor(self.hook_pool, run)
        return JSONResponse(reply.output, headers={"x-donecheck-note": _header(reply.note)})

    async def openapi_document(self, request: Request) -> Response:
        return JSONResponse(openapi())


def _header(text: str) -> str:
    return text.encode("ascii", "replace").decode()[:500]


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise HttpError(400, f"{name} must be a whole number from {low} to {high}")
    return int(raw)


def _b64(data: str, name: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise HttpError(400, f"image {name!r}: data is not valid base64") from None


def _guarded(service: _Service, method: Any, *, public: bool = False) -> Any:
    async def endpoint(request: Request) -> Response:
        try:
            if not public:
                service.authorise(request)
            response: Response = await method(request)
            return response
        except HttpError as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except UnknownSessionError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        except SessionClosedError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except (InputError, ValueError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except ActorUnavailableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        except DoneCheckError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)

    return endpoint


_LONG_DIGITS = re.compile(rb"\d{19}")
"""A digit run long enough to hold a whole number past 64 bits (cheap to look for)."""


def _big_ints_as_text(value: Any) -> Any:
    """``value`` with every whole number no store or encoder keeps (outside
    -2**63 … 2**64-1) written as its decimal text: kept, not lost, where the body holds
    free-form JSON (tool arguments and outputs); refused by name where it must be a
    number (an exit code, a count). Depth is bounded by ``max_json_depth`` already."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -(2**63) <= value < 2**64 else str(value)
    if isinstance(value, dict):
        return {k: _big_ints_as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_big_ints_as_text(v) for v in value]
    return value


def _bearer(request: Request, token: str) -> bool:
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        value.strip().encode(), token.encode()
    )


def create_app(
    dc: Any,
    *,
    token: str | None = None,
    limits: Limits | None = None,
    gate_token: str | None = None,
    gate_workspaces: Sequence[str | os.PathLike[str]] = (),
) -> Starlette:
    """The ASGI app over deployment ``dc`` (a :class:`~donecheck.runtime.api.DoneCheck`).
    ``token``: required on every route but health and the OpenAPI document.
    ``gate_token`` (default ``token``): what a caller must show to have gates run, only
    in ``gate_workspaces`` (none: no gates run for callers)."""
    access = GateAccess(tuple(Path(w).resolve() for w in gate_workspaces))
    service = _Service(dc, token, limits or Limits(), gate_token, access)
    sid = "/v1/sessions/{session_id}"
    routes = [
        Route("/v1/health", _guarded(service, service.health, public=True), methods=["GET"]),
        Route(
            "/openapi.json",
            _guarded(service, service.openapi_document, public=True),
            methods=["GET"],
        ),
        Route("/v1/sessions", _guarded(service, service.open), methods=["POST"]),
        Route("/v1/sessions", _guarded(service, service.list_sessions), methods=["GET"]),
        Route(f"{sid}/events", _guarded(service, service.events), methods=["POST"]),
        Route(f"{sid}/stop", _guarded(service, service.stop), methods=["POST"]),
        Route(f"{sid}/input", _guarded(service, service.new_input), methods=["POST"]),
        Route(f"{sid}/cancel", _guarded(service, service.cancel), methods=["POST"]),
        Route(f"{sid}/opt-out", _guarded(service, service.opt_out), methods=["POST"]),
        Route(f"{sid}/report", _guarded(service, service.report), methods=["GET"]),
        Route("/v1/statistics", _guarded(service, service.statistics), methods=["GET"]),
        *(
            Route(
                f"/v1/hooks/{agent}", _guarded(service, service.hook_route(agent)), methods=["POST"]
            )
            for agent in client_names()
        ),
    ]
    return Starlette(routes=routes)


# -------------------------------------------------------------------- openapi


def _schema(kind: Any) -> dict[str, Any]:
    (schema,), components = msgspec.json.schema_components(
        [kind], ref_template="#/components/schemas/{name}"
    )
    return {"schema": schema, "components": components}


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.0 document of this API (request bodies from the msgspec types)."""
    components: dict[str, Any] = {}

    def body(kind: Any) -> dict[str, Any]:
        found = _schema(kind)
        components.update(found["components"])
        return {
            "required": True,
            "content": {"application/json": {"schema": found["schema"]}},
        }

    error = {
        "description": "an error, said in one line",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"error": {"type": "string"}},
                    "required": ["error"],
                }
            }
        },
    }
    obj = {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}}
    errors = {code: error for code in ("400", "401", "403", "404", "408", "409", "413", "503")}
    session_param = [
        {
            "name": "session_id",
            "in": "path",
            "required": True,
            "schema": {
                "type": "string",
                "pattern": SESSION_ID_PATTERN,
                "maxLength": MAX_SESSION_ID,
            },
        }
    ]

    def post(kind: Any, summary: str, params: bool = True, ok: str = "200") -> dict[str, Any]:
        op: dict[str, Any] = {
            "summary": summary,
            "requestBody": body(kind),
            "responses": {ok: obj, **errors},
        }
        if params:
            op["parameters"] = session_param
        return {"post": op}

    hook = {
        "post": {
            "summary": "a hook payload, answered as the hook expects",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            "responses": {"200": obj, **errors},
        }
    }
    paths: dict[str, Any] = {
        "/v1/health": {"get": {"summary": "liveness", "security": [], "responses": {"200": obj}}},
        "/v1/sessions": {
            **post(OpenBody, "open a session", params=False, ok="201"),
            "get": {
                "summary": "the sessions, newest first",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 10_000},
                    }
                ],
                "responses": {"200": obj, **errors},
            },
        },
        "/v1/sessions/{session_id}/events": post(EventsBody, "record events (batched)"),
        "/v1/sessions/{session_id}/stop": post(StopBody, "the agent is stopping: review"),
        "/v1/sessions/{session_id}/input": post(InputBody, "a new user request"),
        "/v1/sessions/{session_id}/cancel": post(CancelBody, "cancel the task"),
        "/v1/sessions/{session_id}/opt-out": post(OptOutBody, "opt out of review"),
        "/v1/sessions/{session_id}/report": {
            "get": {
                "summary": "the report card",
                "parameters": [
                    *session_param,
                    {
                        "name": "format",
                        "in": "query",
                        "schema": {"enum": ["json", "html", "card"]},
                        "description": "json: the card for people and scripts; html: the "
                        "page; card: DoneCheck's ReportCard as it is (msgspec JSON)",
                    },
                    {"name": "request_id", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "the card",
                        "content": {
                            "application/json": {"schema": {"type": "object"}},
                            "text/html": {"schema": {"type": "string"}},
                        },
                    },
                    **errors,
                },
            }
        },
        "/v1/statistics": {"get": {"summary": "actor statistics", "responses": {"200": obj}}},
        **{f"/v1/hooks/{agent}": hook for agent in client_names()},
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "DoneCheck", "version": API_VERSION},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
