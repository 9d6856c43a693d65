"""Keep secrets out of messages, logs and reports."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

__all__ = ["redact", "redact_url"]

_SECRETS = [
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_\-]{12,}"), r"\1-***"),  # provider API keys
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-~+/]{12,}=*"), r"\1***"),
    (
        re.compile(
            r"(?i)((?:api[_-]?key|token|secret|password)[\"']?\s*[:=]\s*[\"']?)[^\s\"',;]{6,}"
        ),
        r"\1***",
    ),
    (re.compile(r"(?i)([a-z][a-z0-9+.\-]*://[^:/@\s]+:)[^@\s]+(@)"), r"\1***\2"),  # URLs
]


def redact_url(url: str) -> str:
    """The URL with any password replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(
        (parts.scheme, f"{user}:***@{host}{port}", parts.path, parts.query, parts.fragment)
    )


_MARKERS = ("sk-", "rk-", "pk-", "bearer", "key", "token", "secret", "password", "://")
"""A word each pattern above needs (in lower case): a text with none of them holds
nothing to mask. Substring tests are ~10x cheaper than the patterns, and the
prompt of every review goes through here — almost never with a secret."""


def redact(text: str) -> str:
    """``text`` with API keys, bearer tokens, ``password=…`` values and URL passwords masked."""
    lowered = text.lower()
    if not any(marker in lowered for marker in _MARKERS):
        return text
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text
