"""Unit tests never start Ray: ``ray.init`` fails here (as in Ray Serve's unit conftest)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("unit tests must not start Ray; put this test in tests/ray/")

    monkeypatch.setattr(ray, "init", refuse)
