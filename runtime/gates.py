"""Gates: the checks a project requires, run by DoneCheck itself.

A project lists them in ``donecheck.toml`` (``[[gate]]`` tables) or in
``pyproject.toml`` (``[[tool.donecheck.gate]]``)::

    [[tool.donecheck.gate]]
    name = "tests"
    command = ["python", "-m", "pytest", "-q"]
    paths = ["src/**", "tests/**"]      # changes here make it due (default: always due)
    timeout_s = 600

Only commands from that file are ever run — never one taken from a transcript.
Each gate runs in the workspace, in its own process group (a gate that outlives
its timeout is killed with everything it started), with an environment that
holds no secrets (no API keys, tokens or passwords; never the judge's key),
and with its output capped (the start and the end are kept). The result says
where and how long it ran.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import signal
import socket
import subprocess
import threading
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from donecheck.actors.errors import InputError
from donecheck.actors.redact import redact

__all__ = [
    "Gate",
    "GateAccess",
    "GateResult",
    "clean_environment",
    "due_gates",
    "find_gates",
    "gate_report",
    "gates_at_stop",
    "load_gates",
    "run_gate",
    "watch_gates",
]

DEFAULT_TIMEOUT_S = 600.0
MAX_OUTPUT_BYTES = 64 * 1024
_SECRET_NAME = re.compile(
    r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|SESSION_ID|COOKIE|PRIVATE)",
    re.IGNORECASE,
)
_ALWAYS_DROPPED = ("DONECHECK_JUDGE_API_KEY", "RAY_AUTH_TOKEN", "DONECHECK_SESSION")
# (a gate's pytest must not also report as the agent's runner: DoneCheck records it)

GateStatus = Literal["passed", "failed", "timeout", "error"]


@dataclass(frozen=True, slots=True)
class Gate:
    """One required check, as the project's configuration file lists it."""

    name: str
    command: tuple[str, ...] | str
    """An argument list (run directly) or a string (run by the shell)."""
    paths: tuple[str, ...] = ()
    """Glob patterns, relative to the workspace; a change to a match makes it due."""
    timeout_s: float = DEFAULT_TIMEOUT_S
    source: str = ""
    """The file it came from."""

    @property
    def shown(self) -> str:
        return self.command if isinstance(self.command, str) else " ".join(self.command)


@dataclass(frozen=True, slots=True)
class GateResult:
    """What one run of a gate did."""

    name: str
    command: str
    status: GateStatus
    exit_code: int | None
    duration_s: float
    output: str
    """The output (stdout and stderr together), at most ``MAX_OUTPUT_BYTES``: the start
    and the end, with how much was cut between them."""
    workspace: str
    host: str
    started_at: float
    detail: str = ""
    cut_bytes: int = 0


