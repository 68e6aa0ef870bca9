"""Fixtures for the watcher stories: a fake internet, a clock we move, a real SQLite store."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store.signals import SQLiteSignalStore
from bot.watchers.cycle import CycleReport, WatchRunner
from bot.watchers.fetch import Fetcher, FetchPolicy
from bot.watchers.registry import watcher_for
from bot.watchers.rules import Rules
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import DEFAULT_DIR
from tests.watchers.web import Web

START = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)


class Clock:
    """A clock the story moves forward by hand."""

    def __init__(self, now: dt.datetime = START) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web() -> Iterator[Web]:
    internet = Web()
    yield internet
    assert not internet.unexpected, f"unexpected URLs fetched: {internet.unexpected}"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSignalStore]:
    with SQLiteSignalStore(tmp_path / "marin-watch.sqlite3") as s:
        yield s


class Watching:
    """Some configured sources, watched through the fake internet: ``await w.cycle()``."""

    def __init__(
        self, urls: list[str], web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
    ) -> None:
        self.web = web
        self.store = store
        self.clock = clock
        watchers = [watcher_for(url) for url in urls]
        assert all(w is not None for w in watchers)
        self.client = web.client()
        policy = FetchPolicy(max_bytes=256 * 1024, deadline=2.0)
        self.fetcher = Fetcher(
            self.client, allowed=urls, clock=clock, github_token=None, policy=policy
        )
        self.runner = WatchRunner(
            [w for w in watchers if w is not None],
            self.fetcher,
            store,
            Rules(kb.watch_points),
            clock=clock,
        )

    async def cycle(self, *, force: bool = False) -> CycleReport:
        return await self.runner.run_once(force=force)

    async def baseline(self) -> CycleReport:
        report = await self.cycle()
        assert {r.outcome.value for r in report.sources} == {"baseline"}, report
        return report


Watch = Callable[..., Watching]


@pytest.fixture
async def watch(
    web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> AsyncIterator[Watch]:
    """``watch(url, ...)``: a runner over just these configured sources."""
    made: list[Watching] = []

    def make(*urls: str) -> Watching:
        w = Watching(list(urls), web, store, clock, kb)
        made.append(w)
        return w

    yield make
    for w in made:
        await w.client.aclose()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The app's settings over a writable copy of the knowledge files (promotion edits them)."""
    kb_dir = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_DIR, kb_dir)
    return Settings(kb_dir=kb_dir, db_path=tmp_path / "marin-watch.sqlite3")
