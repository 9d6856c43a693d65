"""A 500-file sample of benchmarks/fuzz_parsers.py: mutated seeds of every family
through isolated parse workers; nothing escapes, crashes, hangs or says only
"parser error" (the full run, 5,000 files, is in benchmarks/RESULTS.md)."""

from __future__ import annotations

from benchmarks.fuzz_parsers import RSS_BYTES, SLOWEST_S, run


def test_a_fuzz_sample_of_500_files_breaks_no_rule() -> None:
    summary = run(500, seed=7, workers=2)
    assert summary.files == 500
    assert summary.seeds >= 30 and summary.families >= 12
    assert summary.unhandled == []
    assert summary.bare == []
    assert summary.crashes == []
    assert summary.timeouts == []
    assert summary.slowest_s <= SLOWEST_S, summary.slowest
    assert summary.max_rss <= RSS_BYTES
    assert set(summary.mutations) == {"flip", "truncate", "duplicate", "insert", "header", "zero"}
