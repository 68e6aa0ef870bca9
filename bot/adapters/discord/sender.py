"""Deliver a digest to a Discord channel: the digest runner's ``Sender`` for Discord.

REST failures are translated here, once, into ``knowledge.errors``:

    403 Forbidden (no permission in the channel)  → the setting is marked broken (the next
                                                    person who runs a command in that server
                                                    is told), then DeliveryError
    404 NotFound (channel deleted)                 → DestinationGone (the runner deactivates)
    5xx, network errors, timeouts                  → retried with backoff; DeliveryRetryable
                                                    if it persists
    429 beyond discord.py's own waiting            → DeliveryRetryable(retry_after)
    any other 4xx (our message is wrong)           → DeliveryError, not retried

discord.py itself already retries 500/502/504 a few times and waits out rate limits; this
adds the retries it does not do (503, connection errors) and the translation. Each message
of a split digest is retried on its own, so a failure on the third does not resend the first;
if it persists, ``PartlyDelivered`` tells the runner that two went out, and the retry starts
at the third (``send(..., skip=2)``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import aiohttp
import discord

from answers.reply import Reply
from bot.adapters.discord.client import MarinClient
from bot.adapters.discord.digest_channel import MISSING_PERMISSIONS, PLATFORM
from bot.adapters.discord.embeds import Outgoing, render
from bot.digest.delivery import send_each
from bot.store.contract import Destination
from knowledge.errors import DeliveryError, DeliveryRetryable, DestinationGone

Sleep = Callable[[float], Awaitable[None]]


class DiscordSender:
    """Posts replies as embeds in a channel; see the module docstring for the error mapping."""

    platform = PLATFORM

    def __init__(
        self,
        client: MarinClient,
        *,
        attempts: int = 4,
        backoff: float = 1.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.attempts = attempts
        self.backoff = backoff
        self.sleep = sleep

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        channel = self.client.get_partial_messageable(int(destination.id))

        async def post(message: Outgoing) -> None:
            await self._send_one(channel, destination, message)

        await send_each(render(reply), post, skip=skip)
        self._repaired(destination)

    async def _send_one(
        self, channel: discord.PartialMessageable, destination: Destination, message: Outgoing
    ) -> None:
        where = f"discord channel {destination.id}"
        for attempt in range(1, self.attempts + 1):
            try:
                await channel.send(content=message.content, embeds=list(message.embeds))
                return
            except discord.Forbidden as exc:
                self._broken(destination, MISSING_PERMISSIONS)
                raise DeliveryError(f"{where}: {MISSING_PERMISSIONS}: {exc.text}") from exc
            except discord.NotFound as exc:
                raise DestinationGone(f"{where}: the channel is gone: {exc.text}") from exc
            except discord.RateLimited as exc:
                raise DeliveryRetryable(
                    f"{where}: rate limited", retry_after=exc.retry_after
                ) from exc
            except (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError) as exc:
                if attempt == self.attempts:
                    raise DeliveryRetryable(f"{where}: {exc}") from exc
                await self.sleep(self.backoff * 2 ** (attempt - 1))
            except discord.HTTPException as exc:
                raise DeliveryError(f"{where}: Discord refused the message: {exc.text}") from exc

    def _broken(self, destination: Destination, reason: str) -> None:
        store = self.client.services.store
        store.mark_broken(destination, reason)
        subscription = store.subscription(destination)
        if subscription is not None and subscription.scope:
            self.client.services.broken_scopes.add(subscription.scope)

    def _repaired(self, destination: Destination) -> None:
        """A post went through: a setting marked broken earlier works again."""
        store = self.client.services.store
        subscription = store.subscription(destination)
        if subscription is not None and subscription.broken_reason:
            store.mark_broken(destination, None)
