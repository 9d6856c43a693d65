"""Attachment parsing: throughput of the Ray pool and text recovery, beside MarkItDown
and pymupdf4llm on the same files in the same run.

Figures (one JSON line each):

* ``parse_pool`` — files/s, pages/s, MB/s through ``DoneCheck.parse_many`` with 1
  and N parser actors (cold caches), and the scaling ratio N-actor / (N × 1-actor);
* ``parse_cache`` — end-to-end latency of ``DoneCheck.parse`` for a file already
  parsed (hash, call, cached answer), p50/p99;
* ``parse_single`` — files/s of each tool in this one process, one file after
  another: DoneCheck's ``parse_bytes``, MarkItDown, pymupdf4llm (PDFs only);
* ``parse_recovery`` — per format and tool, the share of each file's known
  phrases its output contains (word tokens, in order);
* ``parse_vs_markitdown`` — the ratios the targets name.

Needs the benchmark extras: ``pip install -e '.[bench]'``.
Run: ``python benchmarks/run.py parse_throughput`` (``--files N`` to resize).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from benchmarks._common import describe, emit, log
from donecheck.actors.messages import Material
from donecheck.parsers import ParseLimits, parse_bytes
from donecheck.parsers.material import sha256_ref
from tests.realworld import missing
from tests.support.samples import Sample, corpus, recovered

_PAGED = {"pdf", "pptx", "epub"}


def _write(samples: list[Sample], folder: Path) -> list[Path]:
    paths = []
    for item in samples:
        path = folder / item.name
        path.write_bytes(item.data)
        paths.append(path)
    return paths


def _text(material: Material) -> str:
    return "\n".join(block.text for block in material.blocks)


def _markitdown() -> object | None:
    try:
        from markitdown import MarkItDown
    except ImportError:
        log("markitdown is not installed (pip install -e '.[bench]'): skipped")
        return None
    return MarkItDown(enable_plugins=False)


def single_process(samples: list[Sample], paths: list[Path], warm: list[Path]) -> dict:
    """Each tool over the same files in this process; returns outputs per tool."""
    outputs: dict[str, dict[str, str | None]] = defaultdict(dict)
    times: dict[str, float] = {}

    def timed(tool: str, convert, items: list[tuple[Sample, Path]]) -> None:
        for path in warm:  # imports and first-use costs are not measured
            try:
                convert(path)
            except Exception:
                pass
        started = time.perf_counter()
        for sample, path in items:
            try:
                outputs[tool][sample.name] = convert(path)
            except Exception as exc:  # a tool that cannot read a format: noted per format
                outputs[tool][sample.name] = None
                log(f"{tool}: {sample.name}: {type(exc).__name__}")
        times[tool] = time.perf_counter() - started

    pairs = list(zip(samples, paths, strict=True))
    timed("donecheck", lambda p: _text(parse_bytes(p.read_bytes(), p.name)), pairs)
    md = _markitdown()
    if md is not None:
        timed("markitdown", lambda p: md.convert(str(p)).text_content, pairs)  # type: ignore[attr-defined]
    try:
        import pymupdf
        import pymupdf4llm
    except ImportError:
        log("pymupdf4llm is not installed: skipped")
    else:
        # pymupdf4llm prints notes about OCR engines on every call; stdout is for figures
        os.environ["PYMUPDF_MESSAGE"] = f"path:{os.devnull}"
        pymupdf.set_messages(path=os.devnull)
        pdfs = [(s, p) for s, p in pairs if s.kind == "pdf"]

        timed("pymupdf4llm", lambda p: str(pymupdf4llm.to_markdown(str(p))), pdfs)
        emit(
            "parse_single",
            "files_per_s",
            len(pdfs) / times["pymupdf4llm"],
            "1/s",
            tool="pymupdf4llm",
            files=len(pdfs),
            formats="pdf",
        )
        dc_pdf = sum(1 for s, _ in pdfs)
        started = time.perf_counter()
        for _, path in pdfs:
            parse_bytes(path.read_bytes(), path.name)
        emit(
            "parse_single",
            "files_per_s",
            dc_pdf / (time.perf_counter() - started),
            "1/s",
            tool="donecheck",
            files=dc_pdf,
            formats="pdf",
        )
    for tool in ("donecheck", "markitdown"):
        if tool in times:
            emit(
                "parse_single",
                "files_per_s",
                len(samples) / times[tool],
                "1/s",
                tool=tool,
                files=len(samples),
                formats="all",
            )
    return {"outputs": outputs, "times": times}


def recovery(samples: list[Sample], outputs: dict[str, dict[str, str | None]]) -> dict:
    """Mean recovery per (tool, format); ``None`` where the tool could not read the format."""
    table: dict[tuple[str, str], float | None] = {}
    for tool, produced in outputs.items():
        by_kind: dict[str, list[float]] = defaultdict(list)
        failed: set[str] = set()
        for sample in samples:
            if sample.name not in produced:
                continue
            text = produced[sample.name]
            if text is None:
                failed.add(sample.kind)
                continue
            by_kind[sample.kind].append(recovered(sample.phrases, text))
        for kind in sorted(set(by_kind) | failed):
            value = (
                None if kind in failed and not by_kind[kind] else statistics.fmean(by_kind[kind])
            )
            table[(tool, kind)] = value
            if value is not None:
                emit("parse_recovery", "recovered", value, "share", tool=tool, format=kind)
            else:
                emit("parse_recovery", "unsupported", 1, "flag", tool=tool, format=kind)
    return table


def pool(paths: list[Path], samples: list[Sample], actors: list[int], warm: list[Path]) -> dict:
    import ray

    from donecheck.runtime import DoneCheck

    cpus = os.cpu_count() or 1
    ray.init(
        num_cpus=cpus, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False
    )
    total_bytes = sum(p.stat().st_size for p in paths)
    pages = sum(s.pages for s in samples if s.kind in _PAGED)
    rates: dict[int, float] = {}
    materials: list[Material] = []
    for count in actors:
        dc = DoneCheck.start(namespace=f"bench-parse-{count}", parser_actors=count)
        dc.parse_many(warm)  # first-use costs in each worker; other files, so no cache help
        started = time.perf_counter()
        materials = dc.parse_many(paths)
        elapsed = time.perf_counter() - started
        rates[count] = len(paths) / elapsed
        failed = [m.declared_name for m in materials if m.status == "failed"]
        if failed:
            log(f"failed with {count} actor(s): {failed}")
        params = {
            "actors": count,
            "files": len(paths),
            "pages": pages,
            "mb": round(total_bytes / 1e6, 2),
        }
        emit("parse_pool", "files_per_s", len(paths) / elapsed, "1/s", **params)
        emit("parse_pool", "pages_per_s", pages / elapsed, "1/s", **params)
        emit("parse_pool", "mb_per_s", total_bytes / 1e6 / elapsed, "MB/s", **params)
        if count == actors[-1]:
            latencies = []
            for path in paths[: min(len(paths), 96)]:
                started = time.perf_counter()
                dc.parse(path)
                latencies.append((time.perf_counter() - started) * 1000)
            stats = describe(latencies)
            for key in ("p50", "p99"):
                emit(
                    "parse_cache",
                    f"hit_latency_{key}",
                    stats[key],
                    "ms",
                    files=len(latencies),
                    actors=count,
                )
        log(
            f"statistics with {count} actor(s): "
            f"{ {n: s for n, s in dc.statistics().items() if n.startswith('parser')} }"
        )
        dc.shutdown(stop_deployment=True)
    ray.shutdown()
    if len(actors) == 2:
        one, many = actors
        emit(
            "parse_pool",
            "scaling",
            rates[many] / (many * rates[one]),
            "x",
            note=f"{many}-actor files/s / ({many} x 1-actor files/s)",
        )
    return {"rates": rates, "materials": materials}


def _found(phrases: list[str], output: str | None) -> int:
    return len(phrases) - len(missing(phrases, output))


def realworld(workers: int, rounds: int) -> None:
    """The real-world corpus (tests/realworld): recall of the phrases each file
    holds, warm throughput, and one-shot whole-process wall, beside MarkItDown."""
    import shutil
    import subprocess
    import sys

    from donecheck.parsers.worker import WorkerPool
    from tests.realworld import EXPECTED as expected
    from tests.realworld import FILES as files

    total = sum(len(expected.get(p.name, [])) for p in files)
    size = sum(p.stat().st_size for p in files)
    log(f"real-world corpus: {len(files)} files, {size / 1e6:.1f} MB, {total} phrases")
    md = _markitdown()
    outputs: dict[str, dict[str, str | None]] = {"donecheck": {}, "markitdown": {}}
    for path in files:
        material = parse_bytes(path.read_bytes(), path.name)
        outputs["donecheck"][path.name] = _text(material)
        if md is not None:
            try:
                outputs["markitdown"][path.name] = md.convert(str(path)).text_content
            except Exception as exc:  # a format it cannot read counts as nothing found
                outputs["markitdown"][path.name] = None
                log(f"markitdown: {path.name}: {type(exc).__name__}")
    for tool, texts in outputs.items():
        if tool == "markitdown" and md is None:
            continue
        found = sum(_found(expected.get(p.name, []), texts.get(p.name)) for p in files)
        emit(
            "parse_realworld",
            "recall",
            found / max(total, 1),
            "share",
            tool=tool,
            found=found,
            phrases=total,
        )
        families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for p in files:
            family = families[p.suffix.lower().lstrip(".")]
            family[0] += _found(expected.get(p.name, []), texts.get(p.name))
            family[1] += len(expected.get(p.name, []))
        for family_name, (hit, of) in sorted(families.items()):
            if of:
                emit(
                    "parse_realworld",
                    "recall",
                    hit / of,
                    "share",
                    tool=tool,
                    format=family_name,
                    found=hit,
                    phrases=of,
                )
    rates: dict[str, float] = {}
    if md is not None:
        started = time.perf_counter()
        for _ in range(rounds):
            for path in files:
                try:
                    md.convert(str(path))
                except Exception:
                    pass
        rates["markitdown"] = rounds * len(files) / (time.perf_counter() - started)
        emit(
            "parse_realworld",
            "files_per_s",
            rates["markitdown"],
            "1/s",
            tool="markitdown",
            mode="in-process, warm",
        )
    from concurrent.futures import ThreadPoolExecutor

    with WorkerPool(workers, timeout_s=60, memory_bytes=2 << 30) as pool:
        data = [(p.name, p.read_bytes()) for p in files]

        def one(item: tuple[str, bytes]) -> Material:
            name, content = item
            return pool.parse(content, name, sha256=sha256_ref(content), limits=ParseLimits())

        with ThreadPoolExecutor(max_workers=workers) as executor:
            list(executor.map(one, data))  # starts and warms every worker
            started = time.perf_counter()
            for _ in range(rounds):
                list(executor.map(one, data))
            rates["donecheck"] = rounds * len(files) / (time.perf_counter() - started)
    emit(
        "parse_realworld",
        "files_per_s",
        rates["donecheck"],
        "1/s",
        tool="donecheck",
        mode=f"warm pool of {workers} workers",
    )
    if "markitdown" in rates:
        emit(
            "parse_realworld",
            "throughput_ratio",
            rates["donecheck"] / rates["markitdown"],
            "x",
            note=f"DoneCheck warm pool ({workers}) / MarkItDown in-process (target >= 3)",
        )
    # one-shot: the whole process, as a user runs it on these files
    donecheck_cli = shutil.which("donecheck") or str(Path(sys.executable).with_name("donecheck"))
    started = time.perf_counter()
    subprocess.run([donecheck_cli, "parse", *map(str, files)], capture_output=True, check=False)
    one_shot = time.perf_counter() - started
    emit(
        "parse_realworld",
        "one_shot_wall_s",
        one_shot,
        "s",
        tool="donecheck",
        command="donecheck parse FILES",
    )
    markitdown_cli = shutil.which("markitdown") or str(Path(sys.executable).with_name("markitdown"))
    if md is not None and Path(markitdown_cli).exists():
        started = time.perf_counter()
        for path in files:  # its CLI takes one file
            subprocess.run([markitdown_cli, str(path)], capture_output=True, check=False)
        cli = time.perf_counter() - started
        emit(
            "parse_realworld",
            "one_shot_wall_s",
            cli,
            "s",
            tool="markitdown",
            command="markitdown FILE, once per file",
        )
        script = (
            "import sys\nfrom markitdown import MarkItDown\nmd = MarkItDown()\n"
            "for f in sys.argv[1:]:\n    try: md.convert(f)\n    except Exception: pass\n"
        )
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", script, *map(str, files)], capture_output=True, check=False
        )
        batch = time.perf_counter() - started
        emit(
            "parse_realworld",
            "one_shot_wall_s",
            batch,
            "s",
            tool="markitdown",
            command="one Python process converting every file",
        )
        emit(
            "parse_realworld",
            "one_shot_ratio",
            one_shot / min(cli, batch),
            "x",
            note="DoneCheck one-shot wall / MarkItDown's best one-shot wall (target <= 1)",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=384)
    parser.add_argument("--actors", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the real-world corpus")
    parser.add_argument(
        "--realworld-only", action="store_true", help="only the real-world corpus figures"
    )
    args = parser.parse_args()
    realworld(args.actors, args.rounds)
    if args.realworld_only:
        return
    everything = corpus(args.files + 16)
    samples, warm_samples = everything[: args.files], everything[args.files :]
    with tempfile.TemporaryDirectory(prefix="donecheck-bench-") as tmp:
        (Path(tmp) / "corpus").mkdir()
        (Path(tmp) / "warm").mkdir()
        paths = _write(samples, Path(tmp) / "corpus")
        warm = _write(warm_samples, Path(tmp) / "warm")  # other seeds: no cache help
        log(f"corpus: {len(paths)} files, {sum(p.stat().st_size for p in paths) / 1e6:.1f} MB")
        single = single_process(samples, paths, warm)
        table = recovery(samples, single["outputs"])
        pooled = pool(paths, samples, sorted({1, args.actors}), warm)
    times = single["times"]
    best = max(pooled["rates"].values())
    if "markitdown" in times:
        markitdown_rate = len(samples) / times["markitdown"]
        emit("parse_vs_markitdown", "markitdown_files_per_s", markitdown_rate, "1/s")
        emit(
            "parse_vs_markitdown",
            "throughput_ratio",
            best / markitdown_rate,
            "x",
            note=f"DoneCheck pool ({args.actors} actors) / MarkItDown (1 process)",
        )
        emit(
            "parse_vs_markitdown",
            "single_process_ratio",
            times["markitdown"] / times["donecheck"],
            "x",
            note="DoneCheck parse_bytes / MarkItDown, both in one process",
        )
        both = [k for (tool, k), v in table.items() if tool == "markitdown" and v is not None]
        worst = min((table[("donecheck", k)] or 0) - (table[("markitdown", k)] or 0) for k in both)
        emit(
            "parse_vs_markitdown",
            "worst_recovery_difference",
            worst,
            "share",
            note="min over formats both read of DoneCheck - MarkItDown",
            formats=len(both),
        )


if __name__ == "__main__":
    main()
