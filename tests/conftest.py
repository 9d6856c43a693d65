"""Shared test settings: hypothesis profile, and a real PostgreSQL server for store tests."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,  # tests write only under temporary folders: no .hypothesis/ here
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Tests own their world: a deployment a test starts without a data_dir keeps its
# stores here, and a service writes its runtime file here — never under $HOME.
_SCRATCH = tempfile.mkdtemp(prefix="donecheck-tests-")
os.environ.setdefault("DONECHECK_DATA_DIR", os.path.join(_SCRATCH, "data"))
os.environ.setdefault("DONECHECK_RUNTIME_FILE", os.path.join(_SCRATCH, "run", "serve.json"))
# Ray 2.59+ turns token authentication on for a local instance and, with no token
# at hand, writes one to ~/.ray/auth_token; and it keeps its session folders in
# /tmp/ray, moving the session_latest link another Ray on this host may use. A
# token and a temporary folder of the test session's own keep both to ourselves.
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
_RAY_TMP = tempfile.mkdtemp(prefix="dcray-", dir="/tmp")  # short: Ray's socket paths
os.environ.setdefault("RAY_TMPDIR", _RAY_TMP)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the folders this test session made (after every fixture's teardown,
    so after Ray has stopped); a folder given from outside is left alone."""
    for folder in (_SCRATCH, _RAY_TMP):
        shutil.rmtree(folder, ignore_errors=True)


POSTGRES_ENV = "DONECHECK_TEST_POSTGRES_URL"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server URL: ``$DONECHECK_TEST_POSTGRES_URL`` (``.ci/run`` sets it),
    else a server started here from the machine's packages, else a skip saying why."""
    given = os.environ.get(POSTGRES_ENV)
    if given:
        yield given
        return
    from tests.support import postgres

    if postgres.find_bin("initdb") is None:
        pytest.skip(f"PostgreSQL is not installed and {POSTGRES_ENV} is not set")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install -e '.[test]')")
    folder = Path(tempfile.mkdtemp(prefix="dc-pg-", dir="/tmp"))
    try:
        url = postgres.start(folder)
    except Exception as exc:
        postgres.stop(folder)
        pytest.fail(f"could not start PostgreSQL: {exc}")
    try:
        yield url
    finally:
        postgres.stop(folder)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the server, dropped after the test."""
    import psycopg

    name = f"dc_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = postgres_server.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
