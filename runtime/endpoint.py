"""Where a running ``donecheck serve`` can be reached: a per-user runtime file.

``serve`` writes ``{"url", "token", "namespace", "pid"}`` to the file (mode 0600,
in a 0700 folder) when it starts listening and removes it when it stops;
``donecheck hook`` reads it, so a hook only ever talks to the service the user
started — never to some other Ray instance on the host. The file is
``$DONECHECK_RUNTIME_FILE`` if set, else ``<runtime dir>/donecheck/<namespace>.json``
with the runtime dir ``$XDG_RUNTIME_DIR`` (else ``~/.local/state``).

Stdlib only: the hook imports this and nothing heavy.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from donecheck.actors.errors import InputError

__all__ = [
    "Agent",
    "Endpoint",
    "ServiceError",
    "new_token",
    "post_json",
    "read_endpoint",
    "remove_endpoint",
    "runtime_file",
    "session_id_for",
]

Agent = str
"""An agent CLI by the name its adapter is registered under (:mod:`.clients`)."""


def session_id_for(payload: dict[str, Any], agent: Agent = "claude-code") -> str:
    """The DoneCheck session of an agent's hook payload: ``<prefix>-<its session_id>``
    (``claude-…``, ``codex-…``: each adapter's prefix)."""
    given = payload.get("session_id")
    if not isinstance(given, str) or not given:
        raise InputError("the hook payload has no session_id")
    from donecheck.actors.ids import check_session_id
    from donecheck.runtime.clients import adapter

    return check_session_id(f"{adapter(agent).prefix}-{given}")


@dataclass(frozen=True, slots=True)
class Endpoint:
    url: str
    token: str | None
    namespace: str
    pid: int
    required: bool = True
    """Whether every route needs the token (else only running gates does)."""


def runtime_file(namespace: str = "donecheck", given: str | os.PathLike[str] | None = None) -> Path:
    if given:
        return Path(given)
    explicit = os.environ.get("DONECHECK_RUNTIME_FILE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_RUNTIME_DIR") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(base) / "donecheck" / f"{namespace}.json"


def new_token() -> str:
    import secrets

    return secrets.token_urlsafe(32)


def write_endpoint(path: Path, endpoint: Endpoint) -> None:
    """Write the file atomically, readable by this user only."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(
            {
                "url": endpoint.url,
                "token": endpoint.token,
                "namespace": endpoint.namespace,
                "pid": endpoint.pid,
                "required": endpoint.required,
            },
            out,
        )
    os.replace(temp, path)


def read_endpoint(path: Path) -> Endpoint | None:
    """The endpoint the file names, or ``None`` when there is no usable file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Endpoint(
            url=str(data["url"]),
            token=data.get("token") or None,
            namespace=str(data.get("namespace", "")),
            pid=int(data.get("pid", 0)),
            required=bool(data.get("required", True)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove_endpoint(path: Path, pid: int) -> None:
    """Remove the file if it is still this process's."""
    found = read_endpoint(path)
    if found is not None and found.pid == pid:
        path.unlink(missing_ok=True)


class ServiceError(Exception):
    """A call to the service failed: ``status`` is its HTTP status when it answered
    (``None`` when it could not be reached), ``detail`` its error message."""

    def __init__(self, status: int | None, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def post_json(
    endpoint: Endpoint,
    path: str,
    body: object,
    timeout_s: float,
    *,
    connect_s: float | None = None,
) -> tuple[bytes, dict[str, str]]:
    """POST ``body`` as JSON to ``path`` of the service, with its token; the answer's
    body and headers (names in lower case), or :class:`ServiceError`. ``connect_s``
    bounds the connection alone (a hook never waits on a dead service), ``timeout_s``
    the answer."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint.url)
    data = json.dumps(body).encode()
    headers = {"content-type": "application/json", "content-length": str(len(data))}
    if endpoint.token:
        headers["authorization"] = f"Bearer {endpoint.token}"
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port or 80, timeout=connect_s or timeout_s
    )
    try:
        connection.connect()
        if connection.sock is not None:
            connection.sock.settimeout(timeout_s)
        connection.request("POST", (parts.path.rstrip("/") or "") + path, data, headers)
        answer = connection.getresponse()
        raw = answer.read()
    except (OSError, http.client.HTTPException) as exc:
        raise ServiceError(None, str(exc) or type(exc).__name__) from None
    finally:
        connection.close()
    if answer.status >= 400:
        detail = raw.decode("utf-8", "replace")
        try:
            detail = json.loads(detail).get("error", detail)
        except (ValueError, AttributeError):
            pass
        raise ServiceError(answer.status, str(detail))
    return raw, {k.lower(): v for k, v in answer.getheaders()}
