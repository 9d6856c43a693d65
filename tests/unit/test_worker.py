"""The isolated worker: a hang is killed, a crash is contained, memory is capped,
and no process is left behind. Real child processes; no Ray."""

from __future__ import annotations

import os
import time

import pytest

from donecheck.actors.config import Config
from donecheck.actors.messages import ParseRequest
from donecheck.actors.parser import AttachmentParser
from donecheck.parsers import ParseLimits
from donecheck.parsers.material import sha256_ref
from donecheck.parsers.worker import IsolatedParser, WorkerPool

TARGET = "tests.support.hostile_targets:misbehave"
LIMITS = ParseLimits(ocr=False)


def alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes once reaped
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def parse(worker: IsolatedParser, data: bytes, name: str = "f.txt"):
    return worker.parse(data, name, sha256=sha256_ref(data), limits=LIMITS)


@pytest.fixture
def worker():
    with IsolatedParser(timeout_s=2.0, memory_bytes=768 << 20, target=TARGET) as w:
        yield w


def test_normal_parse_in_the_child(worker: IsolatedParser) -> None:
    material = parse(worker, b"hello from the child\n")
    assert material.status == "parsed" and "hello from the child" in material.blocks[0].text


def test_hang_is_killed_and_the_worker_replaced(worker: IsolatedParser) -> None:
    first_pid = worker.pid
    started = time.monotonic()
    material = parse(worker, b"HANG forever")
    assert time.monotonic() - started < 5
    assert material.status == "failed" and material.reason.startswith("timeout")
    assert not alive(first_pid)
    # the next file gets a fresh process and works
    assert parse(worker, b"fine after a hang\n").status == "parsed"
    assert worker.pid != first_pid and worker.stats["timeouts"] == 1


@pytest.mark.parametrize(("data", "how"), [(b"SEGV", "SIGSEGV"), (b"EXIT", "exit status 3")])
def test_crash_is_contained(worker: IsolatedParser, data: bytes, how: str) -> None:
    material = parse(worker, data)
    assert material.status == "failed"
    assert material.reason.startswith("crashed") and how in material.reason
    assert parse(worker, b"fine after a crash\n").status == "parsed"
    assert worker.stats["crashes"] == 1


def test_memory_is_capped(worker: IsolatedParser) -> None:
    material = parse(worker, b"HOG")
    assert material.status == "failed"
    assert material.reason.startswith(("out of memory", "crashed"))
    assert parse(worker, b"fine after a hog\n").status == "parsed"


def test_no_process_is_left_behind() -> None:
    worker = IsolatedParser(timeout_s=2.0, target=TARGET)
    pids = [worker.pid]
    parse(worker, b"HANG")
    pids.append(worker.pid)  # None until the next parse starts one
    parse(worker, b"ok\n")
    pids.append(worker.pid)
    worker.close()
    assert not any(alive(pid) for pid in pids)


def test_pool_parses_in_parallel_processes() -> None:
    with WorkerPool(2, timeout_s=10, memory_bytes=1 << 30) as pool:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(2) as executor:
            results = list(
                executor.map(
                    lambda n: pool.parse(
                        b"text %d\n" % n, "t.txt", sha256=sha256_ref(b"%d" % n), limits=LIMITS
                    ),
                    range(6),
                )
            )
    assert [m.status for m in results] == ["parsed"] * 6


def test_actor_class_marks_a_hang_failed_and_keeps_serving() -> None:
    parser = AttachmentParser(config=Config(parse_timeout_s=1.5), target=TARGET)
    try:
        hang = b"HANG"
        result = parser.parse(
            ParseRequest(sha256=sha256_ref(hang), declared_name="h.bin", size=4), hang
        )
        assert result.status == "failed" and result.reason.startswith("timeout")
        ok = b"works\n"
        result = parser.parse(
            ParseRequest(sha256=sha256_ref(ok), declared_name="ok.txt", size=len(ok)), ok
        )
        assert result.status == "parsed"
        assert parser.statistics()["worker_timeouts"] == 1
    finally:
        parser.close()
