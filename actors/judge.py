"""The judge model: a route to an OpenAI-compatible endpoint and a small client.

A :class:`JudgeRoute` names the endpoint (base URL, model, key, temperature,
declared input modalities). It is set apart from the agent's own model; an
invalid route is reported by :meth:`JudgeRoute.problem` and the reviewer falls
back to rules-only with a warning.

:class:`JudgeProvider` is the whole interface a reviewer needs: one
``generate``. :class:`OpenAIProvider` implements it over ``POST
{base_url}/chat/completions`` with one ``aiohttp.ClientSession`` (a sixth of the
CPU per call that httpx took here: the judge client was the reviewer's largest
cost under load, ``benchmarks/RESULTS.md``):

* one overall deadline per call (150 s by default) around every attempt and
  every back-off — it holds when a server keeps a connection alive by dripping
  bytes, which defeats per-read timeouts;
* retries on 408, 409, 429, 5xx, a malformed or cut-off answer, and connection
  errors, with exponential back-off or the server's ``Retry-After`` (capped), at
  most 3 attempts; never on other 4xx;
* usage read from the OpenAI fields (``prompt_tokens``, ``completion_tokens``,
  ``prompt_tokens_details.cached_tokens``) and DeepSeek's
  (``prompt_cache_hit_tokens``, ``prompt_cache_miss_tokens``), kept per attempt
  so every attempt can be reported to the budget accountant;
* requests to anything but a loopback address are refused unless the route
  allows remote hosts (``DONECHECK_JUDGE_REMOTE=1``), so tests and demos never
  reach a real provider; the key is never logged or put in an error.
"""

from __future__ import annotations

import email.utils
import ipaddress
import json
import random
import socket
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiohttp
import msgspec

from donecheck.actors.bounds import nesting_exceeds
from donecheck.actors.clock import Clock, SystemClock, within
from donecheck.actors.config import Config
from donecheck.actors.errors import DoneCheckError
from donecheck.actors.redact import redact

__all__ = [
    "Attempt",
    "ChatMessage",
    "FakeJudge",
    "FakeReply",
    "Generation",
    "JudgeProvider",
    "JudgeRoute",
    "OpenAIProvider",
    "ProviderError",
    "Usage",
    "chat_text",
    "is_loopback",
    "usage_from",
]

ChatMessage = Mapping[str, Any]
RETRY_STATUSES = frozenset({408, 409, 429})
MAX_ATTEMPTS = 3


class ProviderError(DoneCheckError):
    """A judge call gave no usable answer. ``attempts`` holds every attempt made."""

    def __init__(self, problem: str, attempts: Sequence[Attempt] = ()) -> None:
        super().__init__(problem)
        self.attempts = tuple(attempts)


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.0/8`` or ``::1``."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class JudgeRoute:
    """Where the judge model lives. The key is kept out of ``repr``."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    temperature: float = 0.2
    modalities: frozenset[str] = frozenset({"text"})
    stream: bool = False
    allow_remote: bool = False
    max_tokens: int = 8_192

    @property
    def sees_images(self) -> bool:
        return "image" in self.modalities

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or ""

    @property
    def label(self) -> str:
        """``model@host`` for reports (no key, no path)."""
        return f"{self.model}@{self.host}"

    def problem(self) -> str | None:
        """Why this route cannot be used, or ``None``."""
        if not self.model.strip():
            return "no judge model is set (judge_model / --judge-model)"
        try:
            parts = urlsplit(self.base_url)
        except ValueError as exc:
            return f"judge base URL {self.base_url!r} is not a URL: {exc}"
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            return f"judge base URL {redact(self.base_url)!r} must be http(s)://host[:port][/path]"
        if parts.password is not None or parts.username is not None:
            return "put the judge key in judge_api_key (or --judge-key-env), not in the URL"
        if not self.allow_remote and not is_loopback(parts.hostname):
            return (
                f"judge host {parts.hostname!r} is not a loopback address; requests to other"
                " hosts are refused unless enabled (DONECHECK_JUDGE_REMOTE=1 or --judge-remote)"
            )
        return None

    @classmethod
    def from_config(cls, config: Config) -> JudgeRoute | None:
        """The configured route, or ``None`` when no judge is configured."""
        if not config.judge_base_url and not config.judge_model:
            return None
        key = config.judge_api_key.get_secret_value() if config.judge_api_key else None
        return cls(
            base_url=config.judge_base_url or "",
            model=config.judge_model or "",
            api_key=key or None,
            temperature=config.judge_temperature,
            modalities=frozenset(config.judge_modalities),
            stream=config.judge_stream,
            allow_remote=config.judge_remote,
            max_tokens=min(config.judge_max_tokens, config.aux_max_output_tokens),
        )


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens the provider reported for one attempt; ``None`` = not reported."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_hit_tokens: int | None = None
    cache_miss_tokens: int | None = None

    @property
    def known(self) -> bool:
        return self.input_tokens is not None and self.output_tokens is not None

    @property
    def total(self) -> int | None:
        if not self.known:
            return None
        return (self.input_tokens or 0) + (self.output_tokens or 0)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def usage_from(data: object) -> Usage:
    """Usage from an OpenAI-style ``usage`` object, with DeepSeek's cache fields."""
    if not isinstance(data, dict):
        return Usage()
    hit = _int(data.get("prompt_cache_hit_tokens"))
    miss = _int(data.get("prompt_cache_miss_tokens"))
    details = data.get("prompt_tokens_details")
    if hit is None and isinstance(details, dict):
        hit = _int(details.get("cached_tokens"))
    prompt = _int(data.get("prompt_tokens"))
    if prompt is None and hit is not None and miss is not None:
        prompt = hit + miss
    if miss is None and prompt is not None and hit is not None:
        miss = max(0, prompt - hit)
    return Usage(prompt, _int(data.get("completion_tokens")), hit, miss)


