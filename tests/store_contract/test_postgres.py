"""What only the PostgreSQL store has: its schema marker, the refusal of a database not ours,
the URL's password kept out of every message, reconnection, and the lease race it must win.

All on the session's throwaway server (``conftest.py``), a fresh database per test.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql

from bot.store.contract import Destination, Subscription
from bot.store.migrations import Migration
from bot.store.pg_database import redact
from bot.store.pg_migrations import MARKER, MIGRATIONS
from bot.store.postgres import PostgresStore
from knowledge.errors import StoreError
from tests.pg_server import GUARDED, GUARDED_PASSWORD, PgServer, database_of
from tests.store_contract.conftest import NOW

CHAT = Destination("telegram", "1001")
WRONG = "wr0ng-Pa55word"


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    made = pg_server.create_database()
    yield made
    pg_server.drop_database(made)


def run(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement.encode())


def snapshot(url: str) -> tuple[list[Any], dict[str, list[Any]]]:
    """Every relation outside the system schemas, and every table's rows."""
    with psycopg.connect(url) as conn:
        relations = conn.execute(
            """SELECT n.nspname, c.relname, c.relkind FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
                 AND n.nspname NOT LIKE 'pg\\_toast%%' ORDER BY 1, 2"""
        ).fetchall()
        rows = {
            f"{schema}.{name}": conn.execute(
                sql.SQL("SELECT * FROM {}.{} ORDER BY 1").format(
                    sql.Identifier(schema), sql.Identifier(name)
                )
            ).fetchall()
            for schema, name, kind in relations
            if kind == "r"
        }
    return relations, rows


