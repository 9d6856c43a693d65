"""DoneCheck's runtime: the public API, messages, configuration and errors.

>>> from donecheck.runtime import DoneCheck
>>> dc = DoneCheck.start()
>>> with dc.open_session("Fix the failing test in calc.py") as session:
...     call = session.tool_call("run_command", {"command": "pytest -q"})
...     session.tool_result(call, output="1 failed, 3 passed in 0.05s", exit_code=1)
...     action = session.turn_stopping("Fixed it; all tests pass now. ...")
"""

from typing import TYPE_CHECKING, Any

from donecheck.runtime.config import Config, load_config
from donecheck.runtime.errors import (
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
from donecheck.runtime.messages import Deliver, Policy, Report, ReportCard, Steer

if TYPE_CHECKING:
    from donecheck.runtime.api import DoneCheck
    from donecheck.runtime.session import AsyncSession, Session

# The API imports the actors, and actor processes import this package first:
# load it on first use so neither import order makes a cycle.
_LAZY = {
    "DoneCheck": "donecheck.runtime.api",
    "Session": "donecheck.runtime.session",
    "AsyncSession": "donecheck.runtime.session",
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
