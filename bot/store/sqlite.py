"""The store we ship: one SQLite file (stdlib ``sqlite3``), safe for several processes.

The file's rules (WAL, busy timeout, migrations at open, ``BEGIN IMMEDIATE``, errors as
``StoreError``) are ``connection``'s; rows are read by ``rows``, leases kept by ``leases``.
Every change that touches several rows is one transaction; two schedulers cannot both claim
a daily delivery (a partial UNIQUE index: ``DeliveryClaimed``); ``synchronous`` stays FULL,
since "sent" must survive a power cut, or a digest could be posted twice after one.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store import leases
from bot.store.connection import Database, timestamp
from bot.store.contract import Delivery, DeliveryState, Destination, Subscription
from bot.store.migrations import MIGRATIONS, Migration
from bot.store.rows import check_subscription, delivery_of, subscription_of
from knowledge.clock import Clock, system_clock
from knowledge.errors import DeliveryClaimed, StoreError


class SQLiteStore:
    """``bot.store.contract.Store`` over one SQLite file; a context manager, or ``close()``."""

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Clock = system_clock,
        migrations: Sequence[Migration] = MIGRATIONS,
        read_only: bool = False,  # writes refused; see bot.store.readonly
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self._db = Database(self.path, migrations=migrations, read_only=read_only)
        self.version = self._db.version

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # subscriptions

    def subscribe(self, subscription: Subscription) -> Subscription:
        """Create or update a subscription; reactivating one starts its digests afresh."""
        now = timestamp(self.clock())
        s = subscription
        check_subscription(s)
        with self._db.transaction("subscribe") as conn:
            row = conn.execute(
                "SELECT active FROM subscriptions WHERE platform = ? AND destination_id = ?",
                (s.destination.platform, s.destination.id),
            ).fetchone()
            # A returning subscriber gets digests from now on, not a catch-up of the months
            # they were away: created_at marks when the subscription (last) became active.
            keep_created = row is not None and bool(row["active"])
            conn.execute(
                """
                INSERT INTO subscriptions (platform, destination_id, language, digest_time,
                    timezone, post_on_quiet_days, active, inactive_reason, broken_reason,
                    scope, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, 1, NULL, NULL, ?, ?, ?)
                ON CONFLICT (platform, destination_id) DO UPDATE SET
                    language = excluded.language,
                    digest_time = excluded.digest_time,
                    timezone = excluded.timezone,
                    post_on_quiet_days = excluded.post_on_quiet_days,
                    active = 1, inactive_reason = NULL, broken_reason = NULL,
                    scope = excluded.scope,
                    created_at = CASE WHEN ? THEN created_at ELSE excluded.created_at END,
                    updated_at = excluded.updated_at
                """,
                (
                    s.destination.platform,
                    s.destination.id,
                    s.language,
                    s.digest_time.isoformat(),
                    s.timezone,
                    int(s.post_on_quiet_days),
                    s.scope,
                    timestamp(s.created_at) if s.created_at else now,
                    now,
                    int(keep_created),
                ),
            )
        stored = self.subscription(s.destination)
        assert stored is not None  # just written in the transaction above
        return stored

    def unsubscribe(self, destination: Destination, reason: str) -> bool:
        """Deactivate (the row and its reason stay); True if it was active."""
        with self._db.transaction("unsubscribe") as conn:
            cur = conn.execute(
                """UPDATE subscriptions SET active = 0, inactive_reason = ?, updated_at = ?
                   WHERE platform = ? AND destination_id = ? AND active = 1""",
                (reason, timestamp(self.clock()), destination.platform, destination.id),
            )
            return cur.rowcount > 0

    def subscription(self, destination: Destination) -> Subscription | None:
        with self._db.reading("read a subscription") as conn:
            row = conn.execute(
                "SELECT * FROM subscriptions WHERE platform = ? AND destination_id = ?",
                (destination.platform, destination.id),
            ).fetchone()
        return None if row is None else subscription_of(row)

    def subscriptions(
        self, *, platform: str | None = None, active_only: bool = True
    ) -> list[Subscription]:
        sql = "SELECT * FROM subscriptions WHERE (? IS NULL OR platform = ?)"
        if active_only:
            sql += " AND active = 1"
        with self._db.reading("list subscriptions") as conn:
            rows = conn.execute(
                sql + " ORDER BY platform, destination_id", (platform, platform)
            ).fetchall()
        return [subscription_of(row) for row in rows]

    def move(self, old: Destination, new: Destination) -> None:
        """Carry a subscription and its delivery history to a destination's new id."""
        with self._db.transaction("move a destination") as conn:
            taken = conn.execute(
                "SELECT 1 FROM subscriptions WHERE platform = ? AND destination_id = ?",
                (new.platform, new.id),
            ).fetchone()
            if taken:  # the new id already has its own settings: they win
                conn.execute(
                    "DELETE FROM subscriptions WHERE platform = ? AND destination_id = ?",
                    (old.platform, old.id),
                )
            else:
                conn.execute(
                    """UPDATE subscriptions SET platform = ?, destination_id = ?, updated_at = ?
                       WHERE platform = ? AND destination_id = ?""",
                    (new.platform, new.id, timestamp(self.clock()), old.platform, old.id),
                )
            # OR IGNORE: a window both ids claimed stays with the old id, as history.
            conn.execute(
                """UPDATE OR IGNORE deliveries SET platform = ?, destination_id = ?
                   WHERE platform = ? AND destination_id = ?""",
                (new.platform, new.id, old.platform, old.id),
            )

    def mark_broken(self, destination: Destination, reason: str | None) -> None:
        with self._db.transaction("mark a subscription broken") as conn:
            conn.execute(
                """UPDATE subscriptions SET broken_reason = ?, updated_at = ?
                   WHERE platform = ? AND destination_id = ?""",
                (reason, timestamp(self.clock()), destination.platform, destination.id),
            )

    # deliveries

    def begin_delivery(
        self,
        destination: Destination,
        window_start: dt.datetime,
        window_end: dt.datetime,
        content_hash: str,
        *,
        kind: str = "daily",
        now: dt.datetime,
        owner: str | None = None,
    ) -> Delivery:
        stamp = timestamp(now)
        try:
            with self._db.transaction("record a delivery") as conn:
                cur = conn.execute(
                    """INSERT INTO deliveries (platform, destination_id, kind, window_start,
                           window_end, content_hash, state, created_at, claimed_at)
                       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)""",
                    (
                        destination.platform,
                        destination.id,
                        kind,
                        timestamp(window_start),
                        timestamp(window_end),
                        content_hash,
                        stamp,
                        stamp,
                    ),
                )
                delivery_id = cur.lastrowid
                if owner is not None:  # apart, so a file at an older schema still records
                    conn.execute(
                        "UPDATE deliveries SET owner = ? WHERE id = ?", (owner, delivery_id)
                    )
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise DeliveryClaimed(
                    f"the {kind} digest for {destination.platform}:{destination.id} ending "
                    f"{window_end.isoformat()} is already recorded"
                ) from exc.__cause__
            raise
        assert delivery_id is not None
        return self._delivery_by_id(delivery_id)

    def finish_delivery(
        self,
        delivery_id: int,
        state: DeliveryState,
        *,
        now: dt.datetime,
        error: str | None = None,
        messages_sent: int = 0,
    ) -> None:
        if state is DeliveryState.PENDING:
            raise ValueError("a delivery is finished as sent, failed or skipped")
        with self._db.transaction("finish a delivery") as conn:
            conn.execute(
                "UPDATE deliveries SET state = ?, sent_at = ?, error = ?, messages_sent = ? "
                "WHERE id = ?",
                (
                    str(state),
                    timestamp(now) if state is DeliveryState.SENT else None,
                    error,
                    messages_sent,
                    delivery_id,
                ),
            )

    def deliveries(self, destination: Destination | None = None) -> list[Delivery]:
        if destination is None:
            return self._deliveries("SELECT * FROM deliveries ORDER BY id")
        return self._deliveries(
            "SELECT * FROM deliveries WHERE platform = ? AND destination_id = ? ORDER BY id",
            destination.platform,
            destination.id,
        )

    def last_sent(self, destination: Destination) -> Delivery | None:
        found = self._deliveries(
            """SELECT * FROM deliveries WHERE platform = ? AND destination_id = ?
                   AND state = 'sent' ORDER BY sent_at DESC, id DESC LIMIT 1""",
            destination.platform,
            destination.id,
        )
        return found[0] if found else None

    def pending(self) -> list[Delivery]:
        return self._deliveries("SELECT * FROM deliveries WHERE state = 'pending' ORDER BY id")

    def latest_deliveries(self, *, platform: str | None = None) -> list[Delivery]:
        return self._deliveries(
            """
            WITH covered AS (
                SELECT platform, destination_id, MAX(window_end) AS until FROM deliveries
                WHERE kind = 'daily' AND state IN ('sent', 'skipped')
                GROUP BY platform, destination_id
            )
            SELECT d.* FROM deliveries d
            LEFT JOIN covered c USING (platform, destination_id)
            WHERE d.kind = 'daily' AND (? IS NULL OR d.platform = ?)
              AND (c.until IS NULL OR d.window_end >= c.until)
            ORDER BY d.id
            """,
            platform,
            platform,
        )

    def reclaim(
        self,
        delivery_id: int,
        *,
        stale_before: dt.datetime,
        now: dt.datetime,
        owner: str | None = None,
        lapsed_before: dt.datetime | None = None,
    ) -> bool:
        return leases.reclaim(self._db, delivery_id, stale_before, now, owner, lapsed_before)

    def beat(self, owner: str, *, now: dt.datetime) -> None:
        leases.beat(self._db, owner, now)

    def release(self, owner: str, *, lapsed_before: dt.datetime) -> None:
        leases.release(self._db, owner, lapsed_before)

    # plumbing

    def _delivery_by_id(self, delivery_id: int) -> Delivery:
        found = self._deliveries("SELECT * FROM deliveries WHERE id = ?", delivery_id)
        if not found:
            raise StoreError(f"delivery {delivery_id} does not exist")
        return found[0]

    def _deliveries(self, sql: str, *params: Any) -> list[Delivery]:
        with self._db.reading("read deliveries") as conn:
            rows = conn.execute(sql, params).fetchall()
        return [delivery_of(row) for row in rows]
