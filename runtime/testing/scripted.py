"""A scripted judge: a real HTTP server on 127.0.0.1 speaking OpenAI chat completions.

For tests, benchmarks and your own tests of a DoneCheck setup — no real model,
no network beyond loopback. Each request to ``POST …/chat/completions`` gets
the next scripted :class:`Reply` (then the default one), plain or streamed
(server-sent events) as the request asks. A judged task makes a pre-analysis
call first (while the agent works) and then one review call per stop; give
``preanalysis=`` to answer the pre-analysis calls apart from the script::

    from donecheck.runtime.testing.scripted import Reply, ScriptedProvider, preanalysis_text

    with ScriptedProvider(
        [Reply(status=429, headers={"retry-after": "1"}),
         Reply(content='{"decision": "pass", "findings": [], "summary": "ok"}')],
        preanalysis=preanalysis_text(),
    ) as judge:
        dc = DoneCheck.start(judge_base_url=judge.url, judge_model=judge.model)
        ...  # open a session, record what the agent did, one turn_stopping()
        assert len(judge.requests) == 3  # the pre-analysis, the 429, the pass

A reply can be slow (``latency_s``), fail (``status`` with ``Retry-After`` in
``headers``), be malformed (``body`` sent as is), lose its usage (``usage=None``),
cut its stream (``cut_after`` chunks), keep the connection alive by dripping a
byte at a time without ever finishing (``drip_s``), or drop the connection
(``drop``). A ``responder`` function can choose replies from the request.

Run it on its own (benchmarks do) with ``python -m donecheck.runtime.testing.scripted
--latency 0.2``: it prints ``{"url": …}`` on its first line and serves until
stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from donecheck.actors.judge import chat_text
from donecheck.actors.review.preanalysis import PREANALYSIS_OPENING

__all__ = [
    "PASS_VERDICT",
    "RecordedRequest",
    "Reply",
    "ScriptedProvider",
    "preanalysis_text",
    "verdict_text",
]


def verdict_text(
    decision: str = "pass", findings: Iterable[dict[str, Any]] = (), summary: str = ""
) -> str:
    """A verdict in the review contract's JSON form."""
    return json.dumps(
        {"decision": decision, "findings": list(findings), "summary": summary or decision},
        ensure_ascii=False,
    )


PASS_VERDICT = verdict_text("pass", summary="Every requirement is met and shown in the ledger.")


def preanalysis_text(items: Iterable[tuple[str, str]] = ()) -> str:
    """A pre-analysis answer: ``(item, quote)`` pairs, each quote copied from the
    request (none: DoneCheck extracts the items by rules)."""
    return json.dumps(
        {"acceptance": [{"item": item, "quote": quote} for item, quote in items]},
        ensure_ascii=False,
    )


