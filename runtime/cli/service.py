"""Reaching a running ``donecheck serve``: what ``report --session`` and ``sessions`` share."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from donecheck.actors.errors import DoneCheckError


def service_get(args: argparse.Namespace, path: str, *, decode: bool = True) -> Any:
    """GET ``path`` of the running service (its JSON, or with ``decode=False`` its
    bytes); raises ``DoneCheckError`` saying why not."""
    import urllib.error
    import urllib.request

    from donecheck.runtime.endpoint import read_endpoint, runtime_file

    namespace = (
        getattr(args, "namespace", None) or os.environ.get("DONECHECK_NAMESPACE") or "donecheck"
    )
    where = runtime_file(namespace, getattr(args, "runtime_file", None))
    endpoint = read_endpoint(where)
    if endpoint is None:
        raise DoneCheckError(f"DoneCheck is not running (no runtime file {where})")
    headers = {"authorization": f"Bearer {endpoint.token}"} if endpoint.token else {}
    request = urllib.request.Request(endpoint.url + path, headers=headers)
    try:
        listening(endpoint.url, 1.0)
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
            return json.loads(raw) if decode else raw
    except urllib.error.HTTPError as exc:
        raise DoneCheckError(f"{endpoint.url}{path}: HTTP {exc.code}") from None
    except OSError as exc:
        raise DoneCheckError(f"DoneCheck is not reachable at {endpoint.url}: {exc}") from None


def listening(url: str, within_s: float) -> None:
    """Raise ``OSError`` unless something accepts connections at ``url`` within
    ``within_s``: a hook never waits on a dead service."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    with socket.create_connection(
        (parts.hostname or "127.0.0.1", parts.port or 80), timeout=within_s
    ):
        pass
