"""Kill the budget accountant while reservations are in flight: does a cap hold?

Each run sends ``--reservations`` Reserve messages in ten waves, across five
sessions of one new tenant (each asking 1,000 prompt + 1,000 output tokens, so the
20,000-token tenant cap admits 10), while a thread kills the tenant's accountant
``--kills`` times; Ray restarts it from its store and retries the calls
(``max_task_retries``). Afterwards the tenant's held tokens must be within its cap.
(Without a tenant cap in the deployment, as in the test suite's, the session cap
of one session is the cap: 1,000 + 32,768 tokens a call, 5 fit in 200,000.)

Run: ``python -m benchmarks.budget_crash --runs 20`` (tests/ray runs 2).
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid
from dataclasses import dataclass


@dataclass
class Outcome:
    granted: int
    reserved: int
    cap: int
    kills: int
    failed_calls: int

    @property
    def overrun(self) -> bool:
        return self.reserved > self.cap


def one_run(
    dc: object, reservations: int = 250, kills: int = 5, tenant_cap: int | None = None
) -> Outcome:
    import ray

    from donecheck.actors.messages import BudgetQuery, Grant, Reserve

    run = uuid.uuid4().hex[:10]
    tenant = f"tenant-{run}" if tenant_cap else None
    sessions = [f"crash-{run}-{n}" for n in range(5 if tenant else 1)]
    output = 1_000 if tenant else 32_768
    budget = dc.deployment.budget_for(sessions[0], tenant)  # type: ignore[attr-defined]
    killed = 0

    def killer() -> None:
        nonlocal killed
        while killed < kills:
            time.sleep(0.04)
            ray.kill(budget, no_restart=False)
            killed += 1

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    refs = []
    for wave in range(10):  # the burst spans the kills
        refs += [
            budget.handle.remote(
                Reserve(
                    reservation_id=f"{run}-{i}",
                    session_id=sessions[i % len(sessions)],
                    kind="review",
                    prompt_tokens=1_000,
                    max_output_tokens=output,
                    tenant=tenant,
                )
            )
            for i in range(wave * reservations // 10, (wave + 1) * reservations // 10)
        ]
        time.sleep(0.02)
    thread.join()
    granted = failed = 0
    for ref in refs:
        try:
            answer = ray.get(ref, timeout=120)
        except Exception:  # retries exhausted by the kills: no answer, counted
            failed += 1
            continue
        granted += isinstance(answer, Grant)
    reserved = 0
    for session in sessions:
        for _ in range(60):  # the last restart may still be under way
            try:
                usage = ray.get(budget.handle.remote(BudgetQuery(session_id=session)), timeout=60)
                break
            except Exception:
                time.sleep(0.5)
        else:
            raise RuntimeError("the accountant did not come back")
        reserved += usage.reserved_tokens
    cap = tenant_cap if tenant_cap else (usage.cap or 0)
    return Outcome(granted, reserved, cap, killed, failed)


def main() -> None:
    import tempfile

    from benchmarks._common import emit, log
    from donecheck.runtime import DoneCheck

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--reservations", type=int, default=250)
    parser.add_argument("--kills", type=int, default=5)
    args = parser.parse_args()
    dc = DoneCheck.start(
        data_dir=tempfile.mkdtemp(prefix="dc-crash-"),
        num_cpus=2,
        tenant_aux_token_cap=20_000,
        aux_max_output_tokens=1_000,
    )
    overruns = 0
    try:
        for number in range(args.runs):
            outcome = one_run(dc, args.reservations, args.kills, tenant_cap=20_000)
            overruns += outcome.overrun
            log(f"run {number + 1}: {outcome}")
        emit(
            "budget_crash",
            "overruns",
            overruns,
            "runs",
            runs=args.runs,
            reservations=args.reservations,
            kills_per_run=args.kills,
        )
    finally:
        dc.shutdown()


if __name__ == "__main__":
    main()
