"""A Telegram bot to talk to: the real Application, handlers, core, digest runner and SQLite
store, with the Bot API answered by the fake in ``tg_fake``.

    async def test_something(telegram):
        [answer] = await telegram.say("has it started?")
        assert "confirmed" in answer.text
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from answers.reply import Reply
from bot.adapters.telegram.app import TelegramApp, TelegramOptions
from bot.adapters.telegram.lifecycle import DIGEST_JOB, TelegramBot
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.run import RunReport
from bot.store.contract import Destination
from bot.store.sqlite import SQLiteStore
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY
from tests.telegram import tg_updates
from tests.telegram.tg_fake import ALICE, BASE_URL, TOKEN, Call, FakeBotAPI


@dataclass
class MovableClock:
    now: dt.datetime

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@dataclass
class Sleeps:
    """Stands in for asyncio.sleep in the sender: records the waits instead of waiting."""

    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass
class TelegramHarness:
    """Say things to the bot as a user would, and read back what it sent."""

    api: FakeBotAPI
    app: TelegramApp
    store: SQLiteStore
    core: Core
    clock: MovableClock
    bot: TelegramBot
    sleeps: Sleeps
    last: list[Call] = field(default_factory=list)

    async def send(self, update: dict[str, Any]) -> list[Call]:
        """Deliver one raw update; return the messages the bot sent or edited in response.

        ``last`` keeps every Bot API call it made, answers to button presses included.
        """
        self.api.take()
        await self.app.process_update(Update.de_json(update, self.app.bot))
        self.last = self.api.take()
        return [c for c in self.last if c.method in ("sendMessage", "sendPhoto", "editMessageText")]

    async def say(
        self,
        text: str,
        *,
        user: dict[str, Any] = ALICE,
        chat: dict[str, Any] | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> list[Call]:
        return await self.send(tg_updates.message(text, user=user, chat=chat, reply_to=reply_to))

    async def press(self, under: Call, data: str, *, user: dict[str, Any] = ALICE) -> list[Call]:
        return await self.send(tg_updates.press(under, data, user=user))

    async def daily_job(self) -> RunReport:
        """Run the scheduled digest job once, as the job queue would."""
        [job] = self.app.job_queue.get_jobs_by_name(DIGEST_JOB)  # type: ignore[union-attr]
        self.bot.last_report = None
        await job.run(self.app)
        assert self.bot.last_report is not None
        return self.bot.last_report

    def subscription(self, chat_id: int | str) -> Any:
        return self.store.subscription(Destination("telegram", str(chat_id)))

    def deliveries(self, chat_id: int | str) -> list[Any]:
        return self.store.deliveries(Destination("telegram", str(chat_id)))


def telegram_options(**overrides: Any) -> TelegramOptions:
    return TelegramOptions(token=TOKEN, base_url=BASE_URL, **overrides)


@pytest.fixture(autouse=True)
def ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opt in to PTB 23's ``RetryAfter.retry_after`` as a timedelta: without it, building a
    RetryAfter warns, and the project's ``filterwarnings = error`` turns that into a crash."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "marin-watch.sqlite3"


@pytest.fixture
def api() -> FakeBotAPI:
    return FakeBotAPI()


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(TODAY)


@pytest.fixture
def options() -> TelegramOptions:
    return telegram_options()


@asynccontextmanager
async def running_bot(
    kb: KnowledgeBase,
    api: FakeBotAPI,
    db_path: Path,
    clock: MovableClock,
    options: TelegramOptions,
    signals_for: Callable[[str], Reply] | None = None,
) -> AsyncIterator[TelegramHarness]:
    """One bot process: started on the store file, stopped at the end of the block."""
    core = Core(kb, clock=clock)
    sleeps = Sleeps()
    with SQLiteStore(db_path, clock=clock) as store:
        digests = DigestService(kb, core.renderer)
        tg = TelegramBot(options, core, store, digests, clock, sleeps, signals_for=signals_for)
        app = tg.application(requests=(api.request(), api.request()))
        async with app:
            yield TelegramHarness(api, app, store, core, clock, tg, sleeps)


@pytest.fixture
async def telegram(
    kb: KnowledgeBase,
    api: FakeBotAPI,
    db_path: Path,
    clock: MovableClock,
    options: TelegramOptions,
) -> AsyncIterator[TelegramHarness]:
    async with running_bot(kb, api, db_path, clock, options) as harness:
        yield harness


@pytest.fixture
def no_tokens(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in (
        "MARIN_WATCH_TELEGRAM_TOKEN",
        "TELEGRAM_BOT_TOKEN",
        "MARIN_WATCH_DISCORD_TOKEN",
        "DISCORD_BOT_TOKEN",
    ):
        monkeypatch.delenv(name, raising=False)
    yield
