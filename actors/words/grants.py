"""What a review may never ask of the agent: deleting, publishing, acting outside.

DoneCheck 0.2.0 §6: the review grants no deletion, publishing or external action. A
judge's recheck ("rm -rf .git, twine upload, git push --force") would reach the agent
as DoneCheck's own instruction; :func:`actions_in` names the kinds of such actions a
text asks for, so a recheck that asks for one the user's request did not is replaced.

The commands are the same in every language, so they are read as commands (a table,
one row per program and subcommand); the few phrases ("push it to main", "publish the
package") are English, the language judges answer in unless told otherwise.
"""

from __future__ import annotations

import re

__all__ = ["KINDS", "actions_in"]

KINDS: dict[str, tuple[str, ...]] = {
    "deletion": (
        r"\brm\s+(?:-\w+\s+)*(?:[\w./~*-]+)",
        r"\bgit\s+(?:clean\s+-\w*f|reset\s+--hard|branch\s+-D|push\s+\S+\s+--delete|"
        r"checkout\s+--\s+\.)",
        r"\b(?:DROP|TRUNCATE)\s+(?:TABLE|DATABASE|SCHEMA)\b",
        r"\bDELETE\s+FROM\b",
        r"\bkubectl\s+delete\b",
        r"\bdocker\s+(?:rm|rmi|volume\s+rm|system\s+prune)\b",
        r"\bterraform\s+destroy\b",
        r"\b(?:delete|remove|wipe|erase)\s+(?:the\s+)?(?:\.git|repository|repo|database|"
        r"branch|build\s+(?:folder|directory))\b",
    ),
    "publishing": (
        r"\bgit\s+push\b",
        r"\btwine\s+upload\b",
        r"\b(?:npm|pnpm|yarn)\s+publish\b",
        r"\b(?:cargo|poetry|flit|hatch|uv)\s+publish\b",
        r"\bgem\s+push\b",
        r"\bdocker\s+push\b",
        r"\bgh\s+(?:release\s+create|pr\s+(?:create|merge)|repo\s+delete)\b",
        r"\b(?:push|publish|release|deploy|upload)\s+(?:it|this|the\s+\w+|to\s+\S+|"
        r"version\s+\S+|v?\d+\.\d+\S*)\b",
    ),
    "external": (
        r"\bcurl\s+(?:.*\s)?-(?:X\s*(?:POST|PUT|PATCH|DELETE)|d\b|-data\b|F\b)",
        r"\b(?:wget|http)\s+(?:--method=)?(?:POST|PUT|PATCH|DELETE)\b",
        r"\bkubectl\s+(?:apply|create|scale|rollout|patch|edit)\b",
        r"\bterraform\s+apply\b",
        r"\bhelm\s+(?:install|upgrade|uninstall)\b",
        r"\b(?:ssh|scp|rsync)\s+\S*@",
        r"\bsend\s+(?:an?\s+)?(?:e-?mail|message|slack)\b",
    ),
}

_PATTERNS = {kind: re.compile("|".join(rows), re.I) for kind, rows in KINDS.items()}
_SQL = re.compile(r"DROP|TRUNCATE|DELETE\s+FROM")
"""SQL words count only in capitals ("delete from the list" is no statement)."""


def actions_in(text: str) -> set[str]:
    """The kinds of action (``deletion``, ``publishing``, ``external``) ``text`` asks
    for, read by command and by phrase."""
    found: set[str] = set()
    for kind, pattern in _PATTERNS.items():
        for hit in pattern.finditer(text):
            word = hit.group()
            if re.match(r"(?i)drop|truncate|delete\s+from", word) and not _SQL.match(word):
                continue
            found.add(kind)
            break
    return found
