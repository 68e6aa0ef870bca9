"""Subscription writes on PostgreSQL, each decided where no other writer can overtake it.

SQLite decides them by reading first inside ``BEGIN IMMEDIATE``; here another replica may
write between a read and a write, so the decision moves into the statement itself:

- ``subscribe``: an upsert keeps the start of an active subscription, and starts a returning
  one afresh (``created_at``), by what the row held when the upsert reached it;
- ``move``: the new id's own settings win (``INSERT … DO NOTHING`` waits for a rival's
  insert to commit or vanish), and a daily window both ids claimed stays with the old one.
"""

from __future__ import annotations

import datetime as dt

from bot.store import pg_latest
from bot.store.contract import Destination, Subscription
from bot.store.pg_database import PgDatabase
from bot.store.pg_rows import SUBSCRIPTION, aware, subscription_of

# Not a daily claim of ``new`` already: what ``move`` may carry over (SQLite: UPDATE OR IGNORE).
_NOT_TAKEN = """NOT (d.kind = 'daily' AND d.state <> 'failed' AND EXISTS (
    SELECT 1 FROM deliveries n WHERE n.platform = %(np)s AND n.destination_id = %(ni)s
    AND n.kind = 'daily' AND n.state <> 'failed' AND n.window_end = d.window_end))"""


def subscribe(db: PgDatabase, s: Subscription, now: dt.datetime) -> Subscription:
    with db.reading("subscribe") as conn:
        # A returning subscriber gets digests from now on, not a catch-up of the months
        # they were away: created_at marks when the subscription (last) became active.
        row = conn.execute(
            f"""
            INSERT INTO subscriptions (platform, destination_id, language, digest_time,
                timezone, post_on_quiet_days, active, inactive_reason, broken_reason,
                scope, created_at, updated_at)
            VALUES (%s, %s, %s, %s, %s, %s, true, NULL, NULL, %s, %s, %s)
            ON CONFLICT (platform, destination_id) DO UPDATE SET
                language = excluded.language,
                digest_time = excluded.digest_time,
                timezone = excluded.timezone,
                post_on_quiet_days = excluded.post_on_quiet_days,
                active = true, inactive_reason = NULL, broken_reason = NULL,
                scope = excluded.scope,
                created_at = CASE WHEN subscriptions.active THEN subscriptions.created_at
                                  ELSE excluded.created_at END,
                updated_at = excluded.updated_at
            RETURNING {SUBSCRIPTION}
            """,
            (
                s.destination.platform,
                s.destination.id,
                s.language,
                s.digest_time,
                s.timezone,
                s.post_on_quiet_days,
                s.scope,
                aware(s.created_at) if s.created_at else now,
                now,
            ),
        ).fetchone()
    assert row is not None  # an upsert returns its row
    return subscription_of(row)


def move(db: PgDatabase, old: Destination, new: Destination, now: dt.datetime) -> None:
    ids = {"op": old.platform, "oi": old.id, "np": new.platform, "ni": new.id}
    with db.transaction("move a destination") as conn:
        pg_latest.lock(conn, old, new)
        # If the new id already has its own settings they win (DO NOTHING), even when
        # they were written a moment ago by someone else: the insert waits to see.
        conn.execute(
            """
            INSERT INTO subscriptions (platform, destination_id, language, digest_time,
                timezone, post_on_quiet_days, active, inactive_reason, broken_reason,
                scope, created_at, updated_at)
            SELECT %(np)s, %(ni)s, language, digest_time, timezone, post_on_quiet_days,
                active, inactive_reason, broken_reason, scope, created_at, %(now)s
            FROM subscriptions WHERE platform = %(op)s AND destination_id = %(oi)s
            ON CONFLICT (platform, destination_id) DO NOTHING
            """,
            {**ids, "now": now},
        )
        conn.execute(
            "DELETE FROM subscriptions WHERE platform = %(op)s AND destination_id = %(oi)s",
            ids,
        )
        # A window both ids claimed stays with the old id, as history.
        conn.execute(
            f"""UPDATE deliveries d SET platform = %(np)s, destination_id = %(ni)s
                WHERE d.platform = %(op)s AND d.destination_id = %(oi)s AND {_NOT_TAKEN}""",
            ids,
        )
        pg_latest.recompute(conn, old)  # what stayed behind: windows both ids claimed
        pg_latest.recompute(conn, new)