@dataclass(frozen=True, slots=True)
class Attempt:
    """One HTTP attempt of a call. ``status`` is ``None`` when no response came."""

    number: int
    status: int | None
    usage: Usage
    error: str = ""
    elapsed_s: float = 0.0
    sent: bool = True
    """The request reached the server (``False``: connection refused, DNS, TLS)."""

    @property
    def rejected(self) -> bool:
        """Nothing was produced, so no usage is owed: the request never reached the
        server, or the server refused it with an HTTP error status."""
        return not self.sent or (self.status is not None and self.status != 200)


@dataclass(frozen=True, slots=True)
class Generation:
    text: str
    usage: Usage
    attempts: tuple[Attempt, ...]
    model: str = ""
    finish_reason: str | None = None


class JudgeProvider(Protocol):
    """What a reviewer needs from a model: one completion for a chat."""

    async def generate(
        self, messages: Sequence[ChatMessage], *, max_tokens: int, deadline_s: float
    ) -> Generation:
        """The model's answer. Raises :class:`ProviderError` (with every attempt)."""
        ...


FakeReply = str | Generation | Exception
"""What :class:`FakeJudge` does for one call: answer this text (with usage counted
from the sizes), return this generation as it is, or raise this error."""


class FakeJudge:
    """An in-process :class:`JudgeProvider` for unit tests: scripted answers, no HTTP.

    Each call takes the next scripted reply (then ``default``), or asks
    ``responder`` with the messages; every call is recorded in :attr:`calls`.
    Integration tests use the scripted HTTP server
    (:class:`donecheck.runtime.testing.scripted.ScriptedProvider`) instead, which also
    exercises the client: retries, deadlines, streams.
    """

    def __init__(
        self,
        replies: Sequence[FakeReply] = (),
        *,
        default: FakeReply = '{"decision": "pass", "findings": [], "summary": "pass"}',
        responder: Callable[[Sequence[ChatMessage]], FakeReply | None] | None = None,
        model: str = "fake-judge",
    ) -> None:
        self._replies = list(replies)
        self.default = default
        self.responder = responder
        self.model = model
        self.calls: list[tuple[list[ChatMessage], int]] = []
        """``(messages, max_tokens)`` of every call, in order."""

    @property
    def texts(self) -> list[str]:
        """Every text part each call was shown, joined per call."""
        return [chat_text(messages) for messages, _ in self.calls]

    async def generate(
        self, messages: Sequence[ChatMessage], *, max_tokens: int, deadline_s: float
    ) -> Generation:
        self.calls.append((list(messages), max_tokens))
        reply = self.responder(messages) if self.responder is not None else None
        if reply is None:
            reply = self._replies.pop(0) if self._replies else self.default
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, Generation):
            return reply
        usage = Usage(max(1, len(chat_text(messages)) // 4), max(1, len(reply) // 4))
        return Generation(
            text=reply,
            usage=usage,
            attempts=(Attempt(1, 200, usage),),
            model=self.model,
            finish_reason="stop",
        )


def chat_text(messages: Sequence[ChatMessage]) -> str:
    """Every text part of every message, joined: what a model was shown to read."""
    parts: list[str] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "\n".join(parts)


class _AttemptFailed(Exception):
    def __init__(
        self,
        error: str,
        *,
        status: int | None,
        retry: bool,
        wait_s: float | None = None,
        sent: bool = True,
    ) -> None:
        super().__init__(error)
        self.error = error
        self.status = status
        self.retry = retry
        self.wait_s = wait_s
        self.sent = sent
        self.usage = Usage()


def transport_problem(exc: BaseException, url: str) -> str:
    """What went wrong on the wire, in words: connection refused, no such host, TLS …"""
    where = redact(url)
    chain: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and len(chain) < 8:
        chain.append(cause)
        os_error = getattr(cause, "os_error", None)  # aiohttp's connector errors
        if isinstance(os_error, BaseException):
            chain.append(os_error)
        cause = cause.__cause__ or cause.__context__
    if any(isinstance(c, ConnectionRefusedError) for c in chain):
        return f"cannot reach {where}: connection refused (nothing is listening there)"
    if any(isinstance(c, socket.gaierror) for c in chain):
        return f"cannot reach {where}: the host name does not resolve (DNS)"
    if any(isinstance(c, ssl.SSLError | ssl.CertificateError) for c in chain) or isinstance(
        exc, aiohttp.ClientSSLError
    ):
        return f"cannot reach {where}: the TLS handshake failed ({redact(str(exc))})"
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        return f"cannot reach {where}: the connection timed out"
    return f"{type(exc).__name__} from {where}: {redact(str(exc)) or 'connection error'}"


def _never_sent(exc: BaseException) -> bool:
    """Whether a failed request cannot have reached the server (refused, no such
    host, a failed TLS handshake, a connect timeout): such an attempt owes nothing."""
    return isinstance(exc, aiohttp.ClientConnectorError | aiohttp.ConnectionTimeoutError)


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class OpenAIProvider:
    """:class:`JudgeProvider` over an OpenAI-compatible chat-completions endpoint.

    Create one per reviewer actor (it owns one ``aiohttp.ClientSession``, made in
    the event loop of its first call) and close it with :meth:`aclose`.
    """

    def __init__(
        self,
        route: JudgeRoute,
        *,
        max_connections: int = 1_024,
        max_attempts: int = MAX_ATTEMPTS,
        backoff_s: float = 0.5,
        retry_after_cap_s: float = 20.0,
        max_answer_bytes: int = 8 << 20,
        clock: Clock | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        """``clock`` keeps the deadline and the attempts' durations, and its sleep
        waits out a back-off (unless ``sleep`` is given for that)."""
        problem = route.problem()
        if problem is not None:
            raise ProviderError(f"invalid judge route: {problem}")
        self.route = route
        self._url = route.base_url.rstrip("/") + "/chat/completions"
        self._host = urlsplit(self._url).hostname or ""
        self._loopback = is_loopback(self._host)
        self._max_attempts = max(1, max_attempts)
        self._backoff_s = backoff_s
        self._retry_after_cap_s = retry_after_cap_s
        self._max_answer_bytes = max_answer_bytes
        self._clock = clock or SystemClock()
        self._sleep = sleep or self._clock.sleep
        self._headers = {
            "content-type": "application/json",
            "user-agent": "donecheck-judge",
            "accept-encoding": "identity",  # nothing to inflate past the byte cap
        }
        if route.api_key:
            self._headers["authorization"] = f"Bearer {route.api_key}"
        self._max_connections = max(1, max_connections)
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                headers=self._headers,
                connector=aiohttp.TCPConnector(
                    limit=self._max_connections, limit_per_host=self._max_connections
                ),
                # the call's deadline bounds the rest (see generate)
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30.0),
                # Proxies from the environment must not capture loopback test traffic.
                trust_env=self.route.allow_remote,
            )
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()

    def _body(self, messages: Sequence[ChatMessage], max_tokens: int) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.route.model,
            "messages": list(messages),
            "temperature": self.route.temperature,
            "max_tokens": max_tokens,
        }
        if self.route.stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body

    async def generate(
        self, messages: Sequence[ChatMessage], *, max_tokens: int, deadline_s: float
    ) -> Generation:
        host = self._host
        if not self.route.allow_remote and not self._loopback:  # belt and braces
            raise ProviderError(f"refused: {host!r} is not a loopback address")
        body = _json_encode(self._body(messages, max_tokens))
        attempts: list[Attempt] = []
        try:
            return await within(self._clock, deadline_s, self._attempts(body, deadline_s, attempts))
        except TimeoutError:
            attempts.append(
                Attempt(
                    len(attempts) + 1,
                    None,
                    Usage(),
                    f"no complete answer within the {deadline_s:g} s deadline",
                    0.0,
                )
            )
            raise ProviderError(
                f"the judge call passed its {deadline_s:g} s deadline", attempts
            ) from None

    async def _attempts(
        self, body: bytes, deadline_s: float, attempts: list[Attempt]
    ) -> Generation:
        """The call, tried again after a failure that may pass, within the deadline
        (each attempt recorded in ``attempts`` as it ends)."""
        clock = self._clock
        started = clock.monotonic()
        for number in range(1, self._max_attempts + 1):
            begun = clock.monotonic()
            try:
                text, usage, model, finish = await self._attempt(body)
            except _AttemptFailed as failed:
                attempts.append(
                    Attempt(
                        number,
                        failed.status,
                        failed.usage,
                        failed.error,
                        clock.monotonic() - begun,
                        failed.sent,
                    )
                )
                if not failed.retry or number == self._max_attempts:
                    raise ProviderError(
                        f"the judge call failed after {number} attempt(s): {failed.error}",
                        attempts,
                    ) from None
                wait = self._wait(number, failed.wait_s)
                remaining = deadline_s - (clock.monotonic() - started)
                if wait >= remaining:
                    raise ProviderError(
                        f"the judge call failed: {failed.error}; a retry in {wait:.1f} s"
                        f" would pass the {deadline_s:g} s deadline",
                        attempts,
                    ) from None
                await self._sleep(wait)
                continue
            attempts.append(Attempt(number, 200, usage, "", clock.monotonic() - begun))
            return Generation(text, usage, tuple(attempts), model, finish)
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait(self, number: int, server_says: float | None) -> float:
        if server_says is not None:
            return min(server_says, self._retry_after_cap_s)
        base: float = self._backoff_s * 2.0 ** (number - 1)
        return base * (0.8 + 0.4 * random.random())

    async def _attempt(self, body: bytes) -> tuple[str, Usage, str, str | None]:
        try:
            async with self._client().post(self._url, data=body, allow_redirects=False) as response:
                status = response.status
                if status != 200:  # only the start of an error body is read, however long
                    head, _ = await _read_capped(response, _ERROR_BODY_BYTES)
                    detail = head[:300].decode("utf-8", "replace")
                    retry = status in RETRY_STATUSES or status >= 500
                    wait = retry_after(response.headers.get("retry-after")) if retry else None
                    raise _AttemptFailed(
                        f"HTTP {status}: {redact(detail.strip()) or response.reason or ''}",
                        status=status,
                        retry=retry,
                        wait_s=wait,
                    )
                if "text/event-stream" in response.headers.get("content-type", ""):
                    return await self._read_stream(response)
                raw, whole = await _read_capped(response, self._max_answer_bytes)
                if not whole:
                    raise _AttemptFailed(
                        f"the answer is over the {self._max_answer_bytes} byte limit; not read",
                        status=None,
                        retry=False,
                    )
        except (aiohttp.ClientError, aiohttp.ConnectionTimeoutError) as exc:
            # connect, read, write, a cut stream
            raise _AttemptFailed(
                transport_problem(exc, self._url),
                status=None,
                retry=True,
                sent=not _never_sent(exc),
            ) from None
        return self._read_json(raw)

    def _read_json(self, raw: bytes) -> tuple[str, Usage, str, str | None]:
        if nesting_exceeds(raw, _ANSWER_DEPTH):
            failed = _AttemptFailed(
                f"the answer's JSON is nested deeper than {_ANSWER_DEPTH} levels",
                status=None,
                retry=True,
            )
            raise failed
        try:
            data = _json_decode(raw)
            choice = data["choices"][0]
            text = _content(choice["message"].get("content"))
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            failed = _AttemptFailed(
                "the answer is not a chat completion: "
                + redact(raw[:120].decode("utf-8", "replace")),
                status=200,
                retry=True,
            )
            failed.status = None  # nothing usable came back: not a rejection
            raise failed from None
        return text, usage_from(data.get("usage")), str(data.get("model", "")), _finish(choice)

    async def _read_stream(
        self, response: aiohttp.ClientResponse
    ) -> tuple[str, Usage, str, str | None]:
        parts: list[str] = []
        usage = Usage()
        model = ""
        finish: str | None = None
        done = False
        try:
            async for line in _capped_lines(response, self._max_answer_bytes):
                if not line.startswith("data:"):
                    continue
                payload = line[5:].strip()
                if payload == "[DONE]":
                    done = True
                    break
                if nesting_exceeds(payload.encode(), _ANSWER_DEPTH):
                    continue
                try:
                    chunk = _json_decode(payload)
                except ValueError:
                    continue
                if not isinstance(chunk, dict):
                    continue
                model = str(chunk.get("model", model))
                if chunk.get("usage"):
                    usage = usage_from(chunk["usage"])
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    parts.append(_content(delta.get("content")))
                    finish = _finish(choice) or finish
        except aiohttp.ClientError as exc:
            failed = _AttemptFailed(
                f"the stream was cut: {type(exc).__name__}", status=None, retry=True
            )
            failed.usage = usage
            raise failed from None
        if not done and finish is None:
            failed = _AttemptFailed(
                "the stream ended before the answer finished", status=None, retry=True
            )
            failed.usage = usage
            raise failed
        return "".join(parts), usage, model, finish


