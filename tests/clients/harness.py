"""Run the real Claude Code, Codex, Gemini, GitHub Copilot and OpenCode CLIs against the scripted
model and a real ``donecheck serve``, wired by ``donecheck install`` exactly as a user
wires them.

Everything a run touches is under the test's temporary folder: the CLI's HOME (and
CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME), its workspace, the service's data and
runtime file — but for the ~235 MB Copilot CLI unpacks on its first start, which the
tier's Copilot runs share (one temporary ``XDG_CACHE_HOME``). The CLIs reach only
127.0.0.1: the scripted model (``tests/support/agent_model.py``) and the service.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from donecheck.runtime.clients.claude_code import PLUGIN
from tests.support.agent_model import AgentModel

HERE = Path(__file__).resolve().parent
BIN = HERE / "node_modules" / ".bin"
DONECHECK = str(Path(sys.executable).with_name("donecheck"))
PYTHON = sys.executable
PINNED = json.loads((HERE / "package.json").read_text())["dependencies"]

BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
TESTS = (
    "from calc import add, mul\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_zero():\n    assert add(0, 4) == 4\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n"
)


def make_workspace(folder: Path) -> Path:
    """The task's repository: ``calc.py`` with a bug in ``add`` and its tests."""
    folder.mkdir(parents=True)
    (folder / "calc.py").write_text(BUGGY)
    (folder / "test_calc.py").write_text(TESTS)
    return folder


def base_env(home: Path) -> dict[str, str]:
    """A clean environment: nothing of the outer test run leaks into the CLI (no
    PYTEST_*, no provider keys), its HOME is the test's own."""
    return {
        "PATH": f"{BIN}:{Path(PYTHON).parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TMPDIR": str(home / "tmp"),
        "TERM": "dumb",
        "NO_COLOR": "1",
    }


