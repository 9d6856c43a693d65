"""Write one part of the corpus (a folder of transcripts and its entries in
``expected.json``), or check that the files on disk match."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected.json"


def sync(
    folder: str,
    files: dict[str, str],
    entries: dict[str, dict[str, Any]],
    argv: list[str] | None,
    description: str,
) -> int:
    """``files`` and ``entries`` are keyed ``<folder>/<name>``. With ``--check``
    (in ``argv``) nothing is written: 1 when anything differs."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only compare with the files on disk")
    args = parser.parse_args(argv)
    existing = json.loads(EXPECTED.read_text(encoding="utf-8")) if EXPECTED.exists() else {}
    expected = {k: v for k, v in existing.items() if not k.startswith(f"{folder}/")}
    expected.update(entries)
    text = json.dumps(dict(sorted(expected.items())), ensure_ascii=False, indent=1) + "\n"
    root = HERE / folder
    on_disk = {
        p.relative_to(HERE).as_posix(): p.read_text(encoding="utf-8")
        for p in (root.rglob("*") if root.exists() else [])
        if p.is_file()
    }
    if args.check:
        stale = sorted(set(files) ^ set(on_disk)) + sorted(
            n for n in files if n in on_disk and on_disk[n] != files[n]
        )
        if stale or not EXPECTED.exists() or EXPECTED.read_text(encoding="utf-8") != text:
            print(f"{folder}/ is out of date ({len(stale)} files): rewrite it", file=sys.stderr)
            return 1
        return 0
    root.mkdir(exist_ok=True)
    for name in set(on_disk) - set(files):
        (HERE / name).unlink()
    for name, content in files.items():
        (HERE / name).parent.mkdir(parents=True, exist_ok=True)
        (HERE / name).write_text(content, encoding="utf-8")
    EXPECTED.write_text(text, encoding="utf-8")
    print(f"wrote {len(entries)} sessions to {root} ({len(expected)} expectations in all)")
    return 0
