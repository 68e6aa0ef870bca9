"""Daily digests in Telegram: subscribe, the job posts, the store remembers, failures stay local.

The clock starts on 2026-10-08, the day the knowledge base recorded most of its evidence,
so the next morning's digest has something to say.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest

from bot.adapters.telegram.app import TelegramOptions
from bot.adapters.telegram.format import LIMIT, tg_len
from bot.adapters.telegram.sender import TelegramSender
from bot.digest.sending import PartlyDelivered
from bot.store.contract import DeliveryState, Destination
from knowledge.knowledge_base import KnowledgeBase
from tests.telegram.conftest import (
    MovableClock,
    TelegramHarness,
    running_bot,
    telegram_options,
)
from tests.telegram.test_tg_format import CAVEAT, digest_of
from tests.telegram.tg_fake import ALICE, BOT, CHANNEL, GROUP, LI, SUPERGROUP, Call, FakeBotAPI

EVIDENCE_DAY = dt.datetime(2026, 10, 8, 12, 0, tzinfo=dt.UTC)
ALICE_CHAT = Destination("telegram", str(ALICE["id"]))


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(EVIDENCE_DAY)


def states(telegram: TelegramHarness, chat_id: int | str) -> list[tuple[str, str]]:
    return [(d.kind, str(d.state)) for d in telegram.deliveries(chat_id)]


async def test_subscribe_then_the_daily_job_posts_once_even_across_a_restart(
    kb: KnowledgeBase, api: FakeBotAPI, db_path: Path, clock: MovableClock
) -> None:
    options = telegram_options()
    async with running_bot(kb, api, db_path, clock, options) as telegram:
        await telegram.say("/subscribe 09:00 UTC")
        clock.advance(days=1)  # 2026-10-09 12:00: the 09:00 digest is due

        report = await telegram.daily_job()
        assert report.sent == [ALICE_CHAT]
        digest = api.sent(ALICE["id"])
        assert digest[0].startswith("<b>Evidence digest, on 2026-10-08</b>")
        assert "single source → confirmed" in "".join(digest)
        assert digest[-1].rstrip().endswith("</i>")
        assert states(telegram, ALICE["id"]) == [("daily", "sent")]

        await telegram.daily_job()  # the next check, a minute later
        assert api.sent(ALICE["id"]) == digest

    async with running_bot(kb, api, db_path, clock, options) as restarted:
        report = await restarted.daily_job()
        assert report.sent == [] and api.sent(ALICE["id"]) == digest
        assert states(restarted, ALICE["id"]) == [("daily", "sent")]

        clock.advance(days=1)  # nothing was recorded on 2026-10-09: a quiet day is not posted
        report = await restarted.daily_job()
        assert report.skipped == [ALICE_CHAT] and api.sent(ALICE["id"]) == digest


async def test_one_blocked_user_never_stops_the_digest_for_the_others(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    await telegram.say("/subscribe 09:00")
    await telegram.say("/subscribe 09:00", user=LI)
    telegram.api.block(ALICE["id"])
    clock.advance(days=1)

    report = await telegram.daily_job()

    assert telegram.api.sent(LI["id"])[0].startswith("<b>证据变化摘要：2026年10月8日</b>")
    sub = telegram.subscription(ALICE["id"])
    assert not sub.active
    assert sub.inactive_reason == "telegram chat 1001: Forbidden: bot was blocked by the user"
    assert [d for d, _ in report.unsubscribed] == [ALICE_CHAT]
    assert states(telegram, ALICE["id"]) == [("daily", "failed")]
    assert states(telegram, LI["id"]) == [("daily", "sent")]


async def test_a_group_that_became_a_supergroup_gets_its_digest_under_the_new_id(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    telegram.api.members[(str(GROUP["id"]), ALICE["id"])] = "administrator"
    await telegram.say("/subscribe 09:00", chat=GROUP)
    telegram.api.fail(
        "sendMessage",
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        chat_id=GROUP["id"],
        parameters={"migrate_to_chat_id": SUPERGROUP["id"]},
    )
    clock.advance(days=1)

    await telegram.daily_job()

    assert telegram.api.sent(SUPERGROUP["id"])[0].startswith("<b>Evidence digest")
    assert telegram.subscription(GROUP["id"]) is None
    assert telegram.subscription(SUPERGROUP["id"]).active
    assert states(telegram, SUPERGROUP["id"]) == [("daily", "sent")]


async def test_flood_control_is_waited_out_as_telegram_asks_and_is_no_error(
    telegram: TelegramHarness, clock: MovableClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await telegram.say("/subscribe 09:00")
    telegram.api.fail(
        "sendMessage",
        429,
        "Too Many Requests: retry after 7",
        chat_id=ALICE["id"],
        parameters={"retry_after": 7},
    )
    clock.advance(days=1)

    report = await telegram.daily_job()

    assert report.sent == [ALICE_CHAT]
    assert telegram.sleeps.waits == [7.0]
    first, second, *_ = telegram.api.of("sendMessage", ALICE["id"])
    assert first.text == second.text  # the refused message itself was sent again, once
    # handled, so no error and no traceback (PTB's rate limiter logs it so: demoted to DEBUG)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert f"telegram chat {ALICE['id']}: flood control, retrying in 7 s as Telegram asks" in [
        r.getMessage() for r in caplog.records if r.levelno == logging.INFO
    ]


async def test_server_errors_and_dropped_connections_are_retried_with_backoff(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    await telegram.say("/subscribe 09:00")
    telegram.api.fail("sendMessage", 502, "Bad Gateway", chat_id=ALICE["id"])
    telegram.api.fail("sendMessage", 0, "connection reset", chat_id=ALICE["id"])
    telegram.api.fail("sendMessage", 500, "Internal Server Error", chat_id=ALICE["id"])
    clock.advance(days=1)

    report = await telegram.daily_job()

    assert report.sent == [ALICE_CHAT]
    assert telegram.sleeps.waits == [1.0, 2.0, 4.0]


async def test_a_chat_that_keeps_failing_is_retried_later_and_never_lost(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    await telegram.say("/subscribe 09:00")
    telegram.api.fail("sendMessage", 503, "Service Unavailable", chat_id=ALICE["id"], times=4)
    clock.advance(days=1)

    report = await telegram.daily_job()
    assert report.sent == [] and len(report.failed) == 1
    assert states(telegram, ALICE["id"]) == [("daily", "failed")]
    assert telegram.subscription(ALICE["id"]).active  # a bad day for Telegram is not a goodbye

    clock.advance(minutes=6)  # past the schedule's first backoff
    report = await telegram.daily_job()
    assert report.sent == [ALICE_CHAT]
    assert states(telegram, ALICE["id"])[-1] == ("daily", "sent")


async def test_a_20000_character_digest_arrives_split_with_the_caveat_whole_and_last(
    telegram: TelegramHarness,
) -> None:
    reply = digest_of(20_000)
    await TelegramSender(telegram.app.bot).send(ALICE_CHAT, reply)

    sent = telegram.api.sent(ALICE["id"])  # each one accepted by the fake, as by Telegram
    assert len(sent) >= 5
    assert all(tg_len(m) <= LIMIT for m in sent)
    assert sent[-1].endswith(f"<i>{CAVEAT}</i>")
    assert sum(CAVEAT in m for m in sent) == 1
    entries = [e for e in reply.body.split("\n\n")]
    for entry in entries:  # every entry arrives whole, in one message, in order
        assert sum(entry in m.replace("&#x27;", "'") for m in sent) == 1


async def test_an_outage_part_way_says_how_far_it_got_and_the_retry_sends_only_the_rest(
    telegram: TelegramHarness,
) -> None:
    api, sender = telegram.api, TelegramSender(telegram.app.bot, sleep=telegram.sleeps)
    reply = digest_of(20_000)

    def outage_at_the_third(call: Call) -> None:
        if len(api.of("sendMessage")) == 3:  # from the third message on, every try fails
            api.fail("sendMessage", 502, "Bad Gateway", times=sender.attempts)

    api.on_call = outage_at_the_third
    with pytest.raises(PartlyDelivered) as cut:
        await sender.send(ALICE_CHAT, reply)
    first_two = api.sent(ALICE["id"])[:2]
    assert cut.value.delivered == 2 and cut.value.total >= 5

    api.on_call = None
    api.take()
    await sender.send(ALICE_CHAT, reply, skip=cut.value.delivered)

    rest = api.sent(ALICE["id"])
    assert len(rest) == cut.value.total - 2 and not set(rest) & set(first_two)
    assert rest[-1].endswith(f"<i>{CAVEAT}</i>")


async def test_digest_on_request_sends_what_changed_and_remembers_it(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    said = await telegram.say("/digest")
    # progress moved in that batch: the chart first, then the words with their caveat
    assert said[0].method == "sendPhoto" and said[0].params["photo"].startswith(b"\x89PNG")
    latest = [m for m in said if m.method == "sendMessage"]
    assert latest[0].text.startswith("<b>Latest evidence changes, on 2026-10-08</b>")
    assert latest[-1].text.rstrip().endswith("</i>")
    assert states(telegram, ALICE["id"]) == [("manual", "sent")]

    clock.advance(days=2)  # "since the last one" includes that day, in case it grew later
    again = [m for m in await telegram.say("/digest") if m.method == "sendMessage"]
    assert again[0].text.startswith("<b>Evidence digest, 2026-10-08 – 2026-10-10</b>")
    clock.advance(days=2)
    [nothing_new] = await telegram.say("/digest")
    assert "No change to the evidence 2026-10-10 – 2026-10-12" in nothing_new.text
    assert [kind for kind, _ in states(telegram, ALICE["id"])] == ["manual"] * 3

    replies = [m for m in await telegram.say("/digest 7") if m.method == "sendMessage"]
    assert replies[0].text.startswith("<b>Evidence digest, 2026-10-06 – 2026-10-12</b>")
    replies = await telegram.say("/digest since 2026-10-08")
    assert "single source → confirmed" in "".join(r.text for r in replies)
    [usage] = await telegram.say("/digest soon")
    assert "<code>/digest 7</code>" in usage.text
    [usage] = await telegram.say("/digest 0")
    assert "<code>/digest 7</code>" in usage.text


async def test_a_digest_window_out_of_bounds_is_explained_not_attempted(
    telegram: TelegramHarness,
) -> None:
    [early] = await telegram.say("/digest since 0001-01-01")
    assert early.text.startswith("<code>0001-01-01</code> is too far back")
    assert "2000-01-01" in early.text
    [future] = await telegram.say("/digest 2099-01-01")
    assert future.text.startswith("<code>2099-01-01</code> is in the future")
    [tomorrow] = await telegram.say("/digest since 2026-10-09")  # the clock says 2026-10-08
    assert "is in the future" in tomorrow.text
    for days in ("3651", "99999999999999999999999"):
        [too_many] = await telegram.say(f"/digest {days}")
        assert too_many.text.startswith(f"I can look back 1 to 3650 days, not <code>{days}")
    [zh] = await telegram.say("/digest since 1999-12-31", user=LI)
    assert zh.text.startswith("<code>1999-12-31</code> 太早了")
    assert telegram.deliveries(ALICE["id"]) == []  # nothing was sent, nothing recorded


async def test_the_widest_digest_windows_are_answered(telegram: TelegramHarness) -> None:
    for asked in ("/digest 3650", "/digest since 2000-01-01", "/digest since 2026-10-08"):
        replies = [m for m in await telegram.say(asked) if m.method == "sendMessage"]
        assert replies[0].text.startswith("<b>Evidence digest, "), asked
        assert replies[-1].text.rstrip().endswith("</i>")  # the caveat closes it
    assert len(telegram.deliveries(ALICE["id"])) == 3


# --- the configured channel ----------------------------------------------------------------

CHANNEL_ID = f"@{CHANNEL['username']}"


@pytest.fixture
def options() -> TelegramOptions:
    return telegram_options(channel_id=CHANNEL_ID, channel_time=dt.time(8, 0))


async def test_a_channel_where_the_bot_is_not_admin_is_named_clearly_and_not_posted_to(
    telegram: TelegramHarness, clock: MovableClock, caplog: pytest.LogCaptureFixture
) -> None:
    telegram.api.members[(CHANNEL_ID, BOT["id"])] = "member"
    with caplog.at_level(logging.ERROR):
        problem = await telegram.bot.ensure_channel(telegram.app.bot)
    assert problem == (
        "Telegram channel @marin_digest: the bot is not an administrator there; add "
        "@marin_watch_bot to the channel as an administrator with the right to post messages "
        "(channel settings → Administrators → Add Admin)."
    )
    assert problem in caplog.text
    clock.advance(days=1)
    await telegram.daily_job()
    assert telegram.api.sent(CHANNEL_ID) == []

    # an admin fixes it; the bot notices at its next check and posts from the next morning
    telegram.api.members[(CHANNEL_ID, BOT["id"])] = "administrator"
    clock.advance(minutes=11)
    await telegram.daily_job()
    sub = telegram.subscription(CHANNEL_ID)
    assert sub.active and sub.digest_time == dt.time(8, 0)
    clock.advance(days=1)  # its first digest covers the day since: quiet, so not posted
    await telegram.daily_job()
    assert states(telegram, CHANNEL_ID) == [("daily", "skipped")]
    assert telegram.api.sent(CHANNEL_ID) == []


async def test_a_channel_the_bot_cannot_reach_is_explained(telegram: TelegramHarness) -> None:
    telegram.api.fail("getChatMember", 400, "Bad Request: chat not found")
    problem = await telegram.bot.ensure_channel(telegram.app.bot)
    assert problem is not None
    assert "the bot cannot reach it (Chat not found)" in problem
    assert "as an administrator with the right to post messages" in problem


async def test_a_channel_that_lets_the_bot_post_gets_the_daily_digest(
    telegram: TelegramHarness, clock: MovableClock
) -> None:
    clock.now = EVIDENCE_DAY.replace(hour=6)  # started before the evidence of the 8th
    assert await telegram.bot.ensure_channel(telegram.app.bot) is None
    clock.advance(days=1, hours=3)  # 09:00 on the 9th: the 08:00 digest is due
    report = await telegram.daily_job()
    assert report.sent == [Destination("telegram", CHANNEL_ID)]
    assert telegram.api.sent(CHANNEL_ID)[0].startswith("<b>Evidence digest")
    assert DeliveryState.SENT in {d.state for d in telegram.deliveries(CHANNEL_ID)}
