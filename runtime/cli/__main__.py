"""``python -m donecheck.runtime.cli``: the ``donecheck`` command."""

import sys

from donecheck.runtime.cli import main

sys.exit(main())
