"""Test-runner reports into a session's ledger: the client half.

A runner's own account of a run (counts, failing tests, exit status) goes to the
running service (``donecheck serve``) as a ``check_report`` event of origin
``runner``, to the session named by ``--donecheck SESSION`` or ``$DONECHECK_SESSION``
— sent by the pytest plugin (:mod:`donecheck.runtime.pytest_plugin`) or by
``donecheck record-junit FILE`` for any runner that writes JUnit XML (Jest, Vitest,
go-junit-report, cargo nextest, Maven Surefire). The service is found through its
runtime file (:mod:`.endpoint`) and the report carries its token.

Stdlib only: the plugin loads in every pytest run where it is installed.
"""

from __future__ import annotations

import calendar
import os
import re
import socket
import time
import urllib.parse
from pathlib import Path
from typing import Any

from donecheck.runtime.endpoint import ServiceError, post_json, read_endpoint, runtime_file

__all__ = [
    "MAX_JUNIT_BYTES",
    "ReportError",
    "junit_report",
    "send_report",
    "session_from_env",
]

MAX_JUNIT_BYTES = 64 * 1024 * 1024
MAX_FAILURES = 50
_MESSAGE_CHARS = 300


class ReportError(Exception):
    """The report could not be made or delivered; the message says why."""


def session_from_env() -> str | None:
    value = os.environ.get("DONECHECK_SESSION", "").strip()
    return value or None


_PYTEST_E = re.compile(r"^E\s+")


def first_line(text: str | None, limit: int = _MESSAGE_CHARS) -> str:
    """The first line of an error that says something (not blank, not a bare ``E``)."""
    for line in (text or "").splitlines():
        line = _PYTEST_E.sub("", line.strip()).strip()
        if line and line != "E":
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


def send_report(
    session_id: str,
    report: dict[str, Any],
    *,
    namespace: str | None = None,
    given_file: str | None = None,
    timeout_s: float = 5.0,
) -> None:
    """POST one report to the running service; :class:`ReportError` says why not."""
    namespace = namespace or os.environ.get("DONECHECK_NAMESPACE") or "donecheck"
    path = runtime_file(namespace, given_file)
    endpoint = read_endpoint(path)
    if endpoint is None:
        raise ReportError(f"DoneCheck is not running (no runtime file {path})")
    quoted = urllib.parse.quote(session_id, safe="")
    body = {"events": [{"type": "check_report", **report}]}
    try:
        post_json(endpoint, f"/v1/sessions/{quoted}/events", body, timeout_s)
    except ServiceError as exc:
        if exc.status is None:
            raise ReportError(f"DoneCheck is not reachable at {endpoint.url} ({exc})") from None
        raise ReportError(f"DoneCheck refused the report ({exc.status}): {exc}") from None


def host() -> str:
    return socket.gethostname()


# ----------------------------------------------------------------------- JUnit

_RUN_COMMAND = {"cargo nextest": "cargo nextest run"}
"""The command a runner's report stands for when ``--command`` names none (the one
DoneCheck knows as that runner's check)."""

_RUNNER_NAMES = (
    (re.compile(r"(?i)\bjest\b"), "jest"),
    (re.compile(r"(?i)\bvitest\b"), "vitest"),
    (re.compile(r"(?i)\bpytest\b"), "pytest"),
    (re.compile(r"(?i)nextest"), "cargo nextest"),
)


def _runner(root: Any) -> str:
    names = " ".join(str(el.get("name", "")) for el in [root, *root.iter("testsuite")][:20])
    for pattern, runner in _RUNNER_NAMES:
        if pattern.search(names):
            return runner
    return "junit"


def _timestamp(text: str | None) -> float | None:
    """A JUnit ``timestamp`` (ISO 8601, often without a zone: read as local time)."""
    if not text:
        return None
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return time.mktime(moment.timetuple()) + moment.microsecond / 1e6
    return calendar.timegm(moment.utctimetuple()) + moment.microsecond / 1e6


def _float(text: str | None) -> float:
    try:
        value = float(text or 0)
    except ValueError:
        return 0.0
    return value if value >= 0 and value == value else 0.0


def junit_report(path: str | os.PathLike[str], *, command: str | None = None) -> dict[str, Any]:
    """A report (the ``check_report`` event's fields) from a JUnit XML file.

    Counts come from the ``testcase`` elements (a ``failure``, ``error`` or
    ``skipped`` child says how each ended); times from the suites' ``timestamp``
    and ``time`` (else the file's modification time as the end). Bounded: files over
    :data:`MAX_JUNIT_BYTES` are refused, and so is any DTD or entity declaration.
    """
    import xml.etree.ElementTree as ET

    where = Path(path)
    try:
        size = where.stat().st_size
        if size > MAX_JUNIT_BYTES:
            raise ReportError(f"{where}: {size:,} bytes, over the {MAX_JUNIT_BYTES:,}-byte limit")
        data = where.read_bytes()
    except OSError as exc:
        raise ReportError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise ReportError(f"{where}: has a DOCTYPE or entity declarations; a JUnit report has none")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ReportError(f"{where}: not well-formed XML ({exc})") from None
    if root.tag not in {"testsuites", "testsuite"}:
        raise ReportError(f"{where}: not a JUnit report (its root is <{root.tag}>)")
    passed = failed = errors = skipped = 0
    failures: list[dict[str, str]] = []
    for case in root.iter("testcase"):
        outcome = next(
            (child for child in case if child.tag in {"failure", "error", "skipped"}), None
        )
        if outcome is None:
            passed += 1
            continue
        if outcome.tag == "skipped":
            skipped += 1
            continue
        if outcome.tag == "failure":
            failed += 1
        else:
            errors += 1
        if len(failures) < MAX_FAILURES:
            owner = case.get("classname") or case.get("file") or ""
            node = f"{owner}::{case.get('name', '?')}" if owner else str(case.get("name", "?"))
            message = first_line(outcome.get("message")) or first_line(outcome.text)
            failures.append({"node": node[:500], "message": message})
    collected = passed + failed + errors + skipped
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    duration = _float(root.get("time")) or sum(_float(s.get("time")) for s in suites)
    starts = [t for s in suites if (t := _timestamp(s.get("timestamp"))) is not None]
    started = min(starts) if starts else where.stat().st_mtime - duration
    runner = _runner(root)
    ok: bool | None = None if collected == 0 else (failed + errors == 0)
    return {
        "name": runner,
        "command": command or _RUN_COMMAND.get(runner, runner),
        "ok": ok,
        "exit_code": None,
        "collected": collected,
        "passed": passed,
        "failed": failed,
        "errors": errors,
        "skipped": skipped,
        "failures": failures,
        "detail": "" if collected else "the report holds no test case",
        "workspace": str(where.resolve().parent),
        "host": host(),
        "started_at": started,
        "duration_s": duration,
        "event_id": f"junit:{where.resolve()}:{int(where.stat().st_mtime_ns)}",
    }
