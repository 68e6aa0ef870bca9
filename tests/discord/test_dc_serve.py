"""``marin-watch serve`` runs Discord and Telegram together in one process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.adapters.discord.client import Services
from bot.adapters.discord.lifecycle import DiscordBot
from bot.config import Settings
from bot.context import AppContext
from bot.serve import ADAPTERS, EXIT_OK, serve_async
from bot.startup import run_adapter
from knowledge.clock import fixed_clock
from knowledge.errors import ConfigError
from tests.conftest import TODAY
from tests.discord.conftest import TOKEN
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.telegram import tg_fake
from tests.telegram.tg_updates import message

ALICE_ID = int(str(tg_fake.ALICE["id"]))


async def eventually(check: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait until ``check()`` is true; the bots answer on their own time."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def serve_both_and_ask(
    fake_discord: FakeDiscord,
    telegram: tg_fake.FakeBotAPI,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> int:
    """Run ``serve`` with both tokens, ask in each chat, stop it; its exit code."""
    async with telegram.serve() as telegram_url:
        for name, value in {
            "MARIN_WATCH_TELEGRAM_TOKEN": tg_fake.TOKEN,
            "MARIN_WATCH_TELEGRAM_BASE_URL": telegram_url,
            "MARIN_WATCH_DISCORD_TOKEN": TOKEN,
            "MARIN_WATCH_DB_PATH": str(tmp_path / "marin-watch.sqlite3"),
        }.items():
            monkeypatch.setenv(name, value)
        ctx = AppContext(Settings(), clock=fixed_clock(TODAY))
        chat_adapters = [spec for spec in ADAPTERS if spec.name in ("discord", "telegram")]
        stop = asyncio.Event()
        serving = asyncio.create_task(serve_async(ctx, chat_adapters, stop))
        try:
            await asyncio.wait_for(fake_discord.identified.wait(), 10)

            in_discord = await DiscordChat(fake_discord).mention("has training started?")
            telegram.push_update(message("has training started?"))
            await eventually(lambda: telegram.sent(ALICE_ID))

            assert "[confirmed]" in in_discord.embeds[0]["description"]
            assert "confirmed" in telegram.sent(ALICE_ID)[0]
        finally:
            stop.set()
            code = await asyncio.wait_for(serving, 10)
            ctx.close()
    return code


async def test_one_serve_process_answers_in_discord_and_telegram(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    telegram = tg_fake.FakeBotAPI()
    assert await serve_both_and_ask(fake_discord, telegram, tmp_path, monkeypatch) == EXIT_OK


async def test_a_network_down_at_start_up_takes_neither_bot_down(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    telegram = tg_fake.FakeBotAPI()
    telegram.fail("getMe", 502, "Bad Gateway")  # both platforms unreachable at first
    fake_discord.fail("GET", "/users/@me", 503)

    assert await serve_both_and_ask(fake_discord, telegram, tmp_path, monkeypatch) == EXIT_OK
    assert "Telegram could not start (attempt 1: Bad Gateway); trying again in 1 s" in caplog.text
    assert "Discord could not start (attempt 1: 503 Service Unavailable" in caplog.text


async def test_a_token_discord_rejects_stops_with_a_clear_message(
    fake_discord: FakeDiscord, services: Services
) -> None:
    fake_discord.fail("GET", "/users/@me", 401)
    bot = DiscordBot(services, SecretStr("revoked-token"))

    with pytest.raises(ConfigError, match="MARIN_WATCH_DISCORD_TOKEN"):
        await run_adapter(bot, asyncio.Event())
    assert len(fake_discord.made("GET", "/users/@me")) == 1  # not retried
    assert bot.client is not None and bot.client.is_closed()
