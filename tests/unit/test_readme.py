"""The README's settings tables list every Config field with its true default."""

from __future__ import annotations

import re
from pathlib import Path

from donecheck.actors.config import Config

README = Path(__file__).resolve().parents[2] / "README.md"
MiB = 1024 * 1024
_ROW = re.compile(r"^\| `(\w+)` \| (.+?) \| .+ \|$")


def settings_rows() -> dict[str, str]:
    """``name → default cell`` of every table row in the README's Configuration section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
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
