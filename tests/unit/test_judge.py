"""The judge client against the scripted provider: a real HTTP server on 127.0.0.1.

The retry/deadline matrix: which answers are retried, how long the client waits,
that the overall deadline holds against a server that drips bytes, and what
usage each attempt reports.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from donecheck.actors.clock import FakeClock
from donecheck.actors.config import Config
from donecheck.actors.judge import (
    Generation,
    JudgeRoute,
    OpenAIProvider,
    ProviderError,
    Usage,
    is_loopback,
    retry_after,
    usage_from,
)
from donecheck.runtime.testing.scripted import Reply, ScriptedProvider

MESSAGES = [{"role": "user", "content": "review this"}]


class Sleeps:
    """Records the back-off waits instead of sleeping them."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def call(
    replies: Sequence[Reply | str],
    *,
    deadline_s: float = 10.0,
    stream: bool = False,
    sleeps: Sleeps | None = None,
    key: str | None = None,
    cap_s: float = 20.0,
    advance_s: float | None = None,
) -> tuple[Generation | ProviderError, ScriptedProvider]:
    """One judge call against a scripted server. With ``advance_s``, the call's clock
    is a fake one, moved that far once the server has the request: a deadline is
    then tested without waiting for it."""

    async def go() -> tuple[Generation | ProviderError, ScriptedProvider]:
        async with ScriptedProvider(replies, default=Reply(status=500)) as server:
            route = JudgeRoute(base_url=server.url, model="judge", api_key=key, stream=stream)
            clock = FakeClock() if advance_s is not None else None
            provider = OpenAIProvider(
                route,
                sleep=sleeps or Sleeps(),
                backoff_s=0.5,
                retry_after_cap_s=cap_s,
                clock=clock,
            )
            try:
                called = asyncio.ensure_future(
                    provider.generate(MESSAGES, max_tokens=100, deadline_s=deadline_s)
                )
                if clock is not None and advance_s is not None:
                    await asyncio.wait_for(clock.until_sleeping(), 10)  # the deadline is set
                    clock.advance(advance_s)
                return await called, server
            except ProviderError as exc:
                return exc, server
            finally:
                await provider.aclose()

    return asyncio.run(go())


def statuses(result: Generation | ProviderError) -> list[int | None]:
    return [a.status for a in result.attempts]


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503])
def test_retryable_statuses_are_retried(status: int) -> None:
    result, server = call([Reply(status=status), "ok"])
    assert isinstance(result, Generation)
    assert result.text == "ok"
    assert statuses(result) == [status, 200]
    assert result.attempts[0].rejected and not result.attempts[1].rejected
    assert len(server.requests) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_client_errors_are_not_retried(status: int) -> None:
    result, server = call(
        [Reply(status=status, body='{"error": "bad key sk-abcdef1234567890XYZ"}')]
    )
    assert isinstance(result, ProviderError)
    assert statuses(result) == [status]
    assert len(server.requests) == 1
    assert "sk-abcdef1234567890XYZ" not in str(result)  # secrets redacted from errors


def test_at_most_three_attempts() -> None:
    sleeps = Sleeps()
    result, server = call([Reply(status=500)] * 5, sleeps=sleeps)
    assert isinstance(result, ProviderError)
    assert statuses(result) == [500, 500, 500]
    assert len(server.requests) == 3
    assert len(sleeps.waits) == 2
    assert 0.4 <= sleeps.waits[0] <= 0.6 and 0.8 <= sleeps.waits[1] <= 1.2  # exponential


def test_retry_after_is_obeyed_and_capped() -> None:
    sleeps = Sleeps()
    result, _ = call(
        [
            Reply(status=429, headers={"retry-after": "3"}),
            Reply(status=503, headers={"retry-after": "120"}),
            "ok",
        ],
        sleeps=sleeps,
        deadline_s=100.0,
        cap_s=7.0,
    )
    assert isinstance(result, Generation)
    assert sleeps.waits == [3.0, 7.0]


def test_a_retry_that_would_pass_the_deadline_is_not_made() -> None:
    result, server = call([Reply(status=429, headers={"retry-after": "30"}), "ok"], deadline_s=5.0)
    assert isinstance(result, ProviderError)
    assert "deadline" in str(result)
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "bad",
    [
        Reply(drop=True),
        Reply(body="{not json"),
        Reply(body='{"choices": []}'),
        Reply(content="cut", stream=True, cut_after=2),
    ],
    ids=["dropped", "malformed", "no-choices", "cut-stream"],
)
def test_broken_answers_are_retried(bad: Reply) -> None:
    result, server = call([bad, "ok"])
    assert isinstance(result, Generation), result
    assert result.text == "ok"
    assert len(result.attempts) == 2 and result.attempts[0].status is None
    assert len(server.requests) == 2


