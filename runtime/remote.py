"""Waiting on actors, with Ray's exceptions translated into DoneCheck's tree."""

from __future__ import annotations

import asyncio
from typing import Any

import ray
import ray.exceptions

from donecheck.runtime.errors import ActorUnavailableError, DoneCheckError

__all__ = ["aget", "get", "translate"]


def translate(exc: BaseException, actor: str, timeout_s: float | None) -> BaseException:
    """The DoneCheck error for a failure of a call to ``actor``."""
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = exc.cause
        if isinstance(cause, DoneCheckError):
            return cause
        return ActorUnavailableError(actor, f"raised {type(cause).__name__}: {cause}", timeout_s)
    if isinstance(exc, ray.exceptions.GetTimeoutError | TimeoutError):
        return ActorUnavailableError(actor, f"no answer within {timeout_s:g} s", timeout_s)
    if isinstance(exc, ray.exceptions.RayActorError):
        return ActorUnavailableError(actor, f"the actor died or is restarting ({exc})", timeout_s)
    return exc


def get(ref: Any, *, actor: str, timeout_s: float) -> Any:
    """``ray.get`` with a deadline and translated errors."""
    try:
        return ray.get(ref, timeout=timeout_s)
    except Exception as exc:
        raise translate(exc, actor, timeout_s) from exc


async def aget(ref: Any, *, actor: str, timeout_s: float) -> Any:
    """Await an object ref with a deadline and translated errors."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(ref.future()), timeout_s)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        raise translate(exc, actor, timeout_s) from exc
