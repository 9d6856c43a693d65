"""``donecheck demo``: the review→fix loop on a sample task, no network."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from donecheck.actors.errors import DoneCheckError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    error,
)


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    demo = commands.add_parser(
        "demo",
        help="watch the review→fix loop on a sample task (no network)",
        description=(
            "Run a small tool-using agent on a sample task in a fresh workspace. Its model is "
            "the scripted provider on 127.0.0.1, playing an agent that stops early: it claims "
            "the tests pass while one fails. DoneCheck finds the failing run and steers; the "
            "agent fixes the real file, reruns the real tests, and the turn ends with a pass. "
            "Prints each step and the report card."
        ),
        epilog=(
            "To run the same agent against a real model: python examples/agent_loop.py "
            "--base-url URL --model NAME --workspace DIR 'task'"
        ),
    )
    demo.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="keep the agent's files here (default: a temporary folder)",
    )
    demo.add_argument("--json", action="store_true", help="print the report card as JSON")
    demo.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.actors.messages import Deliver
    from donecheck.runtime.demo import TASK, run_demo
    from donecheck.runtime.report import card_json, card_text

    began = time.monotonic()

    def say(step: str) -> None:
        print(f"donecheck demo: {step}…", file=sys.stderr, flush=True)

    say("starting (a local Ray instance takes about 10 s; the agent then runs in seconds)")
    print(f"task     {TASK}", flush=True)
    try:
        result = run_demo(args.workspace, on_step=print, progress=say)
    except DoneCheckError as exc:
        error(str(exc))
        return EXIT_FAILURE
    print()
    if args.json:
        print(json.dumps(card_json(result.report, session="demo"), ensure_ascii=False))
    else:
        print(card_text(result.report, session="demo"))
        print()
        print(explain(result.report, seconds=time.monotonic() - began))
    return EXIT_OK if isinstance(result.action, Deliver) else EXIT_FAILURE


def explain(card: Any, *, seconds: float) -> str:
    """The demo's card in plain words: why it ended as it did, what "not verified"
    means, and what the cost line counts."""
    chain = " → ".join(f"{link.label} {link.decision}" for link in card.chain)
    usage = card.usage
    calls = usage.main_calls if usage is not None else 0
    judged = usage is not None and bool(usage.aux_calls.get("review"))
    lines = [
        "What happened:",
        f"  The reviews went {chain}. The agent's first answer claimed the tests pass while"
        " its latest run had failed; DoneCheck sent the same agent that evidence as a"
        " checklist, the agent fixed calc.py and re-ran the real tests, and the next"
        f" review found nothing the evidence contradicts: {card.decision}"
        f" after {card.rounds_used} of {card.max_rounds} round(s), in {seconds:.0f} s.",
    ]
    unverified = [c for c in card.coverage if c.status == "not_verified"]
    if unverified:
        names = ", ".join(c.item for c in unverified)
        lines.append(
            f"  {names} 'not verified': no evidence the rules can read confirms or contradicts"
            " it, so it does not block the turn and is listed for you to check."
            + (
                ""
                if judged
                else " These reviews were by rules only; with a judge model (donecheck serve"
                " --judge-url URL --judge-model NAME) the model judges each requirement."
            )
        )
    lines.append(
        f"  Cost: N = {calls} calls of the agent's model; the 2 + R review calls"
        + (
            " were model calls (tokens above)."
            if judged
            else " were rules only, so they cost no tokens."
        )
    )
    return "\n".join(lines)
