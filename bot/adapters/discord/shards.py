"""Sharding: which of the bot's gateway connections this process runs, and the client for it.

Discord splits a bot's servers over ``count`` connections (shards): a server's events arrive
on shard ``(server_id >> 22) % count``, direct messages on shard 0. One shard in a process
is the plain client with ``shard_id``/``shard_count``; several are discord.py's
``AutoShardedClient``, which opens one connection per shard and is ready once all are.
REST calls (answers, digests, the command sync) are not sharded: any process can make them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.adapters.discord.client import MarinClient, Services

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shards:
    """The shards this process connects (``ids``) of the ``count`` the bot has in all."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        # discord.py would read no ids as "every shard", and connect them all
        if not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} are not shards of {self.count}")

    def client(self, services: Services, **options: Any) -> MarinClient:
        """A fresh client connecting these shards."""
        if len(self.ids) == 1:
            # the plain client: one connection, and discord.py's first-connection errors
            # reach serve's start-up retries (the sharded one retries every 5 s on its own)
            return MarinClient(services, shard_id=self.ids[0], shard_count=self.count, **options)
        return ShardedClient(services, shard_ids=list(self.ids), shard_count=self.count, **options)

    def __str__(self) -> str:
        ids = ", ".join(map(str, self.ids))
        return f"shard{'s' if len(self.ids) > 1 else ''} {ids} of {self.count}"


class ShardedClient(MarinClient, discord.AutoShardedClient):
    """``MarinClient`` over several gateway connections: the same commands and answers;
    discord.py routes each event from its shard to the same handlers."""

    async def on_shard_ready(self, shard_id: int) -> None:
        # Shards connect one after another, 5 s apart (Discord's identify rate limit): without
        # this, a process starting many shards says nothing until the last one is ready.
        log.info("Discord: shard %d of %s ready", shard_id, self.shard_count)
