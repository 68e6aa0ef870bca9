"""PostgreSQL rows as the store contract's values: the columns read, in a fixed order.

Rows are plain tuples (psycopg's fastest row factory: a scheduler check reads 100,000
subscriptions and as many deliveries at once), so each query selects ``SUBSCRIPTION`` or
``DELIVERY``, and these map them by position. The session runs in UTC, so times come back
aware in ``datetime.UTC`` already, as SQLite's do.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.store.contract import Delivery, DeliveryState, Destination, Subscription

SUBSCRIPTION = """platform, destination_id, language, digest_time, timezone, post_on_quiet_days,
    active, inactive_reason, broken_reason, scope, created_at"""
DELIVERY = """id, platform, destination_id, window_start, window_end, content_hash, state,
    created_at, sent_at, error, kind, messages_sent, owner"""

Row = tuple[Any, ...]
_STATES = {state.value: state for state in DeliveryState}  # a dict beats Enum() per row


def aware(moment: dt.datetime) -> dt.datetime:
    """``moment`` in UTC; a naive one is refused, never read in the server's zone."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: the store keeps aware times only")
    return moment.astimezone(dt.UTC)


def utc(moment: dt.datetime | None) -> Any:
    if moment is None or moment.tzinfo is dt.UTC:
        return moment
    return moment.astimezone(dt.UTC)  # a session whose TimeZone someone changed


def subscription_of(row: Row) -> Subscription:
    return Subscription(
        destination=Destination(row[0], row[1]),
        language=row[2],
        digest_time=row[3],
        timezone=row[4],
        post_on_quiet_days=row[5],
        active=row[6],
        inactive_reason=row[7],
        broken_reason=row[8],
        scope=row[9],
        created_at=utc(row[10]),
    )


def delivery_of(row: Row) -> Delivery:
    return Delivery(
        id=row[0],
        destination=Destination(row[1], row[2]),
        window_start=utc(row[3]),
        window_end=utc(row[4]),
        content_hash=row[5],
        state=_STATES[row[6]],
        created_at=utc(row[7]),
        sent_at=utc(row[8]),
        error=row[9],
        kind=row[10],
        messages_sent=row[11],
        owner=row[12],
    )
