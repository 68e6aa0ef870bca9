"""The daily digest in a server's channel: posted by the shared schedule, failures handled."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from answers.reply import Outcome, Reply
from bot.adapters.discord.client import MarinClient, Services
from bot.adapters.discord.lifecycle import DiscordBot
from bot.adapters.discord.sender import DiscordSender
from bot.digest.run import RunReport
from bot.digest.sending import PartlyDelivered
from bot.store.contract import DeliveryState, Destination, Store, Subscription
from bot.store.sqlite import SQLiteStore
from knowledge.errors import DeliveryRetryable
from tests.discord.conftest import Clock, DiscordPyWaits
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import Call, FakeDiscord
from tests.discord.dc_server import ALICE, DIGEST, GUILD_ID

CHANNEL = Destination("discord", str(DIGEST))
OTHER_SERVER_CHANNEL = Destination("discord", "700000000000000777")
POSTS = rf"/channels/{DIGEST}/messages"


def delivered(fake: FakeDiscord, path: str = POSTS) -> list[Call]:
    """The posts Discord accepted (a failed attempt got an error back instead of a message)."""
    return [c for c in fake.made("POST", path) if "id" in (c.answer or {})]


@pytest.fixture
def sender(client: MarinClient) -> DiscordSender:
    return DiscordSender(client)


def subscribe(store: Store, destination: Destination = CHANNEL, scope: int = GUILD_ID) -> None:
    """A server that chose its digest channel at the start of the month."""
    store.subscribe(
        Subscription(
            destination=destination,
            language="en",
            digest_time=dt.time(9, 0),
            timezone="UTC",
            scope=str(scope),
            created_at=dt.datetime(2026, 10, 1, 9, 0, tzinfo=dt.UTC),
        )
    )


async def run_schedule(bot: DiscordBot) -> RunReport:
    """What the bot's schedule does at each check."""
    assert bot.client is not None
    return await bot.deliver_due(bot.client)


async def test_the_daily_digest_is_posted_once_and_recorded(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot, clock: Clock
) -> None:
    subscribe(services.store)

    report = await run_schedule(discord_bot)
    clock.now += dt.timedelta(hours=1)
    again = await run_schedule(discord_bot)

    assert report.sent == [CHANNEL] and again.sent == []
    posts = delivered(fake_discord)
    assert "Evidence digest" in posts[0].embeds[0]["title"]
    descriptions = [e["description"] for p in posts for e in p.embeds if e.get("description")]
    assert ">>> " in descriptions[-1]  # the caveat closes the digest
    numbers = [p.embeds[-1]["footer"]["text"].split(" ")[0] for p in posts]
    assert numbers == [f"{n}/{len(posts)}" for n in range(1, len(posts) + 1)]
    (delivery,) = services.store.deliveries(CHANNEL)
    assert delivery.state is DeliveryState.SENT and delivery.kind == "daily"


async def test_after_a_restart_a_sent_digest_is_not_posted_again(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot, tmp_path: Path
) -> None:
    subscribe(services.store)
    await run_schedule(discord_bot)
    posted = len(fake_discord.made("POST", POSTS))

    with SQLiteStore(tmp_path / "marin-watch.sqlite3", clock=services.clock) as reopened:
        restarted = DiscordBot(replace(services, store=reopened), discord_bot.token)
        assert discord_bot.client is not None
        report = await restarted.deliver_due(discord_bot.client)

    assert report.sent == [] and len(fake_discord.made("POST", POSTS)) == posted


async def test_a_quiet_day_is_recorded_but_not_posted(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot, clock: Clock
) -> None:
    subscribe(services.store)
    await run_schedule(discord_bot)
    posted = len(fake_discord.made("POST", POSTS))

    clock.now += dt.timedelta(days=1)  # nothing new was recorded meanwhile
    report = await run_schedule(discord_bot)

    assert report.skipped == [CHANNEL] and len(fake_discord.made("POST", POSTS)) == posted
    states = [d.state for d in services.store.deliveries(CHANNEL)]
    assert states == [DeliveryState.SENT, DeliveryState.SKIPPED]


