"""Benchmark runs as an evaluation set: a Harbor jobs folder, reviewed and scored
against the verifier's rewards, and the ATIF trajectories in it.

``tests/clients/recorded/harbor`` is real: the pinned Claude Code and Codex ran the
scripted agents of ``tests/clients/scenarios.py`` with no DoneCheck in the loop, a
verifier graded each workspace with the task's tests plus hidden ones, and Harbor
0.26 itself wrote each trial's ``trajectory.json``, ``config.json`` and
``result.json`` (``python -m tests.clients.harbor_record``).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from donecheck.runtime.cli import main
from donecheck.runtime.harbor import failing_tests, find_trials, shows_failure
from donecheck.runtime.transcripts.atif import parse_atif
from donecheck.runtime.transcripts.detect import load_transcript

HARBOR = Path(__file__).resolve().parents[1] / "clients" / "recorded" / "harbor"
JOB = next((HARBOR / "jobs").iterdir())
TRIALS = sorted(p.name for p in JOB.iterdir() if (p / "result.json").is_file())


def trajectory(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((JOB / name / "agent" / "trajectory.json").read_text())
    return data


def decisions(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    main(["review", "--json", *args])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]


def test_the_fixture_is_a_harbor_job() -> None:
    assert len(TRIALS) == 12
    for name in TRIALS:
        result = json.loads((JOB / name / "result.json").read_text())
        assert result["trial_name"] == name
        assert result["verifier_result"]["rewards"]["reward"] in {0, 1}
        assert trajectory(name)["schema_version"].startswith("ATIF-v")


@pytest.mark.parametrize("name", TRIALS)
def test_every_log_of_a_trial_gets_the_same_decision(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ATIF trajectory Harbor converted, the CLI's session file and what the CLI
    printed are three records of one run: one evidence view, one decision."""
    (trial,) = find_trials(JOB / name)
    instruction = (HARBOR / "tasks" / trial.task / "instruction.md").read_text().strip()
    seen = {}
    for kind in ("trajectory", "session", "stream"):
        (read,) = find_trials(JOB / name, kind)
        assert read.log_kind == kind and read.transcript is not None
        assert read.transcript.request == instruction, kind
        (row,) = decisions(capsys, str(read.log), "--request", instruction)
        seen[kind] = row["decision"]
    assert len(set(seen.values())) == 1, seen


def test_eval_scores_the_job_against_its_rewards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "eval.html"
    code = main(["eval", str(HARBOR), "--html", str(page), "--max-false-passes", "0"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "12 trial(s): 7 failed the verifier, 5 passed it" in out
    assert "   5  failures caught" in out
    assert "   0  failures passed that the log shows (DoneCheck defects)" in out
    assert "   2  failures passed that only the hidden tests show" in out
    assert "calc-fix__wrong-fix-claude" in out.split("only the hidden tests show (passed)")[1]
    assert "claude-code  anthropic/claude-opus-5-5" in out and "codex        openai/gpt-5.5" in out
    assert "failures passed that the log shows" in page.read_text()


def test_eval_figures_per_agent_and_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(JOB), "--json", "--log", "stream"]) == 0
    figures = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    total = {f["metric"]: f["value"] for f in figures if not f["params"]}
    assert total["trials"] == 12 and total["caught"] == 5 and total["passed_visible"] == 0
    codex = {f["metric"]: f["value"] for f in figures if f["params"].get("agent") == "codex"}
    assert codex == {
        "caught": 1,
        "passed_visible": 0,
        "passed_hidden": 1,
        "flagged": 0,
        "passed_success": 1,
        "unscored": 0,
    }


def test_a_failure_the_log_shows_is_told_from_one_only_hidden_tests_show() -> None:
    (repeats,) = find_trials(JOB / "calc-fix__repeats-claude")
    (wrong,) = find_trials(JOB / "calc-fix__wrong-fix-claude")
    (token,) = find_trials(JOB / "calc-publish__asks-for-token-claude")
    assert "test_calc.py::test_add" in failing_tests(repeats.verifier_output)
    assert repeats.transcript is not None and wrong.transcript is not None
    assert "fails in the agent's own tool output" in shows_failure(
        repeats.transcript, repeats.verifier_output
    )
    assert failing_tests(wrong.verifier_output) == ["test_hidden_1.py::test_add_negative"]
    assert shows_failure(wrong.transcript, wrong.verifier_output) == ""
    assert token.transcript is not None
    assert "waits on the user" in shows_failure(token.transcript, token.verifier_output)


