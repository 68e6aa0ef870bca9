"""How ``serve`` builds each adapter from the application's parts, and runs it.

The adapters know their platform and the conversation, nothing of the configuration, the
application context or the SQLite file: the parts they need are handed to them here. Each
``run_*`` is an ``AdapterSpec`` target of ``bot.serve``; the platform modules are imported only
when their adapter is configured.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from answers.reply import Reply
from answers.site import build_site
from bot.context import AppContext
from bot.startup import run_adapter
from bot.store.signal_stores import open_signal_store
from bot.watchers.review import queue_reply
from knowledge.errors import ConfigError, MarinWatchError
from knowledge.loader import DEFAULT_DIR

if TYPE_CHECKING:  # imported when Discord is configured (discord.py is heavy)
    from bot.adapters.discord.lifecycle import DiscordBot

log = logging.getLogger(__name__)


async def run_telegram(ctx: AppContext, stop: asyncio.Event) -> None:
    """What ``marin-watch serve`` starts when a Telegram token is configured."""
    from bot.adapters.telegram.app import TelegramOptions
    from bot.adapters.telegram.lifecycle import TelegramBot

    settings = ctx.settings

    def signals_for(lang: str) -> Reply:
        # Opened per request: /signals is rare, and the watchers own this part of the store.
        # read-only: /signals only reads (serve has created the store by the time anyone
        # asks; a SQLite file that is not there yet is created, as the watchers would)
        read_only = settings.database_url is not None or settings.db_path.exists()
        with closing(open_signal_store(settings, read_only=read_only)) as signals:
            return queue_reply(signals, lang=lang)

    bot = TelegramBot(
        options=TelegramOptions.from_settings(ctx.settings),
        core=ctx.core,
        store=ctx.store,
        digests=ctx.digests,
        clock=ctx.clock,
        signals_for=signals_for,
        lease=dt.timedelta(seconds=ctx.settings.delivery_lease_seconds),
    )
    await run_adapter(bot, stop)


async def run_discord(ctx: AppContext, stop: asyncio.Event) -> None:
    """What ``marin-watch serve`` starts when a Discord token is configured."""
    await run_adapter(discord_bot(ctx), stop)


def discord_bot(ctx: AppContext) -> DiscordBot:
    """The Discord bot the settings describe: its token, schedule, lease and shards."""
    from bot.adapters.discord.client import Services
    from bot.adapters.discord.lifecycle import DiscordBot
    from bot.adapters.discord.shards import Shards

    token = ctx.settings.discord_token
    if token is None:
        raise ConfigError("set MARIN_WATCH_DISCORD_TOKEN (or DISCORD_BOT_TOKEN) to run Discord")
    services = Services(
        core=ctx.core,
        store=ctx.store,
        digests=ctx.digests,
        clock=ctx.clock,
    )
    settings = ctx.settings
    count = settings.discord_shard_count  # None: unsharded
    return DiscordBot(
        services,
        token,
        check_every=float(settings.digest_check_seconds),
        shards=None if count is None else Shards(tuple(settings.discord_shards), count),
        lease=dt.timedelta(seconds=settings.delivery_lease_seconds),
    )


SITE_CHECK_SECONDS = 60.0  # how often serve looks for changed knowledge files


async def run_site(ctx: AppContext, stop: asyncio.Event) -> None:
    """Keep the status page in ``MARIN_WATCH_SITE_DIR`` true to the knowledge files: built at
    start, rebuilt after a change to them (a curator's promotion writes them), from a fresh
    load, so the page never lags a promotion the running bots have not reloaded."""
    out = ctx.settings.site_dir
    assert out is not None  # configured, or serve would not start this
    seen: float | None = None
    while not stop.is_set():
        changed = _knowledge_changed(ctx.settings.kb_dir)
        if changed != seen:
            try:
                written = await asyncio.to_thread(_build_site, ctx, out)
            except MarinWatchError as exc:  # a broken promotion: keep the last good page
                log.warning("status page not rebuilt: %s", exc)
            else:
                log.info("status page rebuilt: %d files in %s", len(written), out)
                seen = changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=SITE_CHECK_SECONDS)


def _knowledge_changed(kb_dir: Path | None) -> float:
    folder = kb_dir or DEFAULT_DIR
    return max((p.stat().st_mtime for p in folder.glob("*.toml")), default=0.0)


def _build_site(ctx: AppContext, out: Path) -> list[Path]:
    fresh = AppContext(ctx.settings, clock=ctx.clock)  # the files as they are now
    try:
        return build_site(fresh.core, out)
    finally:
        fresh.close()
