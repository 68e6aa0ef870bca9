"""A whole cycle has a deadline: what is still running then is cut, closed, and tried again.

Over real sockets (the hostile loopback server): three pages on one host are polled one
after another; the second trickles a byte a second, and its own request deadline (30 s, as
in production) is longer than the cycle's, so the cycle's deadline is what ends it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.store.signals import SQLiteSignalStore, WatchState
from bot.watchers.cycle import WatchRunner
from bot.watchers.deadline import poll_within
from bot.watchers.fetch import Fetcher, FetchPolicy
from bot.watchers.loop import build_runner, http_client
from bot.watchers.page import PageWatcher
from bot.watchers.rules import Rules
from knowledge.errors import ConfigError
from knowledge.knowledge_base import KnowledgeBase
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.hostile import Handler, HostileServer, Trickle, answer, route

DEADLINE = 1.5
HTML = {"Content-Type": "text/html"}


def page(text: str) -> Handler:
    return answer(200, p.wandb_page(text).encode(), HTML)


class OneSlowHost:
    """Pages /a, /b (a trickle), /c on one host; a runner over them, in that order."""

    def __init__(self, base: str, table: dict[str, Handler], trickle: Trickle) -> None:
        self.table = table
        self.trickle = trickle
        self.urls = [f"{base}{path}" for path in ("/a", "/b", "/c")]


@pytest.fixture
async def host() -> AsyncIterator[tuple[HostileServer, OneSlowHost]]:
    trickle = Trickle(b"<html>" + b" " * 600, content_type="text/html")
    table: dict[str, Handler] = {"/a": page("first"), "/b": trickle, "/c": page("third")}
    async with HostileServer() as server:
        yield server, OneSlowHost(await server.site(route(table)), table, trickle)


@pytest.fixture
async def runner(
    host: tuple[HostileServer, OneSlowHost],
    store: SQLiteSignalStore,
    clock: Clock,
    kb: KnowledgeBase,
) -> AsyncIterator[WatchRunner]:
    policy = FetchPolicy()  # the production budgets: 30 s a request
    urls = host[1].urls
    async with http_client(policy) as client:
        fetcher = Fetcher(client, allowed=urls, clock=clock, policy=policy)
        yield WatchRunner(
            [PageWatcher(u) for u in urls],
            fetcher,
            store,
            Rules(kb.watch_points),
            clock=clock,
            deadline=DEADLINE,
        )


async def test_the_deadline_cuts_what_is_left_and_keeps_what_was_fetched(
    host: tuple[HostileServer, OneSlowHost],
    runner: WatchRunner,
    store: SQLiteSignalStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    server, site = host
    a, b, c = site.urls

    started = time.monotonic()
    report = await runner.run_once()
    took = time.monotonic() - started

    assert took < DEADLINE + 0.5
    assert [r.outcome.value for r in report.sources] == ["baseline", "not polled", "not polled"]
    assert report.sources[1].message == "deadline: not polled this cycle"
    assert store.source_state(a).baseline_at is not None  # fetched in time: recorded
    for url in (b, c):  # cut, or never started: as if this cycle had not happened
        assert store.source_state(url) == WatchState(url)
    cut = [r.getMessage() for r in caplog.records if "not polled this cycle" in r.getMessage()]
    assert [m.split(": deadline", 1)[0] for m in cut] == [b, c]  # one line for each
    assert all(m.endswith("(the cycle's 1.5s ran out)") and "\n" not in m for m in cut)
    assert report.failed == list(report.sources[1:])

    await asyncio.sleep(0.2)  # the server notices the hang-up
    assert len(site.trickle.hung_up) == 1 and site.trickle.hung_up[0] < DEADLINE  # closed


async def test_next_cycle_the_sources_that_were_cut_go_first(
    host: tuple[HostileServer, OneSlowHost], runner: WatchRunner
) -> None:
    server, site = host
    await runner.run_once()
    site.table["/b"] = page("second")
    before = len(server.requests)

    report = await runner.run_once()

    assert [r.path for r in server.requests[before:]] == ["/b", "/c", "/a"]
    assert [r.outcome.value for r in report.sources] == ["nothing new", "baseline", "baseline"]


async def test_a_cycle_cancelled_mid_request_closes_the_connection(
    host: tuple[HostileServer, OneSlowHost], runner: WatchRunner, store: SQLiteSignalStore
) -> None:
    server, site = host
    site.table["/a"] = site.trickle  # the first request is the slow one

    cycle = asyncio.create_task(runner.run_once())
    await asyncio.sleep(0.5)
    cycle.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cycle
    await asyncio.sleep(0.2)

    assert len(site.trickle.hung_up) == 1 and site.trickle.hung_up[0] < 1.0
    assert all(store.source_state(u) == WatchState(u) for u in site.urls)


async def test_a_fault_that_is_no_source_s_own_stops_the_cycle_and_is_raised() -> None:
    finished: list[str] = []

    async def poll(item: str) -> None:
        if item == "broken":
            raise RuntimeError("the store is gone")
        await asyncio.sleep(0 if item == "quick" else 30)
        finished.append(item)

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="the store is gone"):
        await poll_within([["quick", "broken"], ["slow"]], poll, deadline=10)

    assert finished == ["quick"]
    assert time.monotonic() - started < 1.0  # the slow one was cancelled, not waited for


async def test_no_sources_is_an_empty_cycle() -> None:
    async def poll(item: str) -> None:
        raise AssertionError("nothing to poll")

    await poll_within([], poll, deadline=1)


async def test_a_request_may_not_outlast_the_cycle(
    store: SQLiteSignalStore, kb: KnowledgeBase, clock: Clock
) -> None:
    async with http_client() as client:
        with pytest.raises(ConfigError, match="shorter than the watch cycle's"):
            build_runner(kb, store, client, clock=clock, policy=FetchPolicy(deadline=60))
