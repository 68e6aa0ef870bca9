"""The PostgreSQL store's schema, and the marker that tells marin-watch's database from others.

Migration *n* (1-based position in ``MIGRATIONS``) brings a database from version n-1 to n,
as for SQLite (``bot.store.migrations``): to change the schema, **append** a migration. The
version lives in the marker table ``marin_watch_schema`` (one row, application
'marin-watch'), in the schema the store writes to (``current_schema()``, normally public);
its presence is what makes a database ours. At open, in one transaction:

- marked, at our version or older: the missing migrations are applied, and the marker moved;
- marked at a newer version (a later release wrote it): refused, untouched;
- not marked, but holding tables, views or sequences: another program's; refused, untouched;
- empty: migrated from scratch, and marked.

A refusal is decided by reads alone and the transaction rolled back: nothing is written.
Replicas starting together take an advisory lock first, so one migrates and the others
find nothing left to do.

SQLite's four migrations are one here (this schema starts where SQLite's stood then), with
native types: ``timestamptz`` for times, ``time`` for the local digest time, ``boolean``,
``text[]`` for a signal's claims. Migration 2 brings the watchers' tables over. Destinations,
signal ids and source URLs sort as SQLite's do (bytewise), whatever the database's
collation: ``"C"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from bot.store import readonly
from bot.store.migrations import Migration
from knowledge.errors import StoreError

MARKER = "marin_watch_schema"
APPLICATION = "marin-watch"
# pg_advisory_xact_lock(int, int): "MWat" (as SQLite's application_id), then 1 for "migrate"
LOCK = (0x4D576174, 1)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "subscriptions, deliveries and delivery leases",
        (
            """
            CREATE TABLE subscriptions (
                platform            TEXT COLLATE "C" NOT NULL,
                destination_id      TEXT COLLATE "C" NOT NULL,
                language            TEXT NOT NULL CHECK (language IN ('en', 'zh')),
                digest_time         TIME NOT NULL,  -- local wall-clock time in ``timezone``
                timezone            TEXT NOT NULL,  -- IANA name
                post_on_quiet_days  BOOLEAN NOT NULL DEFAULT false,
                active              BOOLEAN NOT NULL DEFAULT true,
                inactive_reason     TEXT,
                broken_reason       TEXT,
                scope               TEXT,
                created_at          TIMESTAMPTZ NOT NULL,  -- when it (last) became active
                updated_at          TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (platform, destination_id)
            )
            """,
            """
            CREATE TABLE deliveries (
                id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                platform        TEXT COLLATE "C" NOT NULL,
                destination_id  TEXT COLLATE "C" NOT NULL,
                kind            TEXT NOT NULL DEFAULT 'daily',
                window_start    TIMESTAMPTZ NOT NULL,
                window_end      TIMESTAMPTZ NOT NULL,
                content_hash    TEXT NOT NULL,
                state           TEXT NOT NULL
                                CHECK (state IN ('pending', 'sent', 'failed', 'skipped')),
                created_at      TIMESTAMPTZ NOT NULL,
                claimed_at      TIMESTAMPTZ NOT NULL,  -- moved forward when reclaimed
                sent_at         TIMESTAMPTZ,
                error           TEXT,
                messages_sent   INTEGER NOT NULL DEFAULT 0,
                owner           TEXT,  -- the scheduler run holding it (see delivery_leases)
                -- a covered daily delivery of the destination ends later (see pg_latest)
                superseded      BOOLEAN NOT NULL DEFAULT false
            )
            """,
            # The claim: one live (non-failed) daily delivery per destination and window end,
            # so two schedulers cannot both post it. Failed ones leave it: a retry may claim.
            """
            CREATE UNIQUE INDEX deliveries_one_daily
                ON deliveries (platform, destination_id, window_end)
                WHERE kind = 'daily' AND state <> 'failed'
            """,
            """
            CREATE INDEX deliveries_by_destination
                ON deliveries (platform, destination_id, kind, window_end)
            """,
            "CREATE INDEX deliveries_pending ON deliveries (state) WHERE state = 'pending'",
            # What each scheduler check reads: about one row per destination, not the history.
            """
            CREATE INDEX deliveries_latest ON deliveries (id)
                WHERE kind = 'daily' AND NOT superseded
            """,
            """
            CREATE TABLE delivery_leases (
                owner       TEXT PRIMARY KEY,  -- host:pid:random, one per scheduler run
                started_at  TIMESTAMPTZ NOT NULL,
                last_beat   TIMESTAMPTZ NOT NULL  -- renewed while the run sends
            )
            """,
        ),
    ),
    # The watchers (bot.store.pg_signals), as SQLite's migration 2: the replica holding the
    # watch lease changes, and the next one must find the queue and each source's state.
    Migration(
        "watcher signals and source state",
        (
            """
            CREATE TABLE signals (
                id            TEXT COLLATE "C" PRIMARY KEY,  -- stable dedupe id
                watched       TEXT NOT NULL,  -- the configured URL it was found through
                kind          TEXT NOT NULL,  -- the source kind it would be if promoted
                url           TEXT NOT NULL,
                date          TIMESTAMPTZ NOT NULL,  -- the record's own date
                title         TEXT NOT NULL,
                excerpt       TEXT NOT NULL,
                publisher     TEXT NOT NULL,
                claims        TEXT[] NOT NULL,  -- claim ids it may bear on, in order
                watch_points  TEXT[] NOT NULL,
                state         TEXT NOT NULL
                              CHECK (state IN ('baseline', 'new', 'dismissed', 'promoted')),
                found_at      TIMESTAMPTZ NOT NULL,
                reviewed_at   TIMESTAMPTZ,
                review        TEXT
            )
            """,
            "CREATE INDEX signals_by_state ON signals (state, found_at)",
            # the queue's order, newest record first
            "CREATE INDEX signals_newest ON signals (date DESC, id)",
            """
            CREATE TABLE watch_sources (
                url              TEXT COLLATE "C" PRIMARY KEY,  -- a watch point's looks_at
                baseline_at      TIMESTAMPTZ,
                cursor           TEXT,
                cache_url        TEXT,  -- the full URL the validators below belong to
                etag             TEXT,
                last_modified    TEXT,
                failures         INTEGER NOT NULL DEFAULT 0,
                next_attempt_at  TIMESTAMPTZ,
                last_error       TEXT,
                last_attempt_at  TIMESTAMPTZ,
                last_success_at  TIMESTAMPTZ
            )
            """,
        ),
    ),
)

Connection = psycopg.Connection[tuple[Any, ...]]


def refusal(conn: Connection, target: int, where: str) -> int:
    """The database's version; StoreError, before anything is written, if it is not ours."""
    row = conn.execute("SELECT current_schema()").fetchone()
    schema = row[0] if row else None
    if schema is None:
        raise StoreError(
            f"the database at {where} has no schema to create marin-watch's tables in "
            "(none on its search_path exists); create one or fix search_path"
        )
    names = [
        name
        for (name,) in conn.execute(
            """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
               ORDER BY c.relname"""
        )
    ]
    if MARKER not in names:
        if names:
            shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
            raise StoreError(
                f"the database at {where} already holds another program's tables "
                f"({len(names)} in schema {schema}: {shown}) and no marin-watch marker; "
                "point marin-watch at a database of its own (an empty one is set up at start)"
            )
        return 0
    found = conn.execute(
        f"SELECT version FROM {MARKER} WHERE application = %s", (APPLICATION,)
    ).fetchone()
    if found is None:
        raise StoreError(
            f"the database at {where} has a {MARKER} table without marin-watch's row; "
            "it is not ours to use"
        )
    version = int(found[0])
    if version > target:
        raise StoreError(
            f"the store at {where} is at schema version {version}, newer than this "
            f"marin-watch knows ({target}); upgrade marin-watch or point it at another database"
        )
    return version


