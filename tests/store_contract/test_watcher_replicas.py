"""The watchers of `marin-watch serve` replicas on one PostgreSQL: the replica holding the watch
lease records each source's state and the signals there, so the one taking over after a
kill -9 carries on from it, and the curator's commands, from any process, read one queue."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from signal import SIGKILL

import pytest

from bot.config import Settings
from bot.context import AppContext
from bot.store.contract import Destination, Subscription
from bot.store.pg_signals import PostgresSignalStore
from bot.store.postgres import PostgresStore
from bot.store.signals import WatchState
from bot.watchers.cycle import Outcome
from bot.watchers.loop import open_runner
from bot.watchers.rules import Rules
from bot.watchers.watch_lease import PostgresLease
from knowledge.clock import fixed_clock
from knowledge.errors import StoreError
from knowledge.knowledge_base import KnowledgeBase
from tests.pg_server import GUARDED, GUARDED_PASSWORD, PgServer
from tests.store_contract.test_postgres import snapshot
from tests.store_contract.test_replicas import TOKEN, replica_env, start_replica
from tests.store_contract.test_signal_contract import NOW, signal
from tests.telegram.tg_fake import FakeBotAPI
from tests.waiting import until
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.console import marin_watch
from tests.watchers.internet import marin_internet
from tests.watchers.web import Web

ROOT = Path(__file__).resolve().parents[2]


def cli(url: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``marin-watch ARGV`` in a process of its own, on the PostgreSQL store at ``url``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MARIN_WATCH_")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env | {"MARIN_WATCH_DATABASE_URL": url, "PYTHONPATH": str(ROOT)},
    )


async def test_a_replica_killed_while_watching_leaves_its_poll_state_to_the_next(
    pg_server: PgServer, tmp_path: Path, kb: KnowledgeBase
) -> None:
    """Replica A (a real serve process) holds the watch lease; its proxy is closed, so every
    source fails and is recorded backing off. kill -9 A: B takes the lease, reads A's state
    (backing off, with A's errors: it sends nothing), then watches on from there; the
    curator's ``signals list``, in a third process, shows what B found."""
    url = pg_server.create_database()
    sources = len(Rules(kb.watch_points).urls)
    view = PostgresSignalStore(url)
    api = FakeBotAPI()
    api.token = TOKEN
    lease = PostgresLease(url)
    try:
        async with api.serve() as base_url:
            a = await start_replica(replica_env(base_url, url, tmp_path / "a.sqlite3"))
            try:
                failing = lambda: [s for s in view.source_states() if s.failures]  # noqa: E731
                await until(lambda: len(failing()) == sources, timeout=60)
                assert not lease.hold()  # A holds the watchers
                a.send_signal(SIGKILL)
                await a.wait()
                await until(lease.hold, timeout=30)  # its session ended with it
            finally:
                if a.returncode is None:
                    a.kill()
                    await a.wait()
        left = {s.url: s for s in view.source_states()}
        assert not (tmp_path / "a.sqlite3").exists()  # A kept nothing in a SQLite file

        web, clock = Web(), Clock(dt.datetime.now(dt.UTC))
        marin = marin_internet(web)
        b = AppContext(Settings(database_url=url, db_path=tmp_path / "b.sqlite3"), clock=clock)  # type: ignore[arg-type]
        async with web.client() as client:
            with open_runner(b, client) as runner:
                waited = await runner.run_once()
                assert {r.outcome for r in waited.sources} == {Outcome.SKIPPED}
                assert {r.url: r.message for r in waited.sources} == {
                    u: s.last_error for u, s in left.items()
                }
                assert web.requests == []  # A's backoff is B's

                retried = await runner.run_once(force=True)
                assert not {r.outcome for r in retried.sources} & {
                    Outcome.SKIPPED,
                    Outcome.FAILED,
                }
                clock.advance(minutes=15)
                said = (clock.now - dt.timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
                marin[p.COMMENTS_8506].set([p.comment(42, "Now at step 301,000.", said)])
                found = await runner.run_once()
        b.close()
        assert [s.id for s in found.new_signals] == ["gh-8506-c42"]
        assert all(s.failures == 0 for s in view.source_states())

        listed = cli(url, "signals", "list", "--json")
        assert listed.returncode == 0, listed.stderr
        queued = [json.loads(line)["id"] for line in listed.stdout.splitlines()]
        assert "gh-8506-c42" in queued
    finally:
        lease.close()
        view.close()
        pg_server.drop_database(url)


@pytest.fixture
def url(pg_server: PgServer) -> Iterator[str]:
    made = pg_server.create_database()
    yield made
    pg_server.drop_database(made)


def test_the_curators_commands_read_and_review_one_queue(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(database_url=url, db_path=tmp_path / "unused.sqlite3")  # type: ignore[arg-type]
    here, there = (AppContext(settings, clock=fixed_clock(NOW)) for _ in range(2))
    try:
        # an empty database: nothing to list, and looking creates nothing
        assert marin_watch(here, "signals", "list") == 0
        assert capsys.readouterr().out == (
            "no signals yet (nothing stored in the PostgreSQL database "
            "(MARIN_WATCH_DATABASE_URL))\n"
        )
        assert snapshot(url)[0] == []

        with PostgresSignalStore(url) as watchers:  # a watcher, on another replica
            watchers.record_poll(WatchState(p.COMMENTS_8506), [signal("gh-a"), signal("gh-b")])
        assert marin_watch(here, "signals", "list") == 0
        assert [line.split()[0] for line in capsys.readouterr().out.splitlines()[::2]] == [
            "gh-a",
            "gh-b",
        ]
        assert marin_watch(there, "signals", "dismiss", "gh-a", "--reason", "duplicate") == 0
        capsys.readouterr()
        assert marin_watch(here, "signals", "list", "--json") == 0
        assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == ["gh-b"]
        assert marin_watch(here, "signals", "show", "gh-a") == 0
        assert "review:      duplicate" in capsys.readouterr().out
    finally:
        here.close()
        there.close()
    assert not (tmp_path / "unused.sqlite3").exists()


def test_signals_list_with_a_wrong_password_is_one_line_without_it(pg_server: PgServer) -> None:
    wrong = pg_server.url(user=GUARDED, password=GUARDED_PASSWORD + "-wrong")
    listed = cli(wrong, "signals", "list")
    assert listed.returncode != 0
    assert GUARDED_PASSWORD not in listed.stderr + listed.stdout
    assert "Traceback" not in listed.stderr
    assert len(listed.stderr.strip().splitlines()) == 1, listed.stderr


def test_listing_subscriptions_only_looks_at_the_postgresql_store(url: str, tmp_path: Path) -> None:
    settings = Settings(database_url=url, db_path=tmp_path / "unused.sqlite3")  # type: ignore[arg-type]
    ctx = AppContext(settings, clock=fixed_clock(NOW))
    try:
        # an empty database: nothing to list, and looking migrates nothing
        assert ctx.reading_store() is None
        assert cli(url, "subscriptions", "list").returncode == 0
        assert snapshot(url)[0] == []
    finally:
        ctx.close()
    with PostgresStore(url) as replica:  # a serving replica's subscriber
        replica.subscribe(Subscription(Destination("telegram", "42"), "en", dt.time(9), "UTC"))
    ctx = AppContext(settings, clock=fixed_clock(NOW))
    try:
        reader = ctx.reading_store()
        assert reader is not None
        with pytest.raises(StoreError, match="read-only"):  # the session itself refuses
            reader.unsubscribe(Destination("telegram", "42"), "a look is not a change")
        listed = cli(url, "subscriptions", "list")
        assert listed.returncode == 0 and "42" in listed.stdout, listed
    finally:
        ctx.close()
    assert not (tmp_path / "unused.sqlite3").exists()
