"""Benchmark runs as an evaluation set: a Harbor jobs folder, DoneCheck's decisions
scored against the verifier's rewards.

Harbor (``harbor run``) writes one folder per trial (``harbor.models.trial.paths``)::

    <job>/<trial>/
      agent/trajectory.json     ATIF, converted by Harbor from the agent's logs
      agent/sessions/…          the CLI's own session files (Claude Code, Codex)
      agent/claude-code.txt     what the CLI printed (stream-json; codex.txt: exec --json)
      verifier/reward.txt       the hidden tests' verdict (or reward.json)
      verifier/test-stdout.txt  what the tests printed
      config.json, result.json  TrialConfig, TrialResult (task, agent, model, rewards)

A trial is reviewed on its trajectory, else its session file, else what the CLI
printed (:data:`LOGS`, the first found); its request is the log's own, else the
task's ``instruction.md`` (``config.task.path``, looked up from the trial's folder up),
else unknown (and the card says so). Its reward is ``result.json``'s
``verifier_result.rewards`` (``reward``, else the only one), else ``reward.txt``;
a trial **succeeded** when the reward is at least :data:`SUCCESS`.

Each trial lands in one class: a failure DoneCheck **caught** (any decision but
pass or skipped), a failure it **passed**, a success it **flagged**, a success it
passed. A passed failure is split by what the log itself shows: if the log shows the
failure — a test the verifier names failing in the agent's own tool output, a run
that ended without an answer or asking the user — passing it is a DoneCheck defect;
if only the hidden tests reveal it, no review of the log could have caught it.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from donecheck.actors.errors import InputError
from donecheck.actors.words.claims import asks_user, unfinished
from donecheck.runtime.transcripts.claude import subagent_files
from donecheck.runtime.transcripts.detect import load_transcript
from donecheck.runtime.transcripts.openai import Transcript

__all__ = [
    "LOGS",
    "SUCCESS",
    "RewardEvaluation",
    "Trial",
    "TrialScore",
    "find_trials",
    "is_harbor",
    "shows_failure",
]

SUCCESS = 1.0
"""The reward at which a trial counts as a success (Harbor's tasks give 1 for
all tests passing)."""
MAX_TRIALS = 100_000
"""Trial folders read from one jobs folder at most."""
LET_THROUGH = frozenset({"pass", "skipped"})

LOGS = ("trajectory", "session", "stream")
"""The agent logs a trial is reviewed on, in order of preference."""


@dataclass
class Trial:
    """One trial folder, read."""

    name: str
    job: str
    folder: Path
    task: str = ""
    agent: str = ""
    model: str = ""
    reward: float | None = None
    log: Path | None = None
    log_kind: str = ""
    transcript: Transcript | None = None
    problem: str = ""
    """Why the trial cannot be reviewed ('' when it can)."""
    verifier_output: str = ""
    errored: str = ""
    """The exception Harbor recorded for the trial (an agent timeout …), if any."""

    @property
    def succeeded(self) -> bool | None:
        return None if self.reward is None else self.reward >= SUCCESS


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _is_trial_result(data: Any) -> bool:
    return isinstance(data, dict) and "trial_name" in data and "agent_info" in data


def is_harbor(folder: Path) -> bool:
    """``folder`` holds Harbor trials: a trial, a job (trials under it) or jobs."""
    return any(True for _ in _trial_folders(folder, limit=1))


def _trial_folders(folder: Path, limit: int = MAX_TRIALS) -> Iterable[Path]:
    """Folders under ``folder`` (itself included, three levels down at most) with a
    Harbor ``result.json`` of a trial."""
    found = 0
    for depth in range(4):
        pattern = "/".join(["*"] * depth + ["result.json"]) if depth else "result.json"
        for result in sorted(folder.glob(pattern)):
            if _is_trial_result(_json(result)):
                yield result.parent
                found += 1
                if found >= limit:
                    return


def _reward(result: dict[str, Any], verifier: Path) -> float | None:
    rewards = (result.get("verifier_result") or {}).get("rewards")
    if isinstance(rewards, dict) and rewards:
        value = rewards.get("reward", next(iter(rewards.values())) if len(rewards) == 1 else None)
        if isinstance(value, int | float):
            return float(value)
    for name in ("reward.txt", "reward.json"):
        path = verifier / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace").strip()
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(data, int | float):
            return float(data)
        if isinstance(data, dict) and isinstance(data.get("reward"), int | float):
            return float(data["reward"])
    return None


def _logs(agent: Path) -> Iterable[tuple[str, Path]]:
    """The trial's agent logs, best first."""
    if (agent / "trajectory.json").is_file():
        yield "trajectory", agent / "trajectory.json"
    sessions = agent / "sessions"
    if sessions.is_dir():
        claude = [
            p
            for p in sorted((sessions / "projects").glob("*/*.jsonl"))
            if p.parent.name != "subagents"
        ]
        codex = sorted(sessions.rglob("rollout-*.jsonl"))
        for path in [*claude, *codex][:1]:
            yield "session", path
    for name in ("claude-code.txt", "codex.txt"):
        if (agent / name).is_file():
            yield "stream", agent / name
    for path in sorted(agent.glob("*.txt")):
        if path.name not in {"claude-code.txt", "codex.txt"}:
            yield "stream", path


