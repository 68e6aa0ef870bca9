"""When a daily digest is due, and which window it covers: a pure function of its inputs.

Each subscription has a *slot* per local day: its ``digest_time`` in its time zone. A digest
is due when the latest slot at or before ``now`` is later than the end of the last window
already covered (sent, or skipped because it was quiet). Its window runs from there to that
slot, so after downtime one digest covers every missed day: never a burst of one per day.

Wall-clock edge cases, decided once here:

- a slot in a DST gap (02:30 on a spring-forward night) posts at the instant the clock jumps
  over it, read with the offset before the gap (02:30 EST = 03:30 EDT): late, never skipped;
- a slot in a DST fold (01:30 twice on a fall-back night) posts at the first 01:30 only,
  because there is one slot per local *date*.

Whether a quiet window is posted is not decided here (it needs the knowledge base): the
runner builds the window's changes and records a quiet, unposted window as ``skipped``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.contract import Delivery, DeliveryState, Destination, Subscription
from knowledge.clock import zone

log = logging.getLogger(__name__)

# After a failed attempt, wait before trying the same destination again: doubling from
# RETRY_FIRST up to RETRY_MAX, so a broken chat costs a few attempts an hour, not one a tick.
RETRY_FIRST = dt.timedelta(minutes=5)
RETRY_MAX = dt.timedelta(hours=1)

COVERED = (DeliveryState.SENT, DeliveryState.SKIPPED)


@dataclass(frozen=True, slots=True)
class DueDigest:
    subscription: Subscription
    window_start: dt.datetime  # exclusive, UTC: the end of the last covered window
    window_end: dt.datetime  # inclusive, UTC: the slot being served

    @property
    def destination(self) -> Destination:
        return self.subscription.destination


@dataclass(slots=True)
class _History:
    """What one destination's daily deliveries say about the next one."""

    covered_until: dt.datetime | None = None
    in_flight: bool = False
    failures: int = 0
    last_failure: dt.datetime | None = None


_NO_HISTORY = _History()  # read only: a destination never served


def due_digests(
    now: dt.datetime,
    subscriptions: Iterable[Subscription],
    deliveries: Iterable[Delivery],
) -> list[DueDigest]:
    """The daily digests due at ``now`` (aware), one per destination at most.

    ``deliveries`` may be a destination's whole history or just its latest records
    (``Store.latest_deliveries``); manual deliveries are ignored. Inactive subscriptions,
    destinations with a delivery in flight and destinations backing off after a failure are
    not due.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    histories = _histories(deliveries)
    slots: dict[tuple[str, dt.time], dt.datetime] = {}  # many subscriptions share a slot
    due: list[DueDigest] = []
    for sub in subscriptions:
        if not sub.active:
            continue
        key = (sub.timezone, sub.digest_time)
        slot = slots.get(key)
        if slot is None:
            slot = slots[key] = latest_slot(now, sub.digest_time, sub.timezone)
        history = histories.get(sub.destination, _NO_HISTORY)
        start = _window_start(sub, history, slot)
        if slot <= start or history.in_flight:
            continue
        if history.last_failure is not None and now < history.last_failure + backoff(
            history.failures
        ):
            continue
        due.append(DueDigest(sub, start, slot))
    return due


def latest_slot(now: dt.datetime, digest_time: dt.time, timezone: str) -> dt.datetime:
    """The latest instant <= ``now`` when the clock in ``timezone`` read ``digest_time``."""
    zone = _zone(timezone)
    today = now.astimezone(zone).date()
    for day in (today, today - dt.timedelta(days=1), today - dt.timedelta(days=2)):
        slot = slot_on(day, digest_time, zone)
        if slot <= now:
            return slot
    raise AssertionError("unreachable: a slot two local days back is always in the past")


def slot_on(day: dt.date, digest_time: dt.time, zone: dt.tzinfo) -> dt.datetime:
    """The UTC instant of ``digest_time`` on the local ``day``; fold=0 settles gaps and folds."""
    local = dt.datetime.combine(day, digest_time.replace(tzinfo=None, fold=0), tzinfo=zone)
    return local.astimezone(dt.UTC)


def backoff(failures: int) -> dt.timedelta:
    if failures <= 0:
        return dt.timedelta(0)
    doublings: int = min(failures - 1, 16)  # capped: RETRY_MAX wins long before
    return min(RETRY_FIRST * (1 << doublings), RETRY_MAX)


def _window_start(sub: Subscription, history: _History, slot: dt.datetime) -> dt.datetime:
    if history.covered_until is not None:
        start = history.covered_until
        # A subscription reactivated after its last digest starts from its return.
        if sub.created_at is not None and sub.created_at > start:
            start = sub.created_at
        return start
    if sub.created_at is not None:
        return sub.created_at
    return slot - dt.timedelta(days=1)  # unknown start: one day, the normal window


def _histories(deliveries: Iterable[Delivery]) -> dict[Destination, _History]:
    # Read on every scheduler check over every destination's latest records (100,000 and
    # more), so: one pass for the coverage, a second over the uncovered rows only (a few).
    covered: dict[Destination, dt.datetime] = {}
    open_rows: list[Delivery] = []
    for d in deliveries:
        if d.kind != "daily":
            continue
        if d.state in COVERED:
            until = covered.get(d.destination)
            if until is None or d.window_end > until:
                covered[d.destination] = d.window_end
        else:
            open_rows.append(d)
    histories = {dest: _History(covered_until=until) for dest, until in covered.items()}
    for d in open_rows:
        h = histories.get(d.destination)
        if h is None:
            h = histories[d.destination] = _History()
        elif h.covered_until is not None and d.window_end <= h.covered_until:
            continue  # superseded by a later covered window
        if d.state is DeliveryState.PENDING:
            h.in_flight = True
        elif d.state is DeliveryState.FAILED:
            h.failures += 1
            if h.last_failure is None or d.created_at > h.last_failure:
                h.last_failure = d.created_at
    return histories


def _zone(name: str) -> dt.tzinfo:
    found = zone(name)
    if found is None:
        # The store refuses unknown zones; one that vanished from tzdata since posts at its
        # UTC time rather than never ("a due digest is never skipped").
        log.warning("unknown time zone %r; scheduling its digests in UTC", name[:80])
        return dt.UTC
    return found
