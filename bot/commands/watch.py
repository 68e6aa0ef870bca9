"""``marin-watch watch [--once]``: run the source watchers and print what they found."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from bot.context import AppContext
from bot.watchers.cycle import CycleReport, Outcome
from bot.watchers.loop import http_client, open_runner, run_watchers_forever


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "watch",
        help="poll the watch points' sources for new public records",
        description="Poll every URL the watch points look at. New records become unreviewed "
        "signals (marin-watch signals list); a source's first poll only records a baseline.",
    )
    p.add_argument("--once", action="store_true", help="one cycle, print it, exit")
    p.add_argument(
        "--force", action="store_true", help="also poll sources backing off after errors"
    )
    p.set_defaults(handler=run)


def run(
    args: argparse.Namespace, ctx: AppContext, *, client: httpx.AsyncClient | None = None
) -> int:
    return asyncio.run(_run(args, ctx, client or http_client()))


async def _run(args: argparse.Namespace, ctx: AppContext, client: httpx.AsyncClient) -> int:
    # The printed report names every source's outcome, failures included: logging each
    # failure (or, as httpx does at INFO, each request) as well would say it twice.
    async with client:
        with (
            _quieter("httpx", logging.WARNING),
            open_runner(ctx, client, failures_logged_at=logging.DEBUG) as runner,
        ):
            if args.once:
                report = await runner.run_once(force=args.force)
                print_report(report)
                polled = [r for r in report.sources if r.outcome is not Outcome.SKIPPED]
                return 1 if polled and len(report.failed) == len(polled) else 0

            async def show(report: CycleReport) -> None:
                print_report(report)

            every = dt.timedelta(minutes=ctx.settings.watch_interval_minutes)
            await run_watchers_forever(runner, every=every, on_cycle=show)
    return 0


@contextmanager
def _quieter(name: str, level: int) -> Iterator[None]:
    """Raise the logger ``name`` to at least ``level`` for the block."""
    logger = logging.getLogger(name)
    before = logger.level
    logger.setLevel(max(before, level))
    try:
        yield
    finally:
        logger.setLevel(before)


def print_report(report: CycleReport) -> None:
    new = report.new_signals
    print(
        f"watch cycle {report.started_at:%Y-%m-%d %H:%M} UTC: {len(report.sources)} sources, "
        f"{len(new)} new signal(s), {report.requests} request(s)"
    )
    for r in report.sources:
        detail = r.message or ""
        if r.outcome is Outcome.BASELINE:
            detail = f"{len(r.signals)} existing record(s) recorded; none queued"
        elif r.outcome is Outcome.NEW:
            detail = f"{len(r.signals)} new"
        elif r.until is not None:
            detail = f"{detail} (next try after {r.until:%Y-%m-%d %H:%M} UTC)"
        print(f"  {r.outcome:<13} {r.label}{': ' + detail if detail else ''}")
        for s in r.signals if r.outcome is Outcome.NEW else ():
            bears = f"  → {', '.join(s.claims)}" if s.claims else ""
            print(f"      {s.id}  {s.date:%Y-%m-%d}  {s.title}{bears}")
    if new:
        print("review with: marin-watch signals list")
