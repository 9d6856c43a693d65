"""The parser pool on Ray: parallel, cached, and a killed parser loses nothing else."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import ray

from donecheck.actors.messages import MaterialRecorded, ViewRequest
from donecheck.runtime import DoneCheck
from tests.support import samples

pytestmark = pytest.mark.ray


def _alive(pid: int) -> bool:
    """A running (not zombie) process."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _parent(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), None
    )


def our_workers(dc: DoneCheck) -> dict[int, int]:
    """Parse worker pid → parser actor pid, for this deployment's parsers only
    (another DoneCheck on the machine has workers too: they are not counted)."""
    stats = [s for n, s in dc.statistics().items() if n.startswith("parser-")]
    return {s["worker_pid"]: s["pid"] for s in stats if s["worker_pid"] is not None}


def test_parse_many_on_the_pool(dc: DoneCheck) -> None:
    items = [(x.name, x.data) for x in samples.corpus(24)]
    before = {n: s["parsed"] for n, s in dc.statistics().items() if n.startswith("parser-")}
    materials = dc.parse_many(items)
    assert [m.declared_name for m in materials] == [name for name, _ in items]
    assert all(m.status == "parsed" for m in materials), [
        (m.declared_name, m.reason) for m in materials
    ]
    after = {n: s["parsed"] for n, s in dc.statistics().items() if n.startswith("parser-")}
    assert len(after) == 2 and all(after[n] > before[n] for n in after)  # both actors worked


def test_same_content_is_parsed_once_across_sessions(dc: DoneCheck) -> None:
    sample = samples.docx(seed=99)
    first = dc.parse((sample.name, sample.data))
    hits = sum(s["cache_hits"] for n, s in dc.statistics().items() if n.startswith("parser-"))
    started = time.perf_counter()
    second = dc.parse(("renamed.docx", sample.data))
    elapsed = time.perf_counter() - started
    assert second.blocks == first.blocks and second.declared_name == "renamed.docx"
    after = sum(s["cache_hits"] for n, s in dc.statistics().items() if n.startswith("parser-"))
    assert after == hits + 1
    assert elapsed < 1.0  # no re-parse (the benchmark measures the real figure)


def test_session_materials_reach_the_ledger(dc: DoneCheck) -> None:
    pdf, sheet = samples.pdf(seed=5), samples.xlsx(seed=5)
    session = dc.open_session(
        "Summarise the report and the budget",
        attachments=[(pdf.name, pdf.data), (sheet.name, sheet.data)],
    )
    session.turn_stopping("The report has three sections and the budget has forty lines. ```ok```")
    view = ray.get(
        dc.deployment.ledger_for(session.session_id).view.remote(
            ViewRequest(session_id=session.session_id)
        )
    )
    materials = {
        e.event.material.declared_name: e.event.material
        for e in view.entries
        if isinstance(e.event, MaterialRecorded)
    }
    assert materials[pdf.name].status == "parsed" and len(materials[pdf.name].previews) == 2
    assert materials[sheet.name].blocks[0].sheet == "Budget"
    session.close()


def test_a_killed_parser_is_restarted_and_nothing_is_lost(dc: DoneCheck) -> None:
    from donecheck.parsers.material import sha256_ref

    big = samples.pdf(seed=7, pages=300, table=False)
    victim = dc.deployment.parser_for(sha256_ref(big.data))
    victim_worker = ray.get(victim.statistics.remote())["worker_pid"]
    assert victim_worker is not None and _alive(victim_worker)
    session = dc.open_session("Read the long report", attachments=[(big.name, big.data)])
    ray.kill(victim, no_restart=False)  # dies mid-parse; Ray restarts it
    other = dc.open_session("Read the notes", attachments=[("notes.md", b"# Notes\nall good\n")])
    other.turn_stopping("I read the notes: they say all good, nothing else is in them. ```ok```")
    session.turn_stopping("I read the long report and summarised it in detail above. ```ok```")

    def material_of(s):
        view = ray.get(
            dc.deployment.ledger_for(s.session_id).view.remote(ViewRequest(session_id=s.session_id))
        )
        return next(e.event.material for e in view.entries if isinstance(e.event, MaterialRecorded))

    # whether the kill landed mid-parse (the call is run again on the restarted
    # actor) or just after it, the session's material is complete
    assert material_of(session).status == "parsed"
    assert material_of(session).stats["pages"] == 300
    assert material_of(other).status == "parsed"
    assert dc.parse(("again.md", b"# again\n")).status == "parsed"
    # the dead actor's worker process went with it
    deadline = time.monotonic() + 10
    while _alive(victim_worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(victim_worker)
    # every parser of this deployment (the restarted one too) has one live worker of its own
    workers = our_workers(dc)
    assert len(workers) == len(dc.deployment.parsers)
    assert victim_worker not in workers
    for worker, actor in workers.items():
        assert _alive(worker) and _parent(worker) == actor
