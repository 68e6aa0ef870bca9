"""The Store contract (``bot/store/contract.py``), held by both backends: SQLite and PostgreSQL.

Each test runs once per backend (``conftest.py``). What only one backend has (SQLite's file,
PostgreSQL's schema marker and URL) is tested in ``tests/test_store.py`` and
``test_pg_schema.py``.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.digest.schedule import due_digests
from bot.store.contract import DeliveryState, Destination, Store, Subscription
from knowledge.clock import fixed_clock
from knowledge.errors import DeliveryClaimed, InputRejected, StoreError
from tests.store_contract.conftest import NOW, Backend

CHAT = Destination("telegram", "1001")
GROUP = Destination("telegram", "-42")
DAY = dt.timedelta(days=1)


def subscription(dest: Destination = CHAT, **changes: Any) -> Subscription:
    return replace(Subscription(dest, "zh", dt.time(9, 0), "Asia/Shanghai"), **changes)


# subscriptions


def test_a_subscription_reads_back_exactly_as_written(store: Store) -> None:
    saved = store.subscribe(
        subscription(post_on_quiet_days=True, scope="guild-7", digest_time=dt.time(21, 30))
    )

    assert saved == store.subscription(CHAT)
    assert saved.language == "zh" and saved.timezone == "Asia/Shanghai"
    assert saved.digest_time == dt.time(21, 30)
    assert saved.post_on_quiet_days and saved.scope == "guild-7"
    assert saved.active and saved.inactive_reason is None and saved.broken_reason is None
    assert saved.created_at == NOW and saved.created_at.tzinfo is dt.UTC
    assert store.subscription(GROUP) is None


def test_an_explicit_start_is_kept_in_utc(store: Store) -> None:
    shanghai = dt.timezone(dt.timedelta(hours=8))
    start = dt.datetime(2026, 8, 30, 17, 0, 0, 123456, tzinfo=shanghai)
    saved = store.subscribe(subscription(created_at=start))
    assert saved.created_at == start and saved.created_at.tzinfo is dt.UTC


def test_unsubscribing_keeps_the_row_and_the_reason(store: Store) -> None:
    store.subscribe(subscription())
    store.subscribe(subscription(GROUP))

    assert store.unsubscribe(CHAT, "the user blocked the bot") is True
    assert store.unsubscribe(CHAT, "again") is False  # already inactive: nothing to do
    assert store.unsubscribe(Destination("discord", "1"), "never there") is False

    assert [s.destination for s in store.subscriptions()] == [GROUP]
    gone = store.subscription(CHAT)
    assert gone is not None and not gone.active
    assert gone.inactive_reason == "the user blocked the bot"
    # bytewise order, whatever the database's collation: "-42" before "1001"
    assert [s.destination for s in store.subscriptions(active_only=False)] == [GROUP, CHAT]


def test_changing_settings_keeps_the_start_but_coming_back_starts_afresh(
    backend: Backend, store: Store
) -> None:
    store.subscribe(subscription())
    later = NOW + dt.timedelta(days=3)
    again = backend.open(clock=fixed_clock(later))
    changed = again.subscribe(subscription(language="en", timezone="Europe/Berlin"))
    assert (changed.language, changed.timezone, changed.created_at) == (
        "en",
        "Europe/Berlin",
        NOW,
    )
    again.mark_broken(CHAT, "missing permission")
    again.unsubscribe(CHAT, "stop")
    back = again.subscribe(subscription())
    # No catch-up of the days away: the returning subscriber's window starts now.
    assert back.active and back.inactive_reason is None and back.created_at == later
    assert back.broken_reason is None


def test_the_store_refuses_a_time_zone_the_schedule_could_not_honour(store: Store) -> None:
    with pytest.raises(InputRejected, match="Mars/Olympus"):
        store.subscribe(subscription(timezone="Mars/Olympus"))
    with pytest.raises(InputRejected, match="language"):
        store.subscribe(subscription(language="fr"))
    assert store.subscriptions(active_only=False) == []


def test_listing_filters_by_platform(store: Store) -> None:
    store.subscribe(subscription())
    store.subscribe(subscription(Destination("discord", "555")))

    assert [s.destination.platform for s in store.subscriptions()] == ["discord", "telegram"]
    assert [s.destination for s in store.subscriptions(platform="discord")] == [
        Destination("discord", "555")
    ]
    assert store.subscriptions(platform="console") == []


def test_a_broken_destination_is_marked_and_cleared(store: Store) -> None:
    store.subscribe(subscription())
    store.mark_broken(CHAT, "missing permission to post")
    assert store.subscription(CHAT).broken_reason == "missing permission to post"  # type: ignore[union-attr]
    assert store.subscription(CHAT).active  # type: ignore[union-attr]
    store.mark_broken(CHAT, None)
    assert store.subscription(CHAT).broken_reason is None  # type: ignore[union-attr]


def test_a_migrated_chat_keeps_its_subscription_and_history(store: Store) -> None:
    store.subscribe(subscription(GROUP, scope="s"))
    d = store.begin_delivery(GROUP, NOW - DAY, NOW, "h", now=NOW)
    store.finish_delivery(d.id, DeliveryState.SENT, now=NOW)
    supergroup = Destination("telegram", "-100042")

    store.move(GROUP, supergroup)

    assert store.subscription(GROUP) is None
    moved = store.subscription(supergroup)
    assert moved is not None and (moved.language, moved.scope, moved.created_at) == (
        "zh",
        "s",
        NOW,
    )
    assert store.last_sent(supergroup) is not None and store.last_sent(GROUP) is None


def test_moving_onto_an_id_with_its_own_subscription_keeps_the_newer_settings(
    store: Store,
) -> None:
    new = Destination("telegram", "-100042")
    store.subscribe(subscription(GROUP, language="zh"))
    store.subscribe(subscription(new, language="en"))

    store.move(GROUP, new)

    assert [s.destination for s in store.subscriptions()] == [new]
    assert store.subscription(new).language == "en"  # type: ignore[union-attr]


def test_a_window_both_ids_claimed_stays_with_the_old_id(store: Store) -> None:
    new = Destination("telegram", "-100042")
    both = store.begin_delivery(GROUP, NOW - DAY, NOW, "old", now=NOW)
    only_old = store.begin_delivery(GROUP, NOW, NOW + DAY, "old", now=NOW)
    its_own = store.begin_delivery(new, NOW - DAY, NOW, "new", now=NOW)

    store.move(GROUP, new)

    assert [d.id for d in store.deliveries(GROUP)] == [both.id]
    assert [d.id for d in store.deliveries(new)] == [only_old.id, its_own.id]


# deliveries


def test_a_delivery_goes_from_pending_to_sent(store: Store) -> None:
    start, end = NOW - DAY, NOW
    d = store.begin_delivery(CHAT, start, end, "abc", now=NOW)
    assert (d.state, d.window_start, d.window_end, d.content_hash, d.kind) == (
        DeliveryState.PENDING,
        start,
        end,
        "abc",
        "daily",
    )
    assert (d.created_at, d.sent_at, d.error, d.messages_sent, d.owner) == (
        NOW,
        None,
        None,
        0,
        None,
    )
    assert store.pending() == [d]
    assert store.last_sent(CHAT) is None

    store.finish_delivery(d.id, DeliveryState.SENT, now=NOW + dt.timedelta(seconds=2))

    sent = store.last_sent(CHAT)
    assert sent is not None and sent.state is DeliveryState.SENT
    assert sent.sent_at == NOW + dt.timedelta(seconds=2)
    assert store.pending() == []
    assert store.deliveries() == store.deliveries(CHAT) == [sent]


def test_every_time_comes_back_aware_in_utc(store: Store) -> None:
    berlin = dt.timezone(dt.timedelta(hours=2))
    end = NOW.astimezone(berlin)
    d = store.begin_delivery(CHAT, end - DAY, end, "h", now=end + dt.timedelta(microseconds=7))
    store.finish_delivery(d.id, DeliveryState.SENT, now=end + dt.timedelta(seconds=1))
    (sent,) = store.deliveries()
    times = [sent.window_start, sent.window_end, sent.created_at, sent.sent_at]
    assert all(t is not None and t.tzinfo is dt.UTC for t in times)
    assert sent.window_end == NOW and sent.created_at == NOW + dt.timedelta(microseconds=7)


def test_a_failed_delivery_keeps_its_error_and_how_far_it_got(store: Store) -> None:
    d = store.begin_delivery(CHAT, NOW - DAY, NOW, "h", now=NOW)
    store.finish_delivery(d.id, DeliveryState.FAILED, now=NOW, error="boom", messages_sent=2)
    (failed,) = store.deliveries(CHAT)
    assert (failed.state, failed.error, failed.messages_sent, failed.sent_at) == (
        DeliveryState.FAILED,
        "boom",
        2,
        None,
    )
    with pytest.raises(ValueError, match="sent, failed or skipped"):
        store.finish_delivery(d.id, DeliveryState.PENDING, now=NOW)


def test_a_daily_window_can_be_claimed_once_but_retried_after_a_failure(store: Store) -> None:
    start, end = NOW - DAY, NOW
    first = store.begin_delivery(CHAT, start, end, "h", now=NOW)
    with pytest.raises(DeliveryClaimed, match="already recorded"):
        store.begin_delivery(CHAT, start, end, "h", now=NOW)
    with pytest.raises(StoreError):  # DeliveryClaimed is a StoreError
        store.begin_delivery(CHAT, start - DAY, end, "other", now=NOW)

    store.finish_delivery(first.id, DeliveryState.FAILED, now=NOW, error="DeliveryRetryable: 502")
    retry = store.begin_delivery(CHAT, start, end, "h", now=NOW + dt.timedelta(minutes=5))

    assert retry.id != first.id
    assert [d.state for d in store.deliveries(CHAT)] == [
        DeliveryState.FAILED,
        DeliveryState.PENDING,
    ]
    assert store.deliveries(CHAT)[0].error == "DeliveryRetryable: 502"
    store.finish_delivery(retry.id, DeliveryState.SKIPPED, now=NOW)
    with pytest.raises(DeliveryClaimed):  # skipped covers the window, as sent does
        store.begin_delivery(CHAT, start, end, "h", now=NOW)
    store.begin_delivery(GROUP, start, end, "h", now=NOW)  # another destination: its own


def test_manual_digests_never_collide_with_the_daily_one(store: Store) -> None:
    start, end = NOW - DAY, NOW
    store.begin_delivery(CHAT, start, end, "h", now=NOW)
    manual = store.begin_delivery(CHAT, start, end, "h", kind="manual", now=NOW)
    again = store.begin_delivery(CHAT, start, end, "h", kind="manual", now=NOW)
    assert manual.kind == again.kind == "manual" and manual.id != again.id


def test_the_schedule_reads_only_the_latest_deliveries(store: Store) -> None:
    ends = [NOW + i * DAY for i in range(4)]
    states = [DeliveryState.SENT, DeliveryState.SENT, DeliveryState.FAILED]
    for end, state in zip(ends, states, strict=False):
        d = store.begin_delivery(CHAT, end - DAY, end, "h", now=end)
        store.finish_delivery(d.id, state, now=end)
    store.begin_delivery(CHAT, ends[1], ends[3], "h", now=ends[3])  # in flight
    manual = store.begin_delivery(CHAT, ends[1], ends[3], "h", kind="manual", now=ends[3])
    store.finish_delivery(manual.id, DeliveryState.SENT, now=ends[3])
    other = Destination("discord", "7")
    never_covered = store.begin_delivery(other, NOW - DAY, NOW, "h", now=NOW)
    store.finish_delivery(never_covered.id, DeliveryState.FAILED, now=NOW)

    latest = store.latest_deliveries()

    assert [(d.destination, d.window_end, d.state) for d in latest] == [
        (CHAT, ends[1], DeliveryState.SENT),
        (CHAT, ends[2], DeliveryState.FAILED),
        (CHAT, ends[3], DeliveryState.PENDING),
        (other, NOW, DeliveryState.FAILED),
    ]
    assert store.latest_deliveries(platform="telegram") == latest[:3]
    assert store.latest_deliveries(platform="discord") == latest[3:]
    assert store.latest_deliveries(platform="console") == []
    assert store.last_sent(CHAT) == store.deliveries(CHAT)[-1]  # the manual one, sent last


def test_the_latest_deliveries_follow_every_change_of_coverage(store: Store) -> None:
    def latest() -> list[int]:
        return [d.id for d in store.latest_deliveries()]

    first = store.begin_delivery(CHAT, NOW - DAY, NOW, "h", now=NOW)
    store.finish_delivery(first.id, DeliveryState.SENT, now=NOW)
    second = store.begin_delivery(CHAT, NOW, NOW + DAY, "h", now=NOW + DAY)
    assert latest() == [first.id, second.id]
    store.finish_delivery(second.id, DeliveryState.SKIPPED, now=NOW + DAY)
    assert latest() == [second.id]
    # a window older than the covered one, claimed late: history already
    late = store.begin_delivery(CHAT, NOW - 3 * DAY, NOW - 2 * DAY, "h", now=NOW + DAY)
    assert latest() == [second.id]
    # the newest covered one finished again as failed: coverage falls back to the first
    store.finish_delivery(second.id, DeliveryState.FAILED, now=NOW + DAY, error="x")
    assert latest() == [first.id, second.id]
    store.finish_delivery(late.id, DeliveryState.SENT, now=NOW + DAY)
    assert latest() == [first.id, second.id]


def test_histories_joined_by_a_move_read_as_one(store: Store) -> None:
    new = Destination("telegram", "-100042")

    def sent(dest: Destination, end: dt.datetime) -> int:
        d = store.begin_delivery(dest, end - DAY, end, "h", now=end)
        store.finish_delivery(d.id, DeliveryState.SENT, now=end)
        return d.id

    older, both_old = sent(GROUP, NOW), sent(GROUP, NOW + DAY)
    both_new, newest = sent(new, NOW + DAY), sent(new, NOW + 2 * DAY)
    assert [d.id for d in store.latest_deliveries()] == [both_old, newest]

    store.move(GROUP, new)

    assert [d.id for d in store.deliveries(new)] == [older, both_new, newest]
    assert [d.id for d in store.latest_deliveries()] == [both_old, newest]
    assert [d.destination for d in store.latest_deliveries()] == [GROUP, new]


def test_the_due_decision_reads_the_same_from_every_store(store: Store) -> None:
    store.subscribe(subscription(created_at=NOW - 2 * DAY))  # 09:00 Shanghai = 01:00 UTC
    (due,) = due_digests(NOW, store.subscriptions(), store.latest_deliveries())
    assert (due.window_start, due.window_end) == (NOW - 2 * DAY, NOW.replace(hour=1))

    d = store.begin_delivery(CHAT, due.window_start, due.window_end, "h", now=NOW)
    assert due_digests(NOW, store.subscriptions(), store.latest_deliveries()) == []  # in flight
    store.finish_delivery(d.id, DeliveryState.SENT, now=NOW)
    assert due_digests(NOW, store.subscriptions(), store.latest_deliveries()) == []
    tomorrow = NOW + DAY
    (next_one,) = due_digests(tomorrow, store.subscriptions(), store.latest_deliveries())
    assert next_one.window_start == due.window_end


def test_naive_times_are_refused_rather_than_guessed(store: Store) -> None:
    with pytest.raises(ValueError, match="naive"):
        store.begin_delivery(CHAT, dt.datetime(2026, 9, 1), NOW, "h", now=NOW)
    with pytest.raises(ValueError, match="naive"):
        store.beat("run", now=dt.datetime(2026, 9, 1))
    assert store.deliveries() == []


def test_a_closed_store_refuses_with_a_store_error(backend: Backend) -> None:
    store = backend.open()
    store.close()
    with pytest.raises(StoreError) as caught:
        store.subscriptions()
    assert "\n" not in str(caught.value)


# two stores on one database, as two replicas


def test_a_stale_pending_delivery_is_reclaimed_by_exactly_one_caller(backend: Backend) -> None:
    a, b = backend.open(), backend.open()
    d = a.begin_delivery(CHAT, NOW - DAY, NOW, "h", now=NOW)
    fresh = NOW + dt.timedelta(minutes=1)
    assert not a.reclaim(d.id, stale_before=fresh - dt.timedelta(minutes=10), now=fresh)

    later = NOW + dt.timedelta(minutes=30)
    cutoff = later - dt.timedelta(minutes=10)
    assert a.reclaim(d.id, stale_before=cutoff, now=later) is True
    assert b.reclaim(d.id, stale_before=cutoff, now=later) is False


def test_a_pending_delivery_is_taken_over_only_once_its_owners_lease_lapses(
    backend: Backend,
) -> None:
    lease = dt.timedelta(seconds=45)
    a, b, c = backend.open(), backend.open(), backend.open()
    a.beat("run-a", now=NOW)
    d = a.begin_delivery(CHAT, NOW - DAY, NOW, "h", now=NOW, owner="run-a")
    assert d.owner == "run-a"

    soon = NOW + dt.timedelta(seconds=30)
    b.beat("run-b", now=soon)
    assert not b.reclaim(
        d.id, owner="run-b", stale_before=soon, lapsed_before=soon - lease, now=soon
    )

    later = NOW + dt.timedelta(minutes=1)  # run-a stopped beating: its lease lapsed
    b.beat("run-b", now=later)
    c.beat("run-c", now=later)
    cutoff = later - lease
    assert b.reclaim(d.id, owner="run-b", stale_before=later, lapsed_before=cutoff, now=later)
    # run-b now holds it, with a fresh lease: run-c racing for it gets nothing
    assert not c.reclaim(d.id, owner="run-c", stale_before=later, lapsed_before=cutoff, now=later)
    assert [p.owner for p in c.pending()] == ["run-b"]
    c.finish_delivery(d.id, DeliveryState.SENT, now=later)  # a finished one is nobody's to take
    assert not c.reclaim(d.id, owner="run-c", stale_before=later, lapsed_before=later, now=later)


def test_releasing_a_lease_forgets_it_and_any_that_lapsed(backend: Backend, store: Store) -> None:
    store.beat("crashed", now=NOW)
    store.beat("live", now=NOW + dt.timedelta(minutes=5))
    store.beat("done", now=NOW + dt.timedelta(minutes=5))
    d = store.begin_delivery(CHAT, NOW, NOW, "h", kind="manual", now=NOW, owner="done")

    store.release("done", lapsed_before=NOW + dt.timedelta(minutes=4))

    assert backend.query("SELECT owner FROM delivery_leases") == [("live",)]
    # what the released run left pending is nobody's: the next one to ask takes it
    later = NOW + dt.timedelta(minutes=5)
    assert store.reclaim(d.id, owner="live", stale_before=NOW, lapsed_before=NOW, now=later)


def race(contenders: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    """Run each contender in its own thread, released together; what each returned or raised."""
    start = threading.Barrier(len(contenders))
    results: list[object] = []
    errors: list[BaseException] = []

    def run(contender: Callable[[], object]) -> None:
        start.wait()
        try:
            results.append(contender())
        except BaseException as exc:  # collected: the caller's assertion shows it
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(c,)) for c in contenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


@pytest.mark.parametrize("round_", range(10))
def test_two_stores_claiming_one_daily_digest_at_once_one_wins(
    backend: Backend, round_: int
) -> None:
    a, b = backend.open(), backend.open()
    end = NOW + round_ * DAY

    def claim(store: Store, owner: str) -> Callable[[], object]:
        return lambda: store.begin_delivery(CHAT, end - DAY, end, "h", now=NOW, owner=owner)

    won, lost = race([claim(a, "run-a"), claim(b, "run-b")])

    assert len(won) == 1 and [type(e) for e in lost] == [DeliveryClaimed]
    assert [d.state for d in a.deliveries(CHAT)] == [DeliveryState.PENDING]


def test_two_stores_reclaiming_one_lapsed_delivery_at_once_one_wins(backend: Backend) -> None:
    a, b, c = backend.open(), backend.open(), backend.open()
    owners = {a: "run-a", b: "run-b", c: "run-c"}
    later = NOW + dt.timedelta(minutes=5)
    for store, owner in owners.items():
        store.beat(owner, now=later)
    orphans = [
        a.begin_delivery(CHAT, NOW - i * DAY - DAY, NOW - i * DAY, "h", now=NOW, owner="dead")
        for i in range(5)
    ]
    for d in orphans:

        def take(store: Store, d_id: int = d.id) -> Callable[[], object]:
            return lambda: store.reclaim(
                d_id, owner=owners[store], stale_before=NOW, lapsed_before=later, now=later
            )

        taken, errors = race([take(b), take(c)])
        assert errors == [] and sorted(taken) == [False, True]  # type: ignore[type-var]
    assert {p.owner for p in a.pending()} <= {"run-b", "run-c"}