@dataclass
class _Capped:
    limit: int
    head: bytearray = field(default_factory=bytearray)
    tail: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.limit // 2:
                del self.tail[: len(self.tail) - self.limit // 2]

    def text(self) -> tuple[str, int]:
        cut = self.total - len(self.head) - len(self.tail)
        middle = f"\n… {cut} bytes of output cut …\n" if cut > 0 else ""
        body = self.head.decode("utf-8", "replace") + middle + self.tail.decode("utf-8", "replace")
        return body, max(0, cut)


# ------------------------------------------------------------------ config


def find_gates(workspace: Path) -> Path | None:
    """The file that lists the workspace's gates: ``donecheck.toml``, else a
    ``pyproject.toml`` with a ``[tool.donecheck]`` table; None when neither."""
    own = workspace / "donecheck.toml"
    if own.is_file():
        return own
    project = workspace / "pyproject.toml"
    if project.is_file():
        try:
            data = tomllib.loads(project.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            return project  # load_gates says what is wrong with it
        if isinstance(data.get("tool"), dict) and "donecheck" in data["tool"]:
            return project
    return None


def load_gates(path: Path) -> list[Gate]:
    """The gates ``path`` lists. Raises :class:`InputError` naming the file and the
    field for anything malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    table: Any = data
    where = "gate"
    if path.name == "pyproject.toml":
        table = (data.get("tool") or {}).get("donecheck") or {}
        where = "tool.donecheck.gate"
    entries = table.get("gate", []) if isinstance(table, dict) else []
    if not isinstance(entries, list):
        raise InputError(f"{path}: [{where}] must be an array of tables ([[{where}]])")
    gates: list[Gate] = []
    names: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        gates.append(_gate(entry, f"{path}: [[{where}]] #{number}", str(path)))
        if gates[-1].name in names:
            raise InputError(f"{path}: two gates are named {gates[-1].name!r}")
        names.add(gates[-1].name)
    return gates


def _gate(entry: object, where: str, source: str) -> Gate:
    if not isinstance(entry, dict):
        raise InputError(f"{where}: must be a table")
    unknown = set(entry) - {"name", "command", "paths", "timeout_s"}
    if unknown:
        raise InputError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}: 'name' must be a non-empty string")
    command = entry.get("command")
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        argv: tuple[str, ...] | str = tuple(command)
    elif isinstance(command, str) and command.strip():
        argv = command
    else:
        raise InputError(f"{where} ({name}): 'command' must be a string or a list of strings")
    paths = entry.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise InputError(f"{where} ({name}): 'paths' must be a list of glob patterns")
    timeout = entry.get("timeout_s", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout:
        raise InputError(f"{where} ({name}): 'timeout_s' must be a positive number")
    return Gate(name.strip(), argv, tuple(paths), float(timeout), source)


def due_gates(gates: Iterable[Gate], changed: Iterable[str] | None) -> list[Gate]:
    """The gates a change makes due: those with no ``paths``, and those with a
    pattern that matches a changed path. ``changed=None`` (not known): all."""
    gates = list(gates)
    if changed is None:
        return gates
    changed = [c.replace("\\", "/").lstrip("./") for c in changed]
    return [
        g
        for g in gates
        if not g.paths or any(fnmatch.fnmatch(c, p) for c in changed for p in g.paths)
    ]


# --------------------------------------------------------------------- run


def clean_environment(
    environ: Mapping[str, str] | None = None, *, secrets: Sequence[str] = ()
) -> dict[str, str]:
    """``environ`` without anything that looks like a secret: names with KEY,
    TOKEN, SECRET, PASSWORD … in them, DoneCheck's judge key, and any variable
    whose value is one of ``secrets`` (the configured judge key, say)."""
    source = dict(os.environ if environ is None else environ)
    hidden = {s for s in secrets if s}
    return {
        k: v
        for k, v in source.items()
        if k not in _ALWAYS_DROPPED
        and not _SECRET_NAME.search(k)
        and v not in hidden
        and redact(v) == v  # a value shaped like a key (sk-…) or a URL with a password
    }


def _isolated(env: dict[str, str]) -> dict[str, str]:
    """A gate's environment, with what the agent could have set to steer it gone:
    no option variables (``PYTEST_ADDOPTS``, ``GOFLAGS``, ``NODE_OPTIONS``), no
    ``PYTHONPATH``/``PYTHONSTARTUP``, and ``PYTHONSAFEPATH`` on, so that ``python -m
    pytest`` imports the real runner, not a ``pytest.py`` in the workspace."""
    for name in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "GOFLAGS", "NODE_OPTIONS", "PYTHONPATH",
                 "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE"):  # fmt: skip
        env.pop(name, None)
    env["PYTHONSAFEPATH"] = "1"
    return env


def run_gate(
    gate: Gate,
    workspace: Path,
    *,
    secrets: Sequence[str] = (),
    max_output: int = MAX_OUTPUT_BYTES,
) -> GateResult:
    """Run ``gate`` in ``workspace`` in its own process group, within its timeout."""
    started_at = time.time()
    started = time.monotonic()
    capped = _Capped(max_output)
    common = {
        "host": socket.gethostname(),
        "workspace": str(workspace),
        "started_at": started_at,
        "name": gate.name,
        "command": gate.shown,
    }
    try:
        process = subprocess.Popen(
            gate.command,
            shell=isinstance(gate.command, str),
            cwd=workspace,
            env=_isolated(clean_environment(secrets=secrets)),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole on timeout
        )
    except OSError as exc:
        return GateResult(
            status="error",
            exit_code=None,
            duration_s=time.monotonic() - started,
            output="",
            detail=f"could not start: {exc.strerror or exc}",
            **common,  # type: ignore[arg-type]
        )
    assert process.stdout is not None
    stream = process.stdout
    descriptor = stream.fileno()

    def drain() -> None:  # whatever arrives, as it arrives; only the cap is kept
        try:
            while chunk := os.read(descriptor, 65_536):
                capped.add(chunk)
        except OSError:  # the pipe was closed under a straggler
            pass

    reader = threading.Thread(target=drain, name=f"gate-{gate.name}", daemon=True)
    reader.start()
    timed_out = False
    try:
        process.wait(timeout=gate.timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
    try:  # the group goes: a hung gate, and anything a finished one left running
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
    reader.join(timeout=5)
    stream.close()
    output, cut = capped.text()
    output = redact(output)  # a gate may print a key it found: it stays out of the report
    code = process.returncode
    status: GateStatus = "timeout" if timed_out else ("passed" if code == 0 else "failed")
    detail = (
        f"killed with its process group after {gate.timeout_s:g} s"
        if timed_out
        else f"exit status {code}"
    )
    return GateResult(
        status=status,
        exit_code=None if timed_out else code,
        duration_s=time.monotonic() - started,
        output=output,
        detail=detail,
        cut_bytes=cut,
        **common,  # type: ignore[arg-type]
    )


# ------------------------------------------------------------- who may run them


@dataclass(frozen=True, slots=True)
class GateAccess:
    """Where a service runs gates for its callers, and for whom: only in the folders
    the user configured (``donecheck serve --gate-workspace DIR``), and only for a
    caller that holds the service's token (the runtime file's, which ``donecheck
    hook`` sends) — a gate runs commands as the service's user, so a local caller
    must not be able to point it at any folder."""

    workspaces: tuple[Path, ...] = ()

    def refuses(self, folder: str, *, authorised: bool) -> str:
        """Why gates may not run for ``folder`` (``""``: they may)."""
        if not self.workspaces:
            return (
                "this service runs no gates: start it with --gate-workspace DIR for the "
                "folders whose gates it may run"
            )
        if not authorised:
            return "running gates needs the service's bearer token (its runtime file holds it)"
        try:
            resolved = Path(folder).resolve()
        except (OSError, RuntimeError):
            return f"{folder!r} cannot be resolved"
        if any(resolved == w or w in resolved.parents for w in self.workspaces):
            return ""
        return f"{folder} is not in the service's gate workspaces (--gate-workspace): " + ", ".join(
            str(w) for w in self.workspaces
        )


# ------------------------------------------------------------- at a stop


def gate_report(result: GateResult, *, trusted: bool = True, why: str = "") -> dict[str, Any]:
    """The fields of a ``CheckReport`` (origin ``donecheck``) for one gate run.

    A timeout or a gate that could not start is a failure — a required check that
    did not pass. Otherwise the gate is read like a check of its command
    (:func:`~donecheck.actors.evidence.runner.outcome`): a failing summary fails it
    whatever the status, and a masked (``|| true``) or hollow (``--collect-only``)
    run proves nothing. ``trusted=False`` (the gates file or the test configuration
    changed during the session, or was first seen after the agent's tool calls ran:
    the agent may have written it; ``why`` says which): a pass proves nothing; a
    failure still counts."""
    from donecheck.actors.evidence.runner import outcome
    from donecheck.actors.messages import ToolResult

    detail = result.detail
    ok: bool | None = False
    if result.status not in {"timeout", "error"}:
        shown = ToolResult(
            session_id="", call_id="", output=result.output, exit_code=result.exit_code
        )
        read = outcome(shown, result.command)
        ok = read.ok
        if read.caveat:
            detail = f"{detail}; {read.caveat}"
    if ok and not trusted:
        ok = None
        detail = f"{detail}; {why or 'the gates file changed during this session'}"
    return {
        "origin": "donecheck",
        "name": result.name,
        "command": result.command,
        "ok": ok,
        "exit_code": result.exit_code,
        "detail": "" if ok else detail,
        "workspace": result.workspace,
        "host": result.host,
        "started_at": result.started_at,
        "duration_s": result.duration_s,
        "output": result.output,
    }


def _relative(path: str, workspace: Path) -> str | None:
    """``path`` relative to the workspace, or None when it lies outside it."""
    full = Path(path) if os.path.isabs(path) else workspace / path
    try:
        return full.resolve().relative_to(workspace.resolve()).as_posix()
    except ValueError:
        return None


def _state(
    workspace: Path, changed: Sequence[str], writes: int
) -> tuple[tuple[str, int, int], ...]:
    """How many writes the session made and what the changed files look like now
    (size, mtime): the same state twice means nothing a gate checks has changed
    since it last ran."""
    seen = [("", writes, 0)]
    for rel in sorted(changed):
        try:
            st = (workspace / rel).stat()
            seen.append((rel, st.st_size, st.st_mtime_ns))
        except OSError:
            seen.append((rel, -1, -1))
    return tuple(seen)


@dataclass
class GateMemo:
    """The last run of each gate per session and workspace, with the state of the
    changed files it saw: a stop that changed nothing does not run it again."""

    limit: int = 10_000
    runs: dict[tuple[str, str, str], tuple[tuple[tuple[str, int, int], ...], GateResult]] = field(
        default_factory=dict
    )
    files: dict[tuple[str, str], tuple[dict[str, str], bool]] = field(default_factory=dict)
    """(session, workspace) → what steered its gates when the session first saw them
    (:func:`steering_files`), and whether that was before the agent's first tool call."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def first_seen(
        self, session_id: str, workspace: Path, source: Path | None, *, early: bool = False
    ) -> tuple[bool, str]:
        """Note the workspace's gates file and test configuration as the session first
        saw them (``early``: at the task's start, before the agent's first tool call);
        whether they can be trusted now, and why not. What the agent wrote or rewrote —
        the gates, a ``conftest.py``, a ``pytest.ini``, a module shadowing the runner —
        is not the user's any more; what was first seen only after the agent's tool
        calls ran may be the agent's."""
        now = steering_files(workspace, source)
        with self.lock:
            seen, was_early = self.files.setdefault((session_id, str(workspace)), (now, early))
            while len(self.files) > self.limit:
                self.files.pop(next(iter(self.files)))
        if not was_early:
            return False, (
                "the gates file and the test configuration were first seen after the agent's"
                " tool calls ran"
            )
        changed = _changed(seen, now)
        if changed:
            return False, f"changed since the task began: {changed}"
        return True, ""

    def fresh(
        self, key: tuple[str, str, str], state: tuple[tuple[str, int, int], ...]
    ) -> GateResult | None:
        with self.lock:
            found = self.runs.get(key)
            return found[1] if found is not None and found[0] == state else None

    def keep(
        self, key: tuple[str, str, str], state: tuple[tuple[str, int, int], ...], result: GateResult
    ) -> None:
        with self.lock:
            self.runs.pop(key, None)
            self.runs[key] = (state, result)
            while len(self.runs) > self.limit:
                self.runs.pop(next(iter(self.runs)))