@dataclass
class Reply:
    """What the server answers to one request."""

    content: str | None = None
    """The assistant's text (default: a pass verdict)."""
    tool_calls: list[dict[str, Any]] | None = None
    """Tool calls to make instead of answering: ``{"name": …, "arguments": {…}}`` each."""
    status: int = 200
    latency_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None
    """Sent as the whole response body instead of a completion (malformed JSON …)."""
    body_bytes: int = 0
    """Sent as a body of this many filler bytes (written in 1 MiB pieces, never held
    whole), to test a client's size limits; with ``status``."""
    usage: dict[str, int] | Literal["auto"] | None = "auto"
    """``auto``: counts from the sizes; ``None``: no usage in the answer."""
    stream: bool | None = None
    """Force a streamed (or plain) answer; default: as the request asks."""
    cut_after: int | None = None
    """Streamed answers: close the connection after this many chunks."""
    drip_s: float = 0.0
    """Send headers, then one byte every ``drip_every`` s for this long, then close."""
    drip_every: float = 0.2
    drop: bool = False
    """Close the connection without answering."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reply:
        """A reply from one line of a ``--script`` file."""
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    at: float

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages", []))

    @property
    def text(self) -> str:
        """Every text part of every message, joined (what the model was shown)."""
        return chat_text(self.messages)

    @property
    def is_preanalysis(self) -> bool:
        """The pre-analysis call (not a review)."""
        first = self.messages[0] if self.messages else {}
        content = first.get("content") if isinstance(first, dict) else None
        return isinstance(content, str) and content.startswith(PREANALYSIS_OPENING)


Responder = Callable[[RecordedRequest], "Reply | str | None"]


class ScriptedProvider:
    """The server. Use ``with`` (own thread) or ``async with`` (the running loop)."""

    def __init__(
        self,
        replies: Iterable[Reply | str] = (),
        *,
        default: Reply | str | None = None,
        responder: Responder | None = None,
        preanalysis: Reply | str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        model: str = "scripted-judge",
        record: bool = True,
    ) -> None:
        if host not in {"127.0.0.1", "::1", "localhost"}:
            raise ValueError(f"the scripted provider serves loopback only, not {host!r}")
        self._queue: deque[Reply] = deque(_reply(r) for r in replies)
        self.default = _reply(default) if default is not None else Reply()
        self.responder = responder
        self.preanalysis = _reply(preanalysis) if preanalysis is not None else None
        """Answers every pre-analysis call, apart from the script (``None``: the
        pre-analysis takes the next scripted reply like any call)."""
        self.host = host
        self.port = port
        self.model = model
        self.record = record
        self.requests: list[RecordedRequest] = []
        self.served = 0
        self._ids = itertools.count(1)
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def url(self) -> str:
        """The base URL to give a judge route (``…/v1``)."""
        return f"http://{self.host}:{self.port}/v1"

    def queue(self, *replies: Reply | str) -> None:
        """Script more replies (served after the ones already queued)."""
        self._queue.extend(_reply(r) for r in replies)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._connection, self.host, self.port, backlog=4_096, limit=2**24
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            tasks = [t for t in self._tasks if not t.done()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> ScriptedProvider:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def __enter__(self) -> ScriptedProvider:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self.start())
            except BaseException as exc:  # report a bind failure to the caller
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self.stop())
            loop.close()

        self._thread = threading.Thread(target=run, name="scripted-judge", daemon=True)
        self._thread.start()
        ready.wait(30)
        if failure:
            raise failure[0]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(30)

    # -------------------------------------------------------------- serving

    def _next(self, request: RecordedRequest) -> Reply:
        if self.responder is not None:
            chosen = self.responder(request)
            if chosen is not None:
                return _reply(chosen)
        if self.preanalysis is not None and request.is_preanalysis:
            return self.preanalysis
        if self._queue:
            return self._queue.popleft()
        return self.default

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            while True:
                line = await reader.readline()
                if not line.strip():
                    break
                method, path, _ = line.decode("latin-1").split(" ", 2)
                headers: dict[str, str] = {}
                while True:
                    header = await reader.readline()
                    if header in {b"\r\n", b"\n", b""}:
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0") or 0)
                raw = await reader.readexactly(length) if length else b""
                keep = await self._respond(method, path, headers, raw, writer)
                if not keep or headers.get("connection", "").lower() == "close":
                    break
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        except asyncio.CancelledError:  # the server is stopping: end quietly
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _respond(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        raw: bytes,
        writer: asyncio.StreamWriter,
    ) -> bool:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            models = {"object": "list", "data": [{"id": self.model, "object": "model"}]}
            return await _send(writer, 200, json.dumps(models).encode())
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return await _send(writer, 404, _error("no such route", "not_found"))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return await _send(writer, 400, _error("the body is not a chat request", "invalid"))
        request = RecordedRequest(method, path, headers, body, time.time())
        if self.record:
            self.requests.append(request)
        reply = self._next(request)
        self.served += 1
        if reply.latency_s > 0:
            await asyncio.sleep(reply.latency_s)
        if reply.drop:
            return False
        if reply.drip_s > 0:
            return await _drip(writer, reply)
        if reply.body_bytes > 0:
            return await _filler(writer, reply.status, reply.body_bytes)
        if reply.status != 200:
            text = (
                reply.body.encode()
                if reply.body is not None
                else _error(f"scripted HTTP {reply.status}", "scripted")
            )
            return await _send(writer, reply.status, text, reply.headers)
        if reply.body is not None:
            return await _send(writer, 200, reply.body.encode(), reply.headers)
        content = (
            reply.content
            if reply.content is not None
            else ("" if reply.tool_calls is not None else PASS_VERDICT)
        )
        usage = _usage(reply, raw, content)
        stream = reply.stream if reply.stream is not None else bool(body.get("stream"))
        ident = f"chatcmpl-{next(self._ids)}"
        if reply.tool_calls is None and stream:
            return await _stream(writer, ident, body, content, usage, reply)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        finish = "stop"
        if reply.tool_calls is not None:
            message["content"] = reply.content  # null when the model only acts
            message["tool_calls"] = [
                {
                    "id": f"call_{next(self._ids)}",
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": json.dumps(call.get("arguments", {})),
                    },
                }
                for call in reply.tool_calls
            ]
            finish = "tool_calls"
        completion: dict[str, Any] = {
            "id": ident,
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        if usage is not None:
            completion["usage"] = usage
        return await _send(writer, 200, json.dumps(completion).encode(), reply.headers)


def _reply(value: Reply | str) -> Reply:
    return Reply(content=value) if isinstance(value, str) else value


def _error(message: str, kind: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": kind}}).encode()


def _usage(reply: Reply, raw: bytes, content: str) -> dict[str, int] | None:
    if reply.usage is None:
        return None
    if reply.usage != "auto":
        return dict(reply.usage)
    prompt = max(1, len(raw) // 4)
    completion = max(1, len(content) // 4)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    408: "Request Timeout",
    409: "Conflict",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


def _head(status: int, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _send(
    writer: asyncio.StreamWriter, status: int, body: bytes, extra: dict[str, str] | None = None
) -> bool:
    headers = {"content-type": "application/json", "content-length": str(len(body))}
    headers.update(extra or {})
    writer.write(_head(status, headers) + body)
    await writer.drain()
    return True


async def _filler(writer: asyncio.StreamWriter, status: int, size: int) -> bool:
    """A body of ``size`` bytes of JSON-looking filler; a reader may hang up early."""
    piece = b'{"error": "' + b"x" * ((1 << 20) - 16) + b'"}\n'
    writer.write(_head(status, {"content-type": "application/json", "content-length": str(size)}))
    try:
        sent = 0
        while sent < size:
            part = piece[: size - sent]
            writer.write(part)
            sent += len(part)
            await writer.drain()
    except (ConnectionError, OSError):
        return False
    return True


async def _drip(writer: asyncio.StreamWriter, reply: Reply) -> bool:
    """Keep the connection busy without ever finishing the answer."""
    writer.write(_head(200, {"content-type": "application/json", "content-length": "1000000"}))
    await writer.drain()
    ends = time.monotonic() + reply.drip_s
    while time.monotonic() < ends:
        writer.write(b" ")
        await writer.drain()
        await asyncio.sleep(reply.drip_every)
    return False


async def _stream(
    writer: asyncio.StreamWriter,
    ident: str,
    body: dict[str, Any],
    content: str,
    usage: dict[str, int] | None,
    reply: Reply,
) -> bool:
    headers = {"content-type": "text/event-stream", "transfer-encoding": "chunked"}
    headers.update(reply.headers)
    writer.write(_head(200, headers))
    model = body.get("model") or "scripted-judge"

    def event(choices: list[dict[str, Any]], **extra: Any) -> bytes:
        chunk = {"id": ident, "object": "chat.completion.chunk", "model": model, "choices": choices}
        chunk.update(extra)
        return f"data: {json.dumps(chunk)}\n\n".encode()

    size = max(1, len(content) // 4 + 1)
    events = [event([{"index": 0, "delta": {"role": "assistant", "content": ""}}])]
    events += [
        event([{"index": 0, "delta": {"content": content[i : i + size]}}])
        for i in range(0, len(content), size)
    ]
    events.append(event([{"index": 0, "delta": {}, "finish_reason": "stop"}]))
    wants_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    if usage is not None and wants_usage:
        events.append(event([], usage=usage))
    events.append(b"data: [DONE]\n\n")
    for n, data in enumerate(events):
        if reply.cut_after is not None and n >= reply.cut_after:
            await writer.drain()
            return False
        writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await writer.drain()
    writer.write(b"0\r\n\r\n")
    await writer.drain()
    return True


# ------------------------------------------------------------------- command line


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m donecheck.runtime.testing.scripted",
        description="Serve scripted OpenAI chat completions on 127.0.0.1 until stopped.",
    )
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--content", help="the answer text (default: a pass verdict)")
    parser.add_argument(
        "--script",
        help="JSON lines file, one Reply per line (fields as in Reply), served in order",
    )
    args = parser.parse_args(argv)
    replies: list[Reply | str] = []
    if args.script:
        with open(args.script, encoding="utf-8") as handle:
            replies = [Reply.from_dict(json.loads(line)) for line in handle if line.strip()]
    default = Reply(content=args.content, latency_s=args.latency)

    async def serve() -> None:
        server = ScriptedProvider(replies, default=default, port=args.port, record=False)
        await server.start()
        print(json.dumps({"url": server.url, "model": server.model}), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await server.stop()
        print(json.dumps({"served": server.served}), flush=True)

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    sys.exit(_main())
