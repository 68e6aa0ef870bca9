"""Killed mid-broadcast: what was in flight is re-sent once the dead run's lease lapses.

Every run of the digest scheduler records its deliveries under an owner of its own and beats
while it sends (``bot.digest.delivery``); another run takes over pending deliveries only
from an owner that stopped beating.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from answers.render import Renderer
from answers.reply import Reply
from bot.digest.builder import DigestService
from bot.digest.delivery import CONCURRENCY, STALE_AFTER, run_due
from bot.digest.lease import LEASE
from bot.store.contract import DeliveryState, Destination
from bot.store.sqlite import SQLiteStore
from knowledge.clock import fixed_clock
from knowledge.loader import load
from tests.test_runner import SUBSCRIBED, Chats, Clock, at, small_kb, subscribe, tick

ALICE = Destination("telegram", "1001")
BOB = Destination("telegram", "1002")

KILLED_AT = dt.datetime(2026, 11, 30, 1, 30, tzinfo=dt.UTC)  # the Nov 30 digest is due
CHATS = 50
POSTED_BEFORE_THE_STALL = 20

# A scheduler whose platform stalls after POSTED_BEFORE_THE_STALL digests: from then on each
# send hangs, every other one after the platform took the message. Once every slot of the
# send concurrency hangs, the test kills it with SIGKILL: no finally, no recording.
STALLING_SCHEDULER = """
import asyncio, datetime as dt, sys
from answers.render import Renderer
from bot.digest.builder import DigestService
from bot.digest.delivery import run_due
from bot.store.sqlite import SQLiteStore
from knowledge.clock import fixed_clock
from knowledge.loader import load

db, log, healthy = sys.argv[1], sys.argv[2], int(sys.argv[3])
clock = fixed_clock(dt.datetime.fromisoformat(sys.argv[4]))
kb = load(today=clock().date())

def write(line):
    with open(log, "a") as f:  # one short append per line: atomic
        f.write(line + "\\n")

class Stalling:
    calls = 0

    async def send(self, destination, reply, *, skip=0):
        Stalling.calls += 1
        stalled = Stalling.calls > healthy
        if not (stalled and Stalling.calls % 2):
            write("posted " + destination.id)
        if stalled:
            write("hung " + destination.id)
            await asyncio.Event().wait()

with SQLiteStore(db, clock=clock) as store:
    digests = DigestService(kb, Renderer(kb, clock))
    asyncio.run(run_due(store, digests, Stalling(), platform="telegram", clock=clock))