MEMO = GateMemo()


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


_PRUNED = {
    ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", "target", ".idea",
}  # fmt: skip
_WALK_FILES = 20_000
"""Files looked at per fingerprint: the walk stops there and says so."""


def steering_files(workspace: Path, source: Path | None) -> dict[str, str]:
    """Every file of the workspace that steers what a gate runs and how it is
    reported — the gates file, test configuration (``conftest.py``, ``pytest.ini``,
    ``pyproject.toml`` …), modules that shadow the runner — by content digest, as
    :func:`donecheck.actors.evidence.integrity.classify` names them. Bounded: past
    ``_WALK_FILES`` files the walk stops and the result says so."""
    from donecheck.actors.evidence.integrity import classify

    found: dict[str, str] = {}
    if source is not None:
        found[
            str(source.relative_to(workspace)) if source.is_relative_to(workspace) else str(source)
        ] = _digest(source)
    seen = 0
    for root, dirs, files in os.walk(workspace):
        dirs[:] = sorted(d for d in dirs if d not in _PRUNED and not d.startswith("."))
        for name in sorted(files):
            seen += 1
            if seen > _WALK_FILES:
                found["…"] = f"more than {_WALK_FILES} files: the rest were not looked at"
                return found
            path = Path(root) / name
            rel = path.relative_to(workspace).as_posix()
            if classify(rel) in {"config", "shadow"}:
                found[rel] = _digest(path)
    return found


