"""When a digest is due: local wall-clock slots, DST gaps and folds, catch-up and retries."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.digest.schedule import RETRY_FIRST, DueDigest, backoff, due_digests, latest_slot
from bot.store.contract import Delivery, DeliveryState, Destination, Subscription

UTC = dt.UTC
CHAT = Destination("telegram", "1001")
SUBSCRIBED = dt.datetime(2026, 1, 1, tzinfo=UTC)


def sub(
    time: str = "09:00", tz: str = "Asia/Shanghai", dest: Destination = CHAT, **more: Any
) -> Subscription:
    base = Subscription(dest, "en", dt.time.fromisoformat(time), tz, created_at=SUBSCRIBED)
    return replace(base, **more)


def delivery(
    start: dt.datetime,
    end: dt.datetime,
    state: DeliveryState = DeliveryState.SENT,
    *,
    dest: Destination = CHAT,
    kind: str = "daily",
    created: dt.datetime | None = None,
) -> Delivery:
    return Delivery(
        id=0,
        destination=dest,
        window_start=start,
        window_end=end,
        content_hash="h",
        state=state,
        created_at=created or end,
        kind=kind,
    )


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_nine_in_the_morning_in_shanghai_is_one_in_the_morning_utc() -> None:
    s = sub("09:00", "Asia/Shanghai")
    yesterday = delivery(SUBSCRIBED, utc(2026, 9, 1, 1))
    assert due_digests(utc(2026, 9, 2, 0, 59), [s], [yesterday]) == []

    due = due_digests(utc(2026, 9, 2, 1, 0), [s], [yesterday])

    assert due == [DueDigest(s, utc(2026, 9, 1, 1), utc(2026, 9, 2, 1))]
    assert due[0].window_end.astimezone(ZoneInfo("Asia/Shanghai")).hour == 9


def test_a_digest_already_sent_is_not_due_again_the_same_day() -> None:
    s = sub()
    sent = delivery(utc(2026, 9, 1, 1), utc(2026, 9, 2, 1))
    for minutes in (0, 1, 60, 23 * 60 + 59):
        now = utc(2026, 9, 2, 1) + dt.timedelta(minutes=minutes)
        assert due_digests(now, [s], [sent]) == []


def test_after_a_week_down_one_digest_covers_every_missed_day() -> None:
    s = sub()
    last = delivery(utc(2026, 8, 31, 1), utc(2026, 9, 1, 1))

    due = due_digests(utc(2026, 9, 8, 14, 30), [s], [last])

    assert due == [DueDigest(s, utc(2026, 9, 1, 1), utc(2026, 9, 8, 1))]


def test_a_new_subscription_covers_the_time_since_it_was_made() -> None:
    made = utc(2026, 9, 1, 3)  # 11:00 in Shanghai: today's 09:00 has passed
    s = sub(created_at=made)
    assert due_digests(utc(2026, 9, 1, 23), [s], []) == []
    assert due_digests(utc(2026, 9, 2, 1), [s], []) == [DueDigest(s, made, utc(2026, 9, 2, 1))]


def test_a_returning_subscriber_does_not_get_the_months_they_were_away() -> None:
    back = utc(2026, 9, 1, 3)
    s = sub(created_at=back)
    long_ago = delivery(utc(2026, 5, 31, 1), utc(2026, 6, 1, 1))

    assert due_digests(utc(2026, 9, 2, 1), [s], [long_ago]) == [
        DueDigest(s, back, utc(2026, 9, 2, 1))
    ]


def test_inactive_subscriptions_and_manual_digests_are_left_out() -> None:
    now = utc(2026, 9, 2, 1)
    assert due_digests(now, [sub(active=False, inactive_reason="blocked")], []) == []
    manual = delivery(utc(2026, 9, 1, 1), utc(2026, 9, 2, 1, 30), kind="manual")
    assert len(due_digests(now, [sub()], [manual])) == 1


def test_a_digest_in_flight_is_not_started_twice() -> None:
    in_flight = delivery(utc(2026, 9, 1, 1), utc(2026, 9, 2, 1), DeliveryState.PENDING)
    assert due_digests(utc(2026, 9, 2, 1, 5), [sub()], [in_flight]) == []


def test_a_failed_digest_is_retried_with_backoff_and_never_skipped() -> None:
    s = sub()
    sent = delivery(utc(2026, 8, 31, 1), utc(2026, 9, 1, 1))
    failed = delivery(
        utc(2026, 9, 1, 1), utc(2026, 9, 2, 1), DeliveryState.FAILED, created=utc(2026, 9, 2, 1)
    )
    assert due_digests(utc(2026, 9, 2, 1, 4), [s], [sent, failed]) == []
    assert due_digests(utc(2026, 9, 2, 1) + RETRY_FIRST, [s], [sent, failed]) == [
        DueDigest(s, utc(2026, 9, 1, 1), utc(2026, 9, 2, 1))
    ]
    # Still failing the next morning: the retry covers both days, from the last one sent.
    assert due_digests(utc(2026, 9, 3, 1), [s], [sent, failed]) == [
        DueDigest(s, utc(2026, 9, 1, 1), utc(2026, 9, 3, 1))
    ]


def test_backoff_doubles_up_to_an_hour() -> None:
    assert [backoff(n).total_seconds() / 60 for n in range(6)] == [0, 5, 10, 20, 40, 60]
    assert backoff(1000) == dt.timedelta(hours=1)


def test_berlin_posts_at_nine_local_across_the_spring_change() -> None:
    s = sub("09:00", "Europe/Berlin")
    before = latest_slot(utc(2026, 3, 28, 12), s.digest_time, s.timezone)
    after = latest_slot(utc(2026, 3, 29, 12), s.digest_time, s.timezone)
    assert (before, after) == (utc(2026, 3, 28, 8), utc(2026, 3, 29, 7))  # CET, then CEST
    assert after - before == dt.timedelta(hours=23)


def test_a_time_that_does_not_exist_posts_as_the_clock_jumps_over_it() -> None:
    # New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT, so 02:30 never happens.
    slot = latest_slot(utc(2026, 3, 8, 12), dt.time(2, 30), "America/New_York")
    assert slot == utc(2026, 3, 8, 7, 30)  # 03:30 EDT: late, not skipped
    assert slot.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M %Z") == "03:30 EDT"
    next_day = latest_slot(utc(2026, 3, 9, 12), dt.time(2, 30), "America/New_York")
    assert next_day == utc(2026, 3, 9, 6, 30)  # 02:30 EDT again


def test_a_time_that_happens_twice_posts_once_at_the_first() -> None:
    # New York, 2026-11-01: 01:30 EDT, then the clock falls back and 01:30 EST comes again.
    s = sub("01:30", "America/New_York")
    first = utc(2026, 11, 1, 5, 30)
    assert latest_slot(utc(2026, 11, 1, 5, 45), s.digest_time, s.timezone) == first
    sent = delivery(utc(2026, 10, 31, 5, 30), first)
    second_one_thirty = utc(2026, 11, 1, 6, 30)
    assert due_digests(second_one_thirty, [s], [sent]) == []
    assert due_digests(second_one_thirty + dt.timedelta(hours=2), [s], [sent]) == []


@pytest.mark.parametrize(
    ("zone", "time"),
    [
        ("Asia/Shanghai", "09:00"),
        ("America/New_York", "02:30"),  # in the spring gap
        ("America/New_York", "01:30"),  # in the autumn fold
        ("Europe/London", "01:00"),  # London's gap starts at 01:00
        ("Europe/Berlin", "02:30"),
        ("Australia/Sydney", "02:30"),  # southern hemisphere: changes in April and October
        ("Asia/Kolkata", "23:30"),
        ("Pacific/Chatham", "03:00"),  # a +12:45 zone
    ],
)
def test_a_scheduler_ticking_all_year_posts_once_per_local_day(zone: str, time: str) -> None:
    """Simulate a year of a scheduler checking every 15 minutes, sending whatever is due."""
    s = sub(time, zone, created_at=utc(2025, 12, 31, 0))
    sent: list[Delivery] = []
    now = utc(2026, 1, 1)
    while now < utc(2027, 1, 1):
        for due in due_digests(now, [s], sent[-1:]):
            sent.append(delivery(due.window_start, due.window_end))
        now += dt.timedelta(minutes=15)

    local_days = [d.window_end.astimezone(ZoneInfo(zone)).date() for d in sent]
    assert len(local_days) == len(set(local_days)) >= 364  # at most one a day, none missed
    assert all(b.window_start == a.window_end for a, b in zip(sent, sent[1:], strict=False))
    wall = dt.time.fromisoformat(time)
    for d in sent:
        shown = d.window_end.astimezone(ZoneInfo(zone))
        if shown.time() != wall:  # only where the wall time did not exist that day
            naive = dt.datetime.combine(shown.date(), wall)
            assert (
                naive.replace(tzinfo=ZoneInfo(zone)).utcoffset()
                != naive.replace(tzinfo=ZoneInfo(zone), fold=1).utcoffset()
            )
            assert shown.time() > wall


def test_an_unknown_zone_still_posts_in_utc_rather_than_never() -> None:
    s = sub("09:00", "Atlantis/Capital")
    assert due_digests(utc(2026, 9, 2, 9), [s], [delivery(SUBSCRIBED, utc(2026, 9, 1, 9))]) == [
        DueDigest(s, utc(2026, 9, 1, 9), utc(2026, 9, 2, 9))
    ]


def test_now_must_be_aware() -> None:
    with pytest.raises(ValueError, match="aware"):
        due_digests(dt.datetime(2026, 9, 2, 9), [sub()], [])


def test_every_destination_is_decided_on_its_own() -> None:
    a, b, c = (Destination("discord", x) for x in "abc")
    subs = [sub(dest=a), sub("10:00", "Europe/Paris", dest=b), sub(dest=c, active=False)]
    history = [delivery(SUBSCRIBED, utc(2026, 9, 2, 1), dest=a)]

    due = due_digests(utc(2026, 9, 2, 12), subs, history)

    assert [d.destination for d in due] == [b]
    ten_in_paris = dt.datetime(2026, 9, 2, 10, tzinfo=ZoneInfo("Europe/Paris"))
    assert due[0].window_end == ten_in_paris
