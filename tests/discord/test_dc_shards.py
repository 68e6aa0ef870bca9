"""Sharding, from the settings to the gateway: which connections one ``serve`` process opens
(``MARIN_WATCH_DISCORD_SHARD_COUNT``, ``…_SHARD_ID``, ``…_SHARD_IDS``), and that several
shards in one process (discord.py's AutoShardedClient) answer on each of them.

The fake gateway routes as Discord does: a server's events on shard ``(id >> 22) % count``,
direct messages on shard 0. The research server is on shard 1 of 2 and of 3; ``NEIGHBOURS``
is a second server, on shard 0 of 2.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.adapters.discord.client import MarinClient
from bot.adapters.discord.lifecycle import DiscordBot
from bot.assembly import discord_bot
from bot.config import Settings
from bot.context import AppContext
from bot.startup import run_adapter
from knowledge.clock import fixed_clock
from knowledge.errors import ConfigError
from tests.conftest import TODAY
from tests.discord.conftest import TOKEN
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import GUILD_ID, guild
from tests.waiting import until

NEIGHBOURS = GUILD_ID + (1 << 22)  # the next server id whose shard of 2 is 0


@pytest.fixture(autouse=True)
def identify_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits 5 s before each IDENTIFY after the first (Discord's rate limit)."""

    async def at_once(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    monkeypatch.setattr(MarinClient, "before_identify_hook", at_once)


@pytest.fixture
def two_servers(fake_discord: FakeDiscord) -> FakeDiscord:
    neighbours = guild() | {"id": str(NEIGHBOURS), "name": "Neighbours", "channels": []}
    fake_discord.guilds.append(neighbours)
    return fake_discord


@asynccontextmanager
async def serving(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[DiscordBot]:
    """The Discord bot ``serve`` builds from these settings, connected and ready."""
    for name, value in {
        "MARIN_WATCH_DISCORD_TOKEN": TOKEN,
        "MARIN_WATCH_DB_PATH": str(tmp_path / "marin-watch.sqlite3"),
        **{f"MARIN_WATCH_DISCORD_{k}": v for k, v in env.items()},
    }.items():
        monkeypatch.setenv(name, value)
    ctx = AppContext(Settings(), clock=fixed_clock(TODAY))
    bot = discord_bot(ctx)
    bot.client_options["guild_ready_timeout"] = 0.01  # a shard is ready 10 ms after its servers
    stop = asyncio.Event()
    running = asyncio.create_task(run_adapter(bot, stop))
    try:
        await until(lambda: bot.connection is not None or running.done(), timeout=5)
        if running.done():  # the start-up failed: its error is the test's
            running.result()
        yield bot
    finally:
        stop.set()
        try:
            await asyncio.wait_for(running, 5)
        finally:
            ctx.close()


def shards(fake: FakeDiscord) -> list[Any]:
    """What each gateway connection identified as, in order: [id, count], or None."""
    return [identify.get("shard") for identify in fake.identifies]


async def test_the_count_alone_runs_every_shard_in_one_process(
    two_servers: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving({"SHARD_COUNT": "2"}, tmp_path, monkeypatch) as bot:
        client = bot.client
        assert isinstance(client, discord.AutoShardedClient)
        assert shards(two_servers) == [[0, 2], [1, 2]]  # two connections, one process
        assert sorted(client.shards) == [0, 1]
        assert {g.id: g.shard_id for g in client.guilds} == {GUILD_ID: 1, NEIGHBOURS: 0}

        in_server = DiscordChat(two_servers, client)  # events of the research server: shard 1
        mentioned = await in_server.mention("has training started?")
        slashed = await in_server.slash("ask", question="has training started?")
        in_dm = await DiscordChat(two_servers, client, dm=True).say_and_wait("is it out?")

    assert "[confirmed]" in mentioned.embeds[0]["description"]
    assert "[confirmed]" in slashed.embeds[0]["description"]
    assert in_dm.embeds  # a direct message arrives on shard 0, and is answered too


@pytest.mark.parametrize(
    ("env", "connected", "sharded"),
    [
        ({}, [None], False),  # unsharded, as a small bot has always run
        ({"SHARD_COUNT": "2", "SHARD_ID": "1"}, [[1, 2]], False),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, [[1, 2]], False),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "[0, 2]"}, [[0, 3], [2, 3]], True),
        ({"SHARD_COUNT": "1"}, [[0, 1]], False),
    ],
    ids=["unsharded", "one id", "one of the ids", "ids as json", "count of one"],
)
async def test_a_process_connects_the_shards_it_is_given_and_no_other(
    env: dict[str, str],
    connected: list[Any],
    sharded: bool,
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with serving(env, tmp_path, monkeypatch) as bot:
        client = bot.client
        assert client is not None
        assert shards(fake_discord) == connected
        assert isinstance(client, discord.AutoShardedClient) == sharded
        research_here = fake_discord.shard_of(GUILD_ID) in [c[0] if c else 0 for c in connected]
        assert (client.get_guild(GUILD_ID) is not None) == research_here
        if research_here:  # its shard is this process's: its questions are answered here
            answer = await DiscordChat(fake_discord, client).mention("has training started?")
            assert "[confirmed]" in answer.embeds[0]["description"]


@pytest.mark.parametrize(
    ("code", "told"),
    [
        (4011, "requires this bot to shard .*set MARIN_WATCH_DISCORD_SHARD_COUNT"),
        (4010, "refused the shard .*MARIN_WATCH_DISCORD_SHARD_COUNT"),
    ],
)
async def test_a_gateway_asking_for_other_shards_stops_start_up_with_what_to_set(
    code: int, told: str, fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_discord.identify_close = code

    with pytest.raises(ConfigError, match=told):
        async with serving({}, tmp_path, monkeypatch):
            pass
    assert len(fake_discord.made("GET", "/users/@me")) == 1  # not retried: it will not pass
