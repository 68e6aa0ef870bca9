"""Delivering daily digests: once, on time, after crashes and downtime, whatever a chat does."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from answers.render import Renderer
from answers.reply import Reply
from bot.digest.builder import DigestService
from bot.digest.delivery import deliver_now, run_due
from bot.digest.run import RunReport
from bot.digest.sending import Sender, send_each
from bot.store.contract import DeliveryState, Destination, Subscription
from bot.store.sqlite import SQLiteStore
from knowledge.errors import DeliveryRetryable, DestinationGone, DestinationMoved
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Claim, EvidenceLink, Source, Text

UTC = dt.UTC
ALICE = Destination("telegram", "1001")
BOB = Destination("telegram", "1002")
GROUP = Destination("telegram", "-42")
SUBSCRIBED = dt.datetime(2026, 9, 1, 3, tzinfo=UTC)  # 11:00 in Shanghai
MINUTE = dt.timedelta(minutes=1)


def at(day: int, hour: int = 1, minute: int = 0, month: int = 9) -> dt.datetime:
    """09:00 in Shanghai is 01:00 UTC: ``at(2)`` is the Sep 2 digest's slot."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=UTC)


def small_kb() -> KnowledgeBase:
    """Evidence recorded on Sep 1 (a post), Sep 3 (the status log) and Sep 8 (a repo file)."""
    sources = {
        "post": Source(
            id="post",
            title="Launch post",
            kind="social-post",
            publisher="Percy",
            published=dt.date(2026, 8, 21),
        ),
        "log": Source(
            id="log",
            title="Status log #8506",
            kind="status-log",
            publisher="Marin",
            published=dt.date(2026, 9, 2),
        ),
        "repo": Source(
            id="repo",
            title="current_run.py",
            kind="repository",
            publisher="Marin",
            published=dt.date(2026, 9, 7),
        ),
    }
    claims = {
        "started": Claim(
            id="started",
            topic="status",
            kind="status",
            statement=Text(en="Training has started.", zh="训练已经开始。"),
            added=dt.date(2026, 9, 1),
        ),
    }

    def link(source: str, day: int) -> EvidenceLink:
        return EvidenceLink(
            claim="started",
            source=source,
            stance="supports",
            strength="direct",
            quote="…",
            recorded=dt.date(2026, 9, day),
        )

    return KnowledgeBase(
        sources=sources,
        claims=claims,
        links=[link("post", 1), link("log", 3), link("repo", 8)],
        watch_points=[],
    )


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


class Chats:
    """A fake platform: what each chat received, and chats told to fail."""

    def __init__(self) -> None:
        self.received: dict[Destination, list[Reply]] = {}
        self.failing: dict[Destination, BaseException] = {}
        self.lock = threading.Lock()

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        await asyncio.sleep(0)  # let other sends interleave, as real I/O would
        error = self.failing.get(destination)
        if error is not None and not isinstance(error, Crash):
            raise error
        with self.lock:
            self.received.setdefault(destination, []).append(reply)
        if error is not None:
            raise error  # the message went out, then the process died

    def titles(self, destination: Destination) -> list[str]:
        return [r.title for r in self.received.get(destination, [])]


class Paged:
    """A fake platform that posts each paragraph of a reply as its own message, and whose
    network can go down after a given number of messages (retries exhausted)."""

    def __init__(self) -> None:
        self.posted: list[str] = []
        self.down_after: int | None = None  # messages that still go through before the outage

    @staticmethod
    def pages(reply: Reply) -> list[str]:
        return reply.text.split("\n\n")

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        async def post(page: str) -> None:
            if self.down_after is not None:
                if self.down_after == 0:
                    raise DeliveryRetryable("502 Bad Gateway")
                self.down_after -= 1
            self.posted.append(page)

        await send_each(self.pages(reply), post, skip=skip)


class Crash(BaseException):
    """The process dies (SIGKILL, power cut): nothing after this line runs."""


def subscribe(store: SQLiteStore, dest: Destination, **more: Any) -> None:
    """Subscribe at 09:00 Shanghai, English, posting only on change, unless told otherwise."""
    base = Subscription(dest, "en", dt.time(9), "Asia/Shanghai", created_at=SUBSCRIBED)
    store.subscribe(replace(base, **more))


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


@pytest.fixture
def store(db: Path, clock: Clock) -> Iterator[SQLiteStore]:
    with SQLiteStore(db, clock=clock) as s:
        yield s


async def tick(
    store: SQLiteStore, digests: DigestService, chats: Sender, clock: Clock, now: dt.datetime
) -> RunReport:
    """The adapter's scheduler wakes up at ``now`` and runs the digest protocol."""
    clock.now = now
    return await run_due(store, digests, chats, platform="telegram", clock=clock)


