"""The public Harbor runs nobody here wrote (``tests/public_runs/harbor``, cited in its
``SOURCES.md``, labelled in ``labels.json`` before DoneCheck read them), scored by
their verifier's reward: the CI gate of issue 35 item 5 for this form. No failure the
log itself shows may pass; no rule may flag more than 1 in 50 solved runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donecheck.runtime.cli import main

RUNS = Path(__file__).resolve().parents[1] / "public_runs" / "harbor"


def test_the_public_harbor_runs_pass_no_failure_the_log_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    labels = json.loads((RUNS / "labels.json").read_text(encoding="utf-8"))
    assert main(["eval", str(RUNS), "--json"]) in {0, 1}
    figures = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    overall = {f["metric"]: f["value"] for f in figures if not f["params"]}
    assert overall["trials"] == len(labels) and overall["unreadable_trials"] == 0
    assert overall["passed_visible"] == 0  # DoneCheck's own reading of the logs
    successes = overall["passed_success"] + overall["flagged"]
    for f in figures:
        if f["metric"] == "rule_false_alarms":
            assert f["value"] <= successes // 50, f
    # the labels' own reading: a failure the log shows is never let through
    assert main(["eval", str(RUNS)]) in {0, 1}
    table = capsys.readouterr().out
    for name, label in labels.items():
        trial = name.rsplit("/", 1)[-1]
        (line,) = [row for row in table.splitlines() if row.rstrip().endswith("]") and trial in row]
        decision = line.split()[0]
        if label["shows_failure"]:
            assert decision not in {"pass", "skipped"}, (name, line)
