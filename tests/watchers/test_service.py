"""The loop ``serve`` runs: a cycle, a wait, again; it stops when asked, even mid-cycle."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from pathlib import Path

import pytest

from bot.serve import ADAPTERS
from bot.store.signals import SQLiteSignalStore
from bot.watchers.cycle import CycleReport
from bot.watchers.loop import build_runner, run_watchers_forever
from knowledge.knowledge_base import KnowledgeBase
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.internet import marin_internet
from tests.watchers.web import Web, slow_drip


async def test_the_loop_runs_a_cycle_and_stops_when_asked(
    web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> None:
    marin_internet(web)
    stop = asyncio.Event()
    cycles: list[CycleReport] = []

    async def seen(report: CycleReport) -> None:
        cycles.append(report)
        stop.set()

    async with web.client() as client:
        runner = build_runner(kb, store, client, clock=clock)
        await asyncio.wait_for(
            run_watchers_forever(runner, every=dt.timedelta(hours=1), stop=stop, on_cycle=seen), 5
        )

    assert len(cycles) == 1 and len(cycles[0].sources) == 13


async def test_stopping_mid_cycle_drops_the_requests_in_flight(
    web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> None:
    marin_internet(web)
    web.on(p.WANDB_REPORT, slow_drip(10.0))
    stop = asyncio.Event()

    async with web.client() as client:
        runner = build_runner(kb, store, client, clock=clock)
        task = asyncio.create_task(run_watchers_forever(runner, stop=stop))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        stop.set()
        await asyncio.wait_for(task, 2)

    assert time.monotonic() - started < 1


async def test_a_cycle_that_fails_as_a_whole_is_logged_and_the_loop_goes_on(
    web: Web, tmp_path: Path, clock: Clock, kb: KnowledgeBase, caplog: pytest.LogCaptureFixture
) -> None:
    marin_internet(web)
    broken = SQLiteSignalStore(tmp_path / "s.sqlite3")
    broken.close()  # every read now fails with StoreError
    stop = asyncio.Event()

    async with web.client() as client:
        runner = build_runner(kb, broken, client, clock=clock)
        task = asyncio.create_task(
            run_watchers_forever(runner, every=dt.timedelta(milliseconds=10), stop=stop)
        )
        await asyncio.sleep(0.1)
        stop.set()
        await asyncio.wait_for(task, 2)

    failures = [r for r in caplog.records if r.message.startswith("watch cycle failed")]
    assert len(failures) >= 2 and all(r.levelno == logging.ERROR for r in failures)


def test_serve_runs_the_watchers_beside_any_chat_adapter() -> None:
    [spec] = [a for a in ADAPTERS if a.name == "watchers"]
    assert spec.target == "bot.watchers.loop:serve_watchers"
    assert callable(spec.load())
