"""The SQLite store's own file: WAL, versions, migrations, foreign files, concurrent openers.

Subscriptions, deliveries, claims and leases are the store contract, tested on every backend
(this one included) by ``tests/store_contract/``."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store.contract import DeliveryState, Destination, Subscription
from bot.store.migrations import MIGRATIONS, Migration, migrate
from bot.store.sqlite import SQLiteStore
from knowledge.clock import fixed_clock
from knowledge.errors import StoreError

NOW = dt.datetime(2026, 9, 1, 8, 0, tzinfo=dt.UTC)
CHAT = Destination("telegram", "1001")


def subscription(dest: Destination = CHAT, **changes: Any) -> Subscription:
    return replace(Subscription(dest, "zh", dt.time(9, 0), "Asia/Shanghai"), **changes)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "marin-watch.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(db, clock=fixed_clock(NOW)) as s:
        yield s


# What every store must do (subscriptions, deliveries, claims, leases) is the contract suite's
# (tests/store_contract/), which runs it on this SQLite store and on PostgreSQL. Here: the file.


# the file itself


def test_the_file_is_in_wal_mode_at_the_current_version(store: SQLiteStore, db: Path) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.version == len(MIGRATIONS)


def test_an_old_version_file_is_migrated_at_open_and_keeps_its_data(db: Path) -> None:
    # A file written by the release that knew only migration 1.
    with SQLiteStore(db, clock=fixed_clock(NOW), migrations=MIGRATIONS[:1]) as old:
        assert old.version == 1
        old.subscribe(subscription())
        d = old.begin_delivery(CHAT, NOW - dt.timedelta(days=1), NOW, "h", now=NOW)

    with SQLiteStore(db) as current:
        assert current.version == len(MIGRATIONS) > 1
        assert current.subscription(CHAT) is not None
        assert [(p.id, p.owner) for p in current.pending()] == [(d.id, None)]  # no owner then
        current.finish_delivery(d.id, DeliveryState.FAILED, now=NOW, messages_sent=2)
        assert current.deliveries(CHAT)[0].messages_sent == 2  # the column migration 3 added

    appended = (*MIGRATIONS, Migration("a later table", ("CREATE TABLE later (x INTEGER)",)))
    with SQLiteStore(db, migrations=appended) as newer:
        assert newer.version == len(appended)
        assert newer.subscription(CHAT) is not None


def test_a_failing_migration_leaves_the_file_as_it_was(db: Path) -> None:
    SQLiteStore(db, migrations=MIGRATIONS[:1]).close()
    broken = (*MIGRATIONS[:1], Migration("half good", ("CREATE TABLE ok (x)", "NOT SQL")))

    with pytest.raises(StoreError, match="migration 2 \\(half good\\) failed"):
        SQLiteStore(db, migrations=broken)

    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "ok" not in tables


def test_a_file_from_a_newer_release_is_refused(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="version 99, newer"):
        SQLiteStore(db)


def test_two_processes_opening_a_fresh_file_at_once_migrate_it_once(db: Path) -> None:
    start = threading.Barrier(4)
    versions: list[int] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            with SQLiteStore(db) as s:
                versions.append(s.version)
        except BaseException as exc:  # collected: the assertion below shows it
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and versions == [len(MIGRATIONS)] * 4


def test_sqlite_errors_become_store_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open|could not open"):
        SQLiteStore(tmp_path / "no-such-dir" / "x.sqlite3")
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("this is not a database, " * 100)
    with pytest.raises(StoreError):
        SQLiteStore(not_a_db)


def test_migrate_is_idempotent(db: Path) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert migrate(conn) == migrate(conn) == len(MIGRATIONS)
    finally:
        conn.close()


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_store_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("PRAGMA user_version = 999")
    before = _sha256(newer)
    with pytest.raises(StoreError, match="schema version 999, newer"):
        SQLiteStore(newer)
    assert _sha256(newer) == before  # not even switched to WAL


FOREIGN = {
    "another program's tables": (
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
        "INSERT INTO notes (body) VALUES ('keep me')",
    ),
    "belongs to another application": ("PRAGMA application_id = 1234",),
}


@pytest.mark.parametrize("reason", FOREIGN)
def test_another_programs_database_is_refused_untouched(tmp_path: Path, reason: str) -> None:
    foreign = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(foreign) as conn:
        for statement in FOREIGN[reason]:
            conn.execute(statement)
    before = _sha256(foreign)
    with pytest.raises(StoreError, match=reason):
        SQLiteStore(foreign)
    assert _sha256(foreign) == before


def test_our_files_are_marked_as_ours(db: Path) -> None:
    with SQLiteStore(db):
        pass
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x4D576174
    with SQLiteStore(db) as again:  # and opened again without complaint
        assert again.version == len(MIGRATIONS)
