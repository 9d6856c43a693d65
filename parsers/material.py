"""What a parser answers: a :class:`Material` — an attachment after parsing — and its parts.

A material is addressed by its content (``sha256:<hex>``, :func:`sha256_ref`),
says how much of it was read (:data:`ReadStatus`), and holds ordered
:class:`Block` s, each citable by a stable source id, and bounded
:class:`Preview` images.

These types cross process boundaries (a parse worker's answer, an actor's
message), so they are tagged ``msgspec`` structs on :class:`Message`, the base of
every message DoneCheck sends. They live here, in the lowest layer, because the
parsers make them; :mod:`donecheck.actors.messages` re-exports them beside the
rest of the protocol.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal, TypeAlias

import msgspec

__all__ = [
    "Block",
    "BlockKind",
    "ImageRole",
    "Material",
    "MaterialOrigin",
    "Message",
    "Preview",
    "ReadStatus",
    "sha256_file",
    "sha256_ref",
]

ReadStatus: TypeAlias = Literal["parsed", "partial", "unparsed", "failed"]
"""How much of a material was read. Nothing unread is ever reported as read."""

ImageRole: TypeAlias = Literal["reference", "preview"]
"""``reference``: the image itself, downscaled — the user's, or one an agent's tool
returned (:attr:`Material.origin` says whose). ``preview``: rendered by DoneCheck
from a page, slide or sheet of a document."""

MaterialOrigin: TypeAlias = Literal["user", "tool"]
"""Who gave a material: the user (an attachment or image of the request) or the
agent's tool (an image a tool call returned: a screenshot, an image file it read)."""

BlockKind: TypeAlias = Literal["text", "heading", "table", "image", "code", "meta"]


def sha256_ref(data: bytes) -> str:
    """Content address of ``data``: ``"sha256:<hex>"`` (derived paths use the hex only)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """:func:`sha256_ref` of a file's content, read in chunks (never held in memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


class Message(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True, gc=False):
    """Base of every message: frozen, keyword-only, tagged by class name.

    ``frozen`` and the tag are inherited; ``kw_only`` applies only to the fields
    a class itself defines, so every subclass repeats ``kw_only=True``.

    ``gc=False`` (inherited): messages never form reference cycles, so Python's
    cycle collector need not track them. A ledger shard holds hundreds of
    thousands of them; tracked, every full collection walked them all (100 ms
    pauses in ``benchmarks/ledger_ingest.py``).
    """


class Block(Message, frozen=True, kw_only=True):
    """One ordered piece of a material, citable by ``source_id`` when fully shown."""

    source_id: str
    index: int
    kind: BlockKind = "text"
    text: str = ""
    page: int | None = None
    sheet: str | None = None
    slide: int | None = None
    level: int | None = None
    rows: tuple[tuple[str, ...], ...] | None = None
    truncated: bool = False


class Preview(Message, frozen=True, kw_only=True):
    """A bounded image made from a material (a rendered page, a downscaled photo)."""

    source_id: str
    media_type: str
    width: int
    height: int
    data: bytes
    role: ImageRole = "preview"
    page: int | None = None


class Material(Message, frozen=True, kw_only=True):
    """An attachment or image after parsing. The parser's answer."""

    sha256: str
    declared_name: str
    detected_type: str
    status: ReadStatus
    reason: str = ""
    blocks: tuple[Block, ...] = ()
    previews: tuple[Preview, ...] = ()
    stats: dict[str, float] = {}
    recipe_version: str = ""
    warnings: tuple[str, ...] = ()
    origin: MaterialOrigin = "user"
    call_id: str = ""
    """For ``origin="tool"``: the tool call whose result held it."""
