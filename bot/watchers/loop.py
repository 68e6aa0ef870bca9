"""Wiring: build a runner from the knowledge base's watch points, and run it on a schedule.

``build_runner`` builds one over any store (tests, the benchmark): the configured URLs are the
watch points' ``looks_at``; the HTTP client is injected. ``open_runner`` is the app's runner,
over the configured store, SQLite or PostgreSQL (``watch`` and ``serve``).
``run_watchers_forever`` is the loop ``serve`` starts: a cycle every 15 minutes by default,
which stays inside GitHub's unauthenticated 60 requests an hour (about 5 GitHub requests a
cycle, most answered by a free 304).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import httpx

from bot.store.signal_stores import open_signal_store
from bot.store.signals import SignalStore
from bot.watchers.cycle import Backoff, CycleReport, Outcome, WatchRunner
from bot.watchers.deadline import CYCLE_DEADLINE
from bot.watchers.fetch import USER_AGENT, Fetcher, FetchPolicy
from bot.watchers.registry import watchers_for
from bot.watchers.rules import Rules
from bot.watchers.watch_lease import WatchLease, lease_for
from knowledge.clock import Clock
from knowledge.errors import ConfigError, MarinWatchError
from knowledge.knowledge_base import KnowledgeBase

if TYPE_CHECKING:
    from bot.context import AppContext

log = logging.getLogger(__name__)

DEFAULT_EVERY = dt.timedelta(minutes=15)


def build_runner(
    kb: KnowledgeBase,
    store: SignalStore,
    client: httpx.AsyncClient,
    *,
    clock: Clock,
    github_token: str | None = None,
    policy: FetchPolicy | None = None,
    backoff: Backoff | None = None,
    failures_logged_at: int = logging.WARNING,
    deadline: float = CYCLE_DEADLINE,
) -> WatchRunner:
    if (policy or FetchPolicy()).deadline >= deadline:
        raise ConfigError("a request's deadline must be shorter than the watch cycle's")
    rules = Rules(kb.watch_points)
    watchers = watchers_for(rules.urls)
    fetcher = Fetcher(
        client,
        allowed=[w.url for w in watchers],
        clock=clock,
        github_token=github_token,
        policy=policy,
    )
    return WatchRunner(
        watchers,
        fetcher,
        store,
        rules,
        clock=clock,
        backoff=backoff,
        failures_logged_at=failures_logged_at,
        known_through=kb.newest_published(),
        deadline=deadline,
    )


@contextmanager
def open_runner(
    ctx: AppContext, client: httpx.AsyncClient, *, failures_logged_at: int = logging.WARNING
) -> Iterator[WatchRunner]:
    """A runner over the app's signal store, clock and GitHub token; the store closes after.

    ``failures_logged_at``: DEBUG for a caller that prints each source's outcome itself.
    """
    token = ctx.settings.github_token
    with open_signal_store(ctx.settings) as store:
        yield build_runner(
            ctx.kb,
            store,
            client,
            clock=ctx.clock,
            github_token=token.get_secret_value() if token else None,
            failures_logged_at=failures_logged_at,
        )


def http_client(policy: FetchPolicy | None = None) -> httpx.AsyncClient:
    """The production client: no redirects followed (a moved source is reported, not chased)."""
    p = policy or FetchPolicy()
    return httpx.AsyncClient(
        headers={"User-Agent": USER_AGENT},
        timeout=httpx.Timeout(p.read_timeout, connect=p.connect_timeout),
        follow_redirects=False,
        limits=httpx.Limits(max_connections=8, max_keepalive_connections=4),
    )


async def run_watchers_forever(
    runner: WatchRunner,
    *,
    every: dt.timedelta = DEFAULT_EVERY,
    stop: asyncio.Event | None = None,
    on_cycle: Callable[[CycleReport], Awaitable[None]] | None = None,
    lease: WatchLease | None = None,
) -> None:
    """Run a cycle, wait ``every``, repeat until ``stop`` is set (or the task is cancelled).
    With a ``lease``, only while holding it: another replica runs the watchers meanwhile,
    and this one takes over at its next try once that replica is gone.

    A cycle that fails as a whole (the store is locked, a bug) is logged and the loop goes
    on: watching must not take ``serve`` down.
    """
    stop = stop or asyncio.Event()
    stopped = asyncio.create_task(stop.wait())
    try:
        waiting = False
        while not stop.is_set():
            if lease is not None and not lease.hold():
                if not waiting:
                    log.info("watchers: another replica runs them; this one waits its turn")
                waiting = True
                await asyncio.wait({stopped}, timeout=every.total_seconds())
                continue
            if waiting:
                log.info("watchers: this replica runs them now")
                waiting = False
            cycle = asyncio.create_task(runner.run_once())
            await asyncio.wait({cycle, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not cycle.done():  # asked to stop mid-cycle: drop the requests in flight
                cycle.cancel()
                await asyncio.gather(cycle, return_exceptions=True)
                break
            try:
                report = cycle.result()
            except MarinWatchError as exc:
                log.error("watch cycle failed: %s", exc)
            except Exception:
                log.exception("watch cycle failed")
            else:
                new = len(report.new_signals)
                cut = sum(r.outcome is Outcome.NOT_POLLED for r in report.sources)
                log.info(
                    "watch cycle: %d new signal(s), %d request(s)%s",
                    new,
                    report.requests,
                    f", {cut} source(s) not polled (deadline)" if cut else "",
                )
                if on_cycle is not None:
                    await on_cycle(report)
            await asyncio.wait({stopped}, timeout=every.total_seconds())
    finally:
        stopped.cancel()


async def serve_watchers(ctx: AppContext, stop: asyncio.Event) -> None:
    """``serve``'s watcher task (registered in ``bot.serve.ADAPTERS``): cycles until ``stop``."""
    lease = lease_for(ctx.settings)
    try:
        async with http_client() as client:
            with open_runner(ctx, client) as runner:
                every = dt.timedelta(minutes=ctx.settings.watch_interval_minutes)
                await run_watchers_forever(runner, every=every, stop=stop, lease=lease)
    finally:
        lease.close()