def _instruction(result: dict[str, Any], trial: Path) -> str:
    """The task's instruction.md (``config.task.path``, as given or relative to the
    trial's folder and the four above it: the job, the jobs folder, …), or ''."""
    task = (result.get("config") or {}).get("task") or {}
    given = task.get("path") if isinstance(task, dict) else None
    if not isinstance(given, str) or not given:
        return ""
    candidates = [Path(given)]  # as given (absolute, or relative to where harbor ran)
    candidates += [base / given for base in [trial, *trial.parents][:5]]  # job, jobs, …
    for candidate in candidates:
        path = candidate / "instruction.md"
        if path.is_file():
            return path.read_text(encoding="utf-8", errors="replace").strip()
    return ""


def read_trial(folder: Path, prefer: str = "") -> Trial:
    """One trial: its names, reward, and the log it is reviewed on, read."""
    from donecheck.runtime.replay import with_request

    result = _json(folder / "result.json") or {}
    info = result.get("agent_info") or {}
    model_info = info.get("model_info") or {}
    model = "/".join(str(model_info[k]) for k in ("provider", "name") if model_info.get(k))
    exception = result.get("exception_info") or {}
    trial = Trial(
        name=str(result.get("trial_name") or folder.name),
        job=folder.parent.name,
        folder=folder,
        task=str(result.get("task_name") or ""),
        agent=str(info.get("name") or "?"),
        model=model or str((result.get("config") or {}).get("agent", {}).get("model_name") or "?"),
        reward=_reward(result, folder / "verifier"),
        errored=str(exception.get("exception_type") or "") if isinstance(exception, dict) else "",
    )
    stdout = folder / "verifier" / "test-stdout.txt"
    if stdout.is_file():
        trial.verifier_output = stdout.read_text(encoding="utf-8", errors="replace")[:200_000]
    logs = list(_logs(folder / "agent"))
    if prefer:
        logs.sort(key=lambda kind_path: kind_path[0] != prefer)
    problems = []
    for kind, path in logs:
        try:
            transcript = load_transcript(path)
        except InputError as exc:
            problems.append(str(exc))
            continue
        instruction = _instruction(result, folder)
        if instruction:
            transcript = with_request(transcript, instruction, "the task's instruction.md")
        trial.log, trial.log_kind, trial.transcript = path, kind, transcript
        if kind == "session" and subagent_files(path):
            transcript.notes.append("Its sub-agents' files beside the session were read too.")
        break
    else:
        trial.problem = "; ".join(problems) or "no agent log (trajectory.json, sessions/, *.txt)"
    return trial


def find_trials(folder: Path, prefer: str = "") -> list[Trial]:
    """Every trial under ``folder``, read (unreadable ones say why in ``problem``)."""
    return [read_trial(path, prefer) for path in _trial_folders(folder)]


# ------------------------------------------------------------- failure signals

_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?)(?:\s+-\s.*)?$", re.M)
_GO_FAILED = re.compile(r"^\s*--- FAIL: (\S+)", re.M)
_NAMED_FAILED = re.compile(r"^(\S+::\S+|\S+) (?:FAILED|ERROR)\b", re.M)
_FAILURE_WORD = re.compile(r"\b(?:FAILED|FAIL|ERROR|Error|failed)\b")


