"""What only the PostgreSQL signal store has: replicas recording side by side, the replica
taking the watchers over finding the last one's state, the migration that brings the
watchers' tables to a database of the release before, read-only sessions, and the URL's
password kept out of every message. The contract both backends hold is
``test_signal_contract.py``.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from bot.store.contract import Destination, Subscription
from bot.store.pg_migrations import MIGRATIONS
from bot.store.pg_signals import PostgresSignalStore
from bot.store.postgres import PostgresStore
from bot.store.signals import WatchState
from bot.watchers.cycle import Outcome
from bot.watchers.loop import build_runner
from bot.watchers.signal import SignalState
from knowledge.errors import StoreError
from knowledge.knowledge_base import KnowledgeBase
from tests.pg_server import GUARDED, GUARDED_PASSWORD, PgServer, database_of
from tests.store_contract.test_postgres import snapshot
from tests.store_contract.test_signal_contract import NOW, signal
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.internet import marin_internet
from tests.watchers.web import Web

WRONG = "wr0ng-Pa55word"


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    made = pg_server.create_database()
    yield made
    pg_server.drop_database(made)


def told(exc: BaseException) -> str:
    """Everything a log of ``exc`` could print: message, traceback, causes."""
    return "".join(traceback.format_exception(exc))


def waiting_on_locks(pg_server: PgServer, url: str, sessions: int) -> None:
    """Return once ``sessions`` sessions of the database wait for a lock."""
    deadline = time.monotonic() + 30
    with pg_server.admin() as admin:
        while time.monotonic() < deadline:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                "AND wait_event_type = 'Lock'",
                (database_of(url),),
            ).fetchone()
            if row and row[0] >= sessions:
                return
            time.sleep(0.01)
    raise AssertionError(f"{sessions} session(s) never waited for a lock")


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``work()`` started in a thread; its result (or exception) lands in the list."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as exc:  # collected: the test's assertion shows it
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


# replicas side by side


def test_two_replicas_recording_the_same_signals_at_once_keep_one_of_each(url: str) -> None:
    """Each round both record the same 30 signals, one in reverse order: every signal is
    added by exactly one of them, and neither deadlocks (inserts go in id order)."""
    rounds, size = 15, 30
    start = threading.Barrier(2)
    added: dict[str, list[list[str]]] = {"a": [], "b": []}
    errors: list[BaseException] = []

    def replica(name: str) -> None:
        with PostgresSignalStore(url) as store:
            for r in range(rounds):
                batch = [signal(f"gh-8506-r{r}-c{i:02}") for i in range(size)]
                if name == "b":
                    batch.reverse()
                start.wait()
                try:
                    found = store.record_poll(WatchState(p.COMMENTS_8506), batch)
                except BaseException as exc:  # collected: the assertion below shows it
                    errors.append(exc)
                    found = []
                added[name].append([s.id for s in found])

    threads = [threading.Thread(target=replica, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    for r in range(rounds):
        a, b = added["a"][r], added["b"][r]
        assert set(a).isdisjoint(b) and len(a) + len(b) == size, (r, a, b)
    with PostgresSignalStore(url) as store:
        assert len(store.signals()) == rounds * size


def test_a_signal_another_replica_is_recording_waits_for_its_commit_and_is_added_once(
    pg_server: PgServer, url: str
) -> None:
    """Replica A is mid-poll (its signal inserted, not committed); B's poll finding the same
    signal waits for A's commit, then adds only what A did not."""
    with PostgresSignalStore(url) as a, PostgresSignalStore(url) as b:
        a.record_poll(WatchState("https://a.example"), [])
        with psycopg.connect(url) as holder:  # keeps A's poll open, at its last statement
            holder.execute("SELECT 1 FROM watch_sources WHERE url = 'https://a.example' FOR UPDATE")
            polling, a_added = in_thread(
                lambda: a.record_poll(WatchState("https://a.example"), [signal("x")])
            )
            waiting_on_locks(pg_server, url, 1)
            finding, b_added = in_thread(
                lambda: b.record_poll(WatchState("https://b.example"), [signal("y"), signal("x")])
            )
            waiting_on_locks(pg_server, url, 2)  # B waits on A's uncommitted "x"
            holder.rollback()
        polling.join(30)
        finding.join(30)
        assert a_added == [[signal("x")]] and b_added == [[signal("y")]]
        assert {s.id for s in b.signals()} == {"x", "y"}


