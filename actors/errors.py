"""DoneCheck's errors: one tree, raised for bugs, bad input and infrastructure faults.

Expected outcomes are values, not exceptions: a material that could not be read is
a :class:`~donecheck.actors.messages.Material` with status ``failed``, a review
that could not be parsed is a ``NoVerdict``, a refused budget is a ``Deny``.

::

    DoneCheckError
    ├── ConfigError              a setting is invalid (names the setting and why)
    ├── InputError               input that cannot be used as given
    │   ├── TranscriptError      a transcript file is malformed (path, problem, line)
    │   └── AttachmentError      an attachment cannot be read (name, problem)
    ├── DeploymentError          Ray could not be started or attached to
    │   └── ActorUnavailableError  an actor died or did not answer in time
    ├── StoreError               the ledger's database failed (URL redacted)
    └── SessionError             a session call that cannot be applied
        ├── UnknownSessionError  no such session on this deployment
        └── SessionClosedError   the session was closed

Third-party exceptions (Ray, httpx, libmagic, PyMuPDF) are translated into this
tree at the boundary where they occur, with the original as ``__cause__``.

Every error passes all of its constructor arguments to ``super().__init__`` so it
survives pickling across Ray processes (see ``tests/unit/test_errors.py``).
"""

from __future__ import annotations

__all__ = [
    "ActorUnavailableError",
    "AttachmentError",
    "ConfigError",
    "DeploymentError",
    "DoneCheckError",
    "InputError",
    "SessionClosedError",
    "SessionError",
    "StoreError",
    "TranscriptError",
    "UnknownSessionError",
]


class DoneCheckError(Exception):
    """Base of every DoneCheck error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ConfigError(DoneCheckError):
    """A configuration value is invalid. ``setting`` is its name (or env variable)."""

    def __init__(self, setting: str, problem: str) -> None:
        Exception.__init__(self, setting, problem)
        self.setting = setting
        self.problem = problem
        self.message = f"{setting}: {problem}"


class InputError(DoneCheckError):
    """Input that cannot be used as given. The CLI exits with status 2 for these."""


class TranscriptError(InputError):
    """A transcript file is malformed. ``line`` is 1-based where it is known."""

    def __init__(self, path: str, problem: str, line: int | None = None) -> None:
        Exception.__init__(self, path, problem, line)
        self.path = path
        self.problem = problem
        self.line = line
        where = f"{path}:{line}" if line is not None else path
        self.message = f"{where}: {problem}"


class AttachmentError(InputError):
    """An attachment given to a session cannot be read at all."""

    def __init__(self, name: str, problem: str) -> None:
        Exception.__init__(self, name, problem)
        self.name = name
        self.problem = problem
        self.message = f"attachment {name!r}: {problem}"


class DeploymentError(DoneCheckError):
    """Ray could not be started or attached to, or the deployment is incomplete."""


class ActorUnavailableError(DeploymentError):
    """An actor died, is restarting, or did not answer within ``timeout_s``."""

    def __init__(self, actor: str, problem: str, timeout_s: float | None = None) -> None:
        Exception.__init__(self, actor, problem, timeout_s)
        self.actor = actor
        self.problem = problem
        self.timeout_s = timeout_s
        self.message = f"actor {actor}: {problem}"


class StoreError(DoneCheckError):
    """The ledger's store (SQLite, PostgreSQL) failed. ``url`` has no password.

    ``conflict`` marks a write refused by a uniqueness rule: another writer got
    there first, and the caller should reload before trying again.
    """

    def __init__(self, url: str, problem: str, conflict: bool = False) -> None:
        Exception.__init__(self, url, problem, conflict)
        self.url = url
        self.problem = problem
        self.conflict = conflict
        self.message = f"store {url}: {problem}"


class SessionError(DoneCheckError):
    """A session call that cannot be applied."""

    def __init__(self, session_id: str, problem: str) -> None:
        Exception.__init__(self, session_id, problem)
        self.session_id = session_id
        self.problem = problem
        self.message = f"session {session_id}: {problem}"


class UnknownSessionError(SessionError):
    """No session with this id exists on the deployment."""

    def __init__(self, session_id: str, problem: str = "no such session") -> None:
        super().__init__(session_id, problem)


class SessionClosedError(SessionError):
    """The session was closed; open a new one."""

    def __init__(self, session_id: str, problem: str = "the session is closed") -> None:
        super().__init__(session_id, problem)
