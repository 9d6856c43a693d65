"""Which attachments a request depends on, and how a material is keyed: read by the
evidence view (which attachments a review needs) and by the pre-analysis alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

from donecheck.actors.messages import AttachmentRef, ImageRef, Material
from donecheck.actors.words.lang import PACKS

__all__ = ["material_key", "needed_attachments"]

_ATTACHMENT_WORDS = re.compile(
    "|".join(pack.attachment_words for pack in PACKS if pack.attachment_words), re.I
)


def material_key(material: Material) -> str:
    """A user's material by its content; one a tool returned by its call as well (the
    same bytes may be both)."""
    if material.origin == "tool":
        return f"tool:{material.call_id}:{material.sha256}"
    return material.sha256


def needed_attachments(
    first: str, refs: Sequence[AttachmentRef | ImageRef], request_id: str, request: str
) -> list[AttachmentRef | ImageRef]:
    """Attachments a task's request depends on, of the session's first request
    ``first``'s attachments ``refs``: every one for the first request; for a later
    request, those it names or refers to ("the attached")."""
    if not refs or request_id == first:
        return list(refs)
    lowered = request.lower()
    named = [r for r in refs if r.name.lower() in lowered]
    if named:
        return named
    return list(refs) if _ATTACHMENT_WORDS.search(request) else []
