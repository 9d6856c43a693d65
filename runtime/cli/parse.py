"""``donecheck parse``: how attachments are read."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import msgspec

from donecheck.actors.errors import AttachmentError
from donecheck.actors.messages import Material
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    error,
)
from donecheck.runtime.cli.files import collect
from donecheck.runtime.progressbar import ProgressBar


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    parse = commands.add_parser(
        "parse",
        help="show how attachments are read",
        description=(
            "Detect each file's type from its content and parse it as a session would: status "
            "(parsed, partial, unparsed, failed) and why, detected type, blocks and a preview "
            "of the text. Files are parsed in parallel in isolated worker processes, each with "
            "the configured time and memory limits."
        ),
        epilog=(
            "Exit status: 0 every file was handled, 1 a file failed to parse (corrupt, "
            "encrypted, over a limit, timed out), 2 usage error or a missing file."
        ),
    )
    parse.add_argument(
        "files", nargs="+", metavar="PATH", type=Path, help="files, or folders searched recursively"
    )
    output = parse.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="print one Material per line (preview images left out)"
    )
    output.add_argument(
        "--markdown",
        action="store_true",
        help="print the materials as a review model would see them",
    )
    parse.add_argument(
        "--with-previews", action="store_true", help="with --json: include preview images (base64)"
    )
    parse.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="parallel worker processes (default: one per CPU)",
    )
    parse.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from donecheck.actors.config import load_config
    from donecheck.parsers.render import render_materials
    from donecheck.parsers.worker import WorkerPool
    from donecheck.runtime.attachments import (
        load_attachment,
        too_large_material,
        unreadable_material,
    )

    if args.workers < 1:
        error("--workers must be at least 1")
        return EXIT_INPUT
    config = load_config()
    files, problems = collect(
        args.files,
        wanted=lambda path, folder: (
            not any(part.startswith(".") for part in path.relative_to(folder).parts)
        ),
        empty="the folder has no files",
        missing="no such file",
        regular=True,
    )
    for problem in problems:
        error(problem)
    limits = config.parse_limits()
    progress = ProgressBar(len(files), "parsing")

    def one(path: Path) -> Material:
        try:
            loaded = load_attachment(path, 0, config.max_attachment_bytes)
            if loaded.too_large:
                return too_large_material(loaded, config.max_attachment_bytes)
            return pool.parse(loaded.data, loaded.name, sha256=loaded.sha256, limits=limits)
        except AttachmentError as exc:  # gone or changed since it was listed
            return unreadable_material(exc)
        finally:
            progress.advance()

    with WorkerPool(
        min(args.workers, max(1, len(files))),
        timeout_s=config.parse_timeout_s,
        memory_bytes=config.parse_memory_bytes,
    ) as pool:
        with ThreadPoolExecutor(max_workers=args.workers) as executor:
            materials = list(executor.map(one, files))
    progress.close()
    if args.markdown:
        print(render_materials(materials, budget_chars=config.material_excerpt_chars).text)
    for path, material in zip(files, materials, strict=True):
        if args.json:
            if not args.with_previews:
                material = msgspec.structs.replace(
                    material,
                    previews=tuple(msgspec.structs.replace(p, data=b"") for p in material.previews),
                )
            print(msgspec.json.encode(material).decode())
        elif not args.markdown:
            print("\n".join(_summary_line(path, material)))
    if problems:
        return EXIT_INPUT
    return EXIT_FAILURE if any(m.status == "failed" for m in materials) else EXIT_OK


def _summary_line(path: Path, material: Material) -> list[str]:
    reason = f" — {material.reason}" if material.reason else ""
    lines = [
        f"{material.status:<9} {material.detected_type:<34} {path}"
        f"  ({len(material.blocks)} blocks, {len(material.previews)} previews){reason}"
    ]
    preview = " ".join(" ".join(b.text.split()) for b in material.blocks[:3])
    if preview:
        lines.append(f"          {preview[:160]}")
    lines.extend(f"          warning: {w}" for w in material.warnings)
    return lines
