"""Starting the Discord bot while the network is not there yet (a DNS failure, a refused
connection, Discord's 5xx, a gateway that turns it away): it waits, tries again on a fresh
client with growing pauses, closes every client it gave up on, and stops at once when asked."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from pydantic import SecretStr

from bot.adapters.discord import lifecycle as runner
from bot.adapters.discord.client import MarinClient, Services
from bot.adapters.discord.lifecycle import DiscordBot
from bot.startup import StartBackoff, run_adapter
from knowledge.errors import ConfigError
from tests.discord.conftest import TOKEN
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.waiting import retries, until

FAST = StartBackoff(first=0.01, longest=0.04)  # the pauses of production, scaled down
PATIENT = StartBackoff(first=60, longest=60)  # a pause no test may sit through


@dataclass
class Launcher:
    """Starts the bot as ``serve`` does; setting ``stop`` is SIGTERM. ``clients`` are all the
    Discord clients it made, one per attempt."""

    services: Services
    clients: list[MarinClient]
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    running: list[asyncio.Task[None]] = field(default_factory=list)

    def start(self, backoff: StartBackoff, token: str = TOKEN) -> asyncio.Task[None]:
        bot = DiscordBot(
            self.services,
            SecretStr(token),
            check_every=3600,
            client_options={"guild_ready_timeout": 0.01},
        )
        self.running.append(asyncio.create_task(run_adapter(bot, self.stop, backoff=backoff)))
        return self.running[-1]

    @property
    def closed(self) -> list[bool]:
        return [client.is_closed() for client in self.clients]


@pytest.fixture
async def launcher(
    fake_discord: FakeDiscord, services: Services, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Launcher]:
    made: list[MarinClient] = []

    class Recorded(MarinClient):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(runner, "MarinClient", Recorded)
    launched = Launcher(services, made)
    yield launched
    launched.stop.set()
    await asyncio.gather(*launched.running, return_exceptions=True)


def logins(fake: FakeDiscord) -> list[Any]:
    return fake.made("GET", "/users/@me")


async def test_discord_failing_at_start_up_is_waited_out_on_fresh_clients(
    launcher: Launcher, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.fail("GET", "/users/@me", 503, times=2)

    launcher.start(FAST)
    await asyncio.wait_for(fake_discord.identified.wait(), 10)
    answer = await DiscordChat(fake_discord, launcher.clients[-1]).mention("has it started?")

    assert "[confirmed]" in answer.embeds[0]["description"]
    assert len(logins(fake_discord)) == 3
    assert launcher.closed == [True, True, False]  # no HTTP session left open
    said = retries(caplog)
    assert len(said) == 2 and "503 Service Unavailable" in said[0]
    waits = [float(re.findall(r"trying again in ([\d.]+) s", m)[0]) for m in said]
    assert waits == [0.01, 0.02]


async def test_an_unreachable_discord_is_waited_out_and_no_session_is_left_open(
    launcher: Launcher,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on: connection refused
        probe.bind(("127.0.0.1", 0))
        nowhere = probe.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{nowhere}/api/v10")

    launcher.start(FAST)
    await until(lambda: len(retries(caplog)) >= 2)
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)  # the network is back
    await asyncio.wait_for(fake_discord.identified.wait(), 10)

    assert "Cannot connect to host" in retries(caplog)[0]
    assert all(launcher.closed[:-1]) and not launcher.closed[-1]


async def test_a_gateway_that_refuses_the_first_connection_is_retried(
    launcher: Launcher,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(discord.backoff.ExponentialBackoff, "delay", lambda self: 0.0)
    fake_discord.gateway_refusals = 1  # REST answers, the gateway does not (yet)

    launcher.start(FAST)
    await asyncio.wait_for(fake_discord.identified.wait(), 10)

    assert len(logins(fake_discord)) == 2
    assert launcher.closed == [True, False]
    assert "503" in retries(caplog)[0]


async def test_asked_to_stop_while_waiting_to_try_again_it_stops_at_once(
    launcher: Launcher, fake_discord: FakeDiscord
) -> None:
    fake_discord.fail("GET", "/users/@me", 503, times=100)
    running = launcher.start(PATIENT)
    await until(lambda: logins(fake_discord))

    launcher.stop.set()
    async with asyncio.timeout(2):  # not the minute it meant to wait
        await running
    assert all(launcher.closed)


async def test_a_token_discord_rejects_fails_at_once_without_retrying(
    launcher: Launcher, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.fail("GET", "/users/@me", 401)

    with pytest.raises(ConfigError, match="Discord rejected the bot token"):
        async with asyncio.timeout(5):
            await launcher.start(FAST, token="revoked-token")
    assert len(logins(fake_discord)) == 1 and retries(caplog) == []
    assert launcher.closed == [True]