def marker(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(f"SELECT application, version FROM {MARKER}").fetchall()


# the marker, and what is refused


def test_an_empty_database_is_migrated_and_marked_as_ours(url: str) -> None:
    with PostgresStore(url) as store:
        assert store.version == len(MIGRATIONS)
    assert marker(url) == [("marin-watch", len(MIGRATIONS))]
    names = {name for _, name, kind in snapshot(url)[0] if kind == "r"}
    assert names == {
        MARKER,
        "subscriptions",
        "deliveries",
        "delivery_leases",
        "signals",
        "watch_sources",
    }


def test_opening_a_database_at_our_version_writes_nothing(url: str) -> None:
    with PostgresStore(url, clock=lambda: NOW) as store:
        store.subscribe(Subscription(CHAT, "en", dt.time(9), "UTC"))
    before = snapshot(url)
    PostgresStore(url).close()
    assert snapshot(url) == before  # the marker's migrated_at included


def test_a_database_from_a_newer_release_is_refused_untouched(url: str) -> None:
    PostgresStore(url).close()
    run(url, f"UPDATE {MARKER} SET version = 99")
    before = snapshot(url)
    with pytest.raises(StoreError, match="schema version 99, newer than this marin-watch"):
        PostgresStore(url)
    assert snapshot(url) == before


FOREIGN = {
    "a table": (
        "CREATE TABLE notes (id serial PRIMARY KEY, body text)",
        "INSERT INTO notes (body) VALUES ('keep me')",
    ),
    "a view": ("CREATE VIEW answer AS SELECT 42 AS value",),
    "a sequence": ("CREATE SEQUENCE invoices",),
}


@pytest.mark.parametrize("theirs", FOREIGN)
def test_another_programs_database_is_refused_untouched(url: str, theirs: str) -> None:
    run(url, *FOREIGN[theirs])
    before = snapshot(url)
    with pytest.raises(StoreError, match="another program's tables .* no marin-watch marker"):
        PostgresStore(url)
    assert snapshot(url) == before


def test_a_marker_table_without_our_row_is_not_ours(url: str) -> None:
    run(url, f"CREATE TABLE {MARKER} (application text, version int)")
    before = snapshot(url)
    with pytest.raises(StoreError, match="without marin-watch's row"):
        PostgresStore(url)
    assert snapshot(url) == before


def test_a_schema_of_our_own_in_a_shared_database_is_enough(url: str) -> None:
    run(url, *FOREIGN["a table"], "CREATE SCHEMA marin")
    theirs = snapshot(url)[1]["public.notes"]
    ours = f"{url}&options=-c%20search_path%3Dmarin"

    with PostgresStore(ours) as store:
        store.subscribe(Subscription(CHAT, "en", dt.time(9), "UTC"))

    relations, rows = snapshot(url)
    assert ("marin", MARKER, "r") in relations and len(rows["marin.subscriptions"]) == 1
    assert rows["public.notes"] == theirs


def test_a_later_release_appends_migrations_and_keeps_the_data(url: str) -> None:
    with PostgresStore(url, clock=lambda: NOW) as store:
        store.subscribe(Subscription(CHAT, "en", dt.time(9), "UTC"))
    appended = (*MIGRATIONS, Migration("a later table", ("CREATE TABLE later (x int)",)))

    with PostgresStore(url, migrations=appended) as newer:
        assert newer.version == len(appended)
        assert newer.subscription(CHAT) is not None
    with pytest.raises(StoreError, match="newer"):  # the older release, started again
        PostgresStore(url)


def test_a_failing_migration_leaves_the_database_as_it_was(url: str) -> None:
    broken = (*MIGRATIONS, Migration("half good", ("CREATE TABLE ok (x int)", "NOT SQL")))
    appended = len(broken)  # the number the failing one gets
    with pytest.raises(StoreError, match=rf"migration {appended} \(half good\) failed: syntax"):
        PostgresStore(url, migrations=broken)
    assert snapshot(url)[0] == []  # not even migration 1, nor the marker

    PostgresStore(url).close()
    before = snapshot(url)
    with pytest.raises(StoreError, match="half good"):
        PostgresStore(url, migrations=broken)
    assert snapshot(url) == before


def test_replicas_opening_a_fresh_database_at_once_migrate_it_once(url: str) -> None:
    start = threading.Barrier(4)
    versions: list[int] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            with PostgresStore(url) as s:
                versions.append(s.version)
        except BaseException as exc:  # collected: the assertion below shows it
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and versions == [len(MIGRATIONS)] * 4
    assert marker(url) == [("marin-watch", len(MIGRATIONS))]


# the password


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("postgresql://marin:hunter2@db:5432/marin", "postgresql://marin:***@db:5432/marin"),
        (
            "postgres://marin:p%40ss@db/marin?sslmode=require",
            "postgres://marin:***@db/marin?sslmode=require",
        ),
        (
            "postgresql://marin@db/marin?password=hunter2&x=1",
            "postgresql://marin@db/marin?password=***&x=1",
        ),
        ("postgresql://db/marin", "postgresql://db/marin"),
        (
            "host=db user=marin password='hun ter2' dbname=m",
            "host=db user=marin password=*** dbname=m",
        ),
        # unencoded @ and / in a password: hidden whole, the user part read to the last @
        ("postgresql://marin:p@ss/w0rd@db/marin", "postgresql://marin:***@db/marin"),
    ],
)
def test_a_url_is_shown_without_its_password(given: str, shown: str) -> None:
    assert redact(given) == shown


def told(exc: BaseException) -> str:
    """Everything a log of ``exc`` could print: message, traceback, causes."""
    return "".join(traceback.format_exception(exc))


