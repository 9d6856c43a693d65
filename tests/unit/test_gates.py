"""Gates: configured checks DoneCheck runs itself, safely and within bounds."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from donecheck.actors.errors import InputError
from donecheck.runtime.gates import (
    Gate,
    clean_environment,
    due_gates,
    find_gates,
    load_gates,
    run_gate,
)
from tests.support.env import child_env

PY = sys.executable


def _project(tmp_path: Path, body: str, name: str = "pyproject.toml") -> Path:
    (tmp_path / name).write_text(body)
    return tmp_path


def test_gates_are_read_from_pyproject_or_donecheck_toml(tmp_path: Path) -> None:
    workspace = _project(
        tmp_path,
        '[project]\nname = "x"\n\n[[tool.donecheck.gate]]\nname = "tests"\n'
        'command = ["python", "-m", "pytest", "-q"]\npaths = ["src/**", "tests/**"]\n'
        "timeout_s = 120\n",
    )
    source = find_gates(workspace)
    assert source == workspace / "pyproject.toml"
    [gate] = load_gates(source)
    assert gate == Gate(
        "tests", ("python", "-m", "pytest", "-q"), ("src/**", "tests/**"), 120.0, str(source)
    )
    (workspace / "donecheck.toml").write_text('[[gate]]\nname = "lint"\ncommand = "ruff check ."\n')
    assert [g.name for g in load_gates(find_gates(workspace))] == ["lint"]  # type: ignore[arg-type]
    assert find_gates(tmp_path / "nowhere") is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('[[gate]]\ncommand = "x"\n', "'name' must be a non-empty string"),
        ('[[gate]]\nname = "a"\n', "'command' must be a string or a list of strings"),
        ('[[gate]]\nname = "a"\ncommand = "x"\ntimeout_s = -1\n', "'timeout_s' must be positive"),
        ('[[gate]]\nname = "a"\ncommand = "x"\nshell = true\n', "unknown field(s) shell"),
        (
            '[[gate]]\nname = "a"\ncommand = "x"\n[[gate]]\nname = "a"\ncommand = "y"\n',
            "two gates are named 'a'",
        ),
        ("[[gate]\n", "not valid TOML"),
    ],
)
def test_a_malformed_gate_names_the_file_and_the_field(
    tmp_path: Path, body: str, problem: str
) -> None:
    path = _project(tmp_path, body, "donecheck.toml") / "donecheck.toml"
    with pytest.raises(InputError) as caught:
        load_gates(path)
    message = str(caught.value)
    assert str(path) in message
    assert problem.replace(" must be positive", "") in message


def test_only_gates_whose_paths_changed_are_due() -> None:
    tests = Gate("tests", "pytest", ("src/**", "tests/*.py"))
    docs = Gate("docs", "mkdocs build", ("docs/**",))
    always = Gate("lint", "ruff check .")
    gates = [tests, docs, always]
    assert due_gates(gates, ["src/app/core.py"]) == [tests, always]
    assert due_gates(gates, ["./docs/index.md"]) == [docs, always]
    assert due_gates(gates, []) == [always]
    assert due_gates(gates, None) == gates


def test_a_gate_passes_or_fails_by_its_exit_status(tmp_path: Path) -> None:
    ok = run_gate(Gate("ok", (PY, "-c", "print('3 passed')")), tmp_path)
    assert ok.status == "passed" and ok.exit_code == 0 and "3 passed" in ok.output
    assert ok.workspace == str(tmp_path) and ok.host and ok.duration_s >= 0
    bad = run_gate(Gate("bad", f"{PY} -c 'import sys; sys.exit(3)'"), tmp_path)
    assert bad.status == "failed" and bad.exit_code == 3 and bad.detail == "exit status 3"
    missing = run_gate(Gate("missing", ("/no/such/program",)), tmp_path)
    assert missing.status == "error" and "could not start" in missing.detail


def test_a_hanging_gate_is_killed_with_its_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(marker)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    started = time.monotonic()
    result = run_gate(Gate("hangs", (PY, "-c", script), timeout_s=1.5), tmp_path)
    assert result.status == "timeout" and result.exit_code is None
    assert "killed with its process group after 1.5 s" in result.detail
    assert time.monotonic() - started < 10
    child = int(marker.read_text())
    time.sleep(0.2)
    assert _gone(child)  # the grandchild went with the group


def _gone(pid: int) -> bool:
    """Not running: no such process, or a zombie waiting for a reaper."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in {"Z", "X"}


def test_output_is_capped_keeping_its_start_and_end(tmp_path: Path) -> None:
    script = "print('FIRST'); print('x' * 2_000_000); print('LAST')"
    result = run_gate(Gate("loud", (PY, "-c", script)), tmp_path, max_output=4_096)
    assert result.output.startswith("FIRST") and result.output.rstrip().endswith("LAST")
    assert result.cut_bytes > 1_990_000
    assert len(result.output) < 4_096 + 100


def test_a_gate_never_sees_a_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DONECHECK_JUDGE_API_KEY", "sk-judge-0123456789")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-other")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-xyz")
    monkeypatch.setenv("INNOCENT_NAME", "sk-configured-key")
    monkeypatch.setenv("PLAIN", "kept")
    script = "import json, os; print(json.dumps(dict(os.environ)))"
    result = run_gate(Gate("env", (PY, "-c", script)), tmp_path, secrets=["sk-configured-key"])
    seen = json.loads(result.output)
    assert seen["PLAIN"] == "kept"
    for name in ("DONECHECK_JUDGE_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN", "INNOCENT_NAME"):
        assert name not in seen
    assert "PATH" in clean_environment({"PATH": "/bin", "AWS_SECRET_ACCESS_KEY": "s"})
    # a value shaped like a key or a URL with a password goes whatever its name
    assert clean_environment({"X": "sk-abcdefghijklmnop", "DB": "postgresql://u:pw@h/d"}) == {}


def test_a_key_a_gate_prints_is_redacted_in_its_result(tmp_path: Path) -> None:
    result = run_gate(Gate("leaks", (PY, "-c", "print('found sk-abcdef1234567890XYZ')")), tmp_path)
    assert "sk-abcdef1234567890XYZ" not in result.output and "sk-***" in result.output


def test_the_gates_command_lists_and_runs(tmp_path: Path) -> None:
    workspace = _project(
        tmp_path,
        f'[[gate]]\nname = "unit"\ncommand = ["{PY}", "-c", "print(1)"]\npaths = ["src/**"]\n\n'
        f'[[gate]]\nname = "fails"\ncommand = ["{PY}", "-c", "raise SystemExit(2)"]\n',
        "donecheck.toml",
    )
    script = Path(sys.executable).with_name("donecheck")
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "donecheck.runtime.cli"]
    env = child_env(tmp_path / "child")
    listed = subprocess.run(
        [*cli, "gates", "--workspace", str(workspace), "--changed", "README.md", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(r["name"], r["due"]) for r in rows] == [("unit", False), ("fails", True)]
    ran = subprocess.run(
        [*cli, "gates", "--workspace", str(workspace), "--run", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert ran.returncode == 1
    results = {r["name"]: r for r in map(json.loads, ran.stdout.splitlines())}
    assert results["unit"]["status"] == "passed" and results["fails"]["exit_code"] == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = subprocess.run(
        [*cli, "gates", "--workspace", str(empty)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2 and "no gates" in bad.stderr
