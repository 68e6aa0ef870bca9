"""Deliver a digest to a Discord channel: the digest runner's ``Sender`` for Discord.

REST failures are translated here, once, into ``knowledge.errors``:

    403 Forbidden (no permission in the channel)  → the setting is marked broken (the next
                                                    person who runs a command in that server
                                                    is told), then DeliveryError
    404 NotFound (channel deleted)                 → DestinationGone (the runner deactivates)
    5xx, 429, network errors, timeouts             → DeliveryRetryable, at once
    any other 4xx (our message is wrong)           → DeliveryError

One retry policy per layer, never two stacked. Within one send, discord.py's own: it tries a
request 5 times on 500/502/504/524, waiting 1, 3, 5, 7 and 9 s (25 s), and waits out every
429 Discord announces. Across sends, the digest schedule's: a FAILED delivery is tried again
after its backoff (``bot.digest.schedule``, 5 minutes doubling to an hour). This module adds
no loop of its own: under a lasting outage one digest attempt costs 5 POSTs for a 5xx that
discord.py retries, 1 for a 503 or a network error. (A loop here used to multiply
discord.py's: 4 × 5 = 20 POSTs and over 100 s of waiting for one digest.)

A split digest stops at the first message that fails; ``PartlyDelivered`` tells the runner
how many went out, and the retry starts after them (``send(..., skip=2)``).
"""

from __future__ import annotations

import io

import aiohttp
import discord

from answers.reply import Reply
from bot.adapters.discord.client import PLATFORM, MarinClient
from bot.adapters.discord.embeds import Outgoing, render
from bot.chat.pictures import CHART_FILE
from bot.chat.subscriptions import MISSING_PERMISSIONS
from bot.digest.sending import send_each
from bot.store.contract import Destination
from knowledge.errors import DeliveryError, DeliveryRetryable, DestinationGone


class DiscordSender:
    """Posts replies as embeds in a channel; see the module docstring for the error mapping."""

    platform = PLATFORM

    def __init__(self, client: MarinClient) -> None:
        self.client = client

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        channel = self.client.get_partial_messageable(int(destination.id))

        picture = reply.extra.get("picture")
        outgoing = render(reply)
        if skip == 0 and isinstance(picture, bytes) and outgoing and outgoing[0].embeds:
            outgoing[0].embeds[0].set_image(url=f"attachment://{CHART_FILE}")

        async def post(message: Outgoing) -> None:
            image = None
            if isinstance(picture, bytes) and message is outgoing[0] and skip == 0:
                image = discord.File(io.BytesIO(picture), filename=CHART_FILE)
            await self._send_one(channel, destination, message, image)

        await send_each(outgoing, post, skip=skip)
        self._repaired(destination)

    async def _send_one(
        self,
        channel: discord.PartialMessageable,
        destination: Destination,
        message: Outgoing,
        image: discord.File | None = None,
    ) -> None:
        where = f"discord channel {destination.id}"
        embeds = list(message.embeds)
        try:
            if image is None:
                await channel.send(content=message.content, embeds=embeds)
            else:
                await channel.send(content=message.content, embeds=embeds, file=image)
        except discord.Forbidden as exc:
            self._broken(destination, MISSING_PERMISSIONS)
            raise DeliveryError(f"{where}: {MISSING_PERMISSIONS}: {exc.text}") from exc
        except discord.NotFound as exc:
            raise DestinationGone(f"{where}: the channel is gone: {exc.text}") from exc
        except discord.RateLimited as exc:  # a wait over the client's max_ratelimit_timeout
            raise DeliveryRetryable(f"{where}: rate limited", retry_after=exc.retry_after) from exc
        except (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError) as exc:
            # a 5xx is raised only once discord.py's own retries are spent
            raise DeliveryRetryable(f"{where}: {exc}") from exc
        except discord.HTTPException as exc:
            if exc.status == 429:  # still rate limited after discord.py's 5 tries
                raise DeliveryRetryable(f"{where}: rate limited: {exc.text}") from exc
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
