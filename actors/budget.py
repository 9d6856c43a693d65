"""Budget accountant: room for aux calls, reserved before they start.

A call first reserves (``Reserve`` → ``Grant | Deny``), then settles every
attempt with the usage the provider reported (``UsageReport``). Reservations are
applied one message at a time per shard, so concurrent calls of the sessions in
a shard cannot overrun a cap together.

This is a guard on *reported* usage, not a billing cap on calls in flight: the
provider's own records are the bill.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from donecheck.runtime.config import Config
from donecheck.runtime.messages import (
    Ack,
    BudgetInbox,
    BudgetQuery,
    BudgetReply,
    Deny,
    Grant,
    MainCallRecorded,
    Reserve,
    Settled,
    UsageReport,
    UsageSummary,
)

__all__ = ["BudgetAccountant", "Caps", "SessionUsage", "grant"]


@dataclass(frozen=True, slots=True)
class Caps:
    call_output_tokens: int = 32_768
    call_timeout_s: float = 150.0
    session_tokens: int = 200_000
    stop_on_unknown: bool = True

    @classmethod
    def from_config(cls, config: Config) -> Caps:
        return cls(
            call_output_tokens=config.aux_max_output_tokens,
            call_timeout_s=config.aux_call_timeout_s,
            session_tokens=config.session_aux_token_cap,
            stop_on_unknown=config.unknown_usage_policy == "stop",
        )


class SessionUsage(msgspec.Struct, kw_only=True):
    """Mutable per-session tally (owned by one accountant shard)."""

    tokens: int = 0
    reserved: int = 0
    unknown_calls: int = 0
    rejected_attempts: int = 0
    main_calls: int = 0
    aux_calls: dict[str, int] = {}
    rechecks: int = 0


def grant(usage: SessionUsage, request: Reserve, caps: Caps) -> Grant | Deny:
    """Whether one more aux call fits, with room for its complete answer.

    The call needs its prompt plus a full answer (the smaller of what it asks for
    and the per-call cap) on top of what was used and what is already reserved.
    """
    if request.prompt_tokens < 0 or request.max_output_tokens <= 0:
        return Deny(reservation_id=request.reservation_id, reason="invalid reservation size")
    if caps.stop_on_unknown and usage.unknown_calls:
        return Deny(
            reservation_id=request.reservation_id,
            reason=(
                f"{usage.unknown_calls} earlier aux call(s) reported no usage; "
                "aux calls stop (unknown_usage_policy=stop)"
            ),
        )
    output = min(request.max_output_tokens, caps.call_output_tokens)
    need = request.prompt_tokens + output
    committed = usage.tokens + usage.reserved
    if committed + need > caps.session_tokens:
        return Deny(
            reservation_id=request.reservation_id,
            reason=(
                f"session aux budget: {usage.tokens} used + {usage.reserved} reserved + "
                f"{need} for this call (prompt {request.prompt_tokens} + answer {output}) "
                f"> cap {caps.session_tokens}"
            ),
        )
    return Grant(
        reservation_id=request.reservation_id,
        max_output_tokens=output,
        deadline_s=caps.call_timeout_s,
    )


class BudgetAccountant:
    def __init__(self, *, config: Config, shard: int = 0) -> None:
        self.shard = shard
        self._caps = Caps.from_config(config)
        self._sessions: dict[str, SessionUsage] = {}
        self._reservations: dict[str, tuple[str, int]] = {}
        self._stats = {"granted": 0, "denied": 0, "settled": 0}

    def handle(self, msg: BudgetInbox) -> BudgetReply:
        match msg:
            case Reserve():
                usage = self._sessions.setdefault(msg.session_id, SessionUsage())
                answer = grant(usage, msg, self._caps)
                if isinstance(answer, Grant):
                    held = msg.prompt_tokens + answer.max_output_tokens
                    usage.reserved += held
                    self._reservations[msg.reservation_id] = (msg.session_id, held)
                    self._stats["granted"] += 1
                else:
                    self._stats["denied"] += 1
                return answer
            case UsageReport():
                usage = self._sessions.setdefault(msg.session_id, SessionUsage())
                unknown = msg.input_tokens is None or msg.output_tokens is None
                if unknown and msg.rejected:
                    unknown = False  # refused before any output: nothing was used
                    usage.rejected_attempts += 1
                elif unknown:
                    usage.unknown_calls += 1
                else:
                    usage.tokens += (msg.input_tokens or 0) + (msg.output_tokens or 0)
                if msg.attempt == 1:
                    usage.aux_calls[msg.kind] = usage.aux_calls.get(msg.kind, 0) + 1
                    if msg.kind == "review" and usage.aux_calls[msg.kind] > 1:
                        usage.rechecks += 1
                if msg.final:
                    _, held = self._reservations.pop(msg.reservation_id, ("", 0))
                    usage.reserved = max(0, usage.reserved - held)
                self._stats["settled"] += 1
                return Settled(
                    reservation_id=msg.reservation_id,
                    session_tokens=usage.tokens,
                    unknown=unknown,
                )
            case MainCallRecorded():
                usage = self._sessions.setdefault(msg.session_id, SessionUsage())
                usage.main_calls += msg.count
                return Ack(session_id=msg.session_id, detail=f"main calls {usage.main_calls}")
            case BudgetQuery():
                usage = self._sessions.get(msg.session_id, SessionUsage())
                return UsageSummary(
                    session_id=msg.session_id,
                    main_calls=usage.main_calls,
                    aux_calls=dict(usage.aux_calls),
                    aux_tokens=usage.tokens,
                    unknown_calls=usage.unknown_calls,
                    rechecks=usage.rechecks,
                )
        raise TypeError(f"the budget accountant does not accept {type(msg).__name__}")

    def statistics(self) -> dict[str, Any]:
        return {
            "shard": self.shard,
            "sessions": len(self._sessions),
            "reservations": len(self._reservations),
            **self._stats,
        }
