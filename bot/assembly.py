"""How ``serve`` builds each adapter from the application's parts, and runs it.

The adapters know their platform and the conversation, nothing of the configuration, the
application context or the SQLite file: the parts they need are handed to them here. Each
``run_*`` is an ``AdapterSpec`` target of ``bot.serve``; the platform modules are imported only
when their adapter is configured.
"""

from __future__ import annotations

import asyncio
from contextlib import closing

from answers.reply import Reply
from bot.context import AppContext
from bot.startup import run_adapter
from bot.store.signals import SQLiteSignalStore
from bot.watchers.review import queue_reply
from knowledge.errors import ConfigError


async def run_telegram(ctx: AppContext, stop: asyncio.Event) -> None:
    """What ``marin-watch serve`` starts when a Telegram token is configured."""
    from bot.adapters.telegram.app import TelegramOptions
    from bot.adapters.telegram.lifecycle import TelegramBot

    db_path = ctx.settings.db_path

    def signals_for(lang: str) -> Reply:
        # Opened per request: /signals is rare, and the watchers own this part of the file.
        with closing(SQLiteSignalStore(db_path)) as signals:
            return queue_reply(signals, lang=lang)

    bot = TelegramBot(
        options=TelegramOptions.from_settings(ctx.settings),
        core=ctx.core,
        store=ctx.store,
        digests=ctx.digests,
        clock=ctx.clock,
        signals_for=signals_for,
    )
    await run_adapter(bot, stop)


async def run_discord(ctx: AppContext, stop: asyncio.Event) -> None:
    """What ``marin-watch serve`` starts when a Discord token is configured."""
    from bot.adapters.discord.client import Services
    from bot.adapters.discord.lifecycle import DiscordBot

    token = ctx.settings.discord_token
    if token is None:
        raise ConfigError("set MARIN_WATCH_DISCORD_TOKEN (or DISCORD_BOT_TOKEN) to run Discord")
    services = Services(
        core=ctx.core,
        store=ctx.store,
        digests=ctx.digests,
        clock=ctx.clock,
        default_language=ctx.settings.default_language,
    )
    bot = DiscordBot(services, token, check_every=float(ctx.settings.digest_check_seconds))
    await run_adapter(bot, stop)
