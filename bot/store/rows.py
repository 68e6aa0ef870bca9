"""SQLite rows as the store contract's values, and what a subscription row may hold."""

from __future__ import annotations

import datetime as dt
import sqlite3

from bot.store.connection import parse_timestamp
from bot.store.contract import Delivery, DeliveryState, Destination, Subscription
from knowledge.clock import zone
from knowledge.errors import InputRejected


def check_subscription(s: Subscription) -> None:
    """Refuse what the schedule could not honour, so it never meets an unknown zone."""
    if s.language not in ("en", "zh"):
        raise InputRejected(f"unsupported digest language {s.language!r}; use en or zh")
    if zone(s.timezone) is None:
        raise InputRejected(
            f"unknown time zone {s.timezone[:80]!r}; use an IANA name such as Asia/Shanghai"
        )


def subscription_of(row: sqlite3.Row) -> Subscription:
    return Subscription(
        destination=Destination(row["platform"], row["destination_id"]),
        language=row["language"],
        digest_time=dt.time.fromisoformat(row["digest_time"]),
        timezone=row["timezone"],
        post_on_quiet_days=bool(row["post_on_quiet_days"]),
        active=bool(row["active"]),
        inactive_reason=row["inactive_reason"],
        broken_reason=row["broken_reason"],
        scope=row["scope"],
        created_at=parse_timestamp(row["created_at"]),
    )


def delivery_of(row: sqlite3.Row) -> Delivery:
    created = parse_timestamp(row["created_at"])
    assert created is not None  # NOT NULL in the schema
    return Delivery(
        id=row["id"],
        destination=Destination(row["platform"], row["destination_id"]),
        window_start=dt.datetime.fromisoformat(row["window_start"]),
        window_end=dt.datetime.fromisoformat(row["window_end"]),
        content_hash=row["content_hash"],
        state=DeliveryState(row["state"]),
        created_at=created,
        sent_at=parse_timestamp(row["sent_at"]),
        error=row["error"],
        kind=row["kind"],
        # absent only in a file opened with fewer migrations (an older release's schema)
        messages_sent=row["messages_sent"] if "messages_sent" in row.keys() else 0,
        owner=row["owner"] if "owner" in row.keys() else None,
    )
