"""One bot on three platforms, to hold the same conversation with: the console, Telegram and
Discord, each the real adapter code against its fake server (``tests/telegram``,
``tests/discord``), all on one knowledge base, one clock and a real SQLite file.

Each platform is a ``Platform``: ``ask`` a question, run a ``command``, and get back the text
a person would read there, whatever the markup (HTML, embeds, plain text).
"""

from __future__ import annotations

import asyncio
import html
import re
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

import pytest
import yarl

from bot.adapters.console import Console, shown
from bot.adapters.discord.client import Services
from bot.core import Core
from bot.digest.builder import DigestService
from bot.store.sqlite import SQLiteStore
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY
from tests.discord.conftest import running_discord
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import DIGEST, MOD, guild
from tests.telegram.conftest import MovableClock, running_bot, telegram_options
from tests.telegram.tg_fake import FakeBotAPI

PLATFORMS = ("console", "telegram", "discord")


class Platform(Protocol):
    name: str

    async def ask(self, text: str) -> str: ...

    async def command(self, name: str, *words: str) -> str: ...

    async def daily_digest_at(self, time: str, zone: str) -> str:
        """Ask for the daily digest at ``time`` in ``zone``, the way this platform does."""
        ...


def readable(text: str) -> str:
    """What a person reads: markup gone, entities decoded, white space as one space."""
    text = re.sub(r"<[^>]+>", "", text)
    text = html.unescape(text).replace("**", "").replace("`", "")
    return " ".join(text.split())


class OnConsole:
    name = "console"

    def __init__(self, core: Core, digests: DigestService) -> None:
        self.console = Console(core, digests=digests)

    async def ask(self, text: str) -> str:
        return await asyncio.to_thread(self._line, text)

    async def command(self, name: str, *words: str) -> str:
        return await asyncio.to_thread(self._line, " ".join([f"/{name}", *words]))

    async def daily_digest_at(self, time: str, zone: str) -> str:
        return await self.command("subscribe", time, zone)

    def _line(self, line: str) -> str:
        said = self.console.reply_to(line)
        assert said is not None
        return readable(shown(said))


class OnTelegram:
    name = "telegram"

    def __init__(self, harness: Any) -> None:
        self.harness = harness

    async def ask(self, text: str) -> str:
        return readable("\n".join(c.text for c in await self.harness.say(text)))

    async def command(self, name: str, *words: str) -> str:
        return await self.ask(" ".join([f"/{name}", *words]))

    async def daily_digest_at(self, time: str, zone: str) -> str:
        return await self.command("subscribe", time, zone)


class OnDiscord:
    name = "discord"

    def __init__(self, dm: DiscordChat, server: DiscordChat) -> None:
        self.dm = dm  # a direct message: a private chat, as the console and Telegram's are
        self.server = server  # #general of a server, where a manager sets the digest channel

    async def ask(self, text: str) -> str:
        reply = await self.dm.say_and_wait(text)
        parts = [str(reply.message.get("content") or "")]
        for embed in reply.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        return readable("\n".join(parts))

    async def command(self, name: str, *words: str) -> str:
        values = {"days": int(words[0])} if name == "digest" and words else {}
        return readable((await self.dm.slash(name, **values)).text())

    async def daily_digest_at(self, time: str, zone: str) -> str:
        answer = await self.server.slash(
            "digest-channel set", channel=DIGEST, time=time, timezone=zone, by=MOD
        )
        return readable(answer.text())


@pytest.fixture(params=PLATFORMS)
async def platform(
    request: pytest.FixtureRequest,
    kb: KnowledgeBase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Platform]:
    clock = MovableClock(TODAY)
    core = Core(kb, clock=clock)
    digests = DigestService(kb, core.renderer)
    if request.param == "console":
        yield OnConsole(core, digests)
    elif request.param == "telegram":
        monkeypatch.setenv("PTB_TIMEDELTA", "true")
        db = tmp_path / "telegram.sqlite3"
        async with running_bot(kb, FakeBotAPI(), db, clock, telegram_options()) as harness:
            yield OnTelegram(harness)
    else:
        async for dm, server in _discord(kb, tmp_path, clock, monkeypatch):
            yield OnDiscord(dm, server)


async def _discord(
    kb: KnowledgeBase, tmp_path: Path, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[DiscordChat, DiscordChat]]:
    fake = FakeDiscord(guilds=[guild()])
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway))
    with SQLiteStore(tmp_path / "discord.sqlite3", clock=clock) as store:
        core = Core(kb, clock=clock)
        services = Services(core, store, DigestService(kb, core.renderer), clock)
        async with running_discord(fake, services) as bot:
            assert bot.client is not None
            yield DiscordChat(fake, bot.client, dm=True), DiscordChat(fake, bot.client)
    await fake.stop()