async def test_a_subscriber_gets_one_digest_each_morning(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE, post_on_quiet_days=True)
    chats = Chats()

    await tick(store, digests, chats, clock, at(2, 0, 59))
    assert chats.titles(ALICE) == []  # 08:59 in Shanghai

    report = await tick(store, digests, chats, clock, at(2))
    assert report.sent == [ALICE]
    for minute in (1, 30, 600):
        await tick(store, digests, chats, clock, at(2) + dt.timedelta(minutes=minute))
    await tick(store, digests, chats, clock, at(3))

    assert chats.titles(ALICE) == [
        "Evidence digest, on 2026-09-01",
        "Evidence digest, on 2026-09-02",
    ]
    assert "Training has started" in chats.received[ALICE][0].text
    assert "No change to the evidence on 2026-09-02" in chats.received[ALICE][1].text
    sent = store.deliveries(ALICE)
    assert [d.state for d in sent] == [DeliveryState.SENT] * 2
    assert sent[1].window_start == sent[0].window_end == at(2)


async def test_quiet_days_are_skipped_unless_asked_for(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)  # posts only when something changed (the default)
    chats = Chats()

    for day in (2, 3, 4):
        await tick(store, digests, chats, clock, at(day))

    # Sep 2 reports Sep 1 (the post), Sep 3 reports a quiet Sep 2, Sep 4 reports Sep 3 (the log).
    assert chats.titles(ALICE) == [
        "Evidence digest, on 2026-09-01",
        "Evidence digest, on 2026-09-03",
    ]
    assert [d.state for d in store.deliveries(ALICE)] == [
        DeliveryState.SENT,
        DeliveryState.SKIPPED,
        DeliveryState.SENT,
    ]
    assert "single source → confirmed" in chats.received[ALICE][1].text


