"""One local Ray instance (num_cpus=2) and one DoneCheck deployment for the whole test session."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

NAMESPACE = "donecheck-test"


@pytest.fixture(scope="session")
def ray_address() -> Iterator[str]:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from donecheck.actors.config import Config
    from donecheck.actors.deploy import embedded_ray_options, loopback_ray

    loopback_ray()
    ray.init(
        namespace=NAMESPACE,
        logging_level=logging.ERROR,
        log_to_driver=False,
        **embedded_ray_options(Config(num_cpus=2)),  # as DoneCheck.start() does
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.fixture(scope="session")
def dc(ray_address: str) -> Iterator[object]:
    from donecheck.runtime import DoneCheck

    app = DoneCheck.start(
        namespace=NAMESPACE,
        ledger_shards=2,
        controller_shards=2,
        reviewer_actors=2,
        parser_actors=2,
    )
    yield app
    app.shutdown()
