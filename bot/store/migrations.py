"""The store's schema, as an ordered list of migrations applied when a store is opened.

Migration *n* (1-based position in ``MIGRATIONS``) brings a file from version n-1 to n; the
version lives in SQLite's ``PRAGMA user_version``. To change the schema, **append** a
migration (never edit a released one: files in the field were built from it), as the
watchers' tables were appended as migration 2.

Times are stored as UTC ISO-8601 text with microseconds (``bot.store.connection.timestamp``),
so they sort as text and stay readable with the ``sqlite3`` shell.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from knowledge.errors import StoreError


@dataclass(frozen=True)
class Migration:
    name: str
    # Executed one by one inside the migrating transaction (not ``executescript``, which
    # would commit half-way and leave a half-migrated file behind if one statement failed).
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "subscriptions and deliveries",
        (
            """
            CREATE TABLE subscriptions (
                platform            TEXT NOT NULL,
                destination_id      TEXT NOT NULL,
                language            TEXT NOT NULL CHECK (language IN ('en', 'zh')),
                digest_time         TEXT NOT NULL,  -- local wall-clock time, HH:MM:SS
                timezone            TEXT NOT NULL,  -- IANA name
                post_on_quiet_days  INTEGER NOT NULL DEFAULT 0,
                active              INTEGER NOT NULL DEFAULT 1,
                inactive_reason     TEXT,
                broken_reason       TEXT,
                scope               TEXT,
                created_at          TEXT NOT NULL,  -- when it (last) became active
                updated_at          TEXT NOT NULL,
                PRIMARY KEY (platform, destination_id)
            )
            """,
            """
            CREATE TABLE deliveries (
                id              INTEGER PRIMARY KEY,
                platform        TEXT NOT NULL,
                destination_id  TEXT NOT NULL,
                kind            TEXT NOT NULL DEFAULT 'daily',
                window_start    TEXT NOT NULL,
                window_end      TEXT NOT NULL,
                content_hash    TEXT NOT NULL,
                state           TEXT NOT NULL
                                CHECK (state IN ('pending', 'sent', 'failed', 'skipped')),
                created_at      TEXT NOT NULL,
                claimed_at      TEXT NOT NULL,  -- moved forward when a crashed send is reclaimed
                sent_at         TEXT,
                error           TEXT
            )
            """,
            # The claim that keeps two schedulers on one file from both posting the same daily
            # digest: one live (non-failed) daily delivery per destination and window end.
            # Failed ones leave the index, so a retry can claim the window again.
            """
            CREATE UNIQUE INDEX deliveries_one_daily
                ON deliveries (platform, destination_id, window_end)
                WHERE kind = 'daily' AND state != 'failed'
            """,
            """
            CREATE INDEX deliveries_by_destination
                ON deliveries (platform, destination_id, kind, window_end)
            """,
            "CREATE INDEX deliveries_pending ON deliveries (state) WHERE state = 'pending'",
        ),
    ),
    # Watchers (bot.store.signals): the curator's queue, and what each configured URL
    # last answered (validators for conditional requests, cursor, backoff).
    Migration(
        "watcher signals and source state",
        (
            """
            CREATE TABLE signals (
                id            TEXT PRIMARY KEY,  -- stable dedupe id, e.g. gh-8506-c3380012345
                watched       TEXT NOT NULL,     -- the configured URL it was found through
                kind          TEXT NOT NULL,     -- the source kind it would be if promoted
                url           TEXT NOT NULL,
                date          TEXT NOT NULL,     -- the record's own date
                title         TEXT NOT NULL,
                excerpt       TEXT NOT NULL,
                publisher     TEXT NOT NULL,
                claims        TEXT NOT NULL,     -- JSON list of claim ids it may bear on
                watch_points  TEXT NOT NULL,     -- JSON list of watch point ids
                state         TEXT NOT NULL
                              CHECK (state IN ('baseline', 'new', 'dismissed', 'promoted')),
                found_at      TEXT NOT NULL,
                reviewed_at   TEXT,
                review        TEXT
            )
            """,
            "CREATE INDEX signals_by_state ON signals (state, found_at)",
            """
            CREATE TABLE watch_sources (
                url              TEXT PRIMARY KEY,  -- a watch point's looks_at
                baseline_at      TEXT,
                cursor           TEXT,
                cache_url        TEXT,  -- the full URL the validators below belong to
                etag             TEXT,
                last_modified    TEXT,
                failures         INTEGER NOT NULL DEFAULT 0,
                next_attempt_at  TEXT,
                last_error       TEXT,
                last_attempt_at  TEXT,
                last_success_at  TEXT
            )
            """,
        ),
    ),
    # A digest split into several messages that failed part-way resumes where it stopped.
    Migration(
        "messages sent per delivery",
        ("ALTER TABLE deliveries ADD COLUMN messages_sent INTEGER NOT NULL DEFAULT 0",),
    ),
    # Who holds a pending delivery, and whether they are alive: a run that dies mid-send
    # stops beating, and its pending deliveries are re-sent once its lease lapses (seconds),
    # not after a fixed ten minutes. Deliveries recorded before this have no owner.
    Migration(
        "delivery owners and their leases",
        (
            "ALTER TABLE deliveries ADD COLUMN owner TEXT",
            """
            CREATE TABLE delivery_leases (
                owner       TEXT PRIMARY KEY,  -- host:pid:random, one per scheduler run
                started_at  TEXT NOT NULL,
                last_beat   TEXT NOT NULL      -- renewed while the run sends
            )
            """,
        ),
    ),
)


# PRAGMA application_id of our files: "MWat". A file with another id, or with tables of its
# own and no id, belongs to another program and is refused untouched.
APPLICATION_ID = 0x4D576174


def refusal(conn: sqlite3.Connection, target: int) -> None:
    """Raise StoreError, before anything is written, if the file is not ours to use."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    app = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app not in (0, APPLICATION_ID):
        raise StoreError(
            f"this SQLite file belongs to another application (application_id {app}); "
            "point marin-watch at its own file"
        )
    if app == 0 and version == 0:
        tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[
            0
        ]
        if tables:
            raise StoreError(
                "this SQLite file already holds another program's tables; point marin-watch at "
                "its own file (a new path is created for it)"
            )
    if version > target:
        raise StoreError(
            f"the store is at schema version {version}, newer than this marin-watch "
            f"knows ({target}); upgrade marin-watch or point it at another file"
        )


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the file up to ``len(migrations)`` in one transaction; return the version.

    ``BEGIN IMMEDIATE`` takes the write lock before reading the version, so two processes
    opening a fresh file at once cannot both apply migration 1: the second waits, then finds
    nothing left to do. The connection must be in autocommit mode (``isolation_level=None``).
    """
    target = len(migrations)
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        refusal(conn, target)
        if version == 0:  # a file we create is marked as ours for the next opening
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for number, migration in enumerate(migrations[version:], start=version + 1):
            for statement in migration.statements:
                try:
                    conn.execute(statement)
                except sqlite3.Error as exc:
                    raise StoreError(
                        f"migration {number} ({migration.name}) failed: {exc}"
                    ) from exc
        # PRAGMA takes no parameters; ``target`` is an int we computed, never user input.
        conn.execute(f"PRAGMA user_version = {target}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return target
