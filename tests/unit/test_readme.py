"""The docs' settings tables list every Config field with its true default."""

from __future__ import annotations

import os
import re
from pathlib import Path

from donecheck.actors.config import Config

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "docs" / "configuration.md"
MiB = 1024 * 1024
_ROW = re.compile(r"^\| `(\w+)` \| (.+?) \| .+ \|$")


def settings_rows() -> dict[str, str]:
    """``name → default cell`` of every table row in the README's Configuration section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Configuration\n", 1)[1]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        match = _ROW.match(line)
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} is listed twice"
            rows[match.group(1)] = match.group(2)
    return rows


def shown(name: str, value: object) -> str:
    """How the README writes a default."""
    if name == "data_dir":
        return "`$XDG_DATA_HOME/donecheck`"
    if name == "deployment":
        return "the script's name"
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and name.endswith("_bytes") and value % MiB == 0:
        mib = value // MiB
        return f"{mib // 1024} GiB" if mib % 1024 == 0 else f"{mib} MiB"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, dict):
        return f"`{value}`"
    if isinstance(value, tuple):
        items = ", ".join(f'"{v}"' for v in value)
        return f"`({items}{',' if len(value) == 1 else ''})`"
    return str(value)


def test_every_setting_is_listed_once_with_its_default() -> None:
    rows = settings_rows()
    fields = Config.model_fields
    assert sorted(set(fields) - set(rows)) == [], "settings missing from the README"
    assert sorted(set(rows) - set(fields)) == [], "the README lists settings Config lacks"
    wrong = {
        name: (rows[name], shown(name, field.default))
        for name, field in fields.items()
        if rows[name] != shown(name, field.default)
    }
    assert wrong == {}, "README default vs code default"


def test_the_data_dir_default_is_what_the_readme_says(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("DONECHECK_DATA_DIR", raising=False)  # the suite's own scratch
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert Config().data_dir == tmp_path / "donecheck"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Config().data_dir == tmp_path / ".local" / "share" / "donecheck"


def test_each_deployment_keeps_its_own_sessions(monkeypatch, tmp_path) -> None:
    """Two programs embedding DoneCheck with the same data_dir do not see each other's
    sessions unless told to share (the same ``deployment``)."""
    from donecheck.runtime import DoneCheck

    monkeypatch.delenv("DONECHECK_DEPLOYMENT", raising=False)
    assert Config().deployment  # a file-safe name of the running program
    opened = {}
    for name in ("nightly-eval", "pr-bot"):
        with DoneCheck.start_local(data_dir=tmp_path, deployment=name) as dc:
            opened[name] = dc.open_session(f"request of {name}").session_id
    for name, other in (("nightly-eval", "pr-bot"), ("pr-bot", "nightly-eval")):
        with DoneCheck.start_local(data_dir=tmp_path, deployment=name) as dc:
            listed = {s.session_id for s in dc.sessions()}
            assert opened[name] in listed and opened[other] not in listed
    assert sorted(p.name for p in (tmp_path / "donecheck").iterdir()) == [
        "nightly-eval",
        "pr-bot",
    ]


def test_a_scripts_deployment_is_named_after_it(tmp_path) -> None:
    import subprocess
    import sys

    script = tmp_path / "weekly report!.py"
    script.write_text("from donecheck.actors.config import Config\nprint(Config().deployment)\n")
    env = {k: v for k, v in os.environ.items() if k != "DONECHECK_DEPLOYMENT"}
    shown = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60
    )
    assert shown.stdout.strip() == "weekly-report", shown.stderr
    typed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from donecheck.actors.config import Config;print(Config().deployment)",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert typed.stdout.strip() == "python", typed.stderr


def test_the_readmes_endpoint_table_names_each_bodys_fields() -> None:
    """Each ``{field, optional?}`` the README's HTTP table shows is the body the API
    takes: the same fields, the same ones required."""
    from donecheck.runtime.service import openapi

    document = openapi()
    readme = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(POST) (/v1/[^`]+)` \| [^`{]*`\{([^}]*)\}`", readme, re.M)
    assert len(rows) >= 2
    for method, path, shown in rows:
        operation = document["paths"][path.replace("{id}", "{session_id}")][method.lower()]
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
        names = [name.strip() for name in shown.split(",")]
        assert sorted(n.rstrip("?") for n in names) == sorted(schema["properties"]), path
        assert sorted(n for n in names if not n.endswith("?")) == sorted(schema["required"]), path
