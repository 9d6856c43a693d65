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


_ANY = re.compile(
    "|".join(f"(?:{pattern.pattern.removeprefix('(?i)')})" for pattern, _ in _SECRETS), re.I
)
"""Any of them, or more (all ignore case): one pass finds out whether there is
anything to mask — the prompt of every review goes through here, and almost none
holds a secret."""


def redact(text: str) -> str:
    """``text`` with API keys, bearer tokens, ``password=…`` values and URL passwords masked."""
    if _ANY.search(text) is None:
        return text
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text