class Service:
    """``donecheck serve --in-process --port 0`` in a process of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runtime = folder / "serve.json"
        self.env = {
            **base_env(folder),
            "DONECHECK_RUNTIME_FILE": str(self.runtime),
            "DONECHECK_DATA_DIR": str(folder / "data"),
        }
        (folder / "tmp").mkdir(parents=True, exist_ok=True)
        self.log = (folder / "serve.log").open("w")
        self.process = subprocess.Popen(
            [DONECHECK, "serve", "--in-process", "--port", "0"],
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while not self.runtime.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"donecheck serve did not start: {self.logged()}")
            time.sleep(0.05)
        self.url = json.loads(self.runtime.read_text())["url"]

    def logged(self) -> str:
        self.log.flush()
        return (self.folder / "serve.log").read_text()[-4000:]

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as answer:
            return json.loads(answer.read())

    def card(self, session: str, request_id: str | None = None) -> dict[str, Any]:
        query = f"?request_id={request_id}" if request_id else ""
        found: dict[str, Any] = self.get(f"/v1/sessions/{session}/report{query}")
        return found

    def close(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@dataclass
class Run:
    """One CLI run: its exit status, its event stream (stream-json or ``exec --json``)."""

    client: str
    returncode: int
    events: list[dict[str, Any]]
    stderr: str
    session: str
    """The DoneCheck session of this CLI session (``claude-<id>``, ``codex-<id>``)."""
    native_id: str
    seconds: float
    model: AgentModel = field(repr=False)
    prompt: str = ""
    stdout: str = field(default="", repr=False)
    """What the CLI printed, as it printed it."""
    stored: dict[str, Any] | None = field(default=None, repr=False)
    """The session as the CLI stored it, right after the run (OpenCode's export)."""

    def explain(self) -> str:
        """What happened, for an assertion's message."""
        hooks = [
            f"  {e.get('hook_event')}: exit {e.get('exit_code')} {e.get('outcome')} "
            f"{(e.get('stdout') or '')[:300]!r} {(e.get('stderr') or '')[:200]!r}"
            for e in self.events
            if e.get("subtype") == "hook_response"
        ]
        return (
            f"{self.client} exited {self.returncode} in {self.seconds:.1f} s\n"
            f"model requests:\n{self.model.transcript()}\n"
            + ("hooks:\n" + "\n".join(hooks) + "\n" if hooks else "")
            + f"stderr: {self.stderr[-1500:]}"
        )


class _Client:
    """What both CLIs' runners share: a run, by the subclass's argv and env."""

    name = ""
    prefix = ""
    home: Path

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        raise NotImplementedError

    def env(self, model: AgentModel) -> dict[str, str]:
        raise NotImplementedError

    def session_of(self, events: list[dict[str, Any]]) -> str:
        raise NotImplementedError

    def run(
        self,
        workspace: Path,
        model: AgentModel,
        prompt: str,
        *,
        resume: str | None = None,
        interrupt_after: float | None = None,
    ) -> Run:
        return _run(self, workspace, model, prompt, resume, interrupt_after)


class ClaudeCode(_Client):
    name = "claude-code"
    prefix = "claude"
    binary = BIN / "claude"

    def __init__(self, folder: Path, service: Service, form: str) -> None:
        self.folder = folder
        self.home = folder / "home"
        (self.home / "tmp").mkdir(parents=True)
        self.service = service
        self.form = form

    def install(self, workspace: Path) -> str:
        """``donecheck install claude-code`` into the workspace's project settings (for
        the ``plugin`` form: nothing to write, ``--plugin-dir`` loads DoneCheck's plugin)."""
        if self.form == "plugin":
            return ""
        done = subprocess.run(
            [
                DONECHECK,
                "install",
                "claude-code",
                "--scope",
                "project",
                "--form",
                self.form,
                "--workspace",
                str(workspace),
                "--url",
                self.service.url,
            ],
            env={**base_env(self.home), "DONECHECK_RUNTIME_FILE": str(self.service.runtime)},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout

    def env(self, model: AgentModel) -> dict[str, str]:
        return {
            **base_env(self.home),
            "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-scripted-not-a-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "IS_SANDBOX": "1",  # --dangerously-skip-permissions as root
        }

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        argv = [
            str(self.binary),
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--dangerously-skip-permissions",
        ]
        if self.form == "plugin":
            argv += ["--plugin-dir", str(PLUGIN)]
        return [*argv, "--resume", resume] if resume else argv

    def session_of(self, events: list[dict[str, Any]]) -> str:
        found = next((e.get("session_id") for e in events if e.get("session_id")), "")
        return str(found)


class Codex(_Client):
    name = "codex"
    prefix = "codex"
    binary = BIN / "codex"
    form = "command"

    def __init__(self, folder: Path, service: Service, form: str = "command") -> None:
        self.folder = folder
        self.home = folder / "home"
        self.codex_home = self.home / ".codex"
        self.codex_home.mkdir(parents=True)
        (self.home / "tmp").mkdir()
        self.service = service
        self.model_url = ""

    def configure(self, model: AgentModel) -> None:
        """The scripted model as Codex's provider (a gpt-5 name: Codex offers
        ``apply_patch`` as a freeform tool then)."""
        (self.codex_home / "config.toml").write_text(
            'model = "gpt-5.5"\n'
            'model_provider = "scripted"\n'
            "[model_providers.scripted]\n"
            'name = "scripted"\n'
            f'base_url = "{model.url}/v1"\n'
            'wire_api = "responses"\n'
            'env_key = "SCRIPTED_MODEL_KEY"\n'
        )

    def install(self, workspace: Path) -> str:
        """``donecheck install codex`` (user scope: this test's CODEX_HOME), which also
        records Codex's trust in the hooks through Codex's app server."""
        done = subprocess.run(
            [DONECHECK, "install", "codex", "--workspace", str(workspace)],
            env={
                **base_env(self.home),
                "CODEX_HOME": str(self.codex_home),
                "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            },
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        # the app server it asked leaves nothing of its own behind (state, skills, ids)
        left = set(os.listdir(self.codex_home)) - {
            "config.toml", "hooks.json", "hooks.json.donecheck-backup",
        }  # fmt: skip
        if left:
            raise AssertionError(f"donecheck install codex left {sorted(left)} in CODEX_HOME")
        return done.stdout

    def env(self, model: AgentModel) -> dict[str, str]:
        return {
            **base_env(self.home),
            "CODEX_HOME": str(self.codex_home),
            "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            "SCRIPTED_MODEL_KEY": "scripted-not-a-key",
        }

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        head = [str(self.binary), "exec"]
        if resume:
            head += ["resume", resume]
        return [
            *head,
            "--json",
            "--dangerously-bypass-approvals-and-sandbox",
            "--skip-git-repo-check",
            prompt,
        ]

    def session_of(self, events: list[dict[str, Any]]) -> str:
        found = next((e.get("thread_id") for e in events if e.get("type") == "thread.started"), "")
        return str(found)


class Gemini(_Client):
    """Gemini CLI headless (``gemini -p … -o stream-json``), its hooks in the user
    settings of this test's ``GEMINI_CLI_HOME``, the workspace trusted through
    ``GEMINI_CLI_TRUST_WORKSPACE`` (headless, an untrusted folder exits 55)."""

    name = "gemini"
    prefix = "gemini"
    binary = BIN / "gemini"
    form = "command"
    model_name = "gemini-2.5-flash"
    """A concrete model: the default ``auto`` makes a routing call first."""

    def __init__(
        self, folder: Path, service: Service, form: str = "command", *, skip_trust: bool = False
    ) -> None:
        self.folder = folder
        self.home = folder / "home"
        self.settings = self.home / ".gemini" / "settings.json"
        self.settings.parent.mkdir(parents=True)
        (self.home / "tmp").mkdir()
        self.service = service
        self.skip_trust = skip_trust
        """Run with ``--skip-trust`` instead of ``GEMINI_CLI_TRUST_WORKSPACE=true``."""

    def configure(self, model: AgentModel) -> None:
        """API-key auth (the scripted model's URL comes through the environment); no
        usage statistics or update checks, which would reach past 127.0.0.1."""
        self.settings.write_text(
            json.dumps(
                {
                    "security": {"auth": {"selectedType": "gemini-api-key"}},
                    "privacy": {"usageStatisticsEnabled": False},
                    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                },
                indent=2,
            )
            + "\n"
        )

    def install(self, workspace: Path, *args: str) -> str:
        """``donecheck install gemini`` (user scope: this test's GEMINI_CLI_HOME)."""
        done = subprocess.run(
            [DONECHECK, "install", "gemini", "--workspace", str(workspace), *args],
            env={
                **base_env(self.home),
                "GEMINI_CLI_HOME": str(self.home),
                "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            },
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout + done.stderr

    def env(self, model: AgentModel) -> dict[str, str]:
        found = {
            **base_env(self.home),
            "GEMINI_CLI_HOME": str(self.home),
            "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            "GEMINI_API_KEY": "scripted-not-a-key",
            "GOOGLE_GEMINI_BASE_URL": model.url,
        }
        return found if self.skip_trust else {**found, "GEMINI_CLI_TRUST_WORKSPACE": "true"}

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        argv = [
            str(self.binary),
            "-p",
            prompt,
            "--approval-mode",
            "yolo",
            "--output-format",
            "stream-json",
            "--model",
            self.model_name,
            *(["--skip-trust"] if self.skip_trust else []),
        ]
        return [*argv, "--resume", resume] if resume else argv

    def session_of(self, events: list[dict[str, Any]]) -> str:
        found = next((e.get("session_id") for e in events if e.get("type") == "init"), "")
        return str(found)


class Copilot(_Client):
    """GitHub Copilot CLI headless (``copilot -p … --allow-all-tools --allow-all-paths
    --output-format json``; without the paths flag a command naming a file outside the
    workspace is denied headless, and no ``PostToolUse`` fires for it) with the scripted
    model as its BYOK provider (``COPILOT_OFFLINE``, OpenAI Chat Completions), its hooks
    in this test's ``$COPILOT_HOME/hooks/`` (user scope, run in every folder) or, with
    ``scope="project"``, the workspace's ``.github/hooks/`` (run only when the workspace
    is in ``trustedFolders`` of its ``config.json``). ``cache`` is the
    ``XDG_CACHE_HOME`` the tier's Copilot runs share."""

    name = "copilot"
    prefix = "copilot"
    binary = BIN / "copilot"
    form = "command"

    def __init__(self, folder: Path, service: Service, cache: Path, *, scope: str = "user") -> None:
        self.folder = folder
        self.home = folder / "home"
        self.copilot_home = self.home / ".copilot"
        self.copilot_home.mkdir(parents=True)
        (self.home / "tmp").mkdir()
        self.service = service
        self.cache = cache
        self.scope = scope

    def configure(self, model: AgentModel) -> None:
        """Nothing to write: the provider comes through the environment."""

    def trust(self, workspace: Path) -> None:
        """Trust ``workspace`` as Copilot CLI records it when the user says so."""
        (self.copilot_home / "config.json").write_text(
            json.dumps({"trustedFolders": [str(workspace)]}, indent=2) + "\n"
        )

    def install(self, workspace: Path, *args: str) -> str:
        """``donecheck install copilot`` (``--scope`` this client's)."""
        done = subprocess.run(
            [
                DONECHECK,
                "install",
                "copilot",
                "--scope",
                self.scope,
                "--workspace",
                str(workspace),
                *args,
            ],
            env={
                **base_env(self.home),
                "COPILOT_HOME": str(self.copilot_home),
                "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            },
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout + done.stderr

    def env(self, model: AgentModel) -> dict[str, str]:
        return {
            **base_env(self.home),
            "XDG_CACHE_HOME": str(self.cache),
            "COPILOT_HOME": str(self.copilot_home),
            "DONECHECK_RUNTIME_FILE": str(self.service.runtime),
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": f"{model.url}/v1",
            "COPILOT_PROVIDER_API_KEY": "scripted-not-a-key",
            "COPILOT_MODEL": "scripted",
        }

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        argv = [
            str(self.binary),
            "-p",
            prompt,
            "--allow-all-tools",
            "--allow-all-paths",  # the tests run with the venv's python, outside the workspace
            "--output-format",
            "json",
        ]
        return [*argv, "--resume", resume] if resume else argv

    def session_of(self, events: list[dict[str, Any]]) -> str:
        found = next((e.get("sessionId") for e in events if e.get("type") == "result"), "")
        return str(found)


class OpenCode(_Client):
    """OpenCode headless (``opencode run --format json WORDS…``: the prompt as separate
    words — one argument with spaces reaches the model in literal quotes), the scripted
    model as an ``@ai-sdk/openai-compatible`` provider in this test's
    ``$XDG_CONFIG_HOME/opencode/opencode.json``, DoneCheck's plugin in its ``plugins/``
    folder (``donecheck install opencode``). OpenCode npm-installs
    ``@opencode-ai/plugin`` into each config folder at start and waits ~70 s for it
    offline unless the folder already looks installed: :meth:`configure` makes it so."""

    name = "opencode"
    prefix = "opencode"
    binary = BIN / "opencode"
    form = "plugin"
    QUIET = (
        "AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "SHARE", "DEFAULT_PLUGINS", "CLAUDE_CODE",
    )  # fmt: skip
    """``OPENCODE_DISABLE_*``: nothing that would reach past 127.0.0.1."""

    def __init__(self, folder: Path, service: Service, *, scope: str = "user") -> None:
        self.folder = folder
        self.home = folder / "home"
        self.config = self.home / ".config" / "opencode"
        self.config.mkdir(parents=True)
        (self.home / "tmp").mkdir()
        self.service = service
        self.scope = scope

    @staticmethod
    def looks_installed(folder: Path) -> None:
        """What OpenCode checks before it npm-installs ``@opencode-ai/plugin`` into a
        config folder: ``node_modules/``, and a ``package.json`` and
        ``package-lock.json`` whose root package lists it."""
        version = PINNED["opencode-ai"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "node_modules").mkdir(exist_ok=True)
        wanted = {"@opencode-ai/plugin": version}
        (folder / "package.json").write_text(json.dumps({"dependencies": wanted}) + "\n")
        lock = {"lockfileVersion": 3, "packages": {"": {"dependencies": wanted}}}
        (folder / "package-lock.json").write_text(json.dumps(lock) + "\n")

    def configure(self, model: AgentModel) -> None:
        provider = {
            "npm": "@ai-sdk/openai-compatible",
            "name": "scripted",
            "options": {"baseURL": f"{model.url}/v1", "apiKey": "scripted-not-a-key"},
            "models": {"scripted": {"name": "scripted", "tool_call": True}},
        }
        config = {
            "provider": {"scripted": provider},
            "model": "scripted/scripted",
            "small_model": "scripted/scripted",
            "permission": {"bash": "allow", "edit": "allow"},
            "autoupdate": False,
            "share": "disabled",
        }
        (self.config / "opencode.json").write_text(json.dumps(config, indent=2) + "\n")
        self.looks_installed(self.config)

    def install(self, workspace: Path, *args: str) -> str:
        """``donecheck install opencode`` (``--scope`` this client's)."""
        if self.scope == "project":
            self.looks_installed(workspace / ".opencode")
        done = subprocess.run(
            [
                DONECHECK,
                "install",
                "opencode",
                "--scope",
                self.scope,
                "--workspace",
                str(workspace),
                *args,
            ],
            env={**self.env_base(), "DONECHECK_RUNTIME_FILE": str(self.service.runtime)},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout + done.stderr

    def env_base(self) -> dict[str, str]:
        return {
            **base_env(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            **{f"OPENCODE_DISABLE_{name}": "1" for name in self.QUIET},
        }

    def env(self, model: AgentModel) -> dict[str, str]:
        return {**self.env_base(), "DONECHECK_RUNTIME_FILE": str(self.service.runtime)}

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        argv = [str(self.binary), "run", "--format", "json"]
        if resume:
            argv += ["--session", resume]
        return [*argv, "--", *prompt.split()]  # "--": a word "-" is no option

    def session_of(self, events: list[dict[str, Any]]) -> str:
        return str(next((e.get("sessionID") for e in events if e.get("sessionID")), ""))

    def export(self, workspace: Path, session: str) -> dict[str, Any]:
        """``opencode export <session>``: the session as OpenCode stored it."""
        done = subprocess.run(
            [str(self.binary), "export", session],
            cwd=workspace,
            env=self.env_base(),
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        found: dict[str, Any] = json.loads(done.stdout)
        return found


def handed_back(run: Run) -> list[str]:
    """The user messages Copilot CLI printed (``--output-format json``) after the
    first: each a blocked stop's reason, as the CLI handed it back."""
    texts = [
        str((e.get("data") or {}).get("content", ""))
        for e in run.events
        if e.get("type") == "user.message"
    ]
    return texts[1:]


def blocked(run: Run) -> list[str]:
    """What Gemini CLI printed of each blocked stop, in order: its stream-json
    warning ``Agent execution blocked: …`` with the hook's ``systemMessage`` (DoneCheck's
    note to the user) or, without one, the reason."""
    head = "Agent execution blocked: "
    return [
        str(e["message"])[len(head) :]
        for e in run.events
        if e.get("type") == "error" and str(e.get("message", "")).startswith(head)
    ]


def _run(
    client: _Client,
    workspace: Path,
    model: AgentModel,
    prompt: str,
    resume: str | None,
    interrupt_after: float | None,
) -> Run:
    started = time.monotonic()
    process = subprocess.Popen(
        client.argv(prompt, resume),
        cwd=workspace,
        env=client.env(model),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if interrupt_after is not None:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not model.log and process.poll() is None:
                time.sleep(0.05)
            time.sleep(interrupt_after)
            process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        err += "\n[killed after 120 s]"
    events: list[Any] = []
    for line in out.splitlines():
        try:
            found = json.loads(line)
        except json.JSONDecodeError:
            continue
        # one JSON array of them: ``claude -p --output-format json --verbose``
        events.extend(found if isinstance(found, list) else [found])
    native = client.session_of(events)
    return Run(
        client=client.name,
        returncode=process.returncode,
        events=events,
        stderr=err,
        session=f"{client.prefix}-{native}",
        native_id=native,
        seconds=time.monotonic() - started,
        model=model,
        prompt=prompt,
        stdout=out,
        stored=client.export(workspace, native) if isinstance(client, OpenCode) else None,
    )


def _version(text: str) -> tuple[int, int, int]:
    major, minor, patch, *_ = [*(int(p) for p in re.findall(r"\d+", text)[:3]), 0, 0, 0]
    return major, minor, patch


def satisfies(version: str, wanted: str) -> bool:
    """Whether Node ``version`` (``v22.23.5``) meets an ``engines.node`` range of the
    forms npm packages declare here: ``>=X[.Y[.Z]]``, ``^X``, ``X.x``, ``*``, joined by
    spaces (all) and ``||`` (any). Another form is an error, not a guess."""
    have = _version(version)
    for alternative in wanted.split("||"):
        ok = True
        for term in alternative.split():
            if term in {"*", "x"}:
                continue
            found = re.fullmatch(r"(>=|\^|>|<=|<)?v?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?", term)
            if found is None:
                raise ValueError(f"cannot read the engine range {wanted!r}")
            op, bound = found.group(1) or "=", _version(term)
            if op == ">=":
                ok &= have >= bound
            elif op == ">":
                ok &= have > bound
            elif op == "<=":
                ok &= have <= bound
            elif op == "<":
                ok &= have < bound
            else:  # ^X, X.x, X: the same major, at least the bound
                ok &= have[0] == bound[0] and have >= bound
        if ok:
            return True
    return False


def installed_version(binary: Path) -> str:
    """``binary --version``, run in a HOME of its own (the CLIs write there)."""
    with tempfile.TemporaryDirectory(prefix="dc-version-") as home:
        done = subprocess.run(
            [str(binary), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home},
        )
    return done.stdout.strip()
