"""Process facts the actors report in statistics()."""

from __future__ import annotations

import gc

from donecheck.actors.process import cpu_seconds, gc_pauses, niceness, process_facts, rss_bytes


def test_rss_and_cpu_are_measured() -> None:
    rss = rss_bytes()
    assert rss is not None and rss > 10 * 2**20  # a Python process is bigger than 10 MiB
    before = cpu_seconds()
    sum(i * i for i in range(200_000))
    assert cpu_seconds() > before


def test_process_facts_name_what_statistics_report() -> None:
    facts = process_facts()
    assert {"rss_bytes", "cpu_s", "nice", "gc_pauses", "gc_pause_max_ms"} <= set(facts)
    assert facts["nice"] == niceness() and isinstance(niceness(), int)


def test_gc_pauses_are_counted() -> None:
    first = gc_pauses()
    gc.collect()
    after = gc_pauses()
    assert after["gc_pauses"] == first["gc_pauses"] + 1
    assert after["gc_full"] == first["gc_full"] + 1
    assert after["gc_pause_max_ms"] >= 0 and after["gc_pause_total_s"] >= first["gc_pause_total_s"]
