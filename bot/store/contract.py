"""What the core needs from a store: subscriptions and deliveries (signals: ``signals.py``).

The core and the adapters depend on this Protocol only. ``bot.store.sqlite.SQLiteStore``
(embedded) and ``bot.store.postgres.PostgresStore`` (several replicas) implement it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class DeliveryState(StrEnum):
    # recorded right before sending, under its owner's lease; if left behind by a run that
    # died, re-sent by another once that lease lapses (it may have gone out: possibly twice)
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    # a quiet window (nothing changed) for a subscription that posts only on change: the
    # window counts as covered, so the schedule moves on without posting
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a digest goes: a platform and its chat/channel id (always a string)."""

    platform: str  # "telegram" | "discord" | "console"
    id: str


@dataclass(frozen=True, slots=True)
class Subscription:
    destination: Destination
    language: str  # "en" | "zh"
    digest_time: dt.time  # local wall-clock time in ``timezone``
    timezone: str  # IANA name, e.g. "Asia/Shanghai"
    post_on_quiet_days: bool = False
    active: bool = True
    inactive_reason: str | None = None
    # a problem that does not deactivate (e.g. Discord 403): told to the next person who asks
    broken_reason: str | None = None
    scope: str | None = None  # e.g. the Discord guild id owning the channel
    created_at: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    id: int
    destination: Destination
    window_start: dt.datetime  # exclusive
    window_end: dt.datetime  # inclusive
    content_hash: str
    state: DeliveryState
    created_at: dt.datetime
    sent_at: dt.datetime | None = None
    error: str | None = None
    kind: str = "daily"  # "daily" (scheduled) or "manual" (/digest)
    # messages of a multi-message digest that went out before a failure (resume point)
    messages_sent: int = 0
    # the scheduler run that claimed it (see ``Store.beat``); None if recorded before
    # schema migration 4
    owner: str | None = None


class Store(Protocol):
    # subscriptions
    def subscribe(self, subscription: Subscription) -> Subscription: ...
    def unsubscribe(self, destination: Destination, reason: str) -> bool: ...
    def subscription(self, destination: Destination) -> Subscription | None: ...
    def subscriptions(
        self, *, platform: str | None = None, active_only: bool = True
    ) -> list[Subscription]: ...
    def move(self, old: Destination, new: Destination) -> None: ...
    def mark_broken(self, destination: Destination, reason: str | None) -> None: ...

    # deliveries
    # Records a PENDING delivery, held by ``owner``'s lease, right before it is sent. A second
    # "daily" delivery for the same destination and window end raises
    # knowledge.errors.DeliveryClaimed (another scheduler has it).
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
    ) -> Delivery: ...
    def finish_delivery(
        self,
        delivery_id: int,
        state: DeliveryState,
        *,
        now: dt.datetime,
        error: str | None = None,
        messages_sent: int = 0,
    ) -> None: ...
    def deliveries(self, destination: Destination | None = None) -> list[Delivery]: ...
    def last_sent(self, destination: Destination) -> Delivery | None: ...
    def pending(self) -> list[Delivery]: ...
    # What the schedule needs without the whole history: per destination, its latest sent or
    # skipped "daily" delivery and every "daily" delivery after it (pending, failed).
    def latest_deliveries(self, *, platform: str | None = None) -> list[Delivery]: ...
    # Take over a PENDING delivery whose sender is gone: its owner's lease got no beat since
    # ``lapsed_before`` (default: ``stale_before``), or, recorded without an owner, its claim
    # is older than ``stale_before``. The taker becomes its owner; True for exactly one of
    # several callers racing for it.
    def reclaim(
        self,
        delivery_id: int,
        *,
        stale_before: dt.datetime,
        now: dt.datetime,
        owner: str | None = None,
        lapsed_before: dt.datetime | None = None,
    ) -> bool: ...

    # Leases: an owner (one scheduler run) beats while it sends, so others can tell it lives.
    def beat(self, owner: str, *, now: dt.datetime) -> None: ...
    # The owner is done: nothing it holds is being sent any more. Also forgets leases that
    # lapsed before ``lapsed_before`` (an owner without a lease counts as lapsed).
    def release(self, owner: str, *, lapsed_before: dt.datetime) -> None: ...

    def close(self) -> None: ...