async def test_after_a_week_down_one_digest_covers_it_all(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    subscribe(store, BOB, language="zh")
    chats = Chats()
    await tick(store, digests, chats, clock, at(2))

    report = await tick(store, digests, chats, clock, at(9, 15, 30))  # back a week later

    assert sorted(report.sent, key=str) == [ALICE, BOB]
    assert chats.titles(ALICE)[-1] == "Evidence digest, 2026-09-02 – 2026-09-08"
    assert chats.titles(BOB)[-1] == "证据变化摘要：2026年9月2日至2026年9月8日"
    text = chats.received[ALICE][-1].text
    assert "2026-09-08: new direct evidence: current_run.py" in text
    assert "2026-09-03: single source → confirmed" in text
    assert await tick(store, digests, chats, clock, at(9, 16)) == RunReport()
    assert [len(v) for v in chats.received.values()] == [2, 2]


async def test_a_crash_between_sending_and_recording_is_resolved_once(
    db: Path, digests: DigestService, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    chats = Chats()
    with SQLiteStore(db, clock=clock) as store:
        subscribe(store, ALICE)
        chats.failing[ALICE] = Crash()
        with pytest.raises(Crash):
            await tick(store, digests, chats, clock, at(2))
    assert len(chats.titles(ALICE)) == 1  # it did go out

    del chats.failing[ALICE]
    with SQLiteStore(db, clock=clock) as restarted:
        assert [d.destination for d in restarted.pending()] == [ALICE]
        subscribe(restarted, BOB)
        # Restarted at once: the crashed run's lease has not lapsed; it may be a live send.
        restarted_at = at(2) + dt.timedelta(seconds=30)
        soon = await tick(restarted, digests, chats, clock, restarted_at)
        assert soon.resent == [] and len(chats.titles(ALICE)) == 1
        assert soon.sent == [BOB]  # the others are not held up by it

        # At the next check a minute on, the lease has lapsed: resent now, not in ten minutes.
        with caplog.at_level(logging.WARNING, logger="bot.digest.delivery"):
            later = await tick(restarted, digests, chats, clock, restarted_at + MINUTE)

        assert later.resent == [ALICE]
        assert "resending digest" in caplog.text and "telegram:1001" in caplog.text
        assert restarted.pending() == []
        assert restarted.last_sent(ALICE) is not None
        for when in (at(2, 2), at(2, 23)):
            await tick(restarted, digests, chats, clock, when)
    assert len(chats.titles(ALICE)) == 2  # sent once more, as promised, and never again
    assert len(chats.titles(BOB)) == 1


async def test_a_blocked_bot_unsubscribes_and_the_others_still_get_theirs(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    for dest in (ALICE, BOB, GROUP):
        subscribe(store, dest)
    chats = Chats()
    chats.failing[ALICE] = DestinationGone("Forbidden: bot was blocked by the user")
    chats.failing[GROUP] = ValueError("a bug in the adapter")

    report = await tick(store, digests, chats, clock, at(2))

    assert report.sent == [BOB]
    assert report.unsubscribed == [(ALICE, "Forbidden: bot was blocked by the user")]
    alice = store.subscription(ALICE)
    assert alice is not None and not alice.active
    assert alice.inactive_reason == "Forbidden: bot was blocked by the user"
    assert {d for d, _ in report.failed} == {ALICE, GROUP}
    assert store.deliveries(GROUP)[0].error == "ValueError: a bug in the adapter"


async def test_a_group_that_became_a_supergroup_keeps_its_digest(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, GROUP)
    supergroup = Destination("telegram", "-100042")
    chats = Chats()
    chats.failing[GROUP] = DestinationMoved("group upgraded", new_id="-100042")

    report = await tick(store, digests, chats, clock, at(2))

    assert report.moved == [(GROUP, supergroup)] and report.sent == [GROUP]
    assert len(chats.titles(supergroup)) == 1
    assert store.subscription(GROUP) is None and store.subscription(supergroup) is not None
    assert store.last_sent(supergroup) is not None
    await tick(store, digests, chats, clock, at(2, 5))
    assert len(chats.titles(supergroup)) == 1


async def test_a_temporary_failure_is_retried_and_nothing_is_skipped(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    chats = Chats()
    chats.failing[ALICE] = DeliveryRetryable("502 Bad Gateway")

    report = await tick(store, digests, chats, clock, at(2))
    assert report.failed == [(ALICE, "DeliveryRetryable: 502 Bad Gateway")]
    await tick(store, digests, chats, clock, at(2, 1, 3))  # backing off
    assert len(store.deliveries(ALICE)) == 1

    del chats.failing[ALICE]
    await tick(store, digests, chats, clock, at(2, 1, 5))
    assert chats.titles(ALICE) == ["Evidence digest, on 2026-09-01"]
    assert [d.state for d in store.deliveries(ALICE)] == [DeliveryState.FAILED, DeliveryState.SENT]


async def test_a_digest_cut_off_part_way_resumes_at_the_first_unsent_message(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    chat = Paged()
    chat.down_after = 2  # the third message meets an outage the sender's retries cannot outlast

    report = await tick(store, digests, chat, clock, at(2))

    assert chat.posted[0] == "Evidence digest, on 2026-09-01" and len(chat.posted) == 2
    ((where, error),) = report.failed
    assert where == ALICE
    assert error == "PartlyDelivered: 2 of 4 messages sent; then DeliveryRetryable: 502 Bad Gateway"

    chat.down_after = None  # the network is back; the schedule retries after its backoff
    report = await tick(store, digests, chat, clock, at(2, 1, 10))

    assert report.sent == report.resumed == [ALICE]
    assert len(chat.posted) == 4 and chat.posted[-1].startswith("⚠ Single source")
    assert len(set(chat.posted)) == 4  # each message once: the first two were not sent again
    assert [d.state for d in store.deliveries(ALICE)] == [DeliveryState.FAILED, DeliveryState.SENT]


async def test_a_resumed_digest_that_fails_again_still_knows_how_far_it_got(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    chat = Paged()
    chat.down_after = 1
    await tick(store, digests, chat, clock, at(2))

    chat.down_after = 0  # still down when the retry comes: nothing more goes out
    report = await tick(store, digests, chat, clock, at(2, 1, 10))
    assert report.failed[0][1].startswith("PartlyDelivered: 1 of 4 messages sent")

    chat.down_after = None
    report = await tick(store, digests, chat, clock, at(2, 2))
    assert report.resumed == [ALICE]
    assert len(chat.posted) == len(set(chat.posted)) == 4


async def test_a_digest_that_grew_while_failing_is_sent_whole(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    chat = Paged()
    chat.down_after = 2
    await tick(store, digests, chat, clock, at(2))
    chat.down_after = None
    chat.posted.clear()

    # Back two days later: the digest now covers Sep 1-3, not the text that was cut off.
    report = await tick(store, digests, chat, clock, at(4))

    assert report.sent == [ALICE] and report.resumed == []
    assert chat.posted[0] == "Evidence digest, 2026-09-01 – 2026-09-03"
    assert len(chat.posted) == 4


async def test_two_schedulers_on_one_file_post_each_digest_once(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    with SQLiteStore(db, clock=clock) as setup:
        for n in range(20):
            subscribe(setup, Destination("telegram", str(n)))
    chats = Chats()
    clock.now = at(2)

    with SQLiteStore(db, clock=clock) as a, SQLiteStore(db, clock=clock) as b:
        first, second = await asyncio.gather(
            run_due(a, digests, chats, platform="telegram", clock=clock),
            run_due(b, digests, chats, platform="telegram", clock=clock),
        )

    assert len(first.sent) + len(second.sent) == 20
    assert first.claimed_elsewhere or second.claimed_elsewhere  # they did race
    assert all(len(replies) == 1 for replies in chats.received.values())
    assert len(chats.received) == 20


def test_two_scheduler_threads_on_one_file_post_each_digest_once(
    db: Path, digests: DigestService, clock: Clock
) -> None:
    with SQLiteStore(db, clock=clock) as setup:
        for n in range(30):
            subscribe(setup, Destination("telegram", str(n)))
    chats = Chats()
    clock.now = at(2)
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def scheduler() -> None:
        start.wait()
        try:
            with SQLiteStore(db, clock=clock) as own:
                asyncio.run(run_due(own, digests, chats, platform="telegram", clock=clock))
        except BaseException as exc:  # shown by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    assert len(chats.received) == 30
    assert all(len(replies) == 1 for replies in chats.received.values())


async def test_each_platform_delivers_only_its_own(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    channel = Destination("discord", "9")
    subscribe(store, channel)
    chats = Chats()

    report = await tick(store, digests, chats, clock, at(2))

    assert report.sent == [ALICE] and channel not in chats.received
    assert store.deliveries(channel) == []


async def test_a_digest_on_request_is_recorded_apart_from_the_daily_one(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    subscribe(store, ALICE)
    chats = Chats()
    clock.now = at(1, 12)

    digest = await deliver_now(store, digests, chats, ALICE, lang="en", clock=clock)

    assert chats.titles(ALICE) == [digest.reply.title] == ["Latest evidence changes, on 2026-09-01"]
    (manual,) = store.deliveries(ALICE)
    assert (manual.kind, manual.state) == ("manual", DeliveryState.SENT)
    await tick(store, digests, chats, clock, at(2))  # the daily digest still comes
    assert len(chats.titles(ALICE)) == 2


async def test_a_failed_request_raises_for_the_adapter_to_answer(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    chats = Chats()
    chats.failing[BOB] = DeliveryRetryable("flood control", retry_after=3)
    clock.now = at(1, 12)
    with pytest.raises(DeliveryRetryable):
        await deliver_now(store, digests, chats, BOB, lang="en", clock=clock)
    assert store.deliveries(BOB)[0].state is DeliveryState.FAILED


async def test_a_manual_digest_left_pending_by_a_crash_is_not_replayed(
    store: SQLiteStore, digests: DigestService, clock: Clock
) -> None:
    chats = Chats()
    chats.failing[ALICE] = Crash()
    clock.now = at(1, 12)
    with pytest.raises(Crash):
        await deliver_now(store, digests, chats, ALICE, lang="en", clock=clock)
    del chats.failing[ALICE]

    await tick(store, digests, chats, clock, at(1, 13))

    (manual,) = store.deliveries(ALICE)
    assert manual.state is DeliveryState.FAILED and "not replayed" in (manual.error or "")
    assert len(chats.titles(ALICE)) == 1


SCHEDULER = """
import asyncio, datetime as dt, os, sys, time
from answers.render import Renderer
from knowledge.clock import fixed_clock
from bot.digest.delivery import run_due
from bot.digest.builder import DigestService
from bot.store.sqlite import SQLiteStore
from knowledge.loader import load

db, log, go = sys.argv[1:4]
clock = fixed_clock(dt.datetime(2026, 11, 30, 1, 30, tzinfo=dt.UTC))
kb = load(today=dt.date(2026, 11, 30))

class Log:
    async def send(self, destination, reply, *, skip=0):
        await asyncio.sleep(0.001)
        with open(log, "a") as f:  # one short append per message: atomic
            f.write(destination.id + "\\n")

while not os.path.exists(go):  # start both at once
    time.sleep(0.001)
with SQLiteStore(db, clock=clock) as store:
    digests = DigestService(kb, Renderer(kb, clock))
    asyncio.run(run_due(store, digests, Log(), platform="telegram", clock=clock))
"""


def test_two_scheduler_processes_on_one_file_post_each_digest_once(tmp_path: Path) -> None:
    db, log, go = tmp_path / "s.sqlite3", tmp_path / "sent.log", tmp_path / "go"
    with SQLiteStore(db) as setup:
        for n in range(40):
            subscribe(setup, Destination("telegram", str(n)), post_on_quiet_days=True)
    script = tmp_path / "scheduler.py"
    script.write_text(SCHEDULER)
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    procs = [
        subprocess.Popen([sys.executable, str(script), str(db), str(log), str(go)], env=env)
        for _ in range(2)
    ]
    time.sleep(0.5)
    go.touch()
    assert [p.wait(timeout=60) for p in procs] == [0, 0]

    sent = log.read_text().split()
    assert sorted(sent, key=int) == [str(n) for n in range(40)]  # each once, none missing
    with SQLiteStore(db) as store:
        assert {d.state for d in store.deliveries()} == {DeliveryState.SENT}
        assert len(store.deliveries()) == 40
