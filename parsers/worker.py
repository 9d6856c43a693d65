"""Parse files in a child process: a hang is killed, a crash is contained, memory is capped.

:class:`IsolatedParser` keeps one long-lived child (``python -m
donecheck.parsers.worker``) and talks to it with length-prefixed msgpack frames
over its stdin/stdout. The child caps its own address space (``RLIMIT_AS``) at
start. Each file gets a wall-time deadline; past it the child is killed and the
file is ``failed`` with reason ``timeout``. A child that dies mid-file (a
segfault in a native library, the memory cap) makes the file ``failed`` with
reason ``crashed``. Either way the next file gets a fresh child, and nothing
else is affected. A child whose parent disappears sees end-of-file and exits,
so no process is left behind.

A plain child process, not ``multiprocessing``: its "spawn" start re-imports the
parent's ``__main__``, which inside a Ray worker is Ray's own worker script.
"""

from __future__ import annotations

import importlib
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any

import msgspec

from donecheck.parsers.base import ParseLimits
from donecheck.parsers.material import ImageRole, Material

__all__ = ["DEFAULT_TARGET", "IsolatedParser", "WorkerPool", "main"]

DEFAULT_TARGET = "donecheck.parsers:parse_bytes"
_FRAME = struct.Struct(">I")
_READY = b"ready"
_STARTUP_TIMEOUT_S = 120.0


class _Request(msgspec.Struct, frozen=True):
    data: bytes
    name: str
    sha256: str
    limits: dict[str, Any]
    role: ImageRole | None = None


class _Reply(msgspec.Struct, frozen=True):
    material: bytes = b""
    error: str = ""


_request_decoder = msgspec.msgpack.Decoder(_Request)
_reply_decoder = msgspec.msgpack.Decoder(_Reply)
_material_decoder = msgspec.msgpack.Decoder(Material)
_encoder = msgspec.msgpack.Encoder()


def _failed(sha256: str, name: str, reason: str) -> Material:
    return Material(
        sha256=sha256, declared_name=name, detected_type="unknown", status="failed", reason=reason
    )


class _ChildGone(Exception):
    pass


class IsolatedParser:
    """One parse at a time in a supervised child process (thread-safe)."""

    def __init__(
        self,
        *,
        timeout_s: float = 60.0,
        memory_bytes: int = 2 << 30,
        target: str = DEFAULT_TARGET,
        start: bool = True,
    ) -> None:
        self.timeout_s = timeout_s
        self.memory_bytes = memory_bytes
        self.target = target
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self.stats = {"parsed": 0, "timeouts": 0, "crashes": 0, "starts": 0}
        if start:
            with self._lock:
                self._ensure()

    # ------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the child now (a failure is retried, and reported, by the next parse)."""
        with self._lock:
            try:
                self._ensure()
            except RuntimeError:
                pass

    @property
    def pid(self) -> int | None:
        return self._child.pid if self._child is not None else None

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._child is not None and self._child.poll() is None:
            return self._child
        self._reap()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        self._stderr = tempfile.TemporaryFile()
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "donecheck.parsers.worker",
                "--memory-bytes",
                str(self.memory_bytes),
                "--target",
                self.target,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            start_new_session=True,  # a terminal's Ctrl-C goes to the parent, which cleans up
        )
        self._child = child
        self.stats["starts"] += 1
        try:
            if self._read_frame(child, time.monotonic() + _STARTUP_TIMEOUT_S) != _READY:
                raise _ChildGone("the worker did not start")
        except (_ChildGone, TimeoutError) as exc:
            detail = self._last_stderr()
            self._reap()
            raise RuntimeError(f"the parse worker could not start: {exc} {detail}") from None
        return child

    def _reap(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            if child.poll() is None:
                child.kill()
            child.wait()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    stream.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def close(self) -> None:
        """Stop the child process (it is restarted on the next parse)."""
        with self._lock:
            self._reap()

    def __enter__(self) -> IsolatedParser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        child = getattr(self, "_child", None)
        if child is not None and child.poll() is None:
            child.kill()

    # ------------------------------------------------------------------ I/O

    def _last_stderr(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - 400))
        tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        return f"({tail[-1]})" if tail else ""

    @staticmethod
    def _read_exact(fd: int, size: int, deadline: float) -> bytes:
        chunks: list[bytes] = []
        remaining = size
        while remaining:
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                raise _ChildGone("end of output")
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _read_frame(self, child: subprocess.Popen[bytes], deadline: float) -> bytes:
        assert child.stdout is not None
        fd = child.stdout.fileno()
        (size,) = _FRAME.unpack(self._read_exact(fd, _FRAME.size, deadline))
        return self._read_exact(fd, size, deadline)

    def _crash_reason(self, child: subprocess.Popen[bytes]) -> str:
        try:
            code = child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            how = f"killed by {name}"
        else:
            how = f"exit status {code}"
        detail = self._last_stderr()
        return f"crashed: the parser process died ({how}) {detail}".strip()

    # ---------------------------------------------------------------- parse

    def parse(
        self,
        data: bytes,
        name: str,
        *,
        sha256: str,
        limits: ParseLimits,
        role: ImageRole | None = None,
    ) -> Material:
        """Parse ``data`` in the child. Always returns a Material; never hangs."""
        request = _encoder.encode(
            _Request(data=data, name=name, sha256=sha256, limits=limits.as_dict(), role=role)
        )
        with self._lock:
            try:
                child = self._ensure()
            except RuntimeError as exc:
                return _failed(sha256, name, f"crashed: {exc}")
            deadline = time.monotonic() + self.timeout_s
            try:
                assert child.stdin is not None
                child.stdin.write(_FRAME.pack(len(request)) + request)
                child.stdin.flush()
                reply = _reply_decoder.decode(self._read_frame(child, deadline))
            except TimeoutError:
                self.stats["timeouts"] += 1
                self._reap()
                return _failed(
                    sha256,
                    name,
                    f"timeout: parsing took longer than {self.timeout_s:g} s; the parser "
                    "process was stopped and replaced",
                )
            except (_ChildGone, BrokenPipeError, OSError):
                self.stats["crashes"] += 1
                reason = self._crash_reason(child)
                self._reap()
                return _failed(sha256, name, reason)
        self.stats["parsed"] += 1
        if reply.error:
            return _failed(sha256, name, reply.error)
        return _material_decoder.decode(reply.material)