async def test_no_permission_marks_the_setting_broken_and_the_next_person_is_told(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot, chat: DiscordChat
) -> None:
    subscribe(services.store)
    fake_discord.fail("POST", POSTS, 403)

    report = await run_schedule(discord_bot)

    assert [d for d, _ in report.failed] == [CHANNEL]
    subscription = services.store.subscription(CHANNEL)
    assert subscription is not None and subscription.active
    assert subscription.broken_reason == "missing permissions (403)"

    answer = await chat.slash("status", by=ALICE)
    (notice,) = answer.followups
    assert notice.body["flags"] == 64  # only the person who asked sees it
    assert f"could not post the daily digest in <#{DIGEST}>" in notice.body["content"]
    assert "not allowed to post there" in notice.body["content"]

    later = await chat.slash("status", by=ALICE)
    assert later.followups == []  # told once


async def test_a_deleted_channel_is_deactivated(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot
) -> None:
    subscribe(services.store)
    fake_discord.fail("POST", POSTS, 404)

    report = await run_schedule(discord_bot)

    assert [d for d, _ in report.unsubscribed] == [CHANNEL]
    subscription = services.store.subscription(CHANNEL)
    assert subscription is not None and not subscription.active
    assert "gone" in (subscription.inactive_reason or "")


async def test_a_passing_server_error_is_retried_by_discord_py_alone(
    fake_discord: FakeDiscord,
    services: Services,
    discord_bot: DiscordBot,
    discord_waits: DiscordPyWaits,
) -> None:
    subscribe(services.store)
    fake_discord.fail("POST", POSTS, 502, times=2)

    report = await run_schedule(discord_bot)

    assert report.sent == [CHANNEL]
    attempts, posts = fake_discord.made("POST", POSTS), delivered(fake_discord)
    assert len(attempts) == len(posts) + 2  # the first part went through on its third try
    assert posts[0].embeds[0]["footer"]["text"].startswith("1/")
    assert discord_waits.waits == [1, 3]  # discord.py's backoff; the sender adds none


async def test_repeated_500s_cost_one_digest_attempt_5_posts_and_the_schedule_retries_later(
    fake_discord: FakeDiscord,
    services: Services,
    discord_bot: DiscordBot,
    discord_waits: DiscordPyWaits,
    clock: Clock,
) -> None:
    """One retry policy per layer: discord.py tries each request 5 times on a 500 (waiting
    1+3+5+7+9 = 25 s), the sender adds no loop of its own, and the digest schedule tries the
    FAILED delivery again after its backoff. So one attempt under a lasting outage makes
    exactly 5 POSTs (it was 20, over 100 s, when the sender's 4 tries each ran discord.py's 5)."""
    subscribe(services.store)
    fake_discord.fail("POST", POSTS, 500, times=1_000)

    report = await run_schedule(discord_bot)

    assert len(fake_discord.made("POST", POSTS)) == 5
    assert discord_waits.waits == [1, 3, 5, 7, 9]
    assert report.sent == [] and "DeliveryRetryable" in report.failed[0][1]
    (delivery,) = services.store.deliveries(CHANNEL)
    assert delivery.state is DeliveryState.FAILED and "500 Internal Server Error" in (
        delivery.error or ""
    )
    subscription = services.store.subscription(CHANNEL)
    assert subscription is not None and subscription.active and not subscription.broken_reason

    clock.now += dt.timedelta(minutes=1)  # the next check, inside the schedule's backoff
    assert await run_schedule(discord_bot) == RunReport()
    assert len(fake_discord.made("POST", POSTS)) == 5

    fake_discord.recover()  # Discord is back
    clock.now += dt.timedelta(minutes=5)  # past the first backoff (5 minutes)
    report = await run_schedule(discord_bot)
    assert report.sent == [CHANNEL]  # not lost
    states = [d.state for d in services.store.deliveries(CHANNEL)]
    assert states == [DeliveryState.FAILED, DeliveryState.SENT]


