"""The daily deliveries the schedule still needs, kept current as they are written.

``latest_deliveries`` is read on every scheduler check: per destination, its latest covered
(sent or skipped) daily delivery and every daily one after it. Computed from the whole
history, as SQLite does, it costs a scan of every delivery ever made (100,000 subscriptions
for a week: 700,000 rows, ~1 s); history only grows. So each daily delivery carries
``superseded``: a covered daily delivery of the same destination ends later. The check
reads the rows that are not (``deliveries_latest``, a partial index: about one per
destination), and every write that can change a destination's coverage recomputes its
flags under an advisory lock on that destination:

- ``claim`` (begin_delivery): the new row is superseded if a later window is covered already;
- ``finish``: the row's state may cover (or uncover) its window;
- ``move`` (``pg_subscriptions``): two histories become one.

The lock serialises those writers per destination (they are rare: one per digest), so each
recomputes after the other's commit; the check itself takes no lock.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.store.contract import DeliveryState, Destination
from bot.store.pg_database import Connection, PgDatabase
from bot.store.pg_rows import DELIVERY, Row

COVERED = "state IN ('sent', 'skipped')"
# Per row of one destination's daily history: does a covered window end after it?
_FLAGS = f"""
    SELECT id, coalesce(window_end < max(window_end) FILTER (WHERE {COVERED})
                        OVER (PARTITION BY platform, destination_id), false) AS superseded
    FROM deliveries WHERE kind = 'daily'"""
# Only rows whose flag changes are written.
_RECOMPUTE = f"""
    UPDATE deliveries d SET superseded = f.superseded
    FROM ({_FLAGS} {{only}}) f
    WHERE d.id = f.id AND d.superseded <> f.superseded"""


def lock(conn: Connection, *destinations: Destination) -> None:
    """Hold each destination's history until the transaction ends (in one order: no
    deadlock between two writers locking the same pair)."""
    for key in sorted({f"{d.platform}:{d.id}" for d in destinations}):
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 14))", (key,))


def recompute(conn: Connection, destination: Destination) -> None:
    conn.execute(
        _RECOMPUTE.format(only="AND platform = %s AND destination_id = %s"),
        (destination.platform, destination.id),
    )


def recompute_all(conn: Connection) -> None:
    """Every destination's flags, e.g. after rows were loaded in bulk behind the store."""
    conn.execute(_RECOMPUTE.format(only=""))


def latest(platform: str | None) -> tuple[str, dict[str, Any]]:
    only = "" if platform is None else "AND platform = %(platform)s"
    return (
        f"SELECT {DELIVERY} FROM deliveries WHERE kind = 'daily' AND NOT superseded {only} "
        "ORDER BY id",
        {"platform": platform},
    )


def claim(
    db: PgDatabase,
    destination: Destination,
    window: tuple[dt.datetime, dt.datetime],
    content_hash: str,
    kind: str,
    now: dt.datetime,
    owner: str | None,
) -> Row | None:
    """The new pending delivery's row, or None if a live daily one holds the window.

    ``ON CONFLICT DO NOTHING`` on the partial UNIQUE index: of two schedulers claiming at
    once, the second waits for the first's commit and inserts nothing, without an error in
    the server's log.
    """
    values = {
        "platform": destination.platform,
        "id": destination.id,
        "kind": kind,
        "start": window[0],
        "end": window[1],
        "hash": content_hash,
        "now": now,
        "owner": owner,
    }
    with db.transaction("record a delivery") as conn:
        if kind == "daily":
            lock(conn, destination)
        return conn.execute(
            f"""INSERT INTO deliveries (platform, destination_id, kind, window_start,
                    window_end, content_hash, state, created_at, claimed_at, owner, superseded)
                VALUES (%(platform)s, %(id)s, %(kind)s, %(start)s, %(end)s, %(hash)s,
                    'pending', %(now)s, %(now)s, %(owner)s, coalesce((
                        SELECT max(window_end) > %(end)s FROM deliveries
                        WHERE platform = %(platform)s AND destination_id = %(id)s
                          AND kind = 'daily' AND {COVERED}), false))
                ON CONFLICT (platform, destination_id, window_end)
                    WHERE kind = 'daily' AND state <> 'failed' DO NOTHING
                RETURNING {DELIVERY}""",
            values,
        ).fetchone()


def finish(
    db: PgDatabase,
    delivery_id: int,
    state: DeliveryState,
    sent_at: dt.datetime | None,
    error: str | None,
    messages_sent: int,
) -> None:
    with db.transaction("finish a delivery") as conn:
        found = conn.execute(
            "SELECT platform, destination_id, kind FROM deliveries WHERE id = %s",
            (delivery_id,),
        ).fetchone()
        if found is None:
            return  # as SQLite: finishing what does not exist changes nothing
        destination, daily = Destination(found[0], found[1]), found[2] == "daily"
        if daily:
            lock(conn, destination)
        moved = conn.execute(
            "UPDATE deliveries SET state = %s, sent_at = %s, error = %s, messages_sent = %s "
            "WHERE id = %s RETURNING platform, destination_id",
            (str(state), sent_at, error, messages_sent, delivery_id),
        ).fetchone()
        if daily and moved is not None:  # where it is now, should a move have come between
            recompute(conn, Destination(moved[0], moved[1]))
