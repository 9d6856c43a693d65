"""Read evidence: was an attachment's content actually shown to the agent?

An attachment counts as **read** when the ledger shows its content reached the
agent:

* a read tool opened it (``read_file``, ``Read``, an editor's ``view``, …), or an
  image tool viewed it;
* for text-like attachments, a command printed its body (``cat``, ``type``,
  ``Get-Content``, ``more``…) — ``head``/``tail``/``sed -n`` print part of it
  (**partial**);
* any tool's output contains a run of its own words (checked against the parsed
  material), whatever printed it — this catches a script that prints the file
  and a copy converted first (``pdftotext a.pdf a.txt`` then ``cat a.txt``).

Size, page count, character counts, listings and checksums (``wc``, ``ls``,
``stat``, ``file``, ``pdfinfo``, ``sha256sum``…) only show **metadata**; writing a
parsed copy shows nothing until the copy is read. A failed tool call shows
nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from donecheck.actors.actions import Action
from donecheck.actors.evidence.index import EvidenceIndex
from donecheck.actors.evidence.pairing import Pairing
from donecheck.actors.messages import (
    ImageRef,
    LedgerEntry,
    Material,
    Operation,
    ReadEvidence,
)

__all__ = ["INLINE", "read_evidence", "reads_of"]

_TEXT_LIKE = (
    "text/",
    "application/json",
    "application/xml",
    "application/x-ipynb+json",
    "message/rfc822",
    "image/svg+xml",
)
ReadStatusName: TypeAlias = Literal["read", "partial", "metadata_only"]
_ORDER: tuple[ReadStatusName, ...] = ("read", "partial", "metadata_only")
_SHINGLE = 8
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_OUTPUT_SCAN = 200_000


INLINE = "shown to the model inline with the request"
"""How an image given with the request (not a file to open) reached the agent."""


@dataclass
class _Target:
    sha256: str
    name: str
    detected_type: str = ""
    shingles: frozenset[int] = frozenset()
    names: set[str] = field(default_factory=set)
    found: dict[ReadStatusName, list[tuple[str, str]]] = field(default_factory=dict)
    """status → [(how, evidence id)]"""
    unreadable: str = ""
    """Why the file itself cannot be read (its parse ``failed``: encrypted, damaged …);
    "" when it can. A tool that opens it then shows its raw bytes, not its content."""

    @property
    def text_like(self) -> bool:
        return self.detected_type.startswith(_TEXT_LIKE) or not self.detected_type

    @property
    def image(self) -> bool:
        return self.detected_type.startswith("image/")


def _shingles(words: Sequence[str]) -> set[int]:
    return {hash(tuple(words[i : i + _SHINGLE])) for i in range(len(words) - _SHINGLE + 1)}


def _material_shingles(material: Material) -> frozenset[int]:
    words = _WORD.findall(" ".join(b.text for b in material.blocks).lower())
    if len(words) > 40_000:
        words = words[:40_000]
    return frozenset(_shingles(words))


def _base(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/").strip("'\"")).lower()


def read_evidence(entries: Sequence[LedgerEntry]) -> list[ReadEvidence]:
    """Read evidence for every attachment and image of the session, in the order given."""
    pairing = Pairing()
    pairing.feed(entries)
    return reads_of(EvidenceIndex.of(entries), pairing.operations(), pairing.actions)


def reads_of(
    index: EvidenceIndex, ops: Sequence[Operation], actions: Mapping[int, Action]
) -> list[ReadEvidence]:
    """:func:`read_evidence` from a session's :class:`EvidenceIndex` and operations."""
    targets: dict[str, _Target] = {}
    for ref in index.attachments:
        target = targets.setdefault(ref.sha256, _Target(ref.sha256, ref.name))
        if isinstance(ref, ImageRef):  # the model was shown it with the request itself
            _note(target, "read", INLINE, "REQUEST")
    for m in index.materials.values():
        if m.origin != "user":
            continue
        target = targets.setdefault(m.sha256, _Target(m.sha256, m.declared_name))
        target.detected_type = m.detected_type
        target.shingles = _material_shingles(m)
        target.unreadable = (m.reason or "it could not be read") if m.status == "failed" else ""
    if not targets:
        return []
    for target in targets.values():
        target.names = {_base(target.name)}
    results = index.results
    for op in ops:
        action = actions.get(op.call_seq)
        result = results.get(op.result_seq) if op.result_seq is not None else None
        if action is None or result is None or op.ok is False:
            continue
        eid = f"E{op.result_seq}"
        output = result.output[:_OUTPUT_SCAN]
        for target in targets.values():
            _classify(target, action, output, eid)
    evidence = []
    for t in targets.values():
        status = _status(t)
        shown = t.found.get(status, []) if status != "not_read" else []
        evidence.append(
            ReadEvidence(
                sha256=t.sha256,
                name=t.name,
                status=status,
                how=tuple(dict.fromkeys(how for how, _ in shown)),
                evidence=tuple(dict.fromkeys(eid for _, eid in shown)),
            )
        )
    return evidence


