"""The pytest plugin: each run's results to a DoneCheck session, as the runner saw them.

Installed with DoneCheck (a ``pytest11`` entry point) and off unless a session is
named: ``pytest --donecheck SESSION`` or ``DONECHECK_SESSION=SESSION`` in the
environment (``donecheck hook`` puts it there for Claude Code sessions). Then, at
the end of the run, it sends the command line, rootdir, counts (collected, passed,
failed, errors, skipped), the failing node ids with their first error line, the
exit status and the duration to the running service (``donecheck serve``) — an
event of origin ``runner`` that outranks what the agent's tool printed. It never
changes the run's outcome: a report it cannot send is one line in the summary.
"""

from __future__ import annotations

import shlex
import time
from typing import Any

import pytest

from donecheck.runtime.reporters import (
    MAX_FAILURES,
    ReportError,
    first_line,
    host,
    send_report,
    session_from_env,
)

_NO_TESTS = 5  # pytest.ExitCode.NO_TESTS_COLLECTED


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("donecheck", "DoneCheck runner reports")
    group.addoption(
        "--donecheck",
        metavar="SESSION",
        default=None,
        help="send this run's results to DoneCheck session SESSION through the running"
        " 'donecheck serve' (default: $DONECHECK_SESSION; off when neither is set)",
    )


def pytest_configure(config: pytest.Config) -> None:
    session = config.getoption("donecheck", None) or session_from_env()
    if not session or hasattr(config, "workerinput"):  # xdist workers: the controller sends
        return
    config.pluginmanager.register(_Reporter(config, session), "donecheck-reporter")


class _Reporter:
    def __init__(self, config: pytest.Config, session: str) -> None:
        self.config = config
        self.session = session
        self.started = time.time()
        self.clock = time.monotonic()
        self.collected: int | None = None
        self.passed = self.failed = self.errors = self.skipped = 0
        self.failures: list[dict[str, str]] = []
        self.said = ""

    def _failure(self, node: str, text: str) -> None:
        if len(self.failures) < MAX_FAILURES:
            self.failures.append({"node": node[:500], "message": _summary_line(text)})

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.errors += 1
            self._failure(report.nodeid or "(collection)", report.longreprtext)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            if report.passed:
                self.passed += 1
            elif report.failed:
                self.failed += 1
                self._failure(report.nodeid, report.longreprtext)
            else:
                self.skipped += 1
        elif report.failed:  # setup or teardown
            self.errors += 1
            self._failure(report.nodeid, report.longreprtext)
        elif report.skipped and report.when == "setup":
            self.skipped += 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        report = self.report(int(exitstatus))
        try:
            send_report(self.session, report)
        except ReportError as exc:
            self.said = f"DoneCheck: this run was not reported to {self.session}: {exc}"
        except Exception as exc:
            self.said = f"DoneCheck: this run was not reported ({type(exc).__name__}: {exc})"
        else:
            self.said = f"DoneCheck: this run was reported to session {self.session}"

    def report(self, exitstatus: int) -> dict[str, Any]:
        option = self.config.option
        collect_only = bool(getattr(option, "collectonly", False))
        counted = self.passed + self.failed + self.errors
        ok: bool | None
        detail = ""
        if collect_only:
            ok, detail = None, "collect-only: no test ran"
        elif exitstatus == _NO_TESTS or (exitstatus == 0 and counted == 0):
            ok, detail = None, "no test ran"
        else:
            ok = exitstatus == 0 and self.failed == 0 and self.errors == 0
            if exitstatus not in (0, 1):
                detail = f"pytest exited with status {exitstatus}"
        args = list(self.config.invocation_params.args)
        return {
            "name": "pytest",
            "command": "pytest " + shlex.join(args) if args else "pytest",
            "ok": ok,
            "exit_code": exitstatus,
            "collected": self.collected,
            "passed": self.passed,
            "failed": self.failed,
            "errors": self.errors,
            "skipped": self.skipped,
            "failures": self.failures,
            "detail": detail,
            "workspace": str(self.config.rootpath),
            "host": host(),
            "started_at": self.started,
            "duration_s": round(time.monotonic() - self.clock, 3),
        }

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.said:
            terminalreporter.write_line(self.said)


def _summary_line(text: str) -> str:
    """The line of a failure's report that names the error (``E   assert 1 == 2``),
    else its first line."""
    for line in text.splitlines():
        if line.startswith(("E ", "E\t")):
            return first_line(line)
    return first_line(text.strip().splitlines()[-1] if text.strip() else "")