def _changed(before: Mapping[str, str], now: Mapping[str, str]) -> str:
    said = [f"{p} (added)" for p in sorted(now) if p not in before]
    said += [f"{p} (removed)" for p in sorted(before) if p not in now]
    said += [f"{p} (changed)" for p in sorted(now) if p in before and before[p] != now[p]]
    return ", ".join(said)


def watch_gates(session_id: str, workspace: Path, memo: GateMemo = MEMO) -> None:
    """Note the workspace's gates file and test configuration as they are now — at
    the start of a session's task, before the agent's first tool call — so that a
    stop can tell whether the session changed them."""
    memo.first_seen(session_id, workspace, find_gates(workspace), early=True)


@dataclass(frozen=True, slots=True)
class StopGates:
    """What the gates did at one stop."""

    ran: tuple[GateResult, ...] = ()
    reused: tuple[GateResult, ...] = ()
    """Gates not re-run: nothing they check changed since their last run here."""
    problem: str = ""
    """Why no gate ran although the workspace lists some (a malformed file)."""
    trusted: bool = True
    """The gates file and the test configuration are as the session first saw them,
    at the task's start (else passes prove nothing)."""
    why: str = ""
    """Why they are not trusted."""


def gates_at_stop(
    session_id: str,
    workspace: Path,
    source: Path,
    edited: Sequence[str | None],
    *,
    secrets: Sequence[str] = (),
    memo: GateMemo = MEMO,
) -> StopGates:
    """Run the due gates of ``source`` (the workspace's gates file, as
    :func:`find_gates` found it) for a stop of ``session_id``. ``edited``: the paths
    the session's tools wrote (due is judged on those inside the workspace; ``None``
    for a write of unnamed files, which makes every gate with ``paths`` due)."""
    try:
        gates = load_gates(source)
    except InputError as exc:
        return StopGates(problem=str(exc))
    trusted, why = memo.first_seen(session_id, workspace, source)
    changed = [rel for path in edited if path and (rel := _relative(path, workspace)) is not None]
    due = due_gates(gates, None if None in edited else changed)
    state = _state(workspace, changed, len(edited))
    ran: list[GateResult] = []
    reused: list[GateResult] = []
    for gate in due:
        key = (session_id, str(workspace), gate.name)
        previous = memo.fresh(key, state)
        if previous is not None:
            reused.append(previous)
            continue
        result = run_gate(gate, workspace, secrets=secrets)
        memo.keep(key, state, result)
        ran.append(result)
    return StopGates(ran=tuple(ran), reused=tuple(reused), trusted=trusted, why=why)
