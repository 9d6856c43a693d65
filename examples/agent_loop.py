"""A small but real tool-using agent, checked by DoneCheck at every stop.

    python examples/agent_loop.py --workspace /tmp/ws \\
        --base-url http://127.0.0.1:8000/v1 --model qwen2.5-coder \\
        "Add divide(a, b) to calc.py; dividing by zero must raise ValueError."

The agent (``donecheck.runtime.agent``) has three tools — read_file,
write_file and run_command — confined to the workspace. Every tool call and
result goes to the DoneCheck session; when the model answers, DoneCheck reviews
the answer against what really happened and either delivers it, or hands the
same conversation a checklist (marked as DoneCheck's) and reviews again. The
report card is printed at the end.

Model hosts other than loopback need ``--remote`` (the task and files go there);
``--api-key-env VAR`` names the variable holding the key. ``donecheck demo``
runs this agent against the bundled scripted provider, with no network.
"""

from __future__ import annotations

import sys

from donecheck.runtime.agent import main

if __name__ == "__main__":
    sys.exit(main())