async def test_a_503_is_not_retried_within_the_run_but_by_the_schedule(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot, clock: Clock
) -> None:
    subscribe(services.store)
    fake_discord.fail("POST", POSTS, 503)  # discord.py does not retry a 503: neither do we

    report = await run_schedule(discord_bot)

    assert "DeliveryRetryable" in report.failed[0][1]
    assert len(fake_discord.made("POST", POSTS)) == 1
    subscription = services.store.subscription(CHANNEL)
    assert subscription is not None and subscription.active and not subscription.broken_reason

    clock.now += dt.timedelta(minutes=6)
    report = await run_schedule(discord_bot)
    assert report.sent == [CHANNEL]
    posts = delivered(fake_discord)
    assert posts[0].embeds[0]["footer"]["text"] == f"1/{len(posts)}"  # sent whole, once


async def test_one_failing_server_never_stops_the_others(
    fake_discord: FakeDiscord, services: Services, discord_bot: DiscordBot
) -> None:
    subscribe(services.store)
    subscribe(services.store, OTHER_SERVER_CHANNEL, scope=700000000000000700)
    fake_discord.fail("POST", rf"/channels/{OTHER_SERVER_CHANNEL.id}/messages", 404)

    report = await run_schedule(discord_bot)

    assert report.sent == [CHANNEL]
    assert [d for d, _ in report.unsubscribed] == [OTHER_SERVER_CHANNEL]


def long_digest() -> Reply:
    """A digest of 60 long entries: well over what one Discord message holds."""
    entries = tuple(f"■ Claim {n} — now confirmed\n  · " + "evidence " * 60 for n in range(60))
    return Reply(
        outcome=Outcome.ANSWER,
        language="en",
        title="Evidence digest",
        body="\n\n".join(entries),
        caveat="⚠ Every change above comes from recorded evidence only.",
        as_of=None,
        sections=entries,
        kind="digest",
    )


async def test_a_long_digest_is_split_across_messages(
    fake_discord: FakeDiscord, sender: DiscordSender
) -> None:
    digest = long_digest()
    assert len(digest.text) > 30_000

    await sender.send(CHANNEL, digest)

    posts = fake_discord.made("POST", POSTS)
    assert len(posts) >= 6
    for post in posts:
        embeds = post.embeds
        assert len(embeds) <= 10
        assert (
            sum(
                len(e.get("title", ""))
                + len(e.get("description", ""))
                + len(e.get("footer", {}).get("text", ""))
                for e in embeds
            )
            <= 6000
        )
        assert all(len(e["description"]) <= 4096 for e in embeds)
    text = "\n".join(e["description"] for p in posts for e in p.embeds)
    assert all(f"Claim {n} " in text for n in range(60))
    assert (
        posts[-1]
        .embeds[-1]["description"]
        .endswith(">>> ⚠ Every change above comes from recorded evidence only.")
    )
    assert posts[0].embeds[0]["footer"]["text"] == f"1/{len(posts)}"


async def test_a_channel_that_works_again_is_no_longer_broken(
    fake_discord: FakeDiscord, services: Services, sender: DiscordSender
) -> None:
    subscribe(services.store)
    services.store.mark_broken(CHANNEL, "missing permissions (403)")

    status = services.core.answer_key("status", lang="en")
    fake_discord.fail("POST", POSTS, 503)
    with pytest.raises(DeliveryRetryable):
        await sender.send(CHANNEL, status)
    still = services.store.subscription(CHANNEL)
    assert still is not None and still.broken_reason is not None

    await sender.send(CHANNEL, status)

    subscription = services.store.subscription(CHANNEL)
    assert subscription is not None and subscription.broken_reason is None


async def test_an_outage_part_way_says_how_far_it_got_and_the_retry_sends_only_the_rest(
    fake_discord: FakeDiscord, sender: DiscordSender
) -> None:
    fake_discord.fail("POST", POSTS, 503, after=2)

    with pytest.raises(PartlyDelivered) as cut:
        await sender.send(CHANNEL, long_digest())
    assert cut.value.delivered == 2

    mark = len(fake_discord.calls)
    await sender.send(CHANNEL, long_digest(), skip=cut.value.delivered)

    footers = [p.embeds[0]["footer"]["text"] for p in delivered(fake_discord)]
    total = cut.value.total
    assert footers == [f"{n}/{total}" for n in range(1, total + 1)]  # each part once, in order
    assert len(fake_discord.made("POST", POSTS, after=mark)) == total - 2
