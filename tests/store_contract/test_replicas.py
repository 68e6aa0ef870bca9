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


def subscribe_due(store: PostgresStore, chats: int, now: dt.datetime) -> None:
    for chat in range(chats):
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


def replica_env(base_url: str, url: str, db: Path, lease: int = 45) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MARIN_WATCH_", "TELEGRAM_", "DISCORD_"))
    }
    return env | {
        "MARIN_WATCH_TELEGRAM_TOKEN": TOKEN,
        "MARIN_WATCH_TELEGRAM_BASE_URL": base_url,
        "MARIN_WATCH_DATABASE_URL": url,
        "MARIN_WATCH_DB_PATH": str(db),
        "MARIN_WATCH_DIGEST_CHECK_SECONDS": "5",
        "MARIN_WATCH_DELIVERY_LEASE_SECONDS": str(lease),
        "PYTHONPATH": str(ROOT),
        "HTTPS_PROXY": "http://127.0.0.1:9",  # the watchers stay off the internet
        "HTTP_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1",
    }


async def start_replica(env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "serve",
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


def sent_per_chat(store: PostgresStore, chats: int) -> Counter[str]:
    return Counter(
        d.destination.id
        for chat in range(chats)
        for d in store.deliveries(Destination("telegram", str(5000 + chat)))
        if d.kind == "daily" and d.state is DeliveryState.SENT
    )


async def test_two_replicas_deliver_exactly_one_digest_per_subscription(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.create_database()
    store = PostgresStore(url)
    subscribe_due(store, CHATS, dt.datetime.now(dt.UTC))
    api = FakeBotAPI()
    api.token = TOKEN
    processes = []
    async with api.serve() as base_url:
        try:
            for replica in ("a", "b"):
                env = replica_env(base_url, url, tmp_path / f"{replica}.sqlite3")
                processes.append(await start_replica(env))

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


async def test_a_replica_killed_mid_broadcast_leaves_the_other_to_finish(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """kill -9 of one replica while it sends: the other takes its digests in flight over
    once its (here 6 s) lease lapses; every chat gets the digest, and only the sends that
    were in flight can arrive twice (at most 8, the send concurrency)."""
    url = pg_server.create_database()
    chats = 30
    store = PostgresStore(url)
    subscribe_due(store, chats, dt.datetime.now(dt.UTC))
    api = FakeBotAPI()
    api.token = TOKEN
    api.delay = 0.4  # a slow platform: a broadcast takes a while
    async with api.serve() as base_url:
        replicas = [
            await start_replica(replica_env(base_url, url, tmp_path / f"{r}.sqlite3", lease=6))
            for r in ("a", "b")
        ]
        try:
            # both are broadcasting: some sent, some in flight
            await until(lambda: len(sent_per_chat(store, chats)) >= 3, timeout=60)
            in_flight = [
                d
                for chat in range(chats)
                for d in store.deliveries(Destination("telegram", str(5000 + chat)))
                if d.state is DeliveryState.PENDING and d.owner
            ]
            # kill -9 the replica with digests in flight (an owner id is host:pid:random)
            pids = Counter(int(d.owner.split(":")[1]) for d in in_flight if d.owner)
            victim = next(
                (p for p in replicas if pids and p.pid == pids.most_common(1)[0][0]), replicas[0]
            )
            victim.send_signal(signal.SIGKILL)
            await victim.wait()
            # what it had in flight when it died (read now: the other replica takes none of it
            # over before its lease lapses, 6 s on)
            in_flight = [
                d
                for chat in range(chats)
                for d in store.deliveries(Destination("telegram", str(5000 + chat)))
                if d.state is DeliveryState.PENDING and d.owner and f":{victim.pid}:" in d.owner
            ]
            await until(lambda: len(sent_per_chat(store, chats)) == chats, timeout=120)
        finally:
            for process in replicas:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
                    await asyncio.wait_for(process.communicate(), 60)
    try:
        per_chat = sent_per_chat(store, chats)
        assert len(per_chat) == chats and set(per_chat.values()) == {1}
        firsts = Counter(
            c.chat_id
            for c in api.calls
            if c.method == "sendMessage" and c.text.startswith("<b>Evidence digest")
        )
        assert len(firsts) == chats  # every chat got it
        twice = [chat for chat, n in firsts.items() if n > 1]
        print(f"kill -9 mid-broadcast: {len(in_flight)} in flight, {len(twice)} sent twice")
        assert len(twice) <= len(in_flight) <= 8, (twice, len(in_flight))
    finally:
        store.close()
        pg_server.drop_database(url)
