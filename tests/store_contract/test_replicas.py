"""Two `marin-watch serve` replicas on one PostgreSQL, against one fake Telegram Bot API:
every subscriber gets exactly one daily digest, whichever replica sends it."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import sys
from collections import Counter
from pathlib import Path

from bot.store.contract import DeliveryState, Destination, Subscription
from bot.store.postgres import PostgresStore
from tests.pg_server import PgServer
from tests.telegram.tg_fake import FakeBotAPI
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:REPLICA-TEST-TOKEN"
CHATS = 40


async def test_two_replicas_deliver_exactly_one_digest_per_subscription(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.create_database()
    now = dt.datetime.now(dt.UTC)
    store = PostgresStore(url)
    for chat in range(CHATS):
        # due now: 00:00 UTC came before now, and the subscription is older than that
        store.subscribe(
            Subscription(
                Destination("telegram", str(5000 + chat)),
                "en",
                dt.time(0, 0),
                "UTC",
                post_on_quiet_days=True,
                created_at=now - dt.timedelta(days=2),
            )
        )
    api = FakeBotAPI()
    api.token = TOKEN
    processes = []
    async with api.serve() as base_url:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("MARIN_WATCH_", "TELEGRAM_", "DISCORD_"))
        }
        env |= {
            "MARIN_WATCH_TELEGRAM_TOKEN": TOKEN,
            "MARIN_WATCH_TELEGRAM_BASE_URL": base_url,
            "MARIN_WATCH_DATABASE_URL": url,
            "MARIN_WATCH_DIGEST_CHECK_SECONDS": "5",
            "PYTHONPATH": str(ROOT),
            "HTTPS_PROXY": "http://127.0.0.1:9",  # the watchers stay off the internet
            "HTTP_PROXY": "http://127.0.0.1:9",
            "NO_PROXY": "127.0.0.1",
        }
        try:
            for replica in ("a", "b"):
                env["MARIN_WATCH_DB_PATH"] = str(tmp_path / f"{replica}.sqlite3")
                processes.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        "bot.cli",
                        "serve",
                        env=dict(env),
                        stdout=asyncio.subprocess.DEVNULL,
                        stderr=asyncio.subprocess.PIPE,
                    )
                )

            def delivered() -> bool:
                sent = [
                    d
                    for chat in range(CHATS)
                    for d in store.deliveries(Destination("telegram", str(5000 + chat)))
                    if d.state is DeliveryState.SENT
                ]
                return len(sent) >= CHATS

            await until(delivered, timeout=90)
            await asyncio.sleep(6)  # one more check of each replica: nothing more is sent
        finally:
            for process in processes:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            errors = [await asyncio.wait_for(p.communicate(), 60) for p in processes]
    try:
        per_chat = Counter(
            d.destination.id
            for chat in range(CHATS)
            for d in store.deliveries(Destination("telegram", str(5000 + chat)))
            if d.kind == "daily" and d.state is DeliveryState.SENT
        )
        assert set(per_chat.values()) == {1}, (per_chat, errors)
        assert len(per_chat) == CHATS
        # on the platform: each chat got the digest's first message once
        firsts = Counter(
            c.chat_id
            for c in api.calls
            if c.method == "sendMessage" and c.text.startswith("<b>Evidence digest")
        )
        assert len(firsts) == CHATS and set(firsts.values()) == {1}, firsts
    finally:
        store.close()
        pg_server.drop_database(url)
