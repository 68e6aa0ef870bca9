"""The SQLite store, on a real file: subscriptions, deliveries, claims and migrations."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store.contract import DeliveryState, Destination, Subscription
from bot.store.migrations import MIGRATIONS, Migration, migrate
from bot.store.sqlite import SQLiteStore
from knowledge.clock import fixed_clock
from knowledge.errors import DeliveryClaimed, InputRejected, StoreError

NOW = dt.datetime(2026, 9, 1, 8, 0, tzinfo=dt.UTC)
CHAT = Destination("telegram", "1001")
GROUP = Destination("telegram", "-42")


def subscription(dest: Destination = CHAT, **changes: Any) -> Subscription:
    return replace(Subscription(dest, "zh", dt.time(9, 0), "Asia/Shanghai"), **changes)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "marin-watch.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(db, clock=fixed_clock(NOW)) as s:
        yield s


# subscriptions


def test_a_subscription_reads_back_exactly_as_written(store: SQLiteStore) -> None:
    saved = store.subscribe(
        subscription(post_on_quiet_days=True, scope="guild-7", digest_time=dt.time(21, 30))
    )

    assert saved == store.subscription(CHAT)
    assert saved.language == "zh" and saved.timezone == "Asia/Shanghai"
    assert saved.digest_time == dt.time(21, 30)
    assert saved.post_on_quiet_days and saved.scope == "guild-7"
    assert saved.active and saved.inactive_reason is None
    assert saved.created_at == NOW


def test_unsubscribing_keeps_the_row_and_the_reason(store: SQLiteStore) -> None:
    store.subscribe(subscription())
    store.subscribe(subscription(GROUP))

    assert store.unsubscribe(CHAT, "the user blocked the bot") is True
    assert store.unsubscribe(CHAT, "again") is False  # already inactive: nothing to do

    assert [s.destination for s in store.subscriptions()] == [GROUP]
    gone = store.subscription(CHAT)
    assert gone is not None and not gone.active
    assert gone.inactive_reason == "the user blocked the bot"
    assert len(store.subscriptions(active_only=False)) == 2


def test_changing_settings_keeps_the_start_but_coming_back_starts_afresh(db: Path) -> None:
    with SQLiteStore(db, clock=fixed_clock(NOW)) as store:
        store.subscribe(subscription())
    later = NOW + dt.timedelta(days=3)
    with SQLiteStore(db, clock=fixed_clock(later)) as store:
        changed = store.subscribe(subscription(language="en", timezone="Europe/Berlin"))
        assert (changed.language, changed.timezone, changed.created_at) == (
            "en",
            "Europe/Berlin",
            NOW,
        )
        store.unsubscribe(CHAT, "stop")
        back = store.subscribe(subscription())
    # No catch-up of the days away: the returning subscriber's window starts now.
    assert back.active and back.inactive_reason is None and back.created_at == later


def test_the_store_refuses_a_time_zone_the_schedule_could_not_honour(store: SQLiteStore) -> None:
    with pytest.raises(InputRejected, match="Mars/Olympus"):
        store.subscribe(subscription(timezone="Mars/Olympus"))
    with pytest.raises(InputRejected, match="language"):
        store.subscribe(subscription(language="fr"))
    assert store.subscriptions(active_only=False) == []


def test_listing_filters_by_platform(store: SQLiteStore) -> None:
    store.subscribe(subscription())
    store.subscribe(subscription(Destination("discord", "555")))

    assert [s.destination.platform for s in store.subscriptions()] == ["discord", "telegram"]
    assert [s.destination for s in store.subscriptions(platform="discord")] == [
        Destination("discord", "555")
    ]


def test_a_broken_destination_is_marked_and_cleared(store: SQLiteStore) -> None:
    store.subscribe(subscription())
    store.mark_broken(CHAT, "missing permission to post")
    assert store.subscription(CHAT).broken_reason == "missing permission to post"  # type: ignore[union-attr]
    store.mark_broken(CHAT, None)
    assert store.subscription(CHAT).broken_reason is None  # type: ignore[union-attr]


def test_a_migrated_chat_keeps_its_subscription_and_history(store: SQLiteStore) -> None:
    store.subscribe(subscription(GROUP))
    d = store.begin_delivery(GROUP, NOW - dt.timedelta(days=1), NOW, "h", now=NOW)
    store.finish_delivery(d.id, DeliveryState.SENT, now=NOW)
    supergroup = Destination("telegram", "-100042")

    store.move(GROUP, supergroup)

    assert store.subscription(GROUP) is None
    assert store.subscription(supergroup) is not None
    assert store.last_sent(supergroup) is not None and store.last_sent(GROUP) is None


def test_moving_onto_an_id_with_its_own_subscription_keeps_the_newer_settings(
    store: SQLiteStore,
) -> None:
    new = Destination("telegram", "-100042")
    store.subscribe(subscription(GROUP, language="zh"))
    store.subscribe(subscription(new, language="en"))

    store.move(GROUP, new)

    assert [s.destination for s in store.subscriptions()] == [new]
    assert store.subscription(new).language == "en"  # type: ignore[union-attr]


# deliveries


def test_a_delivery_goes_from_pending_to_sent(store: SQLiteStore) -> None:
    start, end = NOW - dt.timedelta(days=1), NOW
    d = store.begin_delivery(CHAT, start, end, "abc", now=NOW)
    assert (d.state, d.window_start, d.window_end, d.content_hash) == (
        DeliveryState.PENDING,
        start,
        end,
        "abc",
    )
    assert store.pending() == [d]
    assert store.last_sent(CHAT) is None

    store.finish_delivery(d.id, DeliveryState.SENT, now=NOW + dt.timedelta(seconds=2))

    sent = store.last_sent(CHAT)
    assert sent is not None and sent.state is DeliveryState.SENT
    assert sent.sent_at == NOW + dt.timedelta(seconds=2)
    assert store.pending() == []


def test_a_daily_window_can_be_claimed_once_but_retried_after_a_failure(
    store: SQLiteStore,
) -> None:
    start, end = NOW - dt.timedelta(days=1), NOW
    first = store.begin_delivery(CHAT, start, end, "h", now=NOW)
    with pytest.raises(DeliveryClaimed):
        store.begin_delivery(CHAT, start, end, "h", now=NOW)

    store.finish_delivery(first.id, DeliveryState.FAILED, now=NOW, error="DeliveryRetryable: 502")
    retry = store.begin_delivery(CHAT, start, end, "h", now=NOW + dt.timedelta(minutes=5))

    assert retry.id != first.id
    assert [d.state for d in store.deliveries(CHAT)] == [
        DeliveryState.FAILED,
        DeliveryState.PENDING,
    ]
    assert store.deliveries(CHAT)[0].error == "DeliveryRetryable: 502"


def test_manual_digests_never_collide_with_the_daily_one(store: SQLiteStore) -> None:
    start, end = NOW - dt.timedelta(days=1), NOW
    store.begin_delivery(CHAT, start, end, "h", now=NOW)
    manual = store.begin_delivery(CHAT, start, end, "h", kind="manual", now=NOW)
    again = store.begin_delivery(CHAT, start, end, "h", kind="manual", now=NOW)
    assert manual.kind == again.kind == "manual"


def test_the_schedule_reads_only_the_latest_deliveries(store: SQLiteStore) -> None:
    day = dt.timedelta(days=1)
    ends = [NOW + i * day for i in range(4)]
    states = [DeliveryState.SENT, DeliveryState.SENT, DeliveryState.FAILED]
    for end, state in zip(ends, states, strict=False):
        d = store.begin_delivery(CHAT, end - day, end, "h", now=end)
        store.finish_delivery(d.id, state, now=end)
    store.begin_delivery(CHAT, ends[1], ends[3], "h", now=ends[3])  # in flight
    manual = store.begin_delivery(CHAT, ends[1], ends[3], "h", kind="manual", now=ends[3])
    store.finish_delivery(manual.id, DeliveryState.SENT, now=ends[3])

    latest = store.latest_deliveries()

    assert [(d.window_end, d.state) for d in latest] == [
        (ends[1], DeliveryState.SENT),
        (ends[2], DeliveryState.FAILED),
        (ends[3], DeliveryState.PENDING),
    ]
    assert store.latest_deliveries(platform="discord") == []
    assert store.last_sent(CHAT) == store.deliveries(CHAT)[-1]  # the manual one, sent last


def test_a_stale_pending_delivery_is_reclaimed_by_exactly_one_caller(db: Path) -> None:
    with SQLiteStore(db) as a, SQLiteStore(db) as b:
        d = a.begin_delivery(CHAT, NOW - dt.timedelta(days=1), NOW, "h", now=NOW)
        fresh = NOW + dt.timedelta(minutes=1)
        assert not a.reclaim(d.id, stale_before=fresh - dt.timedelta(minutes=10), now=fresh)

        later = NOW + dt.timedelta(minutes=30)
        cutoff = later - dt.timedelta(minutes=10)
        assert a.reclaim(d.id, stale_before=cutoff, now=later) is True
        assert b.reclaim(d.id, stale_before=cutoff, now=later) is False


def test_a_pending_delivery_is_taken_over_only_once_its_owners_lease_lapses(db: Path) -> None:
    lease = dt.timedelta(seconds=45)
    with SQLiteStore(db) as a, SQLiteStore(db) as b, SQLiteStore(db) as c:
        a.beat("run-a", now=NOW)
        d = a.begin_delivery(CHAT, NOW - dt.timedelta(days=1), NOW, "h", now=NOW, owner="run-a")
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
        assert not c.reclaim(
            d.id, owner="run-c", stale_before=later, lapsed_before=cutoff, now=later
        )
        assert [p.owner for p in c.pending()] == ["run-b"]


def test_releasing_a_lease_forgets_it_and_any_that_lapsed(db: Path) -> None:
    with SQLiteStore(db) as store:
        store.beat("crashed", now=NOW)
        store.beat("live", now=NOW + dt.timedelta(minutes=5))
        store.beat("done", now=NOW + dt.timedelta(minutes=5))
        d = store.begin_delivery(CHAT, NOW, NOW, "h", kind="manual", now=NOW, owner="done")

        store.release("done", lapsed_before=NOW + dt.timedelta(minutes=4))

        with sqlite3.connect(db) as conn:
            left = [row[0] for row in conn.execute("SELECT owner FROM delivery_leases")]
        assert left == ["live"]
        # what the released run left pending is nobody's: the next one to ask takes it
        later = NOW + dt.timedelta(minutes=5)
        assert store.reclaim(d.id, owner="live", stale_before=NOW, lapsed_before=NOW, now=later)


def test_naive_times_are_refused_rather_than_guessed(store: SQLiteStore) -> None:
    with pytest.raises(ValueError, match="naive"):
        store.begin_delivery(CHAT, dt.datetime(2026, 9, 1), NOW, "h", now=NOW)


# the file itself


def test_the_file_is_in_wal_mode_at_the_current_version(store: SQLiteStore, db: Path) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.version == len(MIGRATIONS)


def test_an_old_version_file_is_migrated_at_open_and_keeps_its_data(db: Path) -> None:
    # A file written by the release that knew only migration 1.
    with SQLiteStore(db, clock=fixed_clock(NOW), migrations=MIGRATIONS[:1]) as old:
        assert old.version == 1
        old.subscribe(subscription())
        d = old.begin_delivery(CHAT, NOW - dt.timedelta(days=1), NOW, "h", now=NOW)

    with SQLiteStore(db) as current:
        assert current.version == len(MIGRATIONS) > 1
        assert current.subscription(CHAT) is not None
        assert [(p.id, p.owner) for p in current.pending()] == [(d.id, None)]  # no owner then
        current.finish_delivery(d.id, DeliveryState.FAILED, now=NOW, messages_sent=2)
        assert current.deliveries(CHAT)[0].messages_sent == 2  # the column migration 3 added

    appended = (*MIGRATIONS, Migration("a later table", ("CREATE TABLE later (x INTEGER)",)))
    with SQLiteStore(db, migrations=appended) as newer:
        assert newer.version == len(appended)
        assert newer.subscription(CHAT) is not None


def test_a_failing_migration_leaves_the_file_as_it_was(db: Path) -> None:
    SQLiteStore(db, migrations=MIGRATIONS[:1]).close()
    broken = (*MIGRATIONS[:1], Migration("half good", ("CREATE TABLE ok (x)", "NOT SQL")))

    with pytest.raises(StoreError, match="migration 2 \\(half good\\) failed"):
        SQLiteStore(db, migrations=broken)

    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "ok" not in tables


def test_a_file_from_a_newer_release_is_refused(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="version 99, newer"):
        SQLiteStore(db)


def test_two_processes_opening_a_fresh_file_at_once_migrate_it_once(db: Path) -> None:
    start = threading.Barrier(4)
    versions: list[int] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            with SQLiteStore(db) as s:
                versions.append(s.version)
        except BaseException as exc:  # collected: the assertion below shows it
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and versions == [len(MIGRATIONS)] * 4


def test_sqlite_errors_become_store_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open|could not open"):
        SQLiteStore(tmp_path / "no-such-dir" / "x.sqlite3")
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("this is not a database, " * 100)
    with pytest.raises(StoreError):
        SQLiteStore(not_a_db)


def test_migrate_is_idempotent(db: Path) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert migrate(conn) == migrate(conn) == len(MIGRATIONS)
    finally:
        conn.close()


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_store_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("PRAGMA user_version = 999")
    before = _sha256(newer)
    with pytest.raises(StoreError, match="schema version 999, newer"):
        SQLiteStore(newer)
    assert _sha256(newer) == before  # not even switched to WAL


FOREIGN = {
    "another program's tables": (
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
        "INSERT INTO notes (body) VALUES ('keep me')",
    ),
    "belongs to another application": ("PRAGMA application_id = 1234",),
}


@pytest.mark.parametrize("reason", FOREIGN)
def test_another_programs_database_is_refused_untouched(tmp_path: Path, reason: str) -> None:
    foreign = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(foreign) as conn:
        for statement in FOREIGN[reason]:
            conn.execute(statement)
    before = _sha256(foreign)
    with pytest.raises(StoreError, match=reason):
        SQLiteStore(foreign)
    assert _sha256(foreign) == before


def test_our_files_are_marked_as_ours(db: Path) -> None:
    with SQLiteStore(db):
        pass
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x4D576174
    with SQLiteStore(db) as again:  # and opened again without complaint
        assert again.version == len(MIGRATIONS)
