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
import math
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import msgspec

from donecheck.actors import process
from donecheck.actors.budget import BudgetAccountant
from donecheck.actors.clock import Clock, SystemClock
from donecheck.actors.config import Config
from donecheck.actors.evidence.fingerprint import RunningFingerprint, fingerprint
from donecheck.actors.evidence.writes import snapshots
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
    LedgerEntry,
    LedgerView,
    NoVerdict,
    Reserve,
    ReviewRequest,
    ReviewResult,
    UsageReport,
    UsageSummary,
    Verdict,
    ViewRequest,
    encode,
    review_request_decoder,
)
from donecheck.actors.peers import BudgetPort, LedgerPort, LocalBudgets
from donecheck.actors.process import process_facts
from donecheck.actors.review.combine import combine, fallback, noted
from donecheck.actors.review.facts import Facts
from donecheck.actors.review.preanalysis import (
    depends_on,
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
from donecheck.actors.review.rules import acceptance_of, review_by_rules
from donecheck.actors.review.verdicts import parse_verdict

__all__ = ["Reviewer"]

_T = TypeVar("_T")
_ACCEPTANCE_CACHE = 10_000
_LATENCIES = 4_096
_VIEW_PAGE = 4_096
"""Ledger entries a reviewer reads per call (about 1 MB of messages)."""
_MIRRORED_SESSIONS = 2_000
_MIRRORED_ENTRIES = 1_000_000
"""Bounds of the ledger entries kept for ``from_ledger`` reviews (sessions, and
entries over all of them): past them the least recently reviewed go, and are read
whole from the ledger at their next review."""


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
        ``provider`` the configured judge route is called over HTTP. With ``ledger``
        the reviewer takes ``from_ledger`` requests: it reads a session's evidence
        from its ledger shard itself, only the entries it has not seen yet. ``settle_gc``: set by
        ``deploy`` in an actor's process (:func:`~donecheck.actors.process.settle_gc`)."""
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
        self._mirrors: OrderedDict[str, _Mirror] = OrderedDict()
        """Each session's ledger entries read so far (``from_ledger``), seq order."""
        self._mirrored = 0
        """Entries the kept copies held when last kept (their sum: the bound's count)."""
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
            "ledger_entries_read": 0,
            "ledger_rereads": 0,
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

    @property
    def reads_ledger(self) -> bool:
        """Whether this reviewer takes ``from_ledger`` requests (it has a ledger)."""
        return self._ledger is not None

    # --------------------------------------------------------------- evidence

    async def _with_evidence(self, request: ReviewRequest) -> tuple[ReviewRequest, int]:
        """A ``from_ledger`` request with its evidence: the session's entries — those
        this reviewer has not seen yet read from its ledger shard, which pairs the
        operations (keeping them as the log grows) — and the last seq read. The copy
        is trusted only when its running fingerprint is the ledger's."""
        if self._ledger is None:
            raise ValueError("a from_ledger review needs a reviewer with a ledger")
        session_id = request.session_id
        for _ in range(2):
            known = self._mirrors.get(session_id)
            read, view = await self._read_ledger(
                session_id, len(known.entries) if known is not None else 0
            )
            # another review of the session may have read on meanwhile: same copy
            mirror = self._mirrors.get(session_id) or _Mirror()
            mirror.extend(read)
            self._stats["ledger_entries_read"] += len(read)
            if len(mirror.entries) == view.last_seq and mirror.fingerprint() == view.fingerprint:
                self._keep(session_id, mirror)
                evidence = msgspec.structs.replace(
                    request,
                    entries=tuple(mirror.entries),
                    operations=view.operations,
                    fingerprint=view.fingerprint,
                    from_ledger=False,
                )
                return evidence, view.last_seq
            # not the ledger's prefix (dropped meanwhile, or another store under the
            # same session id): forget the copy and read the whole log
            self._stats["ledger_rereads"] += 1
            dropped = self._mirrors.pop(session_id, None)
            if dropped is not None:
                self._mirrored -= dropped.counted
        raise RuntimeError(f"the ledger of {session_id} kept changing while it was read")

    async def _read_ledger(
        self, session_id: str, since: int
    ) -> tuple[list[LedgerEntry], LedgerView]:
        """A session's entries after ``since``, read in pages of at most
        ``_VIEW_PAGE``, and the view of the last page (with the operations of the
        entries read). A long session then crosses as messages of a megabyte or
        so, not as one the size of its whole log (32 MB at 100k entries, about ten
        times that at 1M, each encoded, copied and decoded whole). Stops early,
        incomplete — which the caller's check then catches — at an empty page, or
        after twice the pages the ledger held when the read began (plus two): a
        ledger growing faster than it is read."""
        assert self._ledger is not None
        read: list[LedgerEntry] = []
        pages = most = 0
        while True:
            view = await self._ledger.view(
                ViewRequest(
                    session_id=session_id,
                    since_seq=since + len(read),
                    include=("entries", "operations"),
                    limit=_VIEW_PAGE,
                )
            )
            read += view.entries
            pages += 1
            if pages == 1:
                most = 2 + 2 * math.ceil((view.last_seq - since) / _VIEW_PAGE)
            if not view.entries or since + len(read) >= view.last_seq or pages >= most:
                return read, view

    def _keep(self, session_id: str, mirror: _Mirror) -> None:
        """Keep a session's copy, within the bounds (least recently reviewed go)."""
        known = self._mirrors.pop(session_id, None)
        if known is not None:
            self._mirrored -= known.counted
        mirror.counted = 0
        if len(mirror.entries) <= _MIRRORED_ENTRIES:  # else too big: read whole each time
            self._mirrors[session_id] = mirror
            mirror.counted = len(mirror.entries)
            self._mirrored += mirror.counted
        while self._mirrors and (
            len(self._mirrors) > _MIRRORED_SESSIONS or self._mirrored > _MIRRORED_ENTRIES
        ):
            _, dropped = self._mirrors.popitem(last=False)
            self._mirrored -= dropped.counted

    # ----------------------------------------------------------------- review

    async def review(self, request: ReviewRequest) -> ReviewResult:
        self._stats["calls"] += 1
        self._in_flight += 1
        started = time.perf_counter()
        try:
            read_to = None
            if request.from_ledger:
                request, read_to = await self._with_evidence(request)
            result = await self._reviewed(request)
            if read_to is None:
                return result
            findings = result.findings if isinstance(result, Verdict) else ()
            progress = progress_key(
                findings,
                request.operations or (),
                snapshots(request.entries, self._config.snapshot_max_targets)[0],
            )
            return msgspec.structs.replace(result, ledger_seq=read_to, progress=progress)
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

    async def _reviewed(self, request: ReviewRequest) -> ReviewResult:
        """The review of a request that carries its evidence."""
        ev = Facts.of(request)
        rules = review_by_rules(request, ev)
        if self._warning:
            rules = msgspec.structs.replace(
                noted(rules, self._warning), judge_errors=(self._warning,)
            )
        if self.route is None:
            return rules
        # the controller's card needs the usage: it comes back with the verdict
        self._usage_seen[request.session_id] = None
        try:
            result = await self._judged(request, ev, rules)
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
        async with self._limit:
            acceptance = await self._acceptance_for(request, Facts.of(request))
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
            "mirrored_sessions": len(self._mirrors),
            "mirrored_entries": self._mirrored,
            **self._stats,
            "rules_review_ms_p50": pct(0.50),
            "rules_review_ms_p99": pct(0.99),
            **{k: round(v, 6) for k, v in self._timing.items()},
        }

    # ------------------------------------------------------------ with a judge

    def _cache_key(self, request: ReviewRequest, acceptance_key: str) -> str:
        digest = hashlib.blake2b(digest_size=20)
        assert self.route is not None
        for part in (
            PROMPT_VERSION,
            self.route.label,
            str(self.route.temperature),
            request.fingerprint or fingerprint(request.entries),
            request.request,
            request.answer,
            acceptance_key,
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

    async def _judged(self, request: ReviewRequest, ev: Facts, rules: Verdict) -> ReviewResult:
        acceptance_key = (
            json.dumps([i.text for i in request.acceptance.items]) if request.acceptance else ""
        )
        key = self._cache_key(request, acceptance_key)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self._stats["cache_hits"] += 1
            return msgspec.structs.replace(cached, review_id=request.review_id)
        result, shared = await self._once(key, lambda: self._judge(request, ev, rules))
        if shared:
            self._stats["coalesced"] += 1
        elif isinstance(result, Verdict) and result.reviewer.startswith("judge:"):
            # only a verdict the judge gave is kept: a failed call is tried again
            self._cache[key] = result
            while len(self._cache) > self._config.verdict_cache_entries:
                self._cache.popitem(last=False)
        return msgspec.structs.replace(result, review_id=request.review_id)

    async def _judge(self, request: ReviewRequest, ev: Facts, rules: Verdict) -> ReviewResult:
        if self._limit is None:
            self._limit = asyncio.Semaphore(self._config.reviewer_concurrency)
        self._queued += 1
        try:
            await self._limit.acquire()
        finally:
            self._queued -= 1
        try:
            acceptance = await self._acceptance_for(request, ev)
            started = time.perf_counter()
            prompt = build_review_prompt(
                ev,
                acceptance,
                sees_images=self.route is not None and self.route.sees_images,
                answer_chars=self._config.answer_excerpt_chars,
                tool_log_chars=self._config.tool_log_excerpt_chars,
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
                rules,
                prompt,
                acceptance,
                parsed,
                raw=generation.text,
                judge=self.route.label,
            )
            if isinstance(result, Verdict):
                result = msgspec.structs.replace(result, cited=ev.tagged(result.cited))
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

    async def _acceptance_for(self, request: ReviewRequest, ev: Facts) -> Acceptance:
        if request.acceptance is not None:
            return request.acceptance
        task = (request.session_id, request.request_id)
        known = self._acceptance.get(task)
        if known is not None:
            self._acceptance.move_to_end(task)
            return known
        refs = depends_on(request.entries, request.request_id, request.request)
        if any(_no_content_yet(r.sha256, ev) for r in refs):
            return acceptance_of(request, ev)  # do not guess, do not cache
        acceptance, _ = await self._once(
            "pre:" + "\x00".join(task), lambda: self._preanalyse(request, ev)
        )
        self._acceptance[task] = acceptance
        while len(self._acceptance) > _ACCEPTANCE_CACHE:
            self._acceptance.popitem(last=False)
        return acceptance

    async def _preanalyse(self, request: ReviewRequest, ev: Facts) -> Acceptance:
        wanted = {
            r.sha256 for r in depends_on(request.entries, request.request_id, request.request)
        }
        materials = [m for sha, m in ev.materials.items() if sha in wanted]
        if not request.request.strip() and not materials:  # the request is unknown
            return extract_acceptance(request.request_id, request.request)
        block = preanalysis_block(request.request, materials, self._config.material_excerpt_chars)
        messages = preanalysis_messages(block)
        estimate = int(sum(len(str(m["content"])) for m in messages) / 3.5)
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
        return parsed


class _Mirror:
    """The ledger entries of one session a reviewer has read, in seq order, with
    their running :func:`~.evidence.fingerprint` (checked against the ledger's)."""

    __slots__ = ("counted", "entries", "running")

    def __init__(self) -> None:
        self.entries: list[LedgerEntry] = []
        self.running = RunningFingerprint()
        self.counted = 0
        """How many of ``entries`` the reviewer's total counts."""

    def extend(self, entries: Sequence[LedgerEntry]) -> None:
        for entry in entries:
            if entry.seq == len(self.entries) + 1:  # the ledger's seqs are 1, 2, 3, …
                self.entries.append(entry)
        self.running.feed(self.entries[self.running.count :])

    def fingerprint(self) -> str:
        return self.running.value


class _Denied:
    """The budget accountant refused the call: nothing was spent."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _no_content_yet(sha256: str, ev: Facts) -> bool:
    """An attachment with no content evidence yet (SPEC §5): not parsed so far, or
    DoneCheck could not read it and neither has the agent. A pre-analysis then
    waits rather than guess at what it says."""
    material = ev.materials.get(sha256)
    if material is None:
        return True
    if material.status in {"parsed", "partial"}:
        return False
    read = ev.reads.get(sha256)
    return read is None or read.status not in {"read", "partial"}