def test_a_wrong_password_is_refused_without_showing_it(
    pg_server: PgServer, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = pg_server.url(database_of(url), user=GUARDED, password=WRONG)

    with pytest.raises(StoreError, match="password authentication failed") as caught:
        PostgresStore(wrong)

    message = str(caught.value)
    assert "\n" not in message and message.startswith("cannot connect to the store at")
    assert f"postgresql://{GUARDED}:***@" in message
    assert WRONG not in told(caught.value) and WRONG not in caplog.text


def test_errors_of_a_store_logged_in_with_a_password_never_show_it(
    pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    name = "guarded_db"
    with pg_server.admin() as conn:
        conn.execute(f"CREATE DATABASE {name} OWNER {GUARDED}")
    try:
        login = pg_server.url(name, user=GUARDED, password=GUARDED_PASSWORD)
        with PostgresStore(login) as store:
            assert GUARDED_PASSWORD not in repr(store)
            run(pg_server.url(name), "DROP TABLE subscriptions")
            with pytest.raises(StoreError, match='"subscriptions" does not exist') as caught:
                store.subscriptions()
        assert GUARDED_PASSWORD not in told(caught.value)
        run(pg_server.url(name), f"DROP TABLE {MARKER}")
        with pytest.raises(StoreError, match="another program's tables") as refused:
            PostgresStore(login)
        assert f"{GUARDED}:***@" in str(refused.value)
        assert GUARDED_PASSWORD not in told(refused.value) + caplog.text
    finally:
        pg_server.drop_database(pg_server.url(name))


def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot connect") as caught:
        PostgresStore(f"postgresql://marin:{WRONG}@/marin?host=/nonexistent-socket-dir")
    assert "\n" not in str(caught.value) and WRONG not in told(caught.value)
    with pytest.raises(StoreError, match="malformed") as malformed:
        PostgresStore(f"host=db password={WRONG} nonsense")
    assert WRONG not in told(malformed.value)


# the connection, and the lease race


def test_a_dropped_connection_fails_one_call_and_the_next_reconnects(
    pg_server: PgServer, url: str
) -> None:
    database = database_of(url)
    with PostgresStore(url, clock=lambda: NOW) as store:
        store.subscribe(Subscription(CHAT, "en", dt.time(9), "UTC"))
        with pg_server.admin() as admin:  # as a server restart or a failover would
            admin.execute(
                "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = %s",
                (database,),
            )
        with pytest.raises(StoreError) as caught:
            store.subscriptions()
        assert "\n" not in str(caught.value)
        assert [s.destination for s in store.subscriptions()] == [CHAT]


def test_a_reclaim_waiting_on_a_rivals_takeover_sees_the_rivals_fresh_lease(
    pg_server: PgServer, url: str
) -> None:
    """The race a single UPDATE loses on PostgreSQL: the rival's lease commits after the
    waiting reclaim began, but before the rival's takeover does."""
    later = NOW + dt.timedelta(minutes=5)
    with PostgresStore(url) as store:
        d = store.begin_delivery(CHAT, NOW - dt.timedelta(days=1), NOW, "h", now=NOW, owner="dead")
        with psycopg.connect(url) as rival:  # run-b, mid-takeover: the row is locked
            rival.execute("SELECT 1 FROM deliveries WHERE id = %s FOR UPDATE", (d.id,))
            taken: list[bool] = []
            waiting = threading.Thread(
                target=lambda: taken.append(
                    store.reclaim(
                        d.id, owner="run-c", stale_before=NOW, lapsed_before=later, now=later
                    )
                )
            )
            waiting.start()
            wait_for_a_lock(pg_server, url)
            rival.execute("UPDATE deliveries SET owner = 'run-b' WHERE id = %s", (d.id,))
            run(url, "INSERT INTO delivery_leases VALUES ('run-b', now(), 'infinity')")
            rival.commit()
            waiting.join(timeout=30)
        assert taken == [False]
        assert [p.owner for p in store.pending()] == ["run-b"]


def wait_for_a_lock(pg_server: PgServer, url: str) -> None:
    database = database_of(url)
    deadline = time.monotonic() + 30
    with pg_server.admin() as admin:
        while time.monotonic() < deadline:
            waiting = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                "AND wait_event_type = 'Lock'",
                (database,),
            ).fetchone()
            if waiting and waiting[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the reclaim never waited for the rival's row lock")
