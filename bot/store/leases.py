"""Delivery leases in SQL: who is sending a pending digest, and whether they still are.

A scheduler run names itself the owner of each delivery it records pending and renews a
lease while it sends (``beat``). ``reclaim`` takes a pending delivery over only when its
owner's lease has lapsed (or, for a delivery with no owner, an older release's, when it is
older than ``stale_before``): a killed process's sends are re-sent at the next start, a
live replica's never.
"""

from __future__ import annotations

import datetime as dt

from bot.store.connection import Database, timestamp


def reclaim(
    db: Database,
    delivery_id: int,
    stale_before: dt.datetime,
    now: dt.datetime,
    owner: str | None,
    lapsed_before: dt.datetime | None,
) -> bool:
    lapsed = stale_before if lapsed_before is None else lapsed_before
    # Compare-and-set: the taker becomes the owner, and its lease is fresh (it beat before
    # reclaiming), so of two processes reclaiming at once only the first one matches.
    # An owner without a lease row left no trace of being alive: lapsed.
    with db.transaction("reclaim a delivery") as conn:
        cur = conn.execute(
            """UPDATE deliveries SET claimed_at = ?, owner = ?
               WHERE id = ? AND state = 'pending' AND CASE
                   WHEN owner IS NULL THEN claimed_at < ?
                   ELSE NOT EXISTS (SELECT 1 FROM delivery_leases l
                                    WHERE l.owner = deliveries.owner AND l.last_beat >= ?)
               END""",
            (timestamp(now), owner, delivery_id, timestamp(stale_before), timestamp(lapsed)),
        )
        return cur.rowcount == 1


def beat(db: Database, owner: str, now: dt.datetime) -> None:
    stamp = timestamp(now)
    with db.transaction("renew a delivery lease") as conn:
        conn.execute(
            """INSERT INTO delivery_leases (owner, started_at, last_beat) VALUES (?, ?, ?)
               ON CONFLICT (owner) DO UPDATE SET last_beat = excluded.last_beat""",
            (owner, stamp, stamp),
        )


def release(db: Database, owner: str, lapsed_before: dt.datetime) -> None:
    # Lapsed rows of crashed runs go too: a delivery whose owner has no row is reclaimable.
    with db.transaction("release a delivery lease") as conn:
        conn.execute(
            "DELETE FROM delivery_leases WHERE owner = ? OR last_beat < ?",
            (owner, timestamp(lapsed_before)),
        )
