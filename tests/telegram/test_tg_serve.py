"""``marin-watch serve``: configured from the environment, talking to a Bot API on loopback,
stopping cleanly on SIGTERM with the send in flight finished and recorded."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest

from bot.commands import serve as serve_command
from bot.config import Settings
from bot.context import AppContext
from bot.serve import ADAPTERS, AdapterSpec, serve, serve_async
from bot.store.contract import DeliveryState, Destination, Subscription
from knowledge.clock import fixed_clock
from tests.conftest import TODAY
from tests.telegram.tg_fake import ALICE, TOKEN, FakeBotAPI
from tests.telegram.tg_updates import message

TELEGRAM = [spec for spec in ADAPTERS if spec.name == "telegram"]


@pytest.fixture
async def loopback(api: FakeBotAPI) -> AsyncIterator[str]:
    async with api.serve() as base_url:
        yield base_url


@pytest.fixture
def context(
    monkeypatch: pytest.MonkeyPatch, no_tokens: None, loopback: str, db_path: Path
) -> Iterator[AppContext]:
    """The context ``marin-watch serve`` builds, from the same environment variables."""
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_BASE_URL", loopback)
    monkeypatch.setenv("MARIN_WATCH_DB_PATH", str(db_path))
    ctx = AppContext(Settings(), clock=fixed_clock(TODAY))
    yield ctx
    ctx.close()


async def until(condition: Callable[[], object], timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_without_a_token_serve_names_the_variables_to_set_and_fails(
    no_tokens: None, db_path: Path
) -> None:
    ctx = AppContext(Settings(db_path=db_path))
    err = io.StringIO()
    assert serve(ctx, err=err) == 2
    for name in (
        "MARIN_WATCH_TELEGRAM_TOKEN",
        "TELEGRAM_BOT_TOKEN",
        "MARIN_WATCH_DISCORD_TOKEN",
        "DISCORD_BOT_TOKEN",
    ):
        assert name in err.getvalue()


def test_serve_is_a_cli_command(
    no_tokens: None, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    serve_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["serve"])
    assert args.handler(args, AppContext(Settings(db_path=db_path))) == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().err


async def test_serve_answers_over_loopback_polling_and_stops_when_asked(
    context: AppContext, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    stop = asyncio.Event()
    serving = asyncio.create_task(serve_async(context, TELEGRAM, stop))

    api.push_update(message("has it started?"))
    await until(lambda: api.sent(ALICE["id"]))
    assert "has started training" in api.sent(ALICE["id"])[0]

    stop.set()
    assert await serving == 0
    menus = api.of("setMyCommands")
    assert [c.params.get("language_code") for c in menus] == [None, "zh"]
    assert api.of("getUpdates")
    assert TOKEN not in caplog.text  # not in PTB's, httpx's or our own logs


async def test_with_a_webhook_url_serve_takes_updates_from_telegram_with_the_secret(
    context: AppContext, api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    with socket.socket() as probe:  # a free loopback port for the webhook server
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    hook = f"http://127.0.0.1:{port}/telegram-hook"
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_WEBHOOK_URL", hook)
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1")
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_WEBHOOK_PORT", str(port))
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_WEBHOOK_SECRET", "s3cret-hook")
    ctx = AppContext(Settings(), clock=fixed_clock(TODAY))
    stop = asyncio.Event()
    serving = asyncio.create_task(serve_async(ctx, TELEGRAM, stop))
    try:
        await until(lambda: api.of("setWebhook"))
        [registered] = api.of("setWebhook")
        assert registered.params["url"] == hook
        assert registered.params["secret_token"] == "s3cret-hook"
        assert not api.of("getUpdates")  # no polling

        update = message("has it started?")
        async with httpx.AsyncClient() as client:
            forged = None
            async with asyncio.timeout(5):  # Telegram is told the URL as the server starts
                while forged is None:
                    try:
                        forged = await client.post(hook, json=update)
                    except httpx.ConnectError:
                        await asyncio.sleep(0.02)
            assert forged.status_code == 403
            genuine = await client.post(
                hook, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret-hook"}
            )
            assert genuine.status_code == 200
        await until(lambda: api.sent(ALICE["id"]))
        assert len(api.sent(ALICE["id"])) == 1  # the forged copy was never processed
    finally:
        stop.set()
        assert await serving == 0
        ctx.close()


async def test_sigterm_finishes_the_digest_in_flight_and_records_it(
    context: AppContext, api: FakeBotAPI
) -> None:
    destination = Destination("telegram", str(ALICE["id"]))
    context.store.subscribe(
        Subscription(
            destination,
            language="en",
            digest_time=dt.time(0, 0),
            timezone="UTC",
            post_on_quiet_days=True,
            created_at=TODAY - dt.timedelta(days=3),
        )
    )
    api.delay = 0.2  # a slow Telegram: SIGTERM arrives while the digest is on its way
    sending = asyncio.Event()
    api.on_call = lambda call: sending.set() if call.method == "sendMessage" else None

    serving = asyncio.create_task(serve_async(context, TELEGRAM, asyncio.Event()))
    await asyncio.wait_for(sending.wait(), timeout=10)  # the job's first run starts after 1 s
    os.kill(os.getpid(), signal.SIGTERM)

    assert await serving == 0
    [delivery] = context.store.deliveries(destination)
    assert delivery.state is DeliveryState.SENT
    assert api.sent(ALICE["id"])[-1].rstrip().endswith("</i>")  # the whole digest, caveat last


async def test_a_token_telegram_rejects_stops_serve_with_a_clear_message(
    context: AppContext, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    api.token = "654321:another-bot"
    assert await serve_async(context, TELEGRAM, asyncio.Event()) == 1
    assert "Telegram rejected the bot token (MARIN_WATCH_TELEGRAM_TOKEN" in caplog.text
    assert TOKEN not in caplog.text


async def test_serve_runs_every_registered_adapter_and_stops_them_together(
    context: AppContext, api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    other = AdapterSpec("other", ("OTHER_TOKEN",), lambda s: True, f"{__name__}:other_adapter")
    stop = asyncio.Event()
    serving = asyncio.create_task(serve_async(context, [*TELEGRAM, other], stop))
    await until(lambda: STARTED)
    stop.set()
    assert await serving == 0
    assert STOPPED == ["other"]
    assert "other adapter saw *** as its token" in caplog.text  # secrets redacted in any log
    assert TOKEN not in caplog.text


async def test_an_adapter_that_cannot_be_loaded_fails_serve(context: AppContext) -> None:
    broken = AdapterSpec("broken", ("X",), lambda s: True, "tests.telegram.nowhere:run")
    assert await serve_async(context, [broken], asyncio.Event()) == 1


STARTED: list[str] = []
STOPPED: list[str] = []


async def other_adapter(ctx: AppContext, stop: asyncio.Event) -> None:
    """A second platform, as the Discord adapter plugs in: serve until told to stop."""
    STARTED.append("other")
    logging.getLogger("other").info("other adapter saw %s as its token", TOKEN)
    await stop.wait()
    STOPPED.append("other")


async def test_a_malformed_channel_setting_is_named_and_stops_serve(
    context: AppContext, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_CHANNEL_ID", "@marin_digest")
    monkeypatch.setenv("MARIN_WATCH_TELEGRAM_CHANNEL_TIMEZONE", "Mars/Olympus_Mons")
    ctx = AppContext(Settings(), clock=fixed_clock(TODAY))
    assert await serve_async(ctx, TELEGRAM, asyncio.Event()) == 1
    assert "MARIN_WATCH_TELEGRAM_CHANNEL_TIMEZONE: unknown time zone 'Mars/Olympus_Mons'" in (
        caplog.text
    )


async def test_the_real_process_answers_stops_on_sigterm_and_never_logs_the_token(
    api: FakeBotAPI, loopback: str, db_path: Path
) -> None:
    others = ("TELEGRAM_BOT_TOKEN", "MARIN_WATCH_DISCORD_TOKEN", "DISCORD_BOT_TOKEN")
    env = {k: v for k, v in os.environ.items() if k not in others}
    env |= {
        "MARIN_WATCH_TELEGRAM_TOKEN": TOKEN,
        "MARIN_WATCH_TELEGRAM_BASE_URL": loopback,
        "MARIN_WATCH_DB_PATH": str(db_path),
        "MARIN_WATCH_LOG_LEVEL": "DEBUG",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        # serve also starts the source watchers: keep them off the internet in a test
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "serve",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        api.push_update(message("has it started?"))
        await until(lambda: api.sent(ALICE["id"]), timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), timeout=30)
    log = (out + err).decode()
    assert process.returncode == 0, log
    assert "has started training" in api.sent(ALICE["id"])[0]
    assert "Telegram: @marin_watch_bot is polling for updates" in log
    assert "/bot***" in log  # PTB logs the API URL at DEBUG: redacted
    assert TOKEN not in log and TOKEN.split(":")[1] not in log
