"""The Discord bot as ``marin-watch serve`` runs it (``bot.startup.run_adapter``).

Logs in with ``MARIN_WATCH_DISCORD_TOKEN``, syncs the slash commands, connects to the
gateway, and every ``digest_check_seconds`` posts the digests due in Discord channels through
the shared ``bot.digest.delivery.run_due``. A digest Discord does not take is recorded FAILED
and tried again by the schedule's backoff; within one send only discord.py retries (see
``sender`` for the one policy). Stopping lets a digest run in progress finish (its sends are
completed and recorded, which during an outage includes discord.py's 25 s of retries), then
closes the connection.

One start-up attempt (``start``: log in, connect, READY) uses a fresh client; ``serve``
retries it while the network or Discord is down (``retry_in``: a rejected token stops at
once). Once connected, discord.py reconnects on its own. With ``shards``, the client
connects those shards only (``shards.py``); a gateway that requires sharding, or refuses
the shard, stops it at once with the variable to set.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from pydantic import SecretStr

from bot.adapters.discord.client import PLATFORM, MarinClient, Services
from bot.adapters.discord.sender import DiscordSender
from bot.adapters.discord.shards import Shards
from bot.digest.delivery import run_due
from bot.digest.lease import LEASE
from bot.digest.run import RunReport
from knowledge.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass
class DiscordBot:
    """The Discord side of ``serve``: the client and its digest schedule."""

    services: Services
    token: SecretStr
    check_every: float = 60.0  # seconds between two looks at the digest schedule
    client_options: dict[str, Any] = field(default_factory=dict)
    shards: Shards | None = None  # None: one unsharded connection
    lease: dt.timedelta = LEASE  # a dead scheduler's sends are taken over after this
    last_report: RunReport | None = field(default=None, repr=False)
    client: MarinClient | None = field(default=None, repr=False)
    connection: asyncio.Task[None] | None = field(default=None, repr=False)
    name: str = "Discord"

    def retry_in(self, exc: BaseException) -> float | None:
        return retry_in(exc)

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Post due digests until ``stop`` is set or the gateway connection ends on its own
        (then its error is raised: a supervisor restarts the process)."""
        client, connection = self.client, self.connection
        assert client is not None and connection is not None  # started
        schedule = asyncio.create_task(self.schedule(client, stop), name="discord-digests")
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([connection, stopped], return_when=asyncio.FIRST_COMPLETED)
        finally:
            log.info("Discord: stopping; a digest run in progress is finished first")
            stop.set()
            await schedule
            await client.close()  # ends the connection task too
            stopped.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stopped
        await connection  # raises whatever ended the gateway connection on its own

    async def close(self) -> None:
        if self.client is not None and not self.client.is_closed():
            await self.client.close()

    async def start(self) -> None:
        """One start-up attempt on a fresh client: log in (which syncs the slash commands),
        connect to the gateway, wait until ready. A failed or cancelled attempt closes its
        client, so no HTTP session is left open."""
        self.client = client = self.new_client()
        connection: asyncio.Task[None] | None = None
        ready: asyncio.Task[None] | None = None
        try:
            try:
                await client.login(self.token.get_secret_value())
            except discord.LoginFailure as exc:
                raise ConfigError(
                    "Discord rejected the bot token (MARIN_WATCH_DISCORD_TOKEN / DISCORD_BOT_TOKEN)"
                ) from exc
            connection = asyncio.create_task(client.connect(), name="discord-gateway")
            ready = asyncio.create_task(client.wait_until_ready())
            await asyncio.wait([connection, ready], return_when=asyncio.FIRST_COMPLETED)
            if not ready.done():  # the first connection ended before Discord said READY
                raise _first_connection_error(connection)
            log.info(
                "Discord: connected as %s%s", client.user, f", {self.shards}" if self.shards else ""
            )
            self.connection = connection
        except BaseException:
            for task in (ready, connection):
                if task is not None and not task.done():
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await client.close()
            raise

    def new_client(self) -> MarinClient:
        """A fresh client for one attempt: unsharded, one shard, or several (``Shards``)."""
        if self.shards is None:
            return MarinClient(self.services, **self.client_options)
        return self.shards.client(self.services, **self.client_options)

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
            DiscordSender(client),
            platform=PLATFORM,
            clock=services.clock,
            lease=self.lease,
        )
        return self.last_report


def retry_in(exc: BaseException) -> float | None:
    """Start-up errors worth retrying: the network (DNS, refused, reset, timed out), Discord's
    5xx, a rate limit. A rejected token or a refused intent will not fix themselves."""
    if isinstance(exc, discord.RateLimited):
        return exc.retry_after
    transient = (
        discord.DiscordServerError,
        discord.GatewayNotFound,
        aiohttp.ClientError,
        OSError,
        TimeoutError,
    )
    return 0.0 if isinstance(exc, transient) else None


def _first_connection_error(connection: asyncio.Task[None]) -> BaseException:
    """Why the first gateway connection ended before it was ready."""
    error = connection.exception()
    if error is None:
        return RuntimeError("the Discord gateway closed before it was ready")
    if isinstance(error, AttributeError) and isinstance(error.__context__, Exception):
        # discord.py 2.7 cannot retry a first connection that failed: its retry reads the
        # websocket it never got. The error it was handling (the network's) is the real one.
        return error.__context__
    if isinstance(error, discord.ConnectionClosed) and error.code in SHARDING_REFUSED:
        return ConfigError(SHARDING_REFUSED[error.code])
    return error


# The gateway's close codes for sharding (discord.py raises them as ConnectionClosed): a
# configuration to change, not an outage to wait out.
SHARDING_REFUSED = {
    4010: "Discord refused the shard this process identified as: check "
    "MARIN_WATCH_DISCORD_SHARD_COUNT and MARIN_WATCH_DISCORD_SHARD_ID or _IDS",
    4011: "Discord requires this bot to shard its connection (it is in too many servers for "
    "one): set MARIN_WATCH_DISCORD_SHARD_COUNT, about one shard per 1,000 servers",
}
