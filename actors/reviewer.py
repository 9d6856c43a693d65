"""Reviewer: turns a :class:`ReviewRequest` into a verdict, by rules and optionally a judge.

Every review first applies the rules (:func:`~donecheck.actors.review.rules.review_by_rules`):
they are the whole review when no judge route is configured (the embedded
default), and the hard gates on top of the judge when one is.

With a judge route (:class:`~donecheck.actors.judge.JudgeRoute`) a review is:

1. pre-analysis — acceptance items from the request, one aux call, cached per
   task (``session``, ``request_id``) and rebuilt only for a new request; while an
   attachment the request depends on has no content evidence, the rules-made
   items are used and nothing is cached;
2. a budget reservation (the accountant may refuse: then the rules decide, and
   the report says the judge was not called);
3. the judge call (:class:`~donecheck.actors.judge.OpenAIProvider`, one
   ``httpx.AsyncClient`` per actor), every attempt's usage settled with the
   accountant;
4. parsing with fallbacks (:mod:`~donecheck.actors.review.verdicts`), then
   :func:`~donecheck.actors.review.combine.combine`: citation and quote checks,
   downgrades, the approval guard on the judge's own statements, and the rules'
   findings on top: a judge ``pass`` never overrides a failed check.

A judge that fails or answers nothing parseable never triggers a fix and never
passes: the rules' findings stand if they found something, else the result is
:class:`NoVerdict` ("could not verify"), with the raw text kept.

The same evidence fingerprint and inputs return the cached verdict without a
second call; identical reviews in flight at once share one call. At most
``reviewer_concurrency`` judge reviews run at once per actor; the rest queue,
and :meth:`Reviewer.statistics` says how many.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import msgspec

from donecheck.actors import process
from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.clock import Clock, SystemClock
from donecheck.actors.config import Config
from donecheck.actors.ids import serial_id
from donecheck.actors.judge import (
    Attempt,
    Generation,
    JudgeProvider,
    JudgeRoute,
    OpenAIProvider,
    ProviderError,
    Usage,
)
from donecheck.actors.loop import progress_key
from donecheck.actors.messages import (
    Acceptance,
    Ack,
    AuxKind,
    Deny,
    EvidenceRequest,
    EvidenceView,
    NoVerdict,
    Reserve,
    ReviewRequest,
    ReviewResult,
    UsageReport,
    UsageSummary,
    Verdict,
    encode,
    review_request_decoder,
)
from donecheck.actors.peers import BudgetPort, LedgerPort, LocalBudgets
from donecheck.actors.process import process_facts
from donecheck.actors.review.combine import combine, fallback, noted
from donecheck.actors.review.preanalysis import (
    extract_acceptance,
    parse_preanalysis,
    preanalysis_messages,
)
from donecheck.actors.review.prompt import (
    PROMPT_VERSION,
    ReviewPrompt,
    build_review_prompt,
    preanalysis_block,
)
from donecheck.actors.review.rules import acceptance_of, review_by_rules, tagged
from donecheck.actors.review.verdicts import parse_verdict
from donecheck.actors.words.approval import claim_contexts, vet_acceptance
from donecheck.actors.words.attachments import material_key

__all__ = ["Reviewer"]

_T = TypeVar("_T")
_ACCEPTANCE_CACHE = 10_000
_LATENCIES = 4_096


class Reviewer:
    def __init__(
        self,
        index: int = 0,
        *,
        config: Config | None = None,
        budget: BudgetPort | None = None,
        ledger: LedgerPort | None = None,
        provider: JudgeProvider | None = None,
        clock: Clock | None = None,
        settle_gc: bool = False,
    ) -> None:
        """Without ``budget`` an in-process accountant counts the aux calls; without
        ``provider`` the configured judge route is called over HTTP. ``ledger``: the
        ledger shards a review asks for its evidence view (a request that carries its
        view needs none). ``settle_gc``: set by ``deploy`` in an actor's process
        (:func:`~donecheck.actors.process.settle_gc`)."""
        self.index = index
        self._config = config or Config()
        self._clock = clock or SystemClock()
        route = JudgeRoute.from_config(self._config)
        self._warning: str | None = None
        if route is not None and route.problem() is not None:
            self._warning = (
                f"The judge route is invalid ({route.problem()}); reviewed by rules only."
            )
            route = None
        self.route = route
        self._provider = provider
        if provider is not None and route is None:
            self.route = JudgeRoute(base_url="http://127.0.0.1/", model="injected")
        self._budget = budget or LocalBudgets([BudgetAccountant(config=self._config)])
        self._ledger = ledger
        self._limit: asyncio.Semaphore | None = None
        self._cache: OrderedDict[str, Verdict] = OrderedDict()
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._acceptance: OrderedDict[tuple[str, str], Acceptance] = OrderedDict()
        # sessions under review → the usage their latest settlement returned
        self._usage_seen: dict[str, UsageSummary | None] = {}
        self._latency_ms: deque[float] = deque(maxlen=_LATENCIES)
        self._in_flight = 0
        self._queued = 0
        self._timing = {"prepare_s": 0.0, "budget_s": 0.0, "provider_s": 0.0, "conclude_s": 0.0}
        self._stats = {
            "calls": 0,
            "reviews": 0,
            "evidence_views": 0,
            "failures": 0,
            "cache_hits": 0,
            "coalesced": 0,
            "judge_calls": 0,
            "judge_failures": 0,
            "unparsed": 0,
            "budget_denied": 0,
            "preanalysis_calls": 0,
            "prepared": 0,
        }
        if settle_gc:
            process.settle_gc()

    @property
    def mode(self) -> str:
        return "rules" if self.route is None else "judge"

    # --------------------------------------------------------------- evidence

    async def _evidence(
        self, request: ReviewRequest, *, prompt: bool, approvals: bool = False
    ) -> EvidenceView:
        """The request's evidence: the view it carries, else the one its session's
        ledger shard works out (with a judge's prompt parts when ``prompt``)."""
        if request.view is not None:
            return request.view
        if self._ledger is None:
            raise ValueError("a review without its evidence view needs a reviewer with a ledger")
        self._stats["evidence_views"] += 1
        return await self._ledger.evidence(
            EvidenceRequest(
                session_id=request.session_id,
                request_id=request.request_id,
                request=request.request,
                prompt=prompt,
                # a judge's own statements are checked too: it may state an approval
                approvals=prompt or approvals or any(True for _ in claim_contexts(request.answer)),
                excerpt_chars=self._config.tool_log_excerpt_chars,
            )
        )

    # ----------------------------------------------------------------- review

    async def review(self, request: ReviewRequest) -> ReviewResult:
        """The verdict on ``request``, with how far into the ledger its evidence went
        and the loop's progress key of it."""
        self._stats["calls"] += 1
        self._in_flight += 1
        started = time.perf_counter()
        try:
            view = await self._evidence(request, prompt=self.route is not None)
            result = await self._reviewed(request, view)
            findings = result.findings if isinstance(result, Verdict) else ()
            return msgspec.structs.replace(
                result, ledger_seq=view.last_seq, progress=progress_key(findings, view.progress)
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must become "could not verify", never a pass or a fix
            self._stats["failures"] += 1
            return NoVerdict(
                review_id=request.review_id,
                reason=f"the reviewer failed: {type(exc).__name__}: {exc}",
            )
        finally:
            self._in_flight -= 1
            self._stats["reviews"] += 1
            if self.route is None:
                self._latency_ms.append((time.perf_counter() - started) * 1000)

    async def _reviewed(self, request: ReviewRequest, view: EvidenceView) -> ReviewResult:
        """The review of ``request`` on its evidence ``view``."""
        rules = review_by_rules(request, view)
        if self._warning:
            rules = msgspec.structs.replace(
                noted(rules, self._warning), judge_errors=(self._warning,)
            )
        if self.route is None:
            return rules
        if request.judge_off:  # S4: no further paid review once its citation was rejected
            # as with any review the judge did not make: the rules' findings stand, and
            # their pass is no pass — the judge that was asked for never judged it
            return fallback(
                rules,
                f"Reviewed by rules only: {request.judge_off}; DoneCheck pays for no further"
                " judge review of this task",
            )
        # the controller's card needs the usage: it comes back with the verdict
        self._usage_seen[request.session_id] = None
        try:
            result = await self._judged(request, view, rules)
        finally:
            usage = self._usage_seen.pop(request.session_id, None)
        return result if usage is None else msgspec.structs.replace(result, usage=usage)

    async def review_packed(self, data: bytes) -> bytes:
        """:meth:`review` of msgpack bytes, answered as bytes (a review request with
        its entries costs Ray's pickling several times what msgspec takes)."""
        return encode(await self.review(review_request_decoder.decode(data)))

    async def prepare_packed(self, data: bytes) -> Ack:
        """:meth:`prepare` of msgpack bytes."""
        return await self.prepare(review_request_decoder.decode(data))

    async def prepare(self, request: ReviewRequest) -> Ack:
        """Pre-analyse a task ahead of its first review (SPEC §5).

        The acceptance items are cached per task, so the review at the agent's
        stop finds them ready (or joins the call still running) instead of
        making a second model call on the stop path. Waits, as the review
        would, when the request's attachments have no recorded content yet.
        """
        self._stats["calls"] += 1
        if self.route is None:
            return Ack(session_id=request.session_id, detail="rules-only: nothing to prepare")
        if self._limit is None:
            self._limit = asyncio.Semaphore(self._config.reviewer_concurrency)
        # the approvals too: the pre-analysis's premises are checked against them
        view = await self._evidence(request, prompt=False, approvals=True)
        async with self._limit:
            acceptance = await self._acceptance_for(request, view)
        self._stats["prepared"] += 1
        return Ack(
            session_id=request.session_id,
            detail=f"{len(acceptance.items)} acceptance item(s) for {request.request_id}",
        )

    async def aclose(self) -> None:
        """Close the judge client's connections (an actor's die with its process)."""
        close = getattr(self._provider, "aclose", None)
        if close is not None:
            await close()

    def statistics(self) -> dict[str, Any]:
        latencies = sorted(self._latency_ms)

        def pct(p: float) -> float | None:
            if not latencies:
                return None
            return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))], 3)

        return {
            "index": self.index,
            **process_facts(),
            "mode": self.mode,
            "judge": self.route.label if self.route is not None else None,
            "in_flight": self._in_flight,
            "queued": self._queued,
            "cached_verdicts": len(self._cache),
            **self._stats,
            "rules_review_ms_p50": pct(0.50),
            "rules_review_ms_p99": pct(0.99),
            **{k: round(v, 6) for k, v in self._timing.items()},
        }

    # ------------------------------------------------------------ with a judge

    def _cache_key(self, request: ReviewRequest, view: EvidenceView, acceptance_key: str) -> str:
        digest = hashlib.blake2b(digest_size=20)
        assert self.route is not None
        for part in (
            PROMPT_VERSION,
            self.route.label,
            str(self.route.temperature),
            view.fingerprint or f"seq:{view.last_seq}",
            request.request,
            request.answer,
            acceptance_key,
            "\x01".join(f"{f.requirement}\x02{f.problem}" for f in request.previous),
        ):
            digest.update(part.encode("utf-8", "replace"))
            digest.update(b"\x00")
        return digest.hexdigest()

    async def _once(self, key: str, make: Callable[[], Awaitable[_T]]) -> tuple[_T, bool]:
        """Run ``make`` once per key at a time; callers arriving meanwhile share it."""
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending), True
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            value = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning if nobody shares it
            raise
        else:
            future.set_result(value)
            return value, False
        finally:
            del self._pending[key]

    async def _judged(
        self, request: ReviewRequest, view: EvidenceView, rules: Verdict
    ) -> ReviewResult:
        acceptance_key = (
            json.dumps([i.text for i in request.acceptance.items]) if request.acceptance else ""
        )
        key = self._cache_key(request, view, acceptance_key)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self._stats["cache_hits"] += 1
            return msgspec.structs.replace(cached, review_id=request.review_id)
        result, shared = await self._once(key, lambda: self._judge(request, view, rules))
        if shared:
            self._stats["coalesced"] += 1
        elif isinstance(result, Verdict) and result.reviewer.startswith("judge:"):
            # only a verdict the judge gave is kept: a failed call is tried again
            self._cache[key] = result
            while len(self._cache) > self._config.verdict_cache_entries:
                self._cache.popitem(last=False)
        return msgspec.structs.replace(result, review_id=request.review_id)

    async def _judge(
        self, request: ReviewRequest, view: EvidenceView, rules: Verdict
    ) -> ReviewResult:
        if self._limit is None:
            self._limit = asyncio.Semaphore(self._config.reviewer_concurrency)
        self._queued += 1
        try:
            await self._limit.acquire()
        finally:
            self._queued -= 1
        try:
            acceptance = await self._acceptance_for(request, view)
            started = time.perf_counter()
            prompt = build_review_prompt(
                view,
                request,
                acceptance,
                sees_images=self.route is not None and self.route.sees_images,
                answer_chars=self._config.answer_excerpt_chars,
                material_chars=self._config.material_excerpt_chars,
            )
            self._timing["prepare_s"] += time.perf_counter() - started
            generation = await self._call(
                request.kind, request.session_id, prompt.messages, prompt, tenant=request.tenant
            )
        finally:
            self._limit.release()
        if isinstance(generation, _Denied):  # past the budget: the rules decided alone
            return msgspec.structs.replace(
                noted(rules, f"The judge was not called: {generation.reason}."),
                budget_denied=generation.reason,
            )
        if isinstance(generation, str):  # the call failed: named on the card, rules decide
            return msgspec.structs.replace(fallback(rules, generation), judge_errors=(generation,))
        started = time.perf_counter()
        try:
            parsed = parse_verdict(generation.text)
            if parsed is None:
                self._stats["unparsed"] += 1
            assert self.route is not None
            result = combine(
                request,
                view,
                rules,
                prompt,
                acceptance,
                parsed,
                raw=generation.text,
                judge=self.route.label,
            )
            if isinstance(result, Verdict):
                result = msgspec.structs.replace(
                    result,
                    cited=tagged(result.cited, view.scope),
                    temperature=self.route.temperature,
                )
            return result
        finally:
            self._timing["conclude_s"] += time.perf_counter() - started

    async def _call(
        self,
        kind: AuxKind,
        session_id: str,
        messages: Sequence[dict[str, object]],
        prompt: ReviewPrompt | None = None,
        estimated_tokens: int | None = None,
        tenant: str | None = None,
    ) -> Generation | _Denied | str:
        """One aux call with its budget reservation; a string says why it gave nothing."""
        assert self.route is not None
        tokens = prompt.estimated_tokens if prompt is not None else (estimated_tokens or 0)
        reservation = serial_id("rs-")
        started = time.perf_counter()
        answer = await self._budget.reserve(
            Reserve(
                reservation_id=reservation,
                session_id=session_id,
                kind=kind,
                prompt_tokens=tokens,
                max_output_tokens=self.route.max_tokens,
                tenant=tenant,
            )
        )
        if isinstance(answer, Deny):
            self._stats["budget_denied"] += 1
            return _Denied(answer.reason)
        provider = self._provider_now()
        self._stats["judge_calls" if kind == "review" else "preanalysis_calls"] += 1
        called = time.perf_counter()
        self._timing["budget_s"] += called - started
        try:
            generation = await provider.generate(
                messages, max_tokens=answer.max_output_tokens, deadline_s=answer.deadline_s
            )
        except ProviderError as exc:
            self._stats["judge_failures"] += 1
            await self._settle(reservation, session_id, kind, exc.attempts, tenant)
            return f"The judge call failed ({kind}): {exc}"
        finally:
            returned = time.perf_counter()
            self._timing["provider_s"] += returned - called
        await self._settle(reservation, session_id, kind, generation.attempts, tenant)
        self._timing["budget_s"] += time.perf_counter() - returned
        return generation

    def _provider_now(self) -> JudgeProvider:
        if self._provider is None:
            assert self.route is not None
            self._provider = OpenAIProvider(
                self.route,
                max_connections=self._config.reviewer_concurrency,
                retry_after_cap_s=self._config.judge_retry_after_cap_s,
                max_answer_bytes=self._config.judge_max_answer_bytes,
                clock=self._clock,
            )
        return self._provider

    async def _settle(
        self,
        reservation: str,
        session_id: str,
        kind: AuxKind,
        attempts: Sequence[Attempt],
        tenant: str | None = None,
    ) -> None:
        attempts = attempts or (Attempt(1, None, Usage(), "no attempt was made"),)
        for n, attempt in enumerate(attempts, start=1):
            settled = await self._budget.settle(
                UsageReport(
                    reservation_id=reservation,
                    session_id=session_id,
                    kind=kind,
                    attempt=attempt.number,
                    input_tokens=attempt.usage.input_tokens,
                    output_tokens=attempt.usage.output_tokens,
                    cache_hit_tokens=attempt.usage.cache_hit_tokens,
                    cache_miss_tokens=attempt.usage.cache_miss_tokens,
                    final=n == len(attempts),
                    rejected=attempt.rejected,
                    tenant=tenant,
                )
            )
            if settled.usage is not None and session_id in self._usage_seen:
                self._usage_seen[session_id] = settled.usage

    async def _acceptance_for(self, request: ReviewRequest, view: EvidenceView) -> Acceptance:
        if request.acceptance is not None:
            return request.acceptance
        task = (request.session_id, request.request_id)
        known = self._acceptance.get(task)
        if known is not None:
            self._acceptance.move_to_end(task)
            return known
        if any(_no_content_yet(r.sha256, view) for r in view.attachments):
            return acceptance_of(request, view)  # do not guess, do not cache
        acceptance, _ = await self._once(
            "pre:" + "\x00".join(task), lambda: self._preanalyse(request, view)
        )
        self._acceptance[task] = acceptance
        while len(self._acceptance) > _ACCEPTANCE_CACHE:
            self._acceptance.popitem(last=False)
        return acceptance

    async def _preanalyse(self, request: ReviewRequest, view: EvidenceView) -> Acceptance:
        wanted = {r.sha256 for r in view.attachments}
        materials = [m for m in view.materials if material_key(m) in wanted]
        if not request.request.strip() and not materials:  # the request is unknown
            return extract_acceptance(request.request_id, request.request)
        assert self.route is not None
        block, images = preanalysis_block(
            request.request,
            materials,
            self._config.material_excerpt_chars,
            sees_images=self.route.sees_images,
        )
        messages = preanalysis_messages(block, images)
        shown = sum(1 for part in images if part["type"] == "image_url")
        # text by its length, each image at a flat rate (its base64 is not text)
        text_chars = len(block) + sum(len(str(m["content"])) for m in messages[:1])
        estimate = int(text_chars / 3.5) + shown * 1_200
        generation = await self._call(
            "pre_analysis",
            request.session_id,
            messages,
            estimated_tokens=estimate,
            tenant=request.tenant,
        )
        fallback = extract_acceptance(request.request_id, request.request, materials)
        if isinstance(generation, _Denied | str):
            why = (
                f"The pre-analysis was not run: {generation.reason}."
                if isinstance(generation, _Denied)
                else generation
            )
            return msgspec.structs.replace(
                fallback, notes=(*fallback.notes, f"{why} Items extracted by rules.")
            )
        parsed = parse_preanalysis(
            generation.text,
            request_id=request.request_id,
            request=request.request,
            materials=materials,
        )
        if parsed is None:
            return msgspec.structs.replace(
                fallback,
                notes=(
                    *fallback.notes,
                    "The judge's pre-analysis had no usable items; items extracted by rules.",
                ),
            )
        # a model-written premise ("the budget is approved") is checked like any
        # statement of the judge's: unbacked, it never reaches the review
        return vet_acceptance(parsed, view.approvals)


class _Denied:
    """The budget accountant refused the call: nothing was spent."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _no_content_yet(sha256: str, view: EvidenceView) -> bool:
    """An attachment with no content evidence yet (SPEC §5): not parsed so far, or
    DoneCheck could not read it and neither has the agent. A pre-analysis then
    waits rather than guess at what it says."""
    material = next((m for m in view.materials if material_key(m) == sha256), None)
    if material is None:
        return True
    if material.status in {"parsed", "partial"}:
        return False
    read = next((r for r in view.reads if r.sha256 == sha256), None)
    return read is None or read.status not in {"read", "partial"}
