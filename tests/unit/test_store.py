"""One store suite, run against every LedgerStore: memory, SQLite and a real PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from donecheck.actors.errors import StoreError
from donecheck.actors.store import SCHEMA_VERSION, EventRow, LedgerStore, open_store


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LedgerStore]:
    if request.param == "memory":
        url = "memory://"
    elif request.param == "sqlite":
        url = f"sqlite://{tmp_path / 'data'}"
    else:
        url = request.getfixturevalue("postgres_url")
    opened = open_store(url, "ledger-0")
    yield opened
    opened.close()


def rows(session: str, start: int, n: int, kind: str = "ToolCall") -> list[EventRow]:
    return [
        EventRow(session, seq, f"{session}-e{seq}", kind, float(seq), b"data%d" % seq)
        for seq in range(start, start + n)
    ]


def test_append_and_load_in_order(store: LedgerStore) -> None:
    store.append(0, rows("a", 1, 3) + rows("b", 1, 2))
    store.append(0, rows("a", 4, 2))
    assert [r.seq for r in store.load("a")] == [1, 2, 3, 4, 5]
    assert store.load("b")[1] == EventRow("b", 2, "b-e2", "ToolCall", 2.0, b"data2")
    assert store.load("nobody") == []


def test_a_conflicting_batch_stores_nothing(store: LedgerStore) -> None:
    store.append(0, rows("a", 1, 2))
    clash = [
        EventRow("a", 3, "new", "ToolCall", 3.0, b"x"),
        EventRow("a", 2, "other", "ToolCall", 2.0, b"y"),
    ]  # the second reuses a seq
    with pytest.raises(StoreError) as info:
        store.append(0, clash)
    assert info.value.conflict
    assert [r.event_id for r in store.load("a")] == ["a-e1", "a-e2"]
    # Event ids are the ledger's to check (against the whole log it reads before
    # writing); the store keys rows by (session, seq) only.
    store.append(0, [EventRow("a", 3, "a-e1", "ToolCall", 3.0, b"z")])
    assert [r.seq for r in store.load("a")] == [1, 2, 3]


def test_open_sessions_per_shard(store: LedgerStore) -> None:
    store.append(0, rows("a", 1, 1, "SessionOpened"), ["a"])
    store.append(0, rows("b", 1, 1, "SessionOpened"), ["b"])
    store.append(1, rows("c", 1, 1, "SessionOpened"), ["c"])
    store.append(0, rows("a", 2, 1), ["a"])  # registering again changes nothing
    store.append(0, rows("b", 2, 1, "SessionClosed"))
    assert sorted(store.open_sessions(0)) == ["a"]
    assert store.open_sessions(1) == ["c"]


def test_state_put_get_list_delete(store: LedgerStore) -> None:
    assert store.get_state("controller", "s1") is None
    store.put_state("controller", "s1", b"one")
    store.put_state("controller", "s1", b"two")
    store.put_state("controller", "s2", b"x")
    store.put_state("budget", "s1", b"y")
    assert store.get_state("controller", "s1") == b"two"
    assert store.list_state("controller") == [("s1", b"two"), ("s2", b"x")]
    store.delete_state("controller", "s1")
    assert store.list_state("controller") == [("s2", b"x")]
    # by prefix, with characters LIKE would take for patterns
    for key in ("tenant:a", "tenant:%_", "tenantx", "session:1", "tenant:é"):
        store.put_state("budget", key, key.encode())
    assert [k for k, _ in store.list_state("budget", "tenant:")] == sorted(
        ["tenant:a", "tenant:%_", "tenant:é"]
    )
    assert store.list_state("budget", "session:") == [("session:1", b"session:1")]


def test_durable_across_reopen(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    for url in (f"sqlite://{tmp_path / 'data'}", request.getfixturevalue("postgres_url")):
        first = open_store(url, "ledger-0")
        first.append(0, rows("a", 1, 5))
        first.close()
        second = open_store(url, "ledger-0")
        assert [r.seq for r in second.load("a")] == [1, 2, 3, 4, 5]
        second.close()


def test_sqlite_is_one_file_per_shard_in_wal_mode(tmp_path: Path) -> None:
    for shard in range(2):
        open_store(f"sqlite://{tmp_path}", f"ledger-{shard}").close()
    files = sorted(p.name for p in tmp_path.glob("*.sqlite3"))
    assert files == ["ledger-0.sqlite3", "ledger-1.sqlite3"]
    with sqlite3.connect(tmp_path / "ledger-0.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT value FROM dc_meta").fetchone()[0] == str(SCHEMA_VERSION)


def test_schema_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    open_store(f"sqlite://{tmp_path}", "ledger-0").close()
    with sqlite3.connect(tmp_path / "ledger-0.sqlite3") as db:
        db.execute("UPDATE dc_meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(StoreError, match="schema version 99 was written by a newer DoneCheck"):
        open_store(f"sqlite://{tmp_path}", "ledger-0")


def test_bad_urls_and_places(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="unknown store"):
        open_store("mysql://u:secret@h/db", "ledger-0")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot use the folder"):
        open_store(f"sqlite://{blocker}/sub", "ledger-0")


def test_unreachable_postgres_names_the_store_without_the_password() -> None:
    with pytest.raises(StoreError) as info:
        open_store("postgresql://dc:hunter2@127.0.0.1:1/ledger", "ledger-0")
    assert "hunter2" not in str(info.value) and "dc:***@127.0.0.1:1" in str(info.value)


def test_concurrent_appends_to_different_sessions(store: LedgerStore) -> None:
    errors: list[Exception] = []

    def writer(name: str) -> None:
        try:
            for start in range(1, 201, 20):
                store.append(0, rows(name, start, 20))
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"s{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(len(store.load(f"s{i}")) == 200 for i in range(4))
