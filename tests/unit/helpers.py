"""Builders for ledgers and review requests in unit tests."""

from __future__ import annotations

from typing import Any

from donecheck.runtime.messages import LedgerEntry, ReviewRequest, ToolCall, ToolResult


class LedgerBuilder:
    def __init__(self, session_id: str = "s") -> None:
        self.session_id = session_id
        self.entries: list[LedgerEntry] = []
        self._n = 0

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

    def request(self, answer: str, request: str = "Fix the bug.") -> ReviewRequest:
        return ReviewRequest(
            review_id="rv",
            session_id=self.session_id,
            request_id="r",
            request=request,
            answer=answer,
            entries=tuple(self.entries),
        )
