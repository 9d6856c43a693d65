"""How DoneCheck starts or reaches Ray, with ``ray.init`` replaced (no Ray here)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from donecheck.actors import deploy
from donecheck.actors.config import Config
from donecheck.actors.deploy import init_ray as _init_ray
from donecheck.actors.errors import DeploymentError

ZOMBIE = (
    "Initialization failure from server:\nTraceback (most recent call last):\n"
    "psutil.ZombieProcess: PID still exists but it's a zombie (pid=24144)"
)


def _fake_ray(monkeypatch: pytest.MonkeyPatch, *failures: Exception) -> list[dict[str, Any]]:
    import ray

    calls: list[dict[str, Any]] = []
    pending = list(failures)

    def init(**kwargs: Any) -> None:
        calls.append(kwargs)
        if pending:
            raise pending.pop(0)

    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    monkeypatch.setattr(deploy.time, "sleep", lambda s: None)  # the retries' pauses
    # what loopback_ray() changes is put back after the test
    from ray._private import ray_constants

    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", ray_constants.ENABLE_RAY_CLUSTER)
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "1")
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)  # and what lean_malloc() sets
    return calls


def test_an_embedded_start_sets_the_workers_niceness(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_ray(monkeypatch)
    assert _init_ray(None, Config(num_cpus=2, worker_niceness=3)) is True
    assert calls[0]["_system_config"] == {"worker_niceness": 3}
    assert calls[0]["num_cpus"] == 2
    # the instance it starts listens on loopback only (tests/ray/test_network.py)
    from ray._private import ray_constants

    assert os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] == "0"
    assert ray_constants.ENABLE_RAY_CLUSTER is False
    assert os.environ["MALLOC_ARENA_MAX"] == "2"  # its processes keep two malloc arenas


def test_a_malloc_arena_cap_the_user_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_ray(monkeypatch)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "8")
    _init_ray(None, Config(num_cpus=2))
    assert os.environ["MALLOC_ARENA_MAX"] == "8"


def test_a_cluster_keeps_its_own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_ray(monkeypatch)
    assert _init_ray("auto", Config()) is False
    assert "MALLOC_ARENA_MAX" not in os.environ
    assert "_system_config" not in calls[0] and calls[0]["address"] == "auto"


@pytest.mark.parametrize("message", [ZOMBIE, "Starting Ray client server failed"])
def test_a_ray_client_server_that_fails_to_start_is_tried_once_more(
    monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    calls = _fake_ray(monkeypatch, ConnectionError(message))
    assert _init_ray("ray://127.0.0.1:10001", Config()) is False
    assert len(calls) == 2


def test_other_failures_are_not_retried_and_name_the_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _fake_ray(monkeypatch, ConnectionError("connection refused"))
    with pytest.raises(DeploymentError, match=r"ray://127\.0\.0\.1:10001.*connection refused"):
        _init_ray("ray://127.0.0.1:10001", Config())
    assert len(calls) == 1
    calls = _fake_ray(monkeypatch, *(ConnectionError(ZOMBIE) for _ in range(5)))
    with pytest.raises(DeploymentError, match="Initialization failure"):
        _init_ray("ray://127.0.0.1:10001", Config())
    assert len(calls) == 4  # a few more times, not forever
