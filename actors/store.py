"""Where the ledger (and later the controllers' and accountants' state) is kept.

One small interface, :class:`LedgerStore`, three implementations chosen by URL:

``sqlite:///folder``
    The embedded default. One database file per actor (``folder/ledger-0.sqlite3``
    …), in WAL mode with ``synchronous=FULL``: a commit is on disk when it
    returns. One file per shard, because one SQLite file admits one writer at
    a time — a shared file would be the global lock DoneCheck avoids.
``postgresql://user@host/db``
    For a cluster, where actors move between nodes. One database for every
    shard (rows carry their shard); PostgreSQL locks rows, not the ledger.
    Needs ``pip install 'donecheck[postgres]'`` (psycopg 3).
``memory://``
    Not durable: for tests and throwaway runs.

The schema is versioned in ``dc_meta`` and created on first use. Errors from
the database drivers are translated into :class:`StoreError` here, with any
password removed from the URL.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from donecheck.actors.errors import StoreError
from donecheck.actors.redact import redact, redact_url

__all__ = [
    "SCHEMA_VERSION",
    "EventRow",
    "LedgerStore",
    "MemoryStore",
    "PostgresStore",
    "SqliteStore",
    "StateWriter",
    "StoreLocation",
    "open_store",
    "opened",
]

SCHEMA_VERSION = 1
T = TypeVar("T")


class EventRow(NamedTuple):
    """One stored event: ``data`` is the msgpack-encoded ledger event."""

    session_id: str
    seq: int
    event_id: str
    kind: str
    at: float
    data: bytes


class LedgerStore(Protocol):
    """Durable storage for ledger events and actor state."""

    url: str
    """Where it is, without a password."""

    def append(
        self, shard: int, rows: Sequence[EventRow], new_sessions: Sequence[str] = ()
    ) -> None:
        """Store ``rows`` in one transaction; they are durable when this returns.

        ``new_sessions`` are the sessions this batch starts (they are registered
        for :meth:`open_sessions`); a session already registered is left as it is.

        Raises :class:`StoreError` (``conflict=True`` when a row's ``(session,
        seq)`` is already there); then nothing is stored.

        A store does not check event ids: the ledger does, against the session's
        whole log, which it reads before it writes. The ``(session, seq)`` key
        makes that enough — a writer that missed a row conflicts on its seq. (A
        unique index on random event ids made each insert land at a random place
        in a growing B-tree: 100k rows of one session cost 17x 10k rows.)
        """
        ...

    def load(self, session_id: str) -> list[EventRow]:
        """A session's events in sequence order."""
        ...

    def open_sessions(self, shard: int) -> list[str]:
        """Sessions of a shard that have not been closed."""
        ...

    def put_state(self, kind: str, key: str, data: bytes) -> None: ...

    def put_states(self, kind: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Write several keys of ``kind`` in one transaction."""
        ...

    def get_state(self, kind: str, key: str) -> bytes | None: ...

    def list_state(self, kind: str, prefix: str = "") -> list[tuple[str, bytes]]:
        """The keys of ``kind`` (those starting with ``prefix``) and their values, by key."""
        ...

    def delete_state(self, kind: str, key: str) -> None: ...

    def close(self) -> None: ...


def open_store(url: str, name: str) -> LedgerStore:
    """Open the store at ``url`` for the actor ``name`` (``ledger-0`` …)."""
    if url.startswith("memory://"):
        return MemoryStore()
    if url.startswith("sqlite://"):
        folder = url.removeprefix("sqlite://")
        if not folder:
            raise StoreError(url, "no folder: use sqlite:///path/to/folder")
        return SqliteStore(Path(folder), name)
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise StoreError(redact_url(url), "unknown store; use sqlite://, postgresql:// or memory://")


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """Where an actor's store is: a small value that crosses to the actor's own
    process (an open store cannot) and is opened there, again after a restart."""

    url: str
    name: str
    """The actor's name (``ledger-0`` …): its file under a SQLite folder."""

    def open(self) -> LedgerStore:
        return open_store(self.url, self.name)


def opened(store: LedgerStore | StoreLocation | None) -> LedgerStore | None:
    """``store`` itself, or opened when it is a :class:`StoreLocation`."""
    return store.open() if isinstance(store, StoreLocation) else store


# -------------------------------------------------------------------- memory


class MemoryStore:
    """The same interface in memory (unit tests, throwaway runs). Not durable."""

    url = "memory://"

    def __init__(self) -> None:
        self._events: dict[str, dict[int, EventRow]] = {}
        self._sessions: dict[str, tuple[int, bool]] = {}
        self._state: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()
        self.appends = 0

    def append(
        self, shard: int, rows: Sequence[EventRow], new_sessions: Sequence[str] = ()
    ) -> None:
        with self._lock:
            for row in rows:
                if row.seq in self._events.get(row.session_id, {}):
                    raise StoreError(self.url, f"event {row.seq} is already stored", True)
            for session_id in new_sessions:
                self._sessions.setdefault(session_id, (shard, False))
            for row in rows:
                self._events.setdefault(row.session_id, {})[row.seq] = row
                if row.kind == "SessionClosed" and row.session_id in self._sessions:
                    self._sessions[row.session_id] = (self._sessions[row.session_id][0], True)
            self.appends += 1

    def load(self, session_id: str) -> list[EventRow]:
        with self._lock:
            return sorted(self._events.get(session_id, {}).values(), key=lambda r: r.seq)

    def open_sessions(self, shard: int) -> list[str]:
        with self._lock:
            return [s for s, (sh, closed) in self._sessions.items() if sh == shard and not closed]

    def put_state(self, kind: str, key: str, data: bytes) -> None:
        with self._lock:
            self._state[(kind, key)] = data

    def put_states(self, kind: str, items: Sequence[tuple[str, bytes]]) -> None:
        with self._lock:
            for key, data in items:
                self._state[(kind, key)] = data

    def get_state(self, kind: str, key: str) -> bytes | None:
        with self._lock:
            return self._state.get((kind, key))

    def list_state(self, kind: str, prefix: str = "") -> list[tuple[str, bytes]]:
        with self._lock:
            return sorted(
                (k, v) for (kd, k), v in self._state.items() if kd == kind and k.startswith(prefix)
            )

    def delete_state(self, kind: str, key: str) -> None:
        with self._lock:
            self._state.pop((kind, key), None)

    def close(self) -> None:
        pass


# -------------------------------------------------------------------- SQL

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS dc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS dc_events (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        data {blob} NOT NULL,
        PRIMARY KEY (session_id, seq))""",
    """CREATE TABLE IF NOT EXISTS dc_sessions (
        session_id TEXT PRIMARY KEY,
        shard INTEGER NOT NULL,
        opened_at DOUBLE PRECISION NOT NULL,
        closed INTEGER NOT NULL DEFAULT 0)""",
    "CREATE INDEX IF NOT EXISTS dc_sessions_open ON dc_sessions (shard, closed)",
    """CREATE TABLE IF NOT EXISTS dc_state (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        data {blob} NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (kind, key))""",
]


def _check_version(url: str, found: str | None) -> None:
    if found is not None and int(found) > SCHEMA_VERSION:
        raise StoreError(
            url,
            f"schema version {found} was written by a newer DoneCheck (this one knows "
            f"{SCHEMA_VERSION}); upgrade DoneCheck or use another store",
        )


class _SqlStore:
    """The statements both databases share; a subclass supplies the connection,
    its parameter style and how a transaction runs."""

    url: str
    _db: Any  # the open connection
    _P = "?"  # parameter placeholder
    _INSERT_SESSION = ""
    _UPSERT_STATE = ""
    _LIST_PREFIX = (
        "SELECT key, data FROM dc_state WHERE kind=? AND key>=? AND key<?"
        " AND substr(key, 1, ?)=? ORDER BY key"
    )

    def _run(self, work: Callable[[], T]) -> T:
        raise NotImplementedError

    def _create_schema(self, blob: str) -> None:
        """Create the tables if missing and check the schema version, inside the
        caller's transaction."""
        db = self._db
        for statement in _SCHEMA:
            db.execute(statement.format(blob=blob))
        row = db.execute("SELECT value FROM dc_meta WHERE key='schema_version'").fetchone()
        _check_version(self.url, row[0] if row else None)
        if row is None:
            db.execute(
                f"INSERT INTO dc_meta VALUES ('schema_version', {self._P})", (str(SCHEMA_VERSION),)
            )

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self._P)

    def append(
        self, shard: int, rows: Sequence[EventRow], new_sessions: Sequence[str] = ()
    ) -> None:
        if not rows:
            return
        now = time.time()
        sessions = [(session_id, shard, now) for session_id in new_sessions]
        closed = [(r.session_id,) for r in rows if r.kind == "SessionClosed"]

        def work() -> None:
            self._executemany(self._sql("INSERT INTO dc_events VALUES (?,?,?,?,?,?)"), rows)
            if sessions:
                self._executemany(self._sql(self._INSERT_SESSION), sessions)
            if closed:
                self._executemany(
                    self._sql("UPDATE dc_sessions SET closed=1 WHERE session_id=?"), closed
                )

        self._run(work)

    def load(self, session_id: str) -> list[EventRow]:
        return self._run(
            lambda: [
                EventRow(r[0], r[1], r[2], r[3], r[4], bytes(r[5]))
                for r in self._execute(
                    self._sql(
                        "SELECT session_id, seq, event_id, kind, at, data FROM dc_events "
                        "WHERE session_id=? ORDER BY seq"
                    ),
                    (session_id,),
                )
            ]
        )

    def open_sessions(self, shard: int) -> list[str]:
        return self._run(
            lambda: [
                r[0]
                for r in self._execute(
                    self._sql("SELECT session_id FROM dc_sessions WHERE shard=? AND closed=0"),
                    (shard,),
                )
            ]
        )

    def put_state(self, kind: str, key: str, data: bytes) -> None:
        self._run(
            lambda: self._execute(self._sql(self._UPSERT_STATE), (kind, key, data, time.time()))
        )

    def put_states(self, kind: str, items: Sequence[tuple[str, bytes]]) -> None:
        now = time.time()
        rows = [(kind, key, data, now) for key, data in items]
        if rows:
            self._run(lambda: self._executemany(self._sql(self._UPSERT_STATE), rows))

    def get_state(self, kind: str, key: str) -> bytes | None:
        def work() -> bytes | None:
            row = self._execute(
                self._sql("SELECT data FROM dc_state WHERE kind=? AND key=?"), (kind, key)
            ).fetchone()
            return bytes(row[0]) if row else None

        return self._run(work)

    def list_state(self, kind: str, prefix: str = "") -> list[tuple[str, bytes]]:
        # a key range in byte order (the primary key serves it, whatever the number of
        # other keys), checked exactly by substr; LIKE would take % and _ as patterns
        upper = prefix + "\U0010ffff"
        return self._run(
            lambda: [
                (r[0], bytes(r[1]))
                for r in self._execute(
                    self._sql(self._LIST_PREFIX), (kind, prefix, upper, len(prefix), prefix)
                )
            ]
        )

    def delete_state(self, kind: str, key: str) -> None:
        self._run(
            lambda: self._execute(
                self._sql("DELETE FROM dc_state WHERE kind=? AND key=?"), (kind, key)
            )
        )