"""


@pytest.fixture
def clock() -> Clock:
    return Clock(SUBSCRIBED)


@pytest.fixture
def digests(clock: Clock) -> DigestService:
    kb = small_kb()
    return DigestService(kb, Renderer(kb, clock))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "marin-watch.sqlite3"


def lines(log: Path, kind: str) -> list[str]:
    if not log.exists():
        return []
    return [line.split()[1] for line in log.read_text().splitlines() if line.startswith(kind)]


def kill_mid_broadcast(tmp_path: Path, db: Path) -> Path:
    """Run the stalling scheduler until all its sends hang, then SIGKILL it; its log."""
    script, log = tmp_path / "scheduler.py", tmp_path / "platform.log"
    script.write_text(STALLING_SCHEDULER)
    root = Path(__file__).resolve().parents[1]
    args = [str(db), str(log), str(POSTED_BEFORE_THE_STALL), KILLED_AT.isoformat()]
    proc = subprocess.Popen(
        [sys.executable, str(script), *args], env={**os.environ, "PYTHONPATH": str(root)}
    )
    try:
        deadline = time.monotonic() + 20
        while len(lines(log, "hung")) < CONCURRENCY:
            assert proc.poll() is None, "the scheduler ended before it stalled"
            assert time.monotonic() < deadline, "the scheduler never stalled"
            time.sleep(0.01)
        time.sleep(0.05)  # nothing more moves: every slot hangs
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    return log


async def test_a_bot_killed_mid_broadcast_resends_only_what_was_in_flight_a_minute_later(
    tmp_path: Path, db: Path
) -> None:
    everyone = [Destination("telegram", str(n)) for n in range(CHATS)]
    with SQLiteStore(db) as setup:
        for dest in everyone:
            subscribe(setup, dest, post_on_quiet_days=True)

    log = kill_mid_broadcast(tmp_path, db)

    posted_before = Counter(lines(log, "posted"))
    with SQLiteStore(db) as store:
        recorded = store.deliveries()
    in_flight = {d.destination for d in recorded if d.state is DeliveryState.PENDING}
    recorded_sent = {d.destination for d in recorded if d.state is DeliveryState.SENT}
    # Recorded pending only right before each send: the kill left the hung sends, not the
    # digests of the broadcast it had not reached yet.
    assert len(in_flight) == CONCURRENCY
    assert len(recorded_sent) == POSTED_BEFORE_THE_STALL
    assert len(recorded) == POSTED_BEFORE_THE_STALL + CONCURRENCY

    # Restarted, and its first check comes a minute after the kill: the dead run's lease has
    # lapsed (it beat last at KILLED_AT), so its pending deliveries are re-sent now.
    restarted_at = KILLED_AT + dt.timedelta(minutes=1)
    kb = load(today=KILLED_AT.date())
    clock = fixed_clock(restarted_at)
    chats = Chats()
    with SQLiteStore(db, clock=clock) as store:
        digests = DigestService(kb, Renderer(kb, clock))
        report = await run_due(store, digests, chats, platform="telegram", clock=clock)
        again = await run_due(store, digests, chats, platform="telegram", clock=clock)

        assert set(report.resent) == in_flight
        assert len(report.sent) == CHATS - POSTED_BEFORE_THE_STALL - CONCURRENCY
        assert again.sent == again.resent == []
        assert [d.state for d in store.deliveries()] == [DeliveryState.SENT] * CHATS
        assert store.pending() == []

    posts = posted_before + Counter(d.id for d, replies in chats.received.items() for _ in replies)
    twice = {dest_id for dest_id, n in posts.items() if n == 2}
    assert set(posts) == {d.id for d in everyone}  # every chat got its digest
    assert max(posts.values()) == 2
    assert twice <= {d.id for d in in_flight}  # only sends in flight at the kill, of which
    assert len(twice) == CONCURRENCY // 2  # half had reached the platform before it hung
    assert not twice & {d.id for d in recorded_sent}


async def test_a_live_schedulers_pending_delivery_is_left_to_it_however_long_it_takes(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    chats = Chats()
    with SQLiteStore(db, clock=clock) as replica, SQLiteStore(db, clock=clock) as me:
        subscribe(me, ALICE)
        subscribe(me, BOB)
        # Another replica claimed Alice's digest and is still sending it (flood control).
        replica.beat("replica-b", now=at(2))
        replica.begin_delivery(ALICE, at(1, 3), at(2), "h", now=at(2), owner="replica-b")

        soon = await tick(me, digests, chats, clock, at(2) + dt.timedelta(seconds=20))
        assert soon.sent == [BOB] and soon.resent == []

        # Long past STALE_AFTER, but the replica still beats: its send is still its own.
        still_sending = at(2) + STALE_AFTER + dt.timedelta(minutes=5)
        replica.beat("replica-b", now=still_sending)
        late = await tick(me, digests, chats, clock, still_sending + dt.timedelta(seconds=10))
        assert late.resent == [] and ALICE not in chats.received
        (pending,) = me.pending()
        assert pending.owner == "replica-b"

        # The replica died: a lease later, its send is taken over and finished here.
        gone = await tick(me, digests, chats, clock, still_sending + LEASE * 2)
        assert gone.resent == [ALICE]
        assert me.pending() == [] and len(chats.titles(ALICE)) == 1


async def test_a_long_broadcast_keeps_its_lease_alive(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    lease = dt.timedelta(seconds=0.06)  # beats every 0.02 s of real time

    class SlowChat(Chats):
        def __init__(self) -> None:
            super().__init__()
            self.released = asyncio.Event()

        async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
            await self.released.wait()
            await super().send(destination, reply, skip=skip)

    slow = SlowChat()
    with SQLiteStore(db, clock=clock) as first, SQLiteStore(db, clock=clock) as second:
        subscribe(first, ALICE)
        clock.now = at(2)
        broadcast = asyncio.create_task(
            run_due(first, digests, slow, platform="telegram", clock=clock, lease=lease)
        )
        for _ in range(3):  # many leases go by while Alice's one send waits
            clock.now += lease * 10
            await asyncio.sleep(0.1)  # the first run beats meanwhile, at the new time
        elsewhere = Chats()
        other = await run_due(
            second, digests, elsewhere, platform="telegram", clock=clock, lease=lease
        )
        slow.released.set()
        report = await broadcast

    assert other.resent == [] and elsewhere.received == {}
    assert report.sent == [ALICE] and len(slow.titles(ALICE)) == 1


async def test_a_cancelled_run_lets_its_lease_lapse_rather_than_release_it(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    class Hanging(Chats):
        async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
            await asyncio.Event().wait()

    with SQLiteStore(db, clock=clock) as store:
        subscribe(store, ALICE)
        clock.now = at(2)
        run = asyncio.create_task(
            run_due(store, digests, Hanging(), platform="telegram", clock=clock)
        )
        while not store.pending() and not run.done():  # until Alice's send hangs
            await asyncio.sleep(0)
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)

        # The cancelled send may still be finishing somewhere: not taken over at once …
        chats = Chats()
        assert (await tick(store, digests, chats, clock, at(2))).resent == []
        # … but once the lease lapses.
        assert (await tick(store, digests, chats, clock, at(2) + LEASE * 2)).resent == [ALICE]
        assert len(chats.titles(ALICE)) == 1


async def test_a_delivery_recorded_before_owners_existed_is_reclaimed_after_ten_minutes(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    chats = Chats()
    with SQLiteStore(db, clock=clock) as store:
        subscribe(store, ALICE)
        # e.g. an older release, still running while this one upgraded the file
        store.begin_delivery(ALICE, at(1, 3), at(2), "h", now=at(2))

        assert (await tick(store, digests, chats, clock, at(2, 1, 5))).resent == []
        later = await tick(store, digests, chats, clock, at(2) + STALE_AFTER * 1.5)
        assert later.resent == [ALICE]
