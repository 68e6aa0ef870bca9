"""The Discord bot as ``marin-watch serve`` runs it: ``run(ctx, stop)``.

Logs in with ``MARIN_WATCH_DISCORD_TOKEN``, syncs the slash commands, connects to the
gateway, and every ``digest_check_seconds`` posts the digests due in Discord channels through
the shared ``bot.digest.runner.run_due``. Stopping lets a digest run in progress finish (its
sends are completed and recorded), then closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from pydantic import SecretStr

from bot.adapters.discord.client import MarinClient, Services
from bot.adapters.discord.digest_channel import PLATFORM
from bot.adapters.discord.sender import DiscordSender, Sleep
from bot.digest.runner import RunReport, run_due
from bot.errors import ConfigError

if TYPE_CHECKING:
    from bot.context import AppContext

log = logging.getLogger(__name__)


@dataclass
class DiscordBot:
    """The Discord side of ``serve``: the client and its digest schedule."""

    services: Services
    token: SecretStr
    check_every: float = 60.0  # seconds between two looks at the digest schedule
    sleep: Sleep = asyncio.sleep  # how the sender waits between retries
    client_options: dict[str, Any] = field(default_factory=dict)
    last_report: RunReport | None = field(default=None, repr=False)
    client: MarinClient | None = field(default=None, repr=False)

    async def run(self, stop: asyncio.Event) -> None:
        """Log in, serve until ``stop`` is set, then stop cleanly."""
        self.client = client = MarinClient(self.services, **self.client_options)
        try:
            await client.login(self.token.get_secret_value())
        except discord.LoginFailure as exc:
            await client.close()
            raise ConfigError(
                "Discord rejected the bot token (MARIN_WATCH_DISCORD_TOKEN / DISCORD_BOT_TOKEN)"
            ) from exc
        connection = asyncio.create_task(client.connect(), name="discord-gateway")
        schedule = asyncio.create_task(self.schedule(client, stop), name="discord-digests")
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([connection, stopped], return_when=asyncio.FIRST_COMPLETED)
        finally:
            log.info("Discord: stopping; a digest run in progress is finished first")
            stop.set()
            await schedule
            await client.close()
            stopped.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stopped
        await connection  # raises whatever ended the gateway connection on its own

    async def schedule(self, client: MarinClient, stop: asyncio.Event) -> None:
        """Every ``check_every`` seconds, post the digests due; one failed run is logged only."""
        while not stop.is_set():
            try:
                await self.deliver_due(client)
            except Exception:
                log.exception("Discord: the digest run failed; trying again at the next check")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.check_every)

    async def deliver_due(self, client: MarinClient) -> RunReport:
        services = self.services
        self.last_report = await run_due(
            services.store,
            services.digests,
            DiscordSender(client, sleep=self.sleep),
            platform=PLATFORM,
            clock=services.clock,
        )
        return self.last_report


def discord_bot(ctx: AppContext) -> DiscordBot:
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
    return DiscordBot(services, token, check_every=float(ctx.settings.digest_check_seconds))


async def run(ctx: AppContext, stop: asyncio.Event) -> None:
    """What ``marin-watch serve`` starts when a Discord token is configured."""
    await discord_bot(ctx).run(stop)
