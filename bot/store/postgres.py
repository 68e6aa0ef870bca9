"""The store on PostgreSQL (psycopg 3), for several replicas sharing one database.

The same contract as ``SQLiteStore``, kept the same way: the connection's rules (UTC session,
errors as one-line ``StoreError``, the URL's password redacted) are ``pg_database``'s, the
schema and the refusal of a database not ours ``pg_migrations``', rows ``pg_rows``'.

Where SQLite serialises every writer (``BEGIN IMMEDIATE``), PostgreSQL runs them side by
side, so each change is one statement that cannot be overtaken, or locks what it decides on:

- a daily digest is claimed by ``INSERT … ON CONFLICT DO NOTHING`` on the partial UNIQUE
  index: of two schedulers, the second waits for the first's commit and inserts nothing
  (``DeliveryClaimed``), without an error in the server's log (``pg_latest``);
- ``latest_deliveries`` reads a flag kept current on write (``pg_latest``), not the whole
  history, so a scheduler check costs the same in a year as on the first day;
- ``subscribe`` decides "keep the start, or start afresh" inside its upsert, and ``move``
  lets a new id's own settings win even if written a moment ago (``pg_subscriptions``);
- ``reclaim`` locks the delivery row before its compare-and-set (``pg_leases``), so the
  lease it checks is read after any rival's takeover committed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store import pg_latest, pg_leases, pg_subscriptions
from bot.store.contract import Delivery, DeliveryState, Destination, Subscription
from bot.store.migrations import Migration
from bot.store.pg_database import PgDatabase
from bot.store.pg_migrations import MIGRATIONS
from bot.store.pg_rows import DELIVERY, SUBSCRIPTION, aware, delivery_of, subscription_of
from bot.store.rows import check_subscription
from knowledge.clock import Clock, system_clock
from knowledge.errors import DeliveryClaimed


class PostgresStore:
    """``bot.store.contract.Store`` over one PostgreSQL database; a context manager, or
    ``close()``. ``url``: ``postgresql://user:password@host:5432/database`` (libpq's forms)."""

    def __init__(
        self,
        url: str,
        *,
        clock: Clock = system_clock,
        migrations: Sequence[Migration] = MIGRATIONS,
        read_only: bool = False,
    ) -> None:
        self.clock = clock
        # read_only: nothing migrated (an older database is refused, an empty one is version
        # 0) and a read-only session, for the commands that only look
        self._db = PgDatabase(url, migrations=migrations, read_only=read_only)
        self.url = self._db.where  # redacted: safe to show
        self.version = self._db.version

    def __repr__(self) -> str:
        return f"PostgresStore({self.url!r})"

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # subscriptions

    def subscribe(self, subscription: Subscription) -> Subscription:
        """Create or update a subscription; reactivating one starts its digests afresh."""
        check_subscription(subscription)
        return pg_subscriptions.subscribe(self._db, subscription, aware(self.clock()))

    def unsubscribe(self, destination: Destination, reason: str) -> bool:
        """Deactivate (the row and its reason stay); True if it was active."""
        with self._db.reading("unsubscribe") as conn:
            cur = conn.execute(
                """UPDATE subscriptions SET active = false, inactive_reason = %s, updated_at = %s
                   WHERE platform = %s AND destination_id = %s AND active""",
                (reason, aware(self.clock()), destination.platform, destination.id),
            )
            return cur.rowcount > 0

    def subscription(self, destination: Destination) -> Subscription | None:
        with self._db.reading("read a subscription") as conn:
            row = conn.execute(
                f"SELECT {SUBSCRIPTION} FROM subscriptions "
                "WHERE platform = %s AND destination_id = %s",
                (destination.platform, destination.id),
            ).fetchone()
        return None if row is None else subscription_of(row)

    def subscriptions(
        self, *, platform: str | None = None, active_only: bool = True
    ) -> list[Subscription]:
        where = ["true"]
        if platform is not None:
            where.append("platform = %(platform)s")
        if active_only:
            where.append("active")
        with self._db.reading("list subscriptions") as conn:
            rows = (
                conn.cursor(binary=True)  # binary times and booleans: no text to parse
                .execute(
                    f"SELECT {SUBSCRIPTION} FROM subscriptions WHERE {' AND '.join(where)} "
                    "ORDER BY platform, destination_id",
                    {"platform": platform},
                )
                .fetchall()
            )
        return [subscription_of(row) for row in rows]

    def move(self, old: Destination, new: Destination) -> None:
        """Carry a subscription and its delivery history to a destination's new id."""
        pg_subscriptions.move(self._db, old, new, aware(self.clock()))

    def mark_broken(self, destination: Destination, reason: str | None) -> None:
        with self._db.reading("mark a subscription broken") as conn:
            conn.execute(
                """UPDATE subscriptions SET broken_reason = %s, updated_at = %s
                   WHERE platform = %s AND destination_id = %s""",
                (reason, aware(self.clock()), destination.platform, destination.id),
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
        window = (aware(window_start), aware(window_end))
        row = pg_latest.claim(self._db, destination, window, content_hash, kind, aware(now), owner)
        if row is None:
            raise DeliveryClaimed(
                f"the {kind} digest for {destination.platform}:{destination.id} ending "
                f"{window_end.isoformat()} is already recorded"
            )
        return delivery_of(row)

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
        sent_at = aware(now) if state is DeliveryState.SENT else None
        pg_latest.finish(self._db, delivery_id, state, sent_at, error, messages_sent)

    def deliveries(self, destination: Destination | None = None) -> list[Delivery]:
        if destination is None:
            return self._deliveries(f"SELECT {DELIVERY} FROM deliveries ORDER BY id")
        return self._deliveries(
            f"SELECT {DELIVERY} FROM deliveries WHERE platform = %s AND destination_id = %s "
            "ORDER BY id",
            (destination.platform, destination.id),
        )

    def last_sent(self, destination: Destination) -> Delivery | None:
        found = self._deliveries(
            f"""SELECT {DELIVERY} FROM deliveries WHERE platform = %s AND destination_id = %s
                AND state = 'sent' ORDER BY sent_at DESC, id DESC LIMIT 1""",
            (destination.platform, destination.id),
        )
        return found[0] if found else None

    def pending(self) -> list[Delivery]:
        return self._deliveries(
            f"SELECT {DELIVERY} FROM deliveries WHERE state = 'pending' ORDER BY id"
        )

    def latest_deliveries(self, *, platform: str | None = None) -> list[Delivery]:
        return self._deliveries(*pg_latest.latest(platform))

    def reclaim(
        self,
        delivery_id: int,
        *,
        stale_before: dt.datetime,
        now: dt.datetime,
        owner: str | None = None,
        lapsed_before: dt.datetime | None = None,
    ) -> bool:
        return pg_leases.reclaim(self._db, delivery_id, stale_before, now, owner, lapsed_before)

    def beat(self, owner: str, *, now: dt.datetime) -> None:
        pg_leases.beat(self._db, owner, now)

    def release(self, owner: str, *, lapsed_before: dt.datetime) -> None:
        pg_leases.release(self._db, owner, lapsed_before)

    # plumbing

    def _deliveries(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[Delivery]:
        with self._db.reading("read deliveries") as conn:
            rows = conn.cursor(binary=True).execute(sql, params).fetchall()
        return [delivery_of(row) for row in rows]
