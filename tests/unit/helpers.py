"""Builders for ledgers and review requests in unit tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from donecheck.actors.evidence.view import build_view
from donecheck.actors.messages import (
    AttachmentRef,
    EvidenceRequest,
    EvidenceView,
    ImageRef,
    LedgerEntry,
    Material,
    MaterialRecorded,
    ReviewRequest,
    SessionOpened,
    ToolCall,
    ToolResult,
    UserInput,
)


class LedgerBuilder:
    def __init__(self, session_id: str = "s") -> None:
        self.session_id = session_id
        self.entries: list[LedgerEntry] = []
        self._n = 0

    def open(
        self,
        request: str,
        *materials: Material,
        recorded: bool = True,
        images: tuple[Material, ...] = (),
    ) -> int:
        """The session's first request with ``materials`` attached (and parsed), and
        ``images`` shown with it inline."""
        seq = self._add(
            SessionOpened(
                session_id=self.session_id,
                request_id="r",
                request=request,
                attachments=tuple(
                    AttachmentRef(sha256=m.sha256, name=m.declared_name, size=1) for m in materials
                ),
                images=tuple(
                    ImageRef(sha256=m.sha256, name=m.declared_name, size=1) for m in images
                ),
            )
        )
        if recorded:
            for material in (*materials, *images):
                self._add(MaterialRecorded(session_id=self.session_id, material=material))
        return seq

    def user(self, text: str, request_id: str) -> int:
        return self._add(UserInput(session_id=self.session_id, request_id=request_id, text=text))

    def _add(self, event: Any) -> int:
        seq = len(self.entries) + 1
        self.entries.append(LedgerEntry(seq=seq, event=event))
        return seq

    def call(self, name: str, arguments: dict[str, Any] | str) -> str:
        self._n += 1
        call_id = f"c{self._n}"
        self._add(
            ToolCall(session_id=self.session_id, call_id=call_id, name=name, arguments=arguments)
        )
        return call_id

    def result(
        self, call_id: str, output: str = "", exit_code: int | None = None, ok: bool | None = None
    ) -> int:
        return self._add(
            ToolResult(
                session_id=self.session_id,
                call_id=call_id,
                output=output,
                exit_code=exit_code,
                ok=ok,
            )
        )

    def run(self, command: str, exit_code: int | None, output: str = "") -> int:
        return self.result(self.call("bash", {"command": command}), output, exit_code)

    def write(self, path: str, ok: bool = True) -> int:
        """Record a file write; returns the call's seq (writes are cited by their call)."""
        call_id = self.call("write_file", {"path": path, "content": "x"})
        call_seq = len(self.entries)
        self.result(call_id, "ok" if ok else "denied", 0 if ok else 1)
        return call_seq

    def request(
        self, answer: str, request: str = "Fix the bug.", request_id: str = "r"
    ) -> ReviewRequest:
        opened = next((e.event for e in self.entries if isinstance(e.event, SessionOpened)), None)
        text = opened.request if opened is not None and request_id == "r" else request
        return ReviewRequest(
            review_id="rv",
            session_id=self.session_id,
            request_id=request_id,
            request=text,
            answer=answer,
            view=view_of(self.entries, request_id, text, self.session_id),
        )


def view_of(
    entries: Sequence[LedgerEntry],
    request_id: str = "r",
    request: str = "",
    session_id: str = "s",
    *,
    prompt: bool = True,
) -> EvidenceView:
    """The evidence view a ledger holding ``entries`` serves a review of ``request_id``
    (with a judge prompt's parts unless ``prompt`` is false)."""
    return build_view(
        entries,
        EvidenceRequest(
            session_id=session_id,
            request_id=request_id,
            request=request,
            prompt=prompt,
            approvals=True,
        ),
    )


def with_view(request: ReviewRequest, entries: Sequence[LedgerEntry]) -> ReviewRequest:
    """``request`` carrying the evidence view of ``entries``."""
    return msgspec.structs.replace(
        request, view=view_of(entries, request.request_id, request.request, request.session_id)
    )