def failing_tests(verifier_output: str) -> list[str]:
    """The tests a verifier's output names as failing (pytest, go test, and
    ``name FAILED`` lines)."""
    names: list[str] = []
    for pattern in (_PYTEST_FAILED, _GO_FAILED, _NAMED_FAILED):
        names.extend(pattern.findall(verifier_output))
    return list(dict.fromkeys(n for n in names if len(n) > 2))


def shows_failure(transcript: Transcript, verifier_output: str) -> str:
    """How the agent's own log shows its run failed, or '' when only the verifier
    does: a test the verifier names failing appears failing in a tool's output, or
    the run ended without an answer or waiting on the user."""
    if why := unfinished(transcript.answer):
        return f"the run did not finish ({why})"
    if asked := asks_user(transcript.answer):
        return f"the answer waits on the user: “{asked[:120]}”"
    outputs = [s.output for s in transcript.steps if s.kind == "result" and s.output]
    for name in failing_tests(verifier_output):
        short = name.rsplit("::", 1)[-1]
        for output in outputs:
            if short in output and _FAILURE_WORD.search(output):
                return f"{name} fails in the agent's own tool output"
    return ""


# ------------------------------------------------------------------ scoring


@dataclass(frozen=True, slots=True)
class TrialScore:
    trial: Trial
    decision: str
    visible: str = ""
    """How the log shows the failure ('' when it does not, or for a success)."""
    rules: tuple[str, ...] = ()

    @property
    def outcome(self) -> str:
        """``caught``, ``passed_visible``, ``passed_hidden``, ``flagged``,
        ``passed_success`` or ``unscored``."""
        succeeded = self.trial.succeeded
        through = self.decision in LET_THROUGH
        if succeeded is None:
            return "unscored"
        if succeeded:
            return "passed_success" if through else "flagged"
        if not through:
            return "caught"
        return "passed_visible" if self.visible else "passed_hidden"


OUTCOMES = {
    "caught": "failures caught",
    "passed_visible": "failures passed that the log shows (DoneCheck defects)",
    "passed_hidden": "failures passed that only the hidden tests show",
    "flagged": "successes flagged",
    "passed_success": "successes passed",
    "unscored": "no reward",
}