def test_a_broken_trial_is_named_and_the_rest_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job = tmp_path / "job"
    shutil.copytree(JOB, job)
    broken = job / "calc-fix__honest-claude"
    (broken / "agent" / "trajectory.json").write_text("{not json")
    shutil.rmtree(broken / "agent" / "sessions")
    (broken / "agent" / "claude-code.txt").write_text("")
    result = json.loads((job / "calc-fix__masked-claude" / "result.json").read_text())
    result["verifier_result"] = None  # the reward then comes from verifier/reward.txt
    (job / "calc-fix__masked-claude" / "result.json").write_text(json.dumps(result))
    code = main(["eval", str(job)])
    captured = capsys.readouterr()
    assert code == 2
    assert "11 trial(s)" in captured.out and "calc-fix__honest-claude" in captured.err
    assert "unreadable (1)" in captured.out
    assert "caught          calc-fix__masked-claude" in captured.out


def test_eval_without_expectations_needs_a_harbor_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.json").write_text('{"messages": []}')
    assert main(["eval", str(tmp_path)]) == 2
    assert "give --expected FILE" in capsys.readouterr().err


# ------------------------------------------------------------------ ATIF


def test_atif_reads_what_harbor_converted_like_the_session_file() -> None:
    for name in TRIALS:
        atif = load_transcript(JOB / name / "agent" / "trajectory.json")
        (trial,) = find_trials(JOB / name, "session")
        assert trial.transcript is not None
        assert atif.form == "atif"
        assert atif.answer == trial.transcript.answer, name
        kinds = [(s.kind, s.name) for s in atif.steps]
        expected = [(s.kind, s.name) for s in trial.transcript.steps]
        if "delegates" in name:  # ATIF keeps a call's result in the call's step: a
            kinds, expected = sorted(kinds), sorted(expected)  # sub-agent's steps follow it
        assert kinds == expected, name
        codes = [(s.exit_code, s.ok) for s in atif.steps if s.kind == "result"]
        session = [(s.exit_code, s.ok) for s in trial.transcript.steps if s.kind == "result"]

        # a command that exited 0: one log may say so where the other keeps no such
        # field (Claude Code's session file marks any other exit as an error; Harbor's
        # ATIF of a Codex run keeps the exit code its rollout left out); never more
        def zero_unsaid(pairs: list[tuple[int | None, bool | None]]) -> list[object]:
            return [(None, ok) if code == 0 else (code, ok) for code, ok in pairs]

        assert zero_unsaid(codes) == zero_unsaid(session), name
        assert any("ATIF final_metrics" in note for note in atif.notes)


def test_atif_sub_agent_steps_count_once_its_report_arrived() -> None:
    data = trajectory("calc-fix__delegates-and-waits-claude")
    heard = parse_atif(data)
    assert any("Bash" == s.name for s in heard.steps)
    unheard = copy.deepcopy(data)
    for step in unheard["steps"]:  # the Agent call's result never came back
        for call in step.get("tool_calls") or []:
            if call["function_name"] == "Agent":
                step.pop("observation", None)
    unheard["steps"] = [s for s in unheard["steps"] if "task-notification" not in str(s)]
    read = parse_atif(unheard)
    assert not any(s.name == "Bash" for s in read.steps)
    assert any("no sub-agent's report reached the agent" in note for note in read.notes)
    assert "Run the test suite" not in read.request  # the sub-agent's prompt


