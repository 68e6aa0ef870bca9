"""A Discord bot to talk to: the real client, commands, core, digest runner and SQLite store,
started by ``DiscordBot.run`` as ``marin-watch serve`` does, against the fake in ``dc_fake``.

    async def test_something(chat):
        answer = await chat.slash("ask", question="has it started?")
        assert "[confirmed]" in answer.embeds[0]["description"]
"""

from __future__ import annotations

import asyncio
import datetime as dt
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    # discord.py imports audioop (voice support we do not use), deprecated since 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

import pytest
import yarl
from pydantic import SecretStr

from bot.adapters.discord.client import MarinClient, Services
from bot.adapters.discord.lifecycle import DiscordBot
from bot.core import Core
from bot.digest.builder import DigestService
from bot.startup import run_adapter
from bot.store.sqlite import SQLiteStore
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import guild

TOKEN = "fake-discord-token"


class DiscordPyWaits:
    """Stands in for ``asyncio`` inside ``discord.http``: records the waits of discord.py's own
    retries (5xx, 429) instead of sleeping through them; everything else is asyncio's."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if delay:  # its rate-limit bookkeeping also sleeps 0 s
            self.waits.append(delay)
        return result


@dataclass
class Clock:
    """The time everywhere in the bot; a test moves it forward to let a day pass."""

    now: dt.datetime = TODAY

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "marin-watch.sqlite3", clock=clock) as opened:
        yield opened


@pytest.fixture
def services(kb: KnowledgeBase, store: SQLiteStore, clock: Clock) -> Services:
    core = Core(kb, clock=clock)
    return Services(core=core, store=store, digests=DigestService(kb, core.renderer), clock=clock)


@pytest.fixture
def discord_waits(monkeypatch: pytest.MonkeyPatch) -> DiscordPyWaits:
    """discord.py's retry waits, recorded instead of slept (25 s per request under 5xx)."""
    waits = DiscordPyWaits()
    monkeypatch.setattr(discord.http, "asyncio", waits)
    return waits


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A fake Discord with one research server, and discord.py pointed at it."""
    fake = FakeDiscord(guilds=[guild()])
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway))
    yield fake
    await fake.stop()


@asynccontextmanager
async def running_discord(fake: FakeDiscord, services: Services) -> AsyncIterator[DiscordBot]:
    """The bot, logged in, its commands synced, connected to the fake gateway and ready;
    stopped as ``serve`` stops it when the block ends."""
    bot = DiscordBot(
        services,
        SecretStr(TOKEN),
        check_every=3600,
        client_options={"guild_ready_timeout": 0.01},
    )
    stop = asyncio.Event()
    running = asyncio.create_task(run_adapter(bot, stop))
    await asyncio.wait_for(fake.identified.wait(), 5)
    assert bot.client is not None
    await asyncio.wait_for(bot.client.wait_until_ready(), 5)
    yield bot
    stop.set()
    await asyncio.wait_for(running, 5)


@pytest.fixture
async def discord_bot(fake_discord: FakeDiscord, services: Services) -> AsyncIterator[DiscordBot]:
    """The bot, ready (``running_discord``). Its own schedule is parked (one check an hour):
    tests run ``deliver_due`` themselves."""
    async with running_discord(fake_discord, services) as bot:
        yield bot


@pytest.fixture
def client(discord_bot: DiscordBot) -> MarinClient:
    assert discord_bot.client is not None
    return discord_bot.client


@pytest.fixture
def chat(fake_discord: FakeDiscord, client: MarinClient) -> DiscordChat:
    return DiscordChat(fake_discord, client)