@dataclass
class RewardEvaluation:
    scores: list[TrialScore]
    unreadable: list[Trial] = field(default_factory=list)

    def count(self, outcome: str, rows: Sequence[TrialScore] | None = None) -> int:
        return sum(s.outcome == outcome for s in (self.scores if rows is None else rows))

    @property
    def defects(self) -> list[TrialScore]:
        return [s for s in self.scores if s.outcome == "passed_visible"]

    @property
    def successes(self) -> int:
        return sum(s.trial.succeeded is True for s in self.scores)

    def flagged_by_rule(self) -> dict[str, int]:
        """Per rule, the successful trials it steered or stopped (its false alarms)."""
        counts = Counter(
            rule for s in self.scores if s.outcome == "flagged" for rule in s.rules or ("no rule",)
        )
        return dict(sorted(counts.items()))

    def groups(self) -> list[tuple[str, str, list[TrialScore]]]:
        found: dict[tuple[str, str], list[TrialScore]] = {}
        for s in self.scores:
            found.setdefault((s.trial.agent, s.trial.model), []).append(s)
        return [(agent, model, rows) for (agent, model), rows in sorted(found.items())]

    def figures(self) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []

        def add(metric: str, value: float, unit: str, **params: Any) -> None:
            lines.append(
                {"bench": "eval", "metric": metric, "value": value, "unit": unit, "params": params}
            )

        add("trials", len(self.scores), "count")
        add("unreadable_trials", len(self.unreadable), "count")
        for outcome in OUTCOMES:
            add(outcome, self.count(outcome), "count")
        for agent, model, rows in self.groups():
            for outcome in OUTCOMES:
                add(outcome, self.count(outcome, rows), "count", agent=agent, model=model)
        for rule, n in self.flagged_by_rule().items():
            add("rule_false_alarms", n, "count", rule=rule, successes=self.successes)
        return lines

    def _table(self) -> list[tuple[str, str, int, list[int]]]:
        return [
            (agent, model, len(rows), [self.count(o, rows) for o in OUTCOMES])
            for agent, model, rows in self.groups()
        ]

    def text(self) -> str:
        n = len(self.scores)
        failures = sum(s.trial.succeeded is False for s in self.scores)
        out = [
            f"{n} trial(s): {failures} failed the verifier, "
            f"{sum(s.trial.succeeded is True for s in self.scores)} passed it"
        ]
        for outcome, title in OUTCOMES.items():
            out.append(f"  {self.count(outcome):>4}  {title}")
        if self.defects:
            out.append("\nFAILURES PASSED THAT THE LOG SHOWS:")
            out.extend(
                f"  {s.trial.name}: decided {s.decision} — {s.visible}" for s in self.defects
            )
        hidden = [s for s in self.scores if s.outcome == "passed_hidden"]
        if hidden:
            out.append("\nfailures only the hidden tests show (passed):")
            out.extend(f"  {s.trial.name}: reward {s.trial.reward:g}" for s in hidden)
        flagged = [s for s in self.scores if s.outcome == "flagged"]
        if flagged:
            out.append("\nsuccesses flagged:")
            out.extend(
                f"  {s.trial.name}: decided {s.decision} ({', '.join(s.rules) or 'no rule'})"
                for s in flagged
            )
            out.append(f"per rule (of {self.successes} successes):")
            out.extend(f"  {rule:<18} {n:>4}" for rule, n in self.flagged_by_rule().items())
        out.append("\nper agent and model: trials, " + ", ".join(OUTCOMES))
        for agent, model, count, counts in self._table():
            out.append(
                f"  {agent:<12} {model:<28} {count:>4}  " + " ".join(f"{c:>3}" for c in counts)
            )
        out.append("\nper trial: decision, reward, log")
        for s in self.scores:
            reward = "—" if s.trial.reward is None else f"{s.trial.reward:g}"
            out.append(
                f"  {s.decision:<13} {reward:>4}  {s.outcome:<15} {s.trial.name}"
                f"  [{s.trial.log_kind}: {s.trial.transcript.form if s.trial.transcript else '?'}]"
            )
        if self.unreadable:
            out.append(f"\nunreadable ({len(self.unreadable)}):")
            out.extend(f"  {t.name}: {t.problem}" for t in self.unreadable)
        return "\n".join(out)

    def html(self) -> str:
        def cell(text: object) -> str:
            return f"<td>{html.escape(str(text))}</td>"

        summary = "".join(
            f"<tr><td>{html.escape(title)}</td><td>{self.count(outcome)}</td></tr>"
            for outcome, title in OUTCOMES.items()
        )
        groups = "".join(
            "<tr>"
            + cell(agent)
            + cell(model)
            + cell(count)
            + "".join(cell(c) for c in counts)
            + "</tr>"
            for agent, model, count, counts in self._table()
        )
        trials = "".join(
            f"<tr class='{'bad' if s.outcome == 'passed_visible' else ''}'>"
            + cell(s.trial.name)
            + cell(s.trial.agent)
            + cell(s.decision)
            + cell("—" if s.trial.reward is None else f"{s.trial.reward:g}")
            + cell(s.outcome)
            + cell(s.visible or "")
            + cell(s.trial.log_kind)
            + "</tr>"
            for s in self.scores
        )
        unreadable = "".join(
            f"<li>{html.escape(t.name)}: {html.escape(t.problem)}</li>" for t in self.unreadable
        )
        heads = "".join(f"<th>{html.escape(o)}</th>" for o in OUTCOMES)
        return (
            "<!doctype html><html><head><meta charset='utf-8'><title>DoneCheck eval: "
            "benchmark runs</title><style>body{font-family:system-ui,sans-serif;margin:2em;"
            "max-width:70em}table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:"
            "1px solid #ccc;padding:.25em .6em}.bad{color:#b00;font-weight:bold}</style>"
            "</head><body>"
            f"<h1>DoneCheck against the verifier: {len(self.scores)} trials</h1>"
            f"<p class='{'bad' if self.defects else ''}'>Failures passed that the log shows: "
            f"{len(self.defects)}</p>"
            f"<table>{summary}</table>"
            "<h2>Per agent and model</h2><table><tr><th>agent</th><th>model</th><th>trials</th>"
            f"{heads}</tr>{groups}</table>"
            "<h2>Trials</h2><table><tr><th>trial</th><th>agent</th><th>decision</th>"
            "<th>reward</th><th>outcome</th><th>the log shows the failure</th><th>log</th></tr>"
            f"{trials}</table>"
            + (f"<h2>Unreadable</h2><ul>{unreadable}</ul>" if unreadable else "")
            + "</body></html>"
        )
