"""``donecheck install``: DoneCheck's hooks merged into settings without touching
anything else, idempotently, and taken out again exactly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from donecheck.actors.errors import InputError
from donecheck.runtime.clients.claude_code import EVENTS as CLAUDE_EVENTS
from donecheck.runtime.clients.codex import EVENTS as CODEX_EVENTS
from donecheck.runtime.install import (
    hooks_for,
    is_ours,
    merge,
    read_settings,
    unmerge,
    write_settings,
)

PATH = Path("settings.json")
MINE = {"type": "command", "command": "my-linter --fast"}
USERS: dict[str, Any] = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "Stop": [{"hooks": [MINE]}],
        "PostToolUse": [{"matcher": "Write", "hooks": [MINE]}],
    },
}


@pytest.mark.parametrize(
    ("handler", "ours"),
    [
        ({"type": "command", "command": "donecheck hook"}, True),
        ({"type": "command", "command": "/opt/venv/bin/donecheck hook --agent codex"}, True),
        ({"type": "command", "command": '"/a b/donecheck" hook'}, True),
        ({"type": "http", "url": "http://127.0.0.1:8765/v1/hooks/claude-code"}, True),
        ({"type": "command", "command": "echo donecheck hooks are nice"}, False),
        ({"type": "command", "command": "my-donecheck-wrapper hook"}, False),
        ({"type": "http", "url": "http://127.0.0.1:9000/other"}, False),
        ("not a handler", False),
    ],
)
def test_what_counts_as_donechecks_hook(handler: Any, ours: bool) -> None:
    assert is_ours(handler) is ours


def test_merge_keeps_the_users_hooks_and_settings_and_is_idempotent() -> None:
    ours = hooks_for("claude-code", "command", "/v/bin/donecheck hook", "http://127.0.0.1:8765")
    merged, changes = merge(USERS, ours, PATH)
    assert merged["permissions"] == USERS["permissions"]
    assert merged["hooks"]["Stop"][0] == {"hooks": [MINE]}  # the user's first, untouched
    assert merged["hooks"]["Stop"][1]["hooks"][0]["timeout"] == 600
    assert merged["hooks"]["PostToolUseFailure"][0]["matcher"] == "*"
    assert {c.event for c in changes} == set(CLAUDE_EVENTS)
    assert {c.action for c in changes} == {"added"}
    again, changes = merge(merged, ours, PATH)
    assert again == merged and {c.action for c in changes} == {"unchanged"}
    http = hooks_for("claude-code", "http", "/v/bin/donecheck hook", "http://127.0.0.1:9999/")
    switched, changes = merge(merged, http, PATH)
    assert switched["hooks"]["Stop"][1]["hooks"][0]["url"].endswith(":9999/v1/hooks/claude-code")
    assert switched["hooks"]["SessionStart"][0]["hooks"][0]["type"] == "command"  # a file
    assert len(switched["hooks"]["Stop"]) == 2  # replaced, not added twice
    removed, changes = unmerge(switched, PATH)
    assert removed == USERS and {c.action for c in changes} == {"removed"}


def test_a_group_shared_with_the_users_handler_keeps_the_users() -> None:
    shared = {
        "hooks": {"Stop": [{"hooks": [MINE, {"type": "command", "command": "donecheck hook"}]}]}
    }
    removed, changes = unmerge(shared, PATH)
    assert removed == {"hooks": {"Stop": [{"hooks": [MINE]}]}}
    assert [c.event for c in changes] == ["Stop"]


def test_codex_gets_command_hooks_for_its_own_events() -> None:
    ours = hooks_for("codex", "command", "donecheck hook", "")
    assert set(ours) == set(CODEX_EVENTS)
    assert all(
        g["hooks"][0]["command"] == "donecheck hook --agent codex"
        for gs in ours.values()
        for g in gs
    )
    with pytest.raises(InputError, match="command hooks only"):
        hooks_for("codex", "http", "donecheck hook", "http://127.0.0.1:8765")


def test_a_broken_settings_file_is_named_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": {')
    with pytest.raises(InputError, match="not valid JSON") as caught:
        read_settings(path)
    assert str(path) in str(caught.value)
    assert path.read_text() == '{"hooks": {'
    path.write_text("[]")
    with pytest.raises(InputError, match="not a JSON object"):
        read_settings(path)
    path.write_text(json.dumps({"hooks": "x"}))
    with pytest.raises(InputError, match="'hooks' is not an object"):
        merge(read_settings(path), hooks_for("claude-code", "command", "d hook", ""), path)


def test_an_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / ".codex" / "hooks.json"
    assert write_settings(path, {"hooks": {}}) is True
    before = path.stat().st_mtime_ns
    assert write_settings(path, {"hooks": {}}) is False
    assert path.stat().st_mtime_ns == before  # Codex keys a hook's trust to its definition


def test_the_command_installs_prints_and_uninstalls(tmp_path: Path) -> None:
    cli = Path(sys.executable).with_name("donecheck")
    workspace = tmp_path / "ws"
    (workspace / ".claude").mkdir(parents=True)
    settings = workspace / ".claude" / "settings.json"
    settings.write_text(json.dumps(USERS))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(cli), "install", "claude-code", "--scope", "project", "--workspace",
             str(workspace), *args],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    dry = run("--dry-run")
    assert dry.returncode == 0 and "would change" in dry.stdout
    assert json.loads(settings.read_text()) == USERS
    done = run()
    assert done.returncode == 0 and "added     PostToolUseFailure" in done.stdout
    assert "installed already" in run().stdout
    gone = run("--uninstall")
    assert gone.returncode == 0 and "removed" in gone.stdout
    assert json.loads(settings.read_text()) == USERS
    settings.write_text("{broken")
    broken = run()
    assert broken.returncode == 2 and "not valid JSON" in broken.stderr
    assert settings.read_text() == "{broken"


def test_the_shipped_plugin_has_the_hooks_the_installer_writes() -> None:
    from donecheck.runtime.clients.claude_code import PLUGIN

    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "donecheck"
    shipped = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())
    assert shipped["hooks"] == hooks_for("claude-code", "command", "donecheck hook", "")


def test_http_hooks_are_refused_for_a_service_that_wants_a_token(tmp_path: Path) -> None:
    runtime = tmp_path / "serve.json"
    runtime.write_text(
        json.dumps(
            {
                "url": "http://127.0.0.1:8999",
                "token": "t0k",
                "namespace": "d",
                "pid": 1,
                "required": True,
            }
        )
    )
    cli = Path(sys.executable).with_name("donecheck")
    done = subprocess.run(
        [str(cli), "install", "claude-code", "--scope", "project", "--workspace", str(tmp_path),
         "--form", "http", "--runtime-file", str(runtime)],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "bearer token" in done.stderr
    assert not (tmp_path / ".claude").exists()


@pytest.mark.parametrize("client", ["claude-code", "codex"])
@pytest.mark.parametrize(
    "original",
    [
        None,  # no file: the one the installer creates is removed again
        '{"permissions":{"allow":["Bash(ls)"]},"hooks":{}}',  # compact, no newline
        '{\n    "model": "x",\n    "hooks": {\n        "Stop": []\n    }\n}\n',  # 4-space indent
        "{}\n",
    ],
)
def test_uninstall_puts_the_file_back_byte_for_byte(
    tmp_path: Path, client: str, original: str | None
) -> None:
    """Issue 37: uninstall re-serialised the user's settings and left a file it had
    created as '{}'. Codex is told --no-trust (no Codex on this machine's PATH here)."""
    cli = Path(sys.executable).with_name("donecheck")
    workspace = tmp_path / "ws"
    folder = workspace / (".claude" if client == "claude-code" else ".codex")
    folder.mkdir(parents=True)
    settings = folder / ("settings.json" if client == "claude-code" else "hooks.json")
    if original is not None:
        settings.write_text(original)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CODEX_HOME": str(tmp_path / "cx")}
    base = [str(cli), "install", client, "--scope", "project", "--workspace", str(workspace)]
    extra = ["--no-trust"] if client == "codex" else []

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *extra, *args], env=env, capture_output=True, text=True, timeout=60
        )

    assert run().returncode == 0
    assert "donecheck" in settings.read_text()
    gone = run("--uninstall")
    assert gone.returncode == 0, gone.stderr
    if original is None:
        assert not settings.exists() and "removed" in gone.stdout
    else:
        assert settings.read_text() == original and "restored" in gone.stdout
    assert not list(folder.glob("*.donecheck-backup"))
