"""Mutation fuzzing of the parsers: seeds of every family, mutated, through the
isolated worker pool as the CLI and the parser actors run them.

Seeds: the real-world corpus (tests/realworld/files) and generated samples of
every family. Each file is one seed mutated by one of: bit flips, truncation,
duplication of a chunk, insertion of random bytes, a header swapped in from
another seed, a zeroed range. Reports (JSON lines): files, unhandled exceptions
(must be 0), bare "parser error" reasons (0), crashes and timeouts (0), the
slowest file (<= 10 s) and the largest worker RSS (<= 1 GiB, its peak as the
kernel counts it). Files that break a rule are written to --keep for replay.

Run: ``python -m benchmarks.fuzz_parsers --files 5000`` (CI runs a 500-file
sample through tests/unit/test_fuzz_sample.py).
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from donecheck.parsers import ParseLimits
from donecheck.parsers.material import Material, sha256_ref
from donecheck.parsers.worker import IsolatedParser
from tests.support import samples as generated

REALWORLD = Path(__file__).resolve().parent.parent / "tests" / "realworld" / "files"
SLOWEST_S = 10.0
RSS_BYTES = 1 << 30


def seeds() -> list[tuple[str, bytes]]:
    """The real-world files, two generated samples of every family, and the hostile
    files that once broke a parser (each is mutated like the others)."""
    found = [(p.name, p.read_bytes()) for p in sorted(REALWORLD.iterdir())]
    for item in generated.corpus(2 * len(generated.SAMPLES)):
        found.append((item.name, item.data))
    return found + hostile()


def hostile() -> list[tuple[str, bytes]]:
    """A PDF page whose 1.6 MB content stream inflates to 256 MiB (once 23 s and
    1.8 GiB), JSON with a lone surrogate escape (once a bare "parser error"), and an
    e-mail whose attachment is a ZIP bomb (once "parsed" with no reason)."""
    import email.message
    import io
    import zipfile
    import zlib

    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Visible text on page one.")
    page = doc.new_page()
    page.insert_text((72, 72), "never read")
    op = b"BT /F1 1 Tf 0 0 Td (x) Tj ET\n"
    (xref,) = page.get_contents()
    doc.update_stream(xref, zlib.compress(op * ((256 << 20) // len(op)), 9), compress=False)
    doc.xref_set_key(xref, "Filter", "/FlateDecode")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.bin", b"\0" * (64 << 20))
    mail = email.message.EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "a@example.com", "b@example.com", "Q3"
    mail["Date"] = "Tue, 01 Dec 2026 09:00:00 +0000"
    mail.set_content("The figures are attached.")
    mail.add_attachment(bomb.getvalue(), maintype="application", subtype="zip", filename="f.zip")
    return [
        ("inflate-bomb.pdf", doc.tobytes()),
        ("surrogate.json", b'{"name": "caf\\udce9", "rows": [1, 2]}'),
        ("bomb-attached.eml", mail.as_bytes()),
    ]


def _flip(rng: random.Random, data: bytes, _: list[bytes]) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        at = rng.randrange(len(out))
        out[at] ^= 1 << rng.randrange(8)
    return bytes(out)


def _truncate(rng: random.Random, data: bytes, _: list[bytes]) -> bytes:
    return data[: rng.randrange(len(data))]


def _duplicate(rng: random.Random, data: bytes, _: list[bytes]) -> bytes:
    start = rng.randrange(len(data))
    chunk = data[start : start + rng.randint(1, 4096)]
    at = rng.randrange(len(data))
    return data[:at] + chunk * rng.randint(1, 8) + data[at:]


def _insert(rng: random.Random, data: bytes, _: list[bytes]) -> bytes:
    at = rng.randrange(len(data))
    return data[:at] + rng.randbytes(rng.randint(1, 512)) + data[at:]


def _swap_header(rng: random.Random, data: bytes, others: list[bytes]) -> bytes:
    other = rng.choice(others)
    size = rng.choice((4, 8, 16, 64, 512))
    return other[:size] + data[size:]


def _zero(rng: random.Random, data: bytes, _: list[bytes]) -> bytes:
    start = rng.randrange(len(data))
    end = min(len(data), start + rng.randint(1, 8192))
    return data[:start] + b"\0" * (end - start) + data[end:]


MUTATORS: dict[str, Callable[[random.Random, bytes, list[bytes]], bytes]] = {
    "flip": _flip,
    "truncate": _truncate,
    "duplicate": _duplicate,
    "insert": _insert,
    "header": _swap_header,
    "zero": _zero,
}


@dataclass
class Summary:
    files: int = 0
    unhandled: list[str] = field(default_factory=list)
    bare: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    timeouts: list[str] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    mutations: Counter[str] = field(default_factory=Counter)
    slowest_s: float = 0.0
    slowest: str = ""
    max_rss: int = 0
    seeds: int = 0
    families: int = 0


def _peak_rss(pid: int | None) -> int:
    """The worker's peak resident set so far (VmHWM), in bytes."""
    if pid is None:
        return 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(
    count: int,
    *,
    seed: int = 0,
    workers: int = 2,
    timeout_s: float = 30.0,
    keep: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Parse ``count`` mutated files through ``workers`` isolated parsers."""
    pool_seeds = seeds()
    datas = [data for _, data in pool_seeds]
    rng = random.Random(seed)
    names = list(MUTATORS)
    jobs = []
    for number in range(count):
        name, data = pool_seeds[number % len(pool_seeds)]
        mutation = names[rng.randrange(len(names))]
        mutated = MUTATORS[mutation](rng, data, datas) if data else data
        jobs.append((f"{number:05d}-{mutation}-{name}", name, mutation, mutated))
    summary = Summary(seeds=len(pool_seeds))
    summary.families = len({Path(n).suffix.lower() for n, _ in pool_seeds})
    lock = threading.Lock()
    parsers = [IsolatedParser(timeout_s=timeout_s, start=False) for _ in range(workers)]
    idle = list(parsers)
    limits = ParseLimits()

    def one(job: tuple[str, str, str, bytes]) -> None:
        label, name, mutation, data = job
        with lock:
            parser = idle.pop()
        started = time.perf_counter()
        try:
            material: Material | None = parser.parse(
                data, name, sha256=sha256_ref(data), limits=limits
            )
            error = ""
        except Exception as exc:  # must not happen: counted and kept
            material, error = None, f"{type(exc).__name__}: {exc}"
        elapsed = time.perf_counter() - started
        rss = _peak_rss(parser.pid)
        with lock:
            idle.append(parser)
            summary.files += 1
            summary.mutations[mutation] += 1
            summary.max_rss = max(summary.max_rss, rss)
            if elapsed > summary.slowest_s:
                summary.slowest_s, summary.slowest = elapsed, label
            bad = ""
            if material is None:
                summary.unhandled.append(f"{label}: {error}")
                bad = "unhandled"
            else:
                summary.statuses[material.status] += 1
                reason = material.reason
                if reason.startswith("parser error"):
                    summary.bare.append(f"{label}: {reason}")
                    bad = "bare"
                elif reason.startswith("crashed"):
                    summary.crashes.append(f"{label}: {reason}")
                    bad = "crash"
                elif reason.startswith("timed out") or "timeout" in reason[:40]:
                    summary.timeouts.append(f"{label}: {reason}")
                    bad = "timeout"
            if elapsed > SLOWEST_S or rss > RSS_BYTES:
                bad = bad or "slow-or-large"
            if bad and keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{bad}-{label}").write_bytes(data)
            if progress is not None:
                progress(summary.files)

    try:
        with ThreadPoolExecutor(max_workers=workers) as executor:
            list(executor.map(one, jobs))
    finally:
        for parser in parsers:
            parser.close()
    return summary


def main() -> None:
    from benchmarks._common import emit, log

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="write rule-breaking files here")
    args = parser.parse_args()
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 500 == 0:
            log(f"{done} of {args.files} files, {time.perf_counter() - started:.0f} s")

    summary = run(
        args.files, seed=args.seed, workers=args.workers, keep=args.keep, progress=progress
    )
    params = {"seeds": summary.seeds, "families": summary.families, "seed": args.seed}
    emit("fuzz_parsers", "files", summary.files, "files", **params)
    emit(
        "fuzz_parsers",
        "unhandled_exceptions",
        len(summary.unhandled),
        "files",
        examples=summary.unhandled[:3],
    )
    emit(
        "fuzz_parsers",
        "bare_parser_error_reasons",
        len(summary.bare),
        "files",
        examples=summary.bare[:3],
    )
    emit("fuzz_parsers", "crashes", len(summary.crashes), "files", examples=summary.crashes[:3])
    emit("fuzz_parsers", "timeouts", len(summary.timeouts), "files", examples=summary.timeouts[:3])
    emit(
        "fuzz_parsers",
        "slowest_file_s",
        summary.slowest_s,
        "s",
        file=summary.slowest,
        limit_s=SLOWEST_S,
    )
    emit(
        "fuzz_parsers",
        "max_worker_rss_mib",
        summary.max_rss / 2**20,
        "MiB",
        limit_mib=RSS_BYTES / 2**20,
    )
    emit("fuzz_parsers", "statuses", summary.files, "files", **dict(summary.statuses))
    emit(
        "fuzz_parsers",
        "wall_s",
        time.perf_counter() - started,
        "s",
        mutations=dict(summary.mutations),
    )


if __name__ == "__main__":
    main()