def test_the_deadline_holds_against_a_dripping_server() -> None:
    """A byte every 50 ms for 30 s keeps each read alive: only the overall deadline,
    on the judge's clock, ends the call."""
    started = time.monotonic()
    result, _ = call([Reply(drip_s=30, drip_every=0.05)], deadline_s=150.0, advance_s=150.0)
    assert isinstance(result, ProviderError)
    assert "passed its 150 s deadline" in str(result)
    assert time.monotonic() - started < 10.0  # the clock moved, nobody waited 150 s


def test_the_deadline_covers_slow_answers_too() -> None:
    result, _ = call([Reply(latency_s=30.0)], deadline_s=150.0, advance_s=150.0)
    assert isinstance(result, ProviderError) and "150 s deadline" in str(result)


def test_a_call_within_its_deadline_is_not_cut() -> None:
    result, _ = call([Reply(latency_s=0.3, content="ok")], deadline_s=150.0, advance_s=149.0)
    assert isinstance(result, Generation) and result.text == "ok"


def test_usage_is_read_per_attempt_and_missing_usage_is_unknown() -> None:
    result, _ = call([Reply(status=429), Reply(content="ok", usage=None)])
    assert isinstance(result, Generation)
    assert [a.usage.known for a in result.attempts] == [False, False]
    assert result.usage == Usage()


def test_deepseek_cache_fields() -> None:
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 50,
        "prompt_cache_hit_tokens": 800,
        "prompt_cache_miss_tokens": 200,
    }
    result, _ = call([Reply(content="ok", usage=usage)])
    assert isinstance(result, Generation)
    assert result.usage == Usage(1000, 50, 800, 200)


def test_openai_cached_tokens() -> None:
    assert usage_from(
        {
            "prompt_tokens": 100,
            "completion_tokens": 5,
            "prompt_tokens_details": {"cached_tokens": 60},
        }
    ) == Usage(100, 5, 60, 40)
    assert usage_from({"prompt_cache_hit_tokens": 3, "prompt_cache_miss_tokens": 4}) == Usage(
        7, None, 3, 4
    )
    assert usage_from("nonsense") == Usage()
    assert usage_from({"prompt_tokens": -1, "completion_tokens": True}) == Usage()


def test_streamed_answers_with_usage() -> None:
    result, server = call(["streamed verdict text"], stream=True)
    assert isinstance(result, Generation)
    assert result.text == "streamed verdict text"
    assert result.usage.known
    assert server.requests[0].body is not None and server.requests[0].body["stream"] is True


def test_the_key_is_sent_as_a_bearer_token_and_never_shown() -> None:
    result, server = call(["ok"], key="sk-test-0123456789abcdef")
    assert isinstance(result, Generation)
    assert server.requests[0].headers["authorization"] == "Bearer sk-test-0123456789abcdef"
    route = JudgeRoute(base_url=server.url, model="m", api_key="sk-test-0123456789abcdef")
    assert "sk-test" not in repr(route)


def test_the_request_carries_model_temperature_and_max_tokens() -> None:
    _, server = call(["ok"])
    body = server.requests[0].body
    assert body is not None
    assert body["model"] == "judge" and body["temperature"] == 0.2 and body["max_tokens"] == 100


@pytest.mark.parametrize(
    ("url", "remote", "problem"),
    [
        ("http://127.0.0.1:8000/v1", False, None),
        ("http://localhost:8000/v1", False, None),
        ("http://[::1]:8000/v1", False, None),
        ("https://api.deepseek.com", False, "not a loopback address"),
        ("https://api.deepseek.com", True, None),
        ("ftp://127.0.0.1/", False, "must be http(s)"),
        ("http://user:pw@127.0.0.1/", False, "not in the URL"),
        ("127.0.0.1:8000", False, "must be http(s)"),
    ],
)
def test_route_problems(url: str, remote: bool, problem: str | None) -> None:
    found = JudgeRoute(base_url=url, model="m", allow_remote=remote).problem()
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_non_loopback_requests_are_refused() -> None:
    with pytest.raises(ProviderError, match="not a loopback address"):
        OpenAIProvider(JudgeRoute(base_url="https://api.openai.com/v1", model="gpt"))


def test_route_from_config() -> None:
    assert JudgeRoute.from_config(Config()) is None
    route = JudgeRoute.from_config(
        Config(
            judge_base_url="http://127.0.0.1:9/v1",
            judge_model="m",
            judge_api_key="sk-secret-123456789",  # type: ignore[arg-type]
            judge_modalities=("text", "image"),
            judge_max_tokens=999_999,
        )
    )
    assert route is not None
    assert route.api_key == "sk-secret-123456789" and route.sees_images
    assert route.max_tokens == 32_768  # never above the per-call output cap
    assert route.label == "m@127.0.0.1"


def test_helpers() -> None:
    assert is_loopback("127.0.0.2") and is_loopback("localhost") and not is_loopback("10.0.0.1")
    assert retry_after("2.5") == 2.5
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0) == 0.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after("soon") is None and retry_after(None) is None


