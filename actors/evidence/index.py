"""What a review reads of a session's log, kept up to date as entries arrive.

:class:`EvidenceIndex` reads each entry once (:meth:`EvidenceIndex.feed`): the tool
calls, results and runner or gate reports by sequence number, where each request
began, what the session attached, its latest materials, the files its snapshots
watch. The ledger keeps one per session it has reviewed, fed with each append; a
view (:mod:`.view`) is then worked out from it and the pairing's operations,
never from a walk over the whole log.
"""

from __future__ import annotations

from collections.abc import Iterable

from donecheck.actors.messages import (
    AttachmentRef,
    CheckReport,
    FileSnapshot,
    ImageRef,
    LedgerEntry,
    Material,
    MaterialRecorded,
    SessionOpened,
    ToolCall,
    ToolResult,
    UserInput,
    WorkspaceState,
)
from donecheck.actors.words.attachments import material_key

__all__ = ["EvidenceIndex"]


class EvidenceIndex:
    """The parts of one session's log a review looks up, each entry read once."""

    __slots__ = (
        "attachments",
        "call_by_id",
        "calls",
        "count",
        "first_request",
        "materials",
        "opened",
        "reports",
        "results",
        "snapshot_paths",
        "snapshot_targets",
        "snapshots",
        "starts",
        "workspaces",
    )

    def __init__(self, snapshot_targets: int = 24) -> None:
        self.count = 0
        """Entries fed so far."""
        self.calls: dict[int, ToolCall] = {}
        self.call_by_id: dict[str, int] = {}
        """A call id → the seq of its latest call."""
        self.results: dict[int, ToolResult] = {}
        self.reports: dict[int, CheckReport] = {}
        self.starts: list[tuple[int, str]] = []
        """Where each request began: (seq, request id), in order."""
        self.opened = False
        self.first_request = ""
        self.attachments: list[AttachmentRef | ImageRef] = []
        """What the session's requests attached: the first request's, then later ones'."""
        self.materials: dict[str, Material] = {}
        """The latest material of each attachment and tool image
        (:func:`~donecheck.actors.words.attachments.material_key`), in recording order."""
        self.snapshot_paths: dict[str, None] = {}
        """Every path a snapshot was taken of, in order."""
        self.snapshot_targets = snapshot_targets
        self.snapshots: dict[str, FileSnapshot] = {}
        """The latest snapshot of each of the first ``snapshot_targets`` paths."""
        self.workspaces: list[tuple[int, WorkspaceState]] = []
        """The workspace's test files as seen at each task's start and each stop."""

    @classmethod
    def of(cls, entries: Iterable[LedgerEntry], snapshot_targets: int = 24) -> EvidenceIndex:
        index = cls(snapshot_targets)
        index.feed(entries)
        return index

    def feed(self, entries: Iterable[LedgerEntry]) -> None:
        """Take in the entries after those fed so far."""
        for entry in entries:
            self.count += 1
            event, seq = entry.event, entry.seq
            kind = type(event)
            if kind is ToolCall:
                assert isinstance(event, ToolCall)
                self.calls[seq] = event
                self.call_by_id[event.call_id] = seq
            elif kind is ToolResult:
                assert isinstance(event, ToolResult)
                self.results[seq] = event
            elif kind is CheckReport:
                assert isinstance(event, CheckReport)
                self.reports[seq] = event
            elif kind is SessionOpened or kind is UserInput:
                assert isinstance(event, SessionOpened | UserInput)
                self.starts.append((seq, event.request_id))
                if isinstance(event, SessionOpened) and not self.opened:
                    self.opened = True
                    self.first_request = event.request_id
                    self.attachments = [*event.attachments, *event.images, *self.attachments]
                elif isinstance(event, UserInput):
                    known = {a.sha256 for a in self.attachments}
                    self.attachments += [a for a in event.attachments if a.sha256 not in known]
            elif kind is MaterialRecorded:
                assert isinstance(event, MaterialRecorded)
                self.materials[material_key(event.material)] = event.material
            elif kind is WorkspaceState:
                assert isinstance(event, WorkspaceState)
                self.workspaces.append((seq, event))
            elif kind is FileSnapshot:
                assert isinstance(event, FileSnapshot)
                self.snapshot_paths[event.path] = None
                if event.path in self.snapshots or len(self.snapshots) < self.snapshot_targets:
                    self.snapshots[event.path] = event

    def workspace(
        self, since: int, until: int | None = None
    ) -> tuple[WorkspaceState | None, tuple[int, WorkspaceState] | None]:
        """The workspace as the task begun at ``since`` found it (its first ``start``
        state from there on, else the latest before), and its latest ``stop`` state
        since then (with its seq), up to ``until``."""
        states = [(seq, s) for seq, s in self.workspaces if until is None or seq <= until]
        first = next((s for seq, s in states if seq >= since and s.moment == "start"), None)
        if first is None:
            first = next(
                (s for seq, s in reversed(states) if seq < since and s.moment == "start"), None
            )
        stop = next(
            ((seq, s) for seq, s in reversed(states) if seq >= since and s.moment == "stop"), None
        )
        return first, stop

    def start_of(self, request_id: str, *, last: bool = False) -> int:
        """The seq where request ``request_id`` began (its first start, or with
        ``last`` its latest; 0: not found)."""
        found = [seq for seq, rid in self.starts if rid == request_id]
        return (found[-1] if last else found[0]) if found else 0