def _note(target: _Target, status: ReadStatusName, how: str, eid: str, output: str = "") -> None:
    if status != "metadata_only" and target.unreadable and _opaque(target, output):
        status, how = "metadata_only", f"{how}, which showed {_what_opaque(target)}"
    target.found.setdefault(status, []).append((how, eid))


_MAGIC = (b"%PDF", b"PK\x03\x04", b"\xd0\xcf\x11\xe0", b"\x89PNG", b"\xff\xd8\xff", b"GIF8")
_RAW_PDF = re.compile(r"\bendobj\b|\bendstream\b|/Filter\s*/|/Encrypt\b")


def _opaque(target: _Target, output: str) -> bool:
    """Whether a tool's output on a file that cannot be read shows nothing of its content:
    always for an encrypted file (no password reaches a tool here), else raw bytes — the
    format's magic, PDF object syntax or mostly unprintable characters."""
    if target.unreadable.startswith("encrypted"):
        return True
    head = output.lstrip()[:4096]
    if not head:
        return True
    raw = head.encode("utf-8", "surrogateescape")
    if raw.startswith(_MAGIC) or _RAW_PDF.search(head):
        return True
    unprintable = sum(1 for ch in head if not ch.isprintable() and ch not in "\n\r\t")
    return unprintable > len(head) // 10


def _what_opaque(target: _Target) -> str:
    return (
        f"nothing of its content ({target.unreadable})"
        if target.unreadable.startswith("encrypted")
        else f"only its raw bytes (it cannot be read: {target.unreadable})"
    )


def _status(target: _Target) -> ReadStatusName | Literal["not_read"]:
    for status in _ORDER:
        if status in target.found:
            return status
    return "not_read"


def _classify(target: _Target, action: Action, output: str, eid: str) -> None:
    names = target.names
    shown = bool(output.strip())
    if action.command is None:
        referred = any(
            t.path is not None and _base(t.path) in names and t.op == "read" for t in action.touches
        )
        if referred and (action.kind == "view" or target.image):
            _note(target, "read", f"viewed with {action.tool}", eid, output)
        elif referred and shown:
            _note(target, "read", f"read with {action.tool}", eid, output)
    else:
        for touch in action.touches:
            if touch.path is None:
                continue
            if touch.source is not None and _base(touch.source) in names:
                names.add(_base(touch.path))  # a copy: reading it later reads the attachment
                continue
            if _base(touch.path) not in names:
                continue
            if touch.op == "metadata":
                _note(target, "metadata_only", f"only its metadata via `{touch.via}`", eid)
            elif touch.op == "read" and shown and target.text_like:
                _note(target, "read", f"printed with `{touch.via}`", eid, output)
            elif touch.op == "partial" and shown and target.text_like:
                _note(target, "partial", f"part printed with `{touch.via}`", eid, output)
    if target.shingles and "read" not in target.found:
        words = _WORD.findall(output.lower())
        common = len(_shingles(words) & target.shingles) if len(words) >= _SHINGLE else 0
        needed = 1 if len(target.shingles) < 4 else 2
        if common >= needed:
            _note(target, "read", f"its text appears in the output of {action.tool}", eid)