def test_two_curators_promoting_one_signal_at_once_keep_both_notes(url: str) -> None:
    with PostgresSignalStore(url) as a, PostgresSignalStore(url) as b:
        a.record_poll(WatchState("u"), [signal("s")])
        start = threading.Barrier(2)

        def promote(store: PostgresSignalStore, note: str) -> None:
            start.wait()
            store.review("s", SignalState.PROMOTED, note=note, now=NOW)

        threads = [
            threading.Thread(target=promote, args=(store, note))
            for store, note in ((a, "progress-latest"), (b, "spec-535b"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        review = a.signal("s")
        assert review is not None and review.review is not None
        assert sorted(review.review.split("; ")) == ["progress-latest", "spec-535b"]


async def test_the_replica_taking_the_watchers_over_carries_on_where_the_last_stopped(
    url: str, kb: KnowledgeBase
) -> None:
    """A watches (baseline, validators); B, on its own connection, polls next: nothing is
    taken for a baseline again, every unchanged source answers 304 to A's validators, and
    B's one new signal is in the queue A's curator reads."""
    web, clock = Web(), Clock()
    marin = marin_internet(web)
    with PostgresSignalStore(url) as a, PostgresSignalStore(url) as b:
        async with web.client() as client:
            first = await build_runner(kb, a, client, clock=clock).run_once()
        assert {r.outcome.value for r in first.sources} == {"baseline"}
        recorded = len(a.signals(states=None))
        clock.advance(minutes=15)
        marin[p.COMMENTS_8506].set(
            [p.comment(42, "Now at step 301,000; cooldown begins.", "2026-11-30T09:10:00Z")]
        )

        async with web.client() as client:
            second = await build_runner(kb, b, client, clock=clock).run_once()

        outcomes = {r.url: r.outcome for r in second.sources}
        assert outcomes.pop(p.COMMENTS_8506) is Outcome.NEW
        assert set(outcomes.values()) == {Outcome.NOT_MODIFIED}
        assert [s.id for s in second.new_signals] == ["gh-8506-c42"]
        assert a.signals() == second.new_signals
        assert len(a.signals(states=None)) == recorded + 1  # no baseline taken twice


# the schema, and read-only sessions


def test_a_database_of_the_release_before_gets_the_watchers_tables_and_keeps_its_data(
    url: str,
) -> None:
    chat = Destination("telegram", "1001")
    with PostgresStore(url, migrations=MIGRATIONS[:1], clock=lambda: NOW) as before:
        before.subscribe(Subscription(chat, "en", dt.time(9), "UTC"))
    untouched = snapshot(url)

    # reading never migrates: refused with the command that does, nothing written
    with pytest.raises(StoreError, match=r"older than this marin-watch's 2; run .*serve"):
        PostgresSignalStore(url, read_only=True)
    assert snapshot(url) == untouched

    with PostgresSignalStore(url) as signals:
        assert signals.version == len(MIGRATIONS) == 2
        signals.record_poll(WatchState("u"), [signal("a")])
    with PostgresStore(url) as store:
        assert store.subscription(chat) is not None
    with pytest.raises(StoreError, match="newer than this marin-watch knows"):
        PostgresStore(url, migrations=MIGRATIONS[:1])  # the release before, started again


def test_a_read_only_opening_of_an_empty_database_creates_nothing(url: str) -> None:
    with PostgresSignalStore(url, read_only=True) as reader:
        assert reader.version == 0
    assert snapshot(url)[0] == []


def test_a_read_only_session_is_refused_writes_by_the_server_itself(url: str) -> None:
    PostgresSignalStore(url).close()
    with PostgresSignalStore(url, read_only=True) as reader:
        # past the store's own refusal (transaction()): the session refuses too
        with pytest.raises(StoreError, match="read-only transaction"):
            with reader._db.reading("write behind the store's back") as conn:
                conn.execute("DELETE FROM signals")


# the password


def test_errors_of_a_signal_store_logged_in_with_a_password_never_show_it(
    pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    name = "guarded_signals"
    with pg_server.admin() as conn:
        conn.execute(f"CREATE DATABASE {name} OWNER {GUARDED}")
    try:
        login = pg_server.url(name, user=GUARDED, password=GUARDED_PASSWORD)
        with PostgresSignalStore(login) as store:
            assert GUARDED_PASSWORD not in repr(store) + store.url
            store.record_poll(WatchState("u"), [signal("a")])
            with pg_server.admin(name) as admin:
                admin.execute("DROP TABLE signals")
            with pytest.raises(StoreError, match='"signals" does not exist') as caught:
                store.signals()
            with pytest.raises(StoreError, match='"signals" does not exist') as writing:
                store.record_poll(WatchState("u"), [signal("b")])
        wrong = pg_server.url(name, user=GUARDED, password=WRONG)
        with pytest.raises(StoreError, match="password authentication failed") as refused:
            PostgresSignalStore(wrong, read_only=True)
        for exc in (caught.value, writing.value, refused.value):
            assert "\n" not in str(exc) and f"{GUARDED}:***@" in str(exc)
            assert GUARDED_PASSWORD not in told(exc) and WRONG not in told(exc)
        assert GUARDED_PASSWORD not in caplog.text and WRONG not in caplog.text
    finally:
        pg_server.drop_database(pg_server.url(name))