def readable(conn: Connection, target: int, *, where: str) -> int:
    """The version a read-only opening accepts (0: nothing stored yet), read in one
    transaction and never migrated: as for a SQLite file opened read-only, a database of
    an older release is refused with the command that migrates it."""
    with conn.transaction():
        version = refusal(conn, target, where)
    return readonly.readable_version(where, version, target)


def migrate(conn: Connection, migrations: Sequence[Migration] = MIGRATIONS, *, where: str) -> int:
    """Bring the database up to ``len(migrations)`` in one transaction; return the version.

    The connection must be in autocommit mode: this opens (and ends) its own transaction.
    """
    target = len(migrations)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", LOCK)
        version = refusal(conn, target, where)
        if version == target:
            return target
        if version == 0:
            conn.execute(
                f"""CREATE TABLE {MARKER} (
                        application  TEXT PRIMARY KEY CHECK (application = '{APPLICATION}'),
                        version      INTEGER NOT NULL,
                        migrated_at  TIMESTAMPTZ NOT NULL
                    )"""
            )
            conn.execute(f"INSERT INTO {MARKER} VALUES (%s, 0, now())", (APPLICATION,))
        for number, migration in enumerate(migrations[version:], start=version + 1):
            for statement in migration.statements:
                try:
                    conn.execute(statement)
                except psycopg.Error as exc:
                    reason = " ".join(str(exc).split())
                    raise StoreError(
                        f"migration {number} ({migration.name}) failed: {reason}"
                    ) from exc
        conn.execute(
            f"UPDATE {MARKER} SET version = %s, migrated_at = now() WHERE application = %s",
            (target, APPLICATION),
        )
    return target
