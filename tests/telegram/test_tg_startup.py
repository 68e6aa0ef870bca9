"""Starting the Telegram bot while the network is not there yet (a DNS failure, a refused
connection, Telegram's 5xx or flood control): it waits, tries again with growing pauses,
stops at once when asked to, and gives up at once only on what retrying cannot fix."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from telegram.error import BadRequest

from bot.adapters.telegram.lifecycle import TelegramBot
from bot.core import Core
from bot.digest.builder import DigestService
from bot.startup import StartBackoff, run_adapter
from bot.store.sqlite import SQLiteStore
from knowledge.errors import ConfigError
from knowledge.knowledge_base import KnowledgeBase
from tests.telegram.conftest import MovableClock, Sleeps, telegram_options
from tests.telegram.tg_fake import ALICE, FakeBotAPI
from tests.telegram.tg_updates import message
from tests.waiting import retries, until

FAST = StartBackoff(first=0.01, longest=0.04)  # the pauses of production, scaled down
PATIENT = StartBackoff(first=60, longest=60)  # a pause no test may sit through


@dataclass
class Launcher:
    """Starts the bot as ``serve`` does, on the fake Bot API; setting ``stop`` is SIGTERM."""

    build: Callable[[StartBackoff], TelegramBot]
    api: FakeBotAPI
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    running: list[asyncio.Task[None]] = field(default_factory=list)

    def start(self, backoff: StartBackoff) -> asyncio.Task[None]:
        bot = self.build(backoff)
        bot.requests = (self.api.request(), self.api.request())
        self.running.append(asyncio.create_task(run_adapter(bot, self.stop, backoff=backoff)))
        return self.running[-1]


@pytest.fixture
async def launcher(
    kb: KnowledgeBase, api: FakeBotAPI, db_path: Path, clock: MovableClock
) -> AsyncIterator[Launcher]:
    core = Core(kb, clock=clock)
    digests = DigestService(kb, core.renderer)
    with SQLiteStore(db_path, clock=clock) as store:

        def build(backoff: StartBackoff) -> TelegramBot:
            options = telegram_options()
            return TelegramBot(options, core, store, digests, clock, Sleeps())

        launched = Launcher(build, api)
        yield launched
        launched.stop.set()
        await asyncio.gather(*launched.running, return_exceptions=True)


async def test_a_network_that_is_down_at_start_up_is_waited_out(
    launcher: Launcher, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    api.fail("getMe", 0, "", times=2)  # no route to Telegram yet: the connection fails
    api.fail("getMe", 502, "Bad Gateway")  # then Telegram's front end stumbles
    api.fail("setMyCommands", 429, "Too Many Requests", parameters={"retry_after": 1})

    running = launcher.start(FAST)
    api.push_update(message("has it started?"))
    await until(lambda: api.sent(ALICE["id"]))

    assert "has started training" in api.sent(ALICE["id"])[0]
    assert not running.done()  # still serving
    assert len(api.of("getMe")) == 4
    said = retries(caplog)
    assert [m.split(":")[0] for m in said] == [
        f"Telegram could not start (attempt {n}" for n in (1, 2, 3, 4)
    ]
    assert "httpx.ConnectError" in said[0] and "Bad Gateway" in said[2]
    assert "Flood control" in said[3]
    waits = [float(re.findall(r"trying again in ([\d.]+) s", m)[0]) for m in said]
    assert waits == [0.01, 0.02, 0.04, 1.0]  # doubling, capped; flood control's own wait


async def test_asked_to_stop_while_waiting_to_try_again_it_stops_at_once(
    launcher: Launcher, api: FakeBotAPI
) -> None:
    api.fail("getMe", 503, "Service Unavailable", times=100)
    running = launcher.start(PATIENT)
    await until(lambda: api.of("getMe"))

    launcher.stop.set()
    async with asyncio.timeout(2):  # not the minute it meant to wait
        await running
    assert not api.of("getUpdates")


async def test_asked_to_stop_while_telegram_does_not_answer_it_stops_at_once(
    launcher: Launcher, api: FakeBotAPI
) -> None:
    api.hanging.add("getMe")
    running = launcher.start(PATIENT)
    await until(lambda: api.of("getMe"))

    launcher.stop.set()
    async with asyncio.timeout(2):
        await running


async def test_a_rejected_token_fails_at_once_without_retrying(
    launcher: Launcher, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    api.token = "654321:another-bot"
    with pytest.raises(ConfigError, match="Telegram rejected the bot token"):
        async with asyncio.timeout(5):
            await launcher.start(FAST)
    assert retries(caplog) == []


async def test_a_request_telegram_refuses_as_bad_is_not_retried_either(
    launcher: Launcher, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    api.fail("setMyCommands", 400, "Bad Request: BOT_COMMAND_INVALID")
    with pytest.raises(BadRequest, match="(?i)bot_command_invalid"):
        async with asyncio.timeout(5):
            await launcher.start(FAST)
    assert retries(caplog) == []
