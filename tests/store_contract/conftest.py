"""The store contract's backends: every test here runs on SQLite and on PostgreSQL.

    def test_something(store, backend):
        store.subscribe(...)                        # a store on a fresh, empty database
        other = backend.open(clock=fixed_clock(t))  # a second store on the same database
        signals = backend.open_signals()            # the watchers' store, on the same database

``store`` has its clock stopped at ``NOW``. The PostgreSQL runs share one throwaway server for
the session (``tests/pg_server.py``: initdb + pg_ctl, a unix socket, no TCP) and get a fresh
database each. Without the server binaries they skip, saying why, except under CI=true,
where they fail.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.store.contract import Store
from bot.store.pg_signals import PostgresSignalStore
from bot.store.postgres import PostgresStore
from bot.store.signal_stores import OpenedSignalStore
from bot.store.signals import SQLiteSignalStore
from bot.store.sqlite import SQLiteStore
from knowledge.clock import Clock, fixed_clock, system_clock
from tests.pg_server import PgServer, binaries_or_skip

NOW = dt.datetime(2026, 9, 1, 8, 0, tzinfo=dt.UTC)
BACKENDS = ["sqlite", "postgres"]


@dataclass
class Backend:
    """One database of one backend: stores opened on it, and a way to look inside."""

    name: str
    opener: Callable[[Clock], Any]
    query: Callable[[str], list[tuple[Any, ...]]]  # raw SQL, for what the contract hides
    signals_opener: Callable[[bool], OpenedSignalStore]  # read_only → a signal store
    opened: list[Any] = field(default_factory=list)

    def open(self, *, clock: Clock = system_clock) -> Store:
        store = self.opener(clock)
        self.opened.append(store)
        return store  # type: ignore[no-any-return]

    def open_signals(self, *, read_only: bool = False) -> OpenedSignalStore:
        signals = self.signals_opener(read_only)
        self.opened.append(signals)
        return signals

    def close_all(self) -> None:
        for store in self.opened:
            store.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    with PgServer.start(binaries_or_skip()) as server:
        yield server


def sqlite_backend(path: Path) -> Backend:
    def query(sql: str) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(path)) as conn:
            return [tuple(row) for row in conn.execute(sql)]

    return Backend(
        "sqlite",
        lambda clock: SQLiteStore(path, clock=clock),
        query,
        lambda read_only: SQLiteSignalStore(path, read_only=read_only),
    )


def postgres_backend(url: str) -> Backend:
    def query(sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(url, autocommit=True) as conn:
            return conn.execute(sql.encode()).fetchall()

    return Backend(
        "postgres",
        lambda clock: PostgresStore(url, clock=clock),
        query,
        lambda read_only: PostgresSignalStore(url, read_only=read_only),
    )


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        made = sqlite_backend(tmp_path / "marin-watch.sqlite3")
        yield made
        made.close_all()
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = server.create_database()
    made = postgres_backend(url)
    try:
        yield made
    finally:
        made.close_all()
        server.drop_database(url)


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.open(clock=fixed_clock(NOW))