def test_the_scripted_server_serves_loopback_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        ScriptedProvider(host="0.0.0.0")


def test_the_scripted_server_in_its_own_thread() -> None:
    import httpx

    with ScriptedProvider(["hello"], model="m1") as server:
        models = httpx.get(server.url + "/models").json()
        assert models["data"][0]["id"] == "m1"
        answer = httpx.post(
            server.url + "/chat/completions", json={"model": "m1", "messages": MESSAGES}
        ).json()
        assert answer["choices"][0]["message"]["content"] == "hello"
        assert httpx.post(server.url + "/chat/completions", content=b"{").status_code == 400
        assert httpx.get(server.url + "/nowhere").status_code == 404
    assert server.requests[0].text == "review this"


def _peak_rss(reset: bool = False) -> int:
    """This process's peak resident set (VmHWM); ``reset`` starts a new peak."""
    if reset:
        Path("/proc/self/clear_refs").write_text("5")
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.mark.parametrize("status", [500, 200])
def test_a_300_mb_reply_is_never_read_whole(status: int) -> None:
    """An error body is read up to 4 KiB, an answer up to the answer limit; the
    client hangs up on the rest, and this process's memory stays where it was."""
    import gc

    gc.collect()
    before = _peak_rss(reset=True)
    result, _ = call([Reply(status=status, body_bytes=300 << 20), "ok"], sleeps=Sleeps())
    peak = _peak_rss()
    assert peak - before < 64 << 20, f"the peak RSS grew {(peak - before) >> 20} MiB"
    if status == 500:  # retried, and the second attempt answers
        assert isinstance(result, Generation) and result.text == "ok"
        assert result.attempts[0].error.startswith('HTTP 500: {"error": "xxx')
    else:  # too big to be an answer: not retried, no verdict from it
        assert isinstance(result, ProviderError)
        assert "over the 8388608 byte limit" in result.attempts[-1].error


def test_a_streamed_answer_past_the_limit_fails_without_holding_it() -> None:
    async def go() -> Generation | ProviderError:
        huge = "word " * (3 << 20)  # ~15 MB of content in stream chunks
        async with ScriptedProvider([Reply(content=huge, stream=True)]) as server:
            route = JudgeRoute(base_url=server.url, model="judge", stream=True)
            provider = OpenAIProvider(route, sleep=Sleeps(), max_answer_bytes=1 << 20)
            try:
                return await provider.generate(MESSAGES, max_tokens=100, deadline_s=30)
            except ProviderError as exc:
                return exc
            finally:
                await provider.aclose()

    result = asyncio.run(go())
    assert isinstance(result, ProviderError)
    assert "streamed answer is over the 1048576 byte limit" in result.attempts[-1].error


def test_an_answer_nested_too_deeply_is_refused_before_decoding() -> None:
    deep = '{"choices": ' + "[" * 5_000 + "]" * 5_000 + "}"
    result, _ = call([Reply(body=deep)] * 5, sleeps=Sleeps())
    assert isinstance(result, ProviderError)
    assert "nested deeper than 64 levels" in result.attempts[0].error


def test_nothing_listening_is_named_and_every_attempt_owes_nothing() -> None:
    """A refused connection never reached the provider: each attempt says so (the
    accountant charges it nothing) and the error names the cause."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on (bound, then closed)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def go() -> ProviderError:
        provider = OpenAIProvider(
            JudgeRoute(base_url=f"http://127.0.0.1:{port}/v1", model="judge"), sleep=Sleeps()
        )
        try:
            with pytest.raises(ProviderError) as caught:
                await provider.generate(MESSAGES, max_tokens=10, deadline_s=10)
            return caught.value
        finally:
            await provider.aclose()

    error = asyncio.run(go())
    assert "connection refused (nothing is listening there)" in str(error)
    assert len(error.attempts) == 3 and not any(a.sent for a in error.attempts)


def test_a_connection_the_server_drops_mid_answer_is_retried_and_may_have_cost() -> None:
    result, _ = call([Reply(content="cut", stream=True, cut_after=1), Reply(content="fine")])
    assert isinstance(result, Generation) and result.text == "fine"
    assert [a.sent for a in result.attempts] == [True, True]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": NaN, "b": [1, 2.5, "\\u00e9"]}',
        b'{"n": 123456789012345678901234567890}',
        b'{"a": 1, "a": 2}',
        '{"text": "caf\u00e9 \u6f22\u5b57"}'.encode(),
        b"[]",
        b'"just a string"',
    ],
)
def test_answers_are_decoded_as_json_loads_decodes_them(raw: bytes) -> None:
    import json
    import math

    from donecheck.actors.judge import _json_decode

    got, expected = _json_decode(raw), json.loads(raw)
    if isinstance(expected, dict) and any(
        isinstance(v, float) and math.isnan(v) for v in expected.values()
    ):
        assert got.keys() == expected.keys()
    else:
        assert got == expected
    with pytest.raises(ValueError):
        _json_decode(b"{not json")
