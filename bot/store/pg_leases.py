"""Delivery leases on PostgreSQL: the rules of ``bot.store.leases``, for writers side by side.

SQLite runs one writer at a time, so its compare-and-set needs nothing more. Here two
replicas may reclaim the same delivery at once, and a statement reads the leases as they
stood when it began: the loser, re-checking the row after the winner's commit, could still
see the winner's lease as lapsed (its beat not yet committed when the loser started). So
``reclaim`` locks the delivery row first; the compare-and-set after it is a new statement,
which reads everything committed before the lock was granted: of several, one matches.
"""

from __future__ import annotations

import datetime as dt

from bot.store.pg_database import PgDatabase
from bot.store.pg_rows import aware


def reclaim(
    db: PgDatabase,
    delivery_id: int,
    stale_before: dt.datetime,
    now: dt.datetime,
    owner: str | None,
    lapsed_before: dt.datetime | None,
) -> bool:
    lapsed = stale_before if lapsed_before is None else lapsed_before
    with db.transaction("reclaim a delivery") as conn:
        conn.execute("SELECT 1 FROM deliveries WHERE id = %s FOR UPDATE", (delivery_id,))
        # Compare-and-set: the taker becomes the owner, and its lease is fresh (it beat before
        # reclaiming). An owner without a lease row left no trace of being alive: lapsed.
        cur = conn.execute(
            """UPDATE deliveries SET claimed_at = %(now)s, owner = %(owner)s
               WHERE id = %(id)s AND state = 'pending' AND CASE
                   WHEN owner IS NULL THEN claimed_at < %(stale)s
                   ELSE NOT EXISTS (SELECT 1 FROM delivery_leases l
                                    WHERE l.owner = deliveries.owner
                                      AND l.last_beat >= %(lapsed)s)
               END""",
            {
                "now": aware(now),
                "owner": owner,
                "id": delivery_id,
                "stale": aware(stale_before),
                "lapsed": aware(lapsed),
            },
        )
        return cur.rowcount == 1


def beat(db: PgDatabase, owner: str, now: dt.datetime) -> None:
    stamp = aware(now)
    with db.reading("renew a delivery lease") as conn:
        conn.execute(
            """INSERT INTO delivery_leases (owner, started_at, last_beat) VALUES (%s, %s, %s)
               ON CONFLICT (owner) DO UPDATE SET last_beat = excluded.last_beat""",
            (owner, stamp, stamp),
        )


def release(db: PgDatabase, owner: str, lapsed_before: dt.datetime) -> None:
    # Lapsed rows of crashed runs go too: a delivery whose owner has no row is reclaimable.
    with db.reading("release a delivery lease") as conn:
        conn.execute(
            "DELETE FROM delivery_leases WHERE owner = %s OR last_beat < %s",
            (owner, aware(lapsed_before)),
        )
