"""Harbor's own half of ``tests.clients.harbor_record``: run with an interpreter that
has Harbor installed (Harbor needs Python 3.12+; DoneCheck does not depend on it).

For each trial folder the recorder laid out, Harbor's installed-agent class converts
the agent's logs to ``agent/trajectory.json`` (``ClaudeCode`` / ``Codex``
``populate_context_post_run``, exactly as a Harbor job does after the agent ran),
and Harbor's pydantic models write ``config.json`` and ``result.json`` for the
trial and the job. So every file in the fixture is in the format Harbor itself
writes, from real CLI runs.

Usage: ``python harbor_side.py SPEC.json`` (the recorder writes SPEC).
"""

from __future__ import annotations

import hashlib
import json
import sys
import uuid
from datetime import datetime
from pathlib import Path

from harbor.agents.installed.claude_code import ClaudeCode
from harbor.agents.installed.codex import Codex
from harbor.models.agent.context import AgentContext
from harbor.models.job.result import JobResult, JobStats
from harbor.models.task.id import LocalTaskId
from harbor.models.trial.config import AgentConfig, TaskConfig, TrialConfig
from harbor.models.trial.result import AgentInfo, ModelInfo, TrialResult
from harbor.models.verifier.result import VerifierResult

AGENTS = {"claude-code": ClaudeCode, "codex": Codex}


def trial(spec: dict, job_dir: Path) -> TrialResult:
    folder = Path(spec["dir"])
    agent_class = AGENTS[spec["agent"]]
    agent = agent_class(logs_dir=folder / "agent", model_name=spec["model"])
    context = AgentContext()
    agent.populate_context_post_run(context)  # writes agent/trajectory.json
    task_path = Path(spec["task_path"])
    config = TrialConfig(
        task=TaskConfig(path=task_path),
        trial_name=folder.name,
        trials_dir=job_dir,
        agent=AgentConfig(name=spec["agent"], model_name=spec["model"]),
    )
    (folder / "config.json").write_text(config.model_dump_json(indent=4))
    provider, _, model = spec["model"].partition("/")
    result = TrialResult(
        task_name=spec["task_name"],
        trial_name=folder.name,
        trial_uri=folder.as_uri(),
        task_id=LocalTaskId(path=task_path),
        task_checksum=hashlib.sha256(spec["instruction"].encode()).hexdigest(),
        config=config,
        agent_info=AgentInfo(
            name=spec["agent"],
            version=spec["agent_version"],
            model_info=ModelInfo(name=model, provider=provider),
        ),
        agent_result=context,
        verifier_result=VerifierResult(rewards={"reward": spec["reward"]}),
        started_at=datetime.fromisoformat(spec["started_at"]),
        finished_at=datetime.fromisoformat(spec["finished_at"]),
    )
    (folder / "result.json").write_text(result.model_dump_json(indent=4))
    return result


def main(path: str) -> int:
    spec = json.loads(Path(path).read_text())
    job_dir = Path(spec["job_dir"])
    results = [trial(t, job_dir) for t in spec["trials"]]
    job = JobResult(
        id=uuid.uuid5(uuid.NAMESPACE_URL, job_dir.name),
        started_at=min(r.started_at for r in results if r.started_at),
        finished_at=max(r.finished_at for r in results if r.finished_at),
        n_total_trials=len(results),
        stats=JobStats.from_trial_results(results),
    )
    (job_dir / "result.json").write_text(job.model_dump_json(indent=4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
