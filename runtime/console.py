"""The ``donecheck`` console script.

``donecheck hook`` goes straight to the thin hook client (:mod:`.hookclient`), which
imports nothing beyond the standard library: Claude Code and Codex run it at every
tool call and every stop. Every other command loads the full CLI (:mod:`.cli`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["hook"]:
        from donecheck.runtime.hookclient import main as hook

        return hook(args[1:])
    from donecheck.runtime.cli import main as cli

    return cli(args)