_UPSERT_STATE = (
    "INSERT INTO dc_state VALUES (?,?,?,?) ON CONFLICT (kind, key) DO UPDATE SET "
    "data=excluded.data, updated=excluded.updated"
)


class SqliteStore(_SqlStore):
    _INSERT_SESSION = (
        "INSERT OR IGNORE INTO dc_sessions (session_id, shard, opened_at) VALUES (?,?,?)"
    )
    _UPSERT_STATE = _UPSERT_STATE

    def __init__(self, folder: Path, name: str) -> None:
        self.path = folder / f"{name}.sqlite3"
        self.url = f"sqlite://{self.path}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=10000")
            with self._transaction():
                self._create_schema(blob="BLOB")
        except OSError as exc:
            raise StoreError(self.url, f"cannot use the folder: {exc.strerror or exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(self.url, f"cannot open: {exc}") from exc
        self._lock = threading.Lock()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, params)

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    def _run(self, work: Callable[[], T]) -> T:
        with self._lock:
            try:
                with self._transaction():
                    return work()
            except sqlite3.IntegrityError as exc:
                raise StoreError(self.url, str(exc), True) from exc
            except sqlite3.Error as exc:
                raise StoreError(self.url, str(exc)) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresStore(_SqlStore):
    _P = "%s"
    _INSERT_SESSION = (
        "INSERT INTO dc_sessions (session_id, shard, opened_at) VALUES (?,?,?) "
        "ON CONFLICT (session_id) DO NOTHING"
    )
    # byte order whatever the database's collation
    _LIST_PREFIX = (
        'SELECT key, data FROM dc_state WHERE kind=? AND key COLLATE "C">=? AND key COLLATE "C"<?'
        " AND substr(key, 1, ?)=? ORDER BY key"
    )
    _UPSERT_STATE = _UPSERT_STATE

    def __init__(self, url: str) -> None:
        self.url = redact_url(url)
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                self.url, "PostgreSQL needs psycopg 3: pip install 'donecheck[postgres]'"
            ) from None
        self._psycopg: Any = psycopg
        try:
            self._db = psycopg.connect(url, autocommit=False, connect_timeout=10)
            with self._db.transaction():
                self._db.execute("SELECT pg_advisory_xact_lock(8311)")  # one creator at a time
                self._create_schema(blob="BYTEA")
        except psycopg.Error as exc:
            raise StoreError(self.url, f"cannot open: {redact(str(exc))}") from exc
        self._lock = threading.Lock()

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, params)

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._db.cursor() as cursor:
            cursor.executemany(sql, rows)

    def _run(self, work: Callable[[], T]) -> T:
        psycopg = self._psycopg
        with self._lock:
            try:
                with self._db.transaction():
                    return work()
            except psycopg.errors.UniqueViolation as exc:
                raise StoreError(self.url, redact(str(exc)), True) from exc
            except psycopg.Error as exc:
                raise StoreError(self.url, redact(str(exc))) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()


