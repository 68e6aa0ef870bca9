"""What the logs say while polling fails: one line when an outage starts and one when it
ends, with the count; never PTB's traceback per failed poll. (A 429 that is waited out is
not an error either: ``test_tg_digests``.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram.ext._utils import networkloop

from bot.adapters.telegram.lifecycle import TelegramBot
from bot.adapters.telegram.polling import GIVE_UP_AFTER
from bot.core import Core
from bot.digest.builder import DigestService
from bot.startup import run_adapter
from bot.store.sqlite import SQLiteStore
from knowledge.errors import ConfigError
from knowledge.knowledge_base import KnowledgeBase
from tests.telegram.conftest import MovableClock, Sleeps, telegram_options
from tests.telegram.tg_fake import ALICE, FakeBotAPI
from tests.telegram.tg_updates import message
from tests.waiting import until


class PollingWaits:
    """Stands in for ``asyncio`` in PTB's network retry loop: records its backoff (1 s, then
    ×1.5 up to 30 s after each failed poll) instead of sleeping through it."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float) -> None:
        self.waits.append(delay)
        await asyncio.sleep(0)


@pytest.fixture
def polling_waits(monkeypatch: pytest.MonkeyPatch) -> PollingWaits:
    waits = PollingWaits()
    monkeypatch.setattr(networkloop, "asyncio", waits)
    return waits


@pytest.fixture
async def polling_bot(
    kb: KnowledgeBase, api: FakeBotAPI, db_path: Path, clock: MovableClock
) -> AsyncIterator[asyncio.Event]:
    """The bot as ``serve`` runs it, polling the fake; set the event to stop it."""
    core = Core(kb, clock=clock)
    stop = asyncio.Event()
    with SQLiteStore(db_path, clock=clock) as store:
        bot = TelegramBot(
            telegram_options(), core, store, DigestService(kb, core.renderer), clock, Sleeps()
        )
        bot.requests = (api.request(), api.request())
        running = asyncio.create_task(run_adapter(bot, stop))
        yield stop
        stop.set()
        await asyncio.wait_for(running, 10)


def logged(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


async def test_an_outage_while_polling_logs_one_warning_and_the_count_when_it_ends(
    api: FakeBotAPI,
    polling_waits: PollingWaits,
    caplog: pytest.LogCaptureFixture,
    polling_bot: asyncio.Event,
) -> None:
    caplog.set_level(logging.INFO)
    api.fail("getUpdates", 0, "connection refused", times=3)
    api.fail("getUpdates", 502, "Bad Gateway", times=2)

    api.push_update(message("has it started?"))
    await until(lambda: api.sent(ALICE["id"]))  # polling recovered: the question is answered

    assert len(api.of("getUpdates")) > 5
    assert [r for r in caplog.records if r.exc_info] == []  # no traceback
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert logged(caplog, logging.WARNING) == [
        "Telegram unreachable: httpx.ConnectError: connection reset by peer; polling goes on"
    ]
    assert "Telegram reachable again after 5 failed polls" in logged(caplog, logging.INFO)
    assert len(polling_waits.waits) >= 5  # PTB's backoff after each failure, not slept


async def test_another_process_polling_with_the_token_is_an_error_logged_once(
    api: FakeBotAPI,
    polling_waits: PollingWaits,
    caplog: pytest.LogCaptureFixture,
    polling_bot: asyncio.Event,
) -> None:
    caplog.set_level(logging.INFO)
    conflict = "Conflict: terminated by other getUpdates request"
    api.fail("getUpdates", 409, conflict, times=3)

    api.push_update(message("has it started?"))
    await until(lambda: api.sent(ALICE["id"]))

    assert [r for r in caplog.records if r.exc_info] == []
    assert logged(caplog, logging.ERROR) == [f"Telegram refused polling: {conflict}"]
    assert "Telegram accepts polling again after 3 failed polls" in logged(caplog, logging.INFO)


async def test_a_second_poller_there_to_stay_is_refused_with_what_to_do(
    kb: KnowledgeBase,
    api: FakeBotAPI,
    db_path: Path,
    clock: MovableClock,
    polling_waits: PollingWaits,
) -> None:
    """A deploy's brief overlap passes (the test above); another poller that stays means
    two replicas long-polling one token, which Telegram does not allow: say so and stop."""
    conflict = "Conflict: terminated by other getUpdates request"
    api.fail("getUpdates", 409, conflict, times=GIVE_UP_AFTER + 5)
    core = Core(kb, clock=clock)
    with SQLiteStore(db_path, clock=clock) as store:
        bot = TelegramBot(
            telegram_options(), core, store, DigestService(kb, core.renderer), clock, Sleeps()
        )
        bot.requests = (api.request(), api.request())
        with pytest.raises(ConfigError) as refused:
            await asyncio.wait_for(run_adapter(bot, asyncio.Event()), 20)
    message = str(refused.value)
    assert "another process is polling with this bot token" in message
    assert "MARIN_WATCH_TELEGRAM_WEBHOOK_URL" in message
