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
import secrets
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Endpoint", "new_token", "read_endpoint", "remove_endpoint", "runtime_file"]


@dataclass(frozen=True, slots=True)
class Endpoint:
    url: str
    token: str | None
    namespace: str
    pid: int


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
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove_endpoint(path: Path, pid: int) -> None:
    """Remove the file if it is still this process's."""
    found = read_endpoint(path)
    if found is not None and found.pid == pid:
        path.unlink(missing_ok=True)