class StateWriter:
    """Durable state writes with group commit, for async actors.

    ``await save(key, data)`` returns once the value is committed. Writes that
    arrive while a commit runs go together in the next transaction (one fsync
    for all of them), in a worker thread so the actor's event loop keeps
    serving. A later value for a key replaces an earlier one not yet written.
    """

    def __init__(self, store: LedgerStore, kind: str) -> None:
        self.store = store
        self.kind = kind
        self._pending: dict[str, tuple[bytes, list[asyncio.Future[None]]]] = {}
        self._writing: set[str] = set()
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0
        self.writes = 0

    def busy(self, key: str) -> bool:
        """Whether a value for ``key`` is waiting or being written: until it is
        committed, the store does not have it (an actor must keep its copy)."""
        return key in self._pending or key in self._writing

    async def save(self, key: str, data: bytes) -> None:
        await self.save_many([(key, data)])

    async def save_many(self, items: Sequence[tuple[str, bytes]]) -> None:
        """Save several values in one transaction: they join the pending batch
        together (no ``await`` between them), so a crash keeps all or none."""
        if not items:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        for key, data in items:
            waiting = self._pending.get(key)
            self._pending[key] = (data, [*(waiting[1] if waiting else []), future])
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            items = [(key, data) for key, (data, _) in batch.items()]
            self._writing = set(batch)
            try:
                await asyncio.to_thread(self.store.put_states, self.kind, items)
            except Exception as exc:  # every waiter learns its write failed
                self._writing = set()
                for _, futures in batch.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(exc)
                continue
            self._writing = set()
            self.commits += 1
            self.writes += len(items)
            for _, futures in batch.values():
                for future in futures:
                    if not future.done():
                        future.set_result(None)