_ERROR_BODY_BYTES = 4_096
_json_encode = msgspec.json.Encoder().encode  # UTF-8, as json.dumps(ensure_ascii=False)


def _json_decode(raw: bytes | str) -> Any:
    """JSON as ``json.loads`` reads it, by msgspec (several times faster) when it can;
    what msgspec refuses (``NaN``, say) goes to ``json.loads``, which decides."""
    try:
        return _json_decoder.decode(raw)
    except msgspec.DecodeError:
        return json.loads(raw)


_json_decoder = msgspec.json.Decoder()
_ANSWER_DEPTH = 64


async def _read_capped(response: aiohttp.ClientResponse, limit: int) -> tuple[bytes, bool]:
    """At most ``limit`` bytes of the body, and whether that was all of it; the
    rest is never read (the connection is closed, not kept for another call)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_any():
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            response.close()
            return b"".join(chunks)[:limit], False
    return b"".join(chunks), True


async def _capped_lines(response: aiohttp.ClientResponse, limit: int) -> AsyncIterator[str]:
    """A streamed answer's lines; past ``limit`` bytes in all the call fails."""
    size = 0
    pending = bytearray()
    async for chunk in response.content.iter_any():
        size += len(chunk)
        if size > limit:
            response.close()
            raise _AttemptFailed(
                f"the streamed answer is over the {limit} byte limit; not read",
                status=None,
                retry=False,
            )
        start = len(pending)
        pending += chunk
        begin = 0
        while (end := pending.find(b"\n", start)) >= 0:
            yield pending[begin:end].decode("utf-8", "replace").rstrip("\r")
            begin = start = end + 1
        del pending[:begin]
    if pending:
        yield pending.decode("utf-8", "replace").rstrip("\r")


def _content(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content parts
        return "".join(
            str(p.get("text", "")) for p in value if isinstance(p, dict) and p.get("type") == "text"
        )
    return ""


def _finish(choice: object) -> str | None:
    if isinstance(choice, dict) and isinstance(choice.get("finish_reason"), str):
        return str(choice["finish_reason"])
    return None
