"""DoneCheck's runtime: what users drive — the public API, CLI, hooks, transcripts, reports.

>>> from donecheck.runtime import DoneCheck
>>> dc = DoneCheck.start()
>>> with dc.open_session("Fix the failing test in calc.py") as session:
...     call = session.tool_call("run_command", {"command": "pytest -q"})
...     session.tool_result(call, output="1 failed, 3 passed in 0.05s", exit_code=1)
...     action = session.turn_stopping("Fixed it; all tests pass now. ...")
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from donecheck.actors.config import Config, load_config
    from donecheck.actors.errors import (
        ActorUnavailableError,
        AttachmentError,
        ConfigError,
        DeploymentError,
        DoneCheckError,
        InputError,
        SessionClosedError,
        SessionError,
        TranscriptError,
        UnknownSessionError,
    )
    from donecheck.actors.messages import Deliver, Policy, Report, ReportCard, Steer
    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.session import AsyncSession, Session

# Every name is loaded on first use: the API imports Ray (~0.3 s) and the
# configuration pydantic (~0.14 s), and `donecheck hook` — run by Claude Code and
# Codex at every tool call — needs neither, nor do `parse` or the report renderer.
_ERRORS = "donecheck.actors.errors"
_MESSAGES = "donecheck.actors.messages"
_LAZY = {
    "DoneCheck": "donecheck.runtime.api",
    "Session": "donecheck.runtime.session",
    "AsyncSession": "donecheck.runtime.session",
    "Config": "donecheck.actors.config",
    "load_config": "donecheck.actors.config",
    **dict.fromkeys(
        (
            "ActorUnavailableError",
            "AttachmentError",
            "ConfigError",
            "DeploymentError",
            "DoneCheckError",
            "InputError",
            "SessionClosedError",
            "SessionError",
            "TranscriptError",
            "UnknownSessionError",
        ),
        _ERRORS,
    ),
    **dict.fromkeys(("Deliver", "Policy", "Report", "ReportCard", "Steer"), _MESSAGES),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'donecheck.runtime' has no attribute {name!r}")


__all__ = [
    "ActorUnavailableError",
    "AsyncSession",
    "AttachmentError",
    "Config",
    "ConfigError",
    "Deliver",
    "DeploymentError",
    "DoneCheck",
    "DoneCheckError",
    "InputError",
    "Policy",
    "Report",
    "ReportCard",
    "Session",
    "SessionClosedError",
    "SessionError",
    "Steer",
    "TranscriptError",
    "UnknownSessionError",
    "load_config",
]