# ----------------------------------------------------------------- the child


def _write_frame(out: IO[bytes], payload: bytes) -> None:
    out.write(_FRAME.pack(len(payload)) + payload)
    out.flush()


def _read_request(inp: IO[bytes]) -> bytes | None:
    header = inp.read(_FRAME.size)
    if len(header) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(header)
    payload = inp.read(size)
    return payload if len(payload) == size else None


def _load(target: str) -> Callable[..., Material]:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def _watch_parent(parent: int) -> None:
    """Exit when the parent dies, even in the middle of a hung parse."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    import argparse
    import resource

    parser = argparse.ArgumentParser(description="DoneCheck parse worker (speaks frames on stdio)")
    parser.add_argument("--memory-bytes", type=int, required=True)
    parser.add_argument("--target", default=DEFAULT_TARGET)
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (args.memory_bytes, args.memory_bytes))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when this process ends
    _watch_parent(os.getppid())
    parse = _load(args.target)
    from donecheck.parsers.bounded import allow_fork

    allow_fork()  # one thread: a page's drawing may run in a fork, killed at its deadline
    for module in ("docx", "openpyxl", "pptx"):  # warm: the first file should not pay imports
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    # Frames go out on a private copy of fd 1; fd 1 itself then points at stderr,
    # so a stray print() or a C library writing to stdout (Leptonica does, about
    # a truncated PNG) cannot corrupt a frame and leave the parent waiting.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    _write_frame(out, _READY)
    while True:
        payload = _read_request(inp)
        if payload is None:
            return 0  # the parent closed the pipe or went away
        try:
            request = _request_decoder.decode(payload)
            material = parse(
                request.data,
                request.name,
                sha256=request.sha256,
                limits=ParseLimits(**request.limits),
                role=request.role,
            )
            reply = _Reply(material=_encoder.encode(material))
        except MemoryError:
            reply = _Reply(
                error=f"out of memory: the parse needed more than the worker's "
                f"{args.memory_bytes} byte limit"
            )
        except Exception as exc:  # a broken target: report, keep serving
            reply = _Reply(error=f"parser error: {type(exc).__name__}: {exc}")
        _write_frame(out, _encoder.encode(reply))


if __name__ == "__main__":
    sys.exit(main())


class WorkerPool:
    """``workers`` isolated parsers used from threads, for parsing outside Ray (the CLI).

    The workers start at once, side by side in the background (``prestart``), so
    their start-up overlaps the caller's own work and each other's.
    """

    def __init__(
        self, workers: int, *, timeout_s: float, memory_bytes: int, prestart: bool = True
    ) -> None:
        import queue

        self._idle: queue.SimpleQueue[IsolatedParser] = queue.SimpleQueue()
        self._all = [
            IsolatedParser(timeout_s=timeout_s, memory_bytes=memory_bytes, start=False)
            for _ in range(max(1, workers))
        ]
        for worker in self._all:
            self._idle.put(worker)
            if prestart:
                threading.Thread(
                    target=worker.start, name="parse-worker-start", daemon=True
                ).start()

    def parse(self, data: bytes, name: str, *, sha256: str, limits: ParseLimits) -> Material:
        worker = self._idle.get()
        try:
            return worker.parse(data, name, sha256=sha256, limits=limits)
        finally:
            self._idle.put(worker)

    def close(self) -> None:
        for worker in self._all:
            worker.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