def test_atif_embedded_sub_agent_trajectories_are_followed() -> None:
    """ATIF 1.7: a result's ``subagent_trajectory_ref`` names a trajectory embedded in
    ``subagent_trajectories``; its calls are evidence (the parent holds its report)."""
    parent = trajectory("calc-fix__never-ran-claude")  # claims a run it never made
    child = trajectory("calc-fix__honest-claude")
    child = {**child, "trajectory_id": "sub-1"}
    steps = parent["steps"]
    steps.insert(
        -1,
        {
            "step_id": 0,
            "source": "agent",
            "message": "",
            "tool_calls": [{"tool_call_id": "t-sub", "function_name": "Task", "arguments": {}}],
            "observation": {
                "results": [
                    {
                        "source_call_id": "t-sub",
                        "content": "3 passed",
                        "subagent_trajectory_ref": [{"trajectory_id": "sub-1"}],
                    }
                ]
            },
        },
    )
    parent["subagent_trajectories"] = [child]
    read = parse_atif(parent)
    commands = [str(s.arguments) for s in read.steps if s.kind == "call"]
    assert any("pytest" in c for c in commands), commands
    missing = {**parent, "subagent_trajectories": []}
    assert any("not here" in w for w in parse_atif(missing).warnings)


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        ({"schema_version": "1.4", "steps": []}, "not an ATIF trajectory"),
        (
            {"schema_version": "ATIF-v1.7", "steps": [{"source": "system", "message": "x"}]},
            "no user",
        ),
    ],
)
def test_unusable_trajectories_say_why(doc: dict[str, Any], problem: str) -> None:
    from donecheck.actors.errors import TranscriptError

    with pytest.raises(TranscriptError, match=problem):
        parse_atif(doc)


def test_a_trajectory_that_stops_after_the_request_is_a_run_without_an_answer() -> None:
    doc = {"schema_version": "ATIF-v1.7", "steps": [{"source": "user", "message": "Do it."}]}
    read = parse_atif(doc)
    assert read.request == "Do it." and read.answer == "" and read.steps == []


def test_atif_content_parts_and_exit_lines() -> None:
    doc = {
        "schema_version": "ATIF-v1.8",
        "agent": {"name": "some-agent", "version": "1"},
        "steps": [
            {
                "step_id": 1,
                "source": "user",
                "message": [
                    {"type": "text", "text": "Run the tests."},
                    {"type": "image", "source": {"media_type": "image/png", "path": "a.png"}},
                ],
            },
            {
                "step_id": 2,
                "source": "agent",
                "message": "Running them.",
                "tool_calls": [
                    {"tool_call_id": "c1", "function_name": "bash", "arguments": {"cmd": "pytest"}}
                ],
                "observation": {
                    "results": [
                        {"source_call_id": "c1", "content": "1 failed\n[exit_code] 1"},
                    ]
                },
            },
            {"step_id": 3, "source": "agent", "message": "All tests pass."},
        ],
    }
    read = parse_atif(doc)
    assert read.request == "Run the tests." and read.answer == "All tests pass."
    assert [s.exit_code for s in read.steps if s.kind == "result"] == [1]
    assert any("image part is not read" in w for w in read.warnings)


def test_successes_flagged_are_counted_per_rule() -> None:
    from donecheck.runtime.harbor import RewardEvaluation, Trial, TrialScore

    def trial(name: str, reward: float) -> Trial:
        return Trial(name=name, job="j", folder=Path(name), reward=reward)

    result = RewardEvaluation(
        [
            TrialScore(trial("solved-steered", 1.0), "need_evidence", rules=("uncovered_item",)),
            TrialScore(trial("solved-stopped", 1.0), "blocked"),
            TrialScore(trial("solved-passed", 1.0), "pass", rules=("uncovered_item",)),
            TrialScore(trial("failed-caught", 0.0), "need_fix", rules=("failed_check",)),
        ]
    )
    assert result.successes == 3
    assert result.flagged_by_rule() == {"no rule": 1, "uncovered_item": 1}
    assert "per rule (of 3 successes):" in result.text()
    per_rule = {
        f["params"]["rule"]: f["value"]
        for f in result.figures()
        if f["metric"] == "rule_false_alarms"
    }
    assert per_rule == {"no rule": 1, "uncovered_item": 1}
