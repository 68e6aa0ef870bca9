"""The watchers' lease across hosts: a PostgreSQL advisory lock, released with its session."""

from __future__ import annotations

from bot.watchers.watch_lease import PostgresLease
from tests.pg_server import PgServer


def test_one_replica_holds_the_watchers_and_another_takes_over_when_it_dies(
    pg_server: PgServer,
) -> None:
    url = pg_server.create_database()
    try:
        first, second = PostgresLease(url), PostgresLease(url)
        assert first.hold() and first.hold()
        assert not second.hold()
        first.close()  # its session ends, as when the process is killed
        assert second.hold()
        second.close()
    finally:
        pg_server.drop_database(url)


def test_an_unreachable_database_is_no_lease_and_no_traceback(pg_server: PgServer) -> None:
    lease = PostgresLease(pg_server.url("no_such_database"))
    assert not lease.hold()
    lease.close()
