"""The session's attachments and materials, as its ledger records them."""

from __future__ import annotations

from collections.abc import Sequence

from donecheck.actors.messages import (
    AttachmentRef,
    ImageRef,
    LedgerEntry,
    Material,
    MaterialRecorded,
    SessionOpened,
)
from donecheck.actors.words.attachments import material_key, needed_attachments

__all__ = ["depends_on", "materials_of", "session_attachments"]


def materials_of(entries: Sequence[LedgerEntry]) -> list[Material]:
    """The latest recorded material of each attachment and tool image, in recording
    order (see :func:`~donecheck.actors.words.attachments.material_key`)."""
    found: dict[str, Material] = {}
    for entry in entries:
        if isinstance(entry.event, MaterialRecorded):
            found[material_key(entry.event.material)] = entry.event.material
    return list(found.values())


def session_attachments(
    entries: Sequence[LedgerEntry],
) -> tuple[str, list[AttachmentRef | ImageRef]]:
    """The session's first request id and what it attached."""
    for entry in entries:
        if isinstance(entry.event, SessionOpened):
            return entry.event.request_id, [*entry.event.attachments, *entry.event.images]
    return "", []


def depends_on(
    entries: Sequence[LedgerEntry], request_id: str, request: str
) -> list[AttachmentRef | ImageRef]:
    """Attachments the task's request depends on
    (:func:`~donecheck.actors.words.attachments.needed_attachments`)."""
    first, refs = session_attachments(entries)
    return needed_attachments(first, refs, request_id, request)
