"""Issue 13 over real sockets: a hostile HTTP server on loopback, and the production client.

Every case of ``hostile_cases`` is a site of its own (its own host, to the watchers), read by
a watcher whose configured URL points at it. Each fails alone with a one-line reason (or is
read, when it is only ugly HTML), the others go on, and the cycle ends within its deadline.
"""

from __future__ import annotations

import datetime as dt
import socket
import time
import tracemalloc
import unicodedata
from collections.abc import AsyncIterator, Callable

import pytest

from bot.store.signals import SQLiteSignalStore
from bot.watchers.cycle import CycleReport, SourceReport, WatchRunner
from bot.watchers.fetch import Fetcher, FetchPolicy
from bot.watchers.loop import http_client
from bot.watchers.page import PageWatcher
from bot.watchers.rules import Rules, displayable
from bot.watchers.watcher import Watcher
from knowledge.knowledge_base import KnowledgeBase
from tests.watchers.conftest import Clock
from tests.watchers.hostile import HostileServer
from tests.watchers.hostile_cases import Case, cases, serve

CAP = 1024 * 1024
PER_SOURCE = 1.5  # each request's own deadline: the trickle fails by it
CYCLE = 8.0
POLICY = FetchPolicy(max_bytes=CAP, deadline=PER_SOURCE, connect_timeout=2.0, read_timeout=5.0)
CASES = {c.name: c for c in cases(CAP)}

Runner = Callable[[list[Watcher]], WatchRunner]


@pytest.fixture
async def server() -> AsyncIterator[HostileServer]:
    async with HostileServer() as s:
        yield s


@pytest.fixture
async def runner(
    store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> AsyncIterator[Runner]:
    """``runner(watchers)``: a cycle over them through the production HTTP client."""
    client = http_client(POLICY)

    def make(watchers: list[Watcher]) -> WatchRunner:
        fetcher = Fetcher(client, allowed=[w.url for w in watchers], clock=clock, policy=POLICY)
        rules = Rules(kb.watch_points)
        return WatchRunner(watchers, fetcher, store, rules, clock=clock, deadline=CYCLE)

    async with client:
        yield make


def assert_as_expected(case: Case, r: SourceReport, store: SQLiteSignalStore, now: dt.datetime):
    assert r.outcome.value == case.outcome, (case.name, r.outcome.value, r.message)
    if case.outcome in ("failed", "rate limited"):
        message = r.message or ""
        assert case.reason in message, (case.name, message)
        assert "\n" not in message and len(message) < 400, (case.name, message)
        assert all(unicodedata.category(c)[0] != "C" for c in message), (case.name, message)
    if case.check is not None:
        case.check(r, store.source_state(r.url), now)


async def timed(runner: WatchRunner) -> tuple[CycleReport, float]:
    started = time.monotonic()
    report = await runner.run_once()
    return report, time.monotonic() - started


async def test_every_hostile_case_at_once_fails_alone_and_the_cycle_keeps_its_deadline(
    server: HostileServer, runner: Runner, store: SQLiteSignalStore, clock: Clock
) -> None:
    chosen = list(CASES.values())
    watchers = await serve(server, chosen, clock.now)

    report, took = await timed(runner(watchers))

    assert took < CYCLE
    assert len(report.sources) == len(chosen)
    for case, r in zip(chosen, report.sources, strict=True):
        assert_as_expected(case, r, store, clock.now)
    assert len(server.requests) == len(chosen)  # one request each, and nothing else fetched


@pytest.mark.parametrize("name", list(CASES))
async def test_one_hostile_source_among_healthy_ones(
    name: str, server: HostileServer, runner: Runner, store: SQLiteSignalStore, clock: Clock
) -> None:
    healthy = [CASES["healthy comments"], CASES["healthy page"]]
    watchers = await serve(server, [CASES[name], *healthy], clock.now)

    report, took = await timed(runner(watchers))

    assert took < CYCLE
    hostile, *others = report.sources
    assert_as_expected(CASES[name], hostile, store, clock.now)
    assert [r.outcome.value for r in others] == ["baseline", "baseline"]


async def test_a_gzip_bomb_never_inflates_past_the_cap(
    server: HostileServer, runner: Runner, clock: Clock
) -> None:
    chosen = [CASES["a gzip bomb (256 MB in 250 KB)"], CASES["Content-Encoding: gzip, gzip"]]
    watchers = await serve(server, chosen, clock.now)
    cycle = runner(watchers)

    tracemalloc.start()
    try:
        report = await cycle.run_once()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert [r.outcome.value for r in report.sources] == ["failed", "failed"]
    # The capped body is held twice while it is joined (about 2.4 MB was measured for a 1 MB
    # cap); 256 MB inflated, or even one 16 MB inflate call, would show here.
    assert peak < 4 * CAP, f"{peak:,} bytes at the peak"


async def test_a_connection_refused_fails_alone(
    server: HostileServer, runner: Runner, clock: Clock
) -> None:
    healthy = await serve(server, [CASES["healthy page"]], clock.now)
    with socket.socket() as taken:  # a port nothing listens on: bound, then freed
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]

    report = await runner([PageWatcher(f"http://127.0.0.1:{port}/report"), *healthy]).run_once()

    assert [r.outcome.value for r in report.sources] == ["failed", "baseline"]
    assert "network error (ConnectError" in (report.sources[0].message or "")


def test_an_escape_sequence_is_never_cut_in_half() -> None:
    text = "x" * 590 + "\x1b[38;5;196m" + "red " * 10  # the escape straddles the 600th char
    assert displayable(text, cut=True) == "x" * 590 + "red red…"
