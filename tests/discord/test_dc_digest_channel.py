"""Server managers choose the digest channel; everyone can ask for a digest with /digest."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.store.contract import DeliveryState, Destination
from bot.store.sqlite import SQLiteStore
from tests.discord.dc_chat import DiscordChat
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import (
    ALICE,
    DIGEST,
    DM_CHANNEL,
    GENERAL,
    GUILD_ID,
    LI,
    MOD,
    NEWS,
    Person,
)

DIGEST_CHANNEL = Destination("discord", str(DIGEST))


async def test_only_the_managers_see_digest_channel_in_the_menu(
    fake_discord: FakeDiscord, chat: DiscordChat
) -> None:
    group = next(c for c in fake_discord.commands if c["name"] == "digest-channel")
    assert int(group["default_member_permissions"]) == 1 << 5  # Manage Server
    assert group["dm_permission"] is False  # servers only


async def test_a_member_without_manage_server_is_refused_by_the_bot(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    # Discord would hide the command, but a server can override that: the bot checks itself.
    answer = await chat.slash("digest-channel set", channel=DIGEST, by=ALICE)

    assert answer.ephemeral
    assert "Manage Server" in answer.content
    assert store.subscriptions() == []


async def test_a_manager_sets_the_digest_channel(chat: DiscordChat, store: SQLiteStore) -> None:
    answer = await chat.slash(
        "digest-channel set",
        channel=DIGEST,
        time="8:30",
        timezone="Asia/Shanghai",
        language="zh",
        by=MOD,
    )

    assert answer.ephemeral
    assert f"<#{DIGEST}>" in answer.content and "08:30" in answer.content
    assert "Asia/Shanghai" in answer.content and "Chinese" in answer.content
    assert "only on days when the evidence changed" in answer.content
    (subscription,) = store.subscriptions(platform="discord")
    assert subscription.destination == DIGEST_CHANNEL
    assert subscription.digest_time == dt.time(8, 30)
    assert subscription.timezone == "Asia/Shanghai"
    assert subscription.language == "zh"
    assert subscription.scope == str(GUILD_ID)


async def test_the_digest_language_defaults_to_the_managers_language(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    manager_li = Person(MOD.id + 1, "li-mod", locale="zh-CN", permissions=MOD.permissions)
    answer = await chat.slash("digest-channel set", channel=DIGEST, by=manager_li)

    assert "每日摘要" in answer.content and "仅在证据有变化的日子发布" in answer.content
    (subscription,) = store.subscriptions(platform="discord")
    assert (subscription.language, subscription.digest_time, subscription.timezone) == (
        "zh",
        dt.time(9, 0),
        "UTC",
    )


async def test_a_channel_the_bot_cannot_post_in_is_refused(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    answer = await chat.slash("digest-channel set", channel=NEWS, by=MOD)

    assert answer.ephemeral
    assert f"<#{NEWS}> is not a text channel I can post in" in answer.content
    assert "Send Messages" in answer.content
    assert store.subscriptions() == []


async def test_a_new_digest_channel_replaces_the_old_one(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    await chat.slash("digest-channel set", channel=DIGEST, by=MOD)
    answer = await chat.slash("digest-channel set", channel=GENERAL, by=MOD)

    assert f"replaces <#{DIGEST}>" in answer.content
    (active,) = store.subscriptions(platform="discord")
    assert active.destination.id == str(GENERAL)
    old = store.subscription(DIGEST_CHANNEL)
    assert old is not None and not old.active
    assert old.inactive_reason == f"replaced by channel {GENERAL}"


async def test_a_time_or_zone_the_bot_cannot_read_is_refused(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    bad_time = await chat.slash("digest-channel set", channel=DIGEST, time="9am-ish", by=MOD)
    bad_zone = await chat.slash(
        "digest-channel set", channel=DIGEST, timezone="Mars/Olympus", by=MOD
    )

    assert "HH:MM" in bad_time.content and bad_time.ephemeral
    assert "Mars/Olympus" in bad_zone.content and bad_zone.ephemeral
    assert store.subscriptions() == []


async def test_time_zones_are_suggested_while_typing(chat: DiscordChat) -> None:
    assert "Asia/Shanghai" in await chat.autocomplete(
        "digest-channel set", "timezone", "shang", by=MOD
    )


async def test_a_manager_clears_the_digest_channel(chat: DiscordChat, store: SQLiteStore) -> None:
    await chat.slash("digest-channel set", channel=DIGEST, by=MOD)
    cleared = await chat.slash("digest-channel clear", by=MOD)
    again = await chat.slash("digest-channel clear", by=MOD)
    refused = await chat.slash("digest-channel clear", by=ALICE)

    assert f"No more daily digests in <#{DIGEST}>" in cleared.content
    assert "no digest channel" in again.content
    assert "Manage Server" in refused.content
    assert store.subscriptions() == []
    gone = store.subscription(DIGEST_CHANNEL)
    assert gone is not None and gone.inactive_reason == f"cleared by Discord user {MOD.id}"


async def test_digest_in_a_dm_is_the_whole_window_and_is_recorded(
    fake_discord: FakeDiscord, client: Any, store: SQLiteStore
) -> None:
    dm = DiscordChat(fake_discord, client, dm=True)
    first = await dm.slash("digest")
    again = await dm.slash("digest")

    assert "Latest evidence changes" in first.embeds[0]["title"]
    assert ">>> " in first.text()
    deliveries = store.deliveries(Destination("discord", str(DM_CHANNEL)))
    assert [(d.kind, d.state) for d in deliveries] == [("manual", DeliveryState.SENT)] * 2
    assert "No change to the evidence" in again.text()  # nothing new since the first one


async def test_digest_in_a_server_channel_is_a_short_summary_with_the_way_to_the_rest(
    chat: DiscordChat, store: SQLiteStore
) -> None:
    summary = await chat.slash("digest", days=90)

    *messages, pointer = [summary.callback, *summary.followups]
    assert len(messages) <= 2  # the summary with its caveat, then the pointer (it was 6)
    assert "summary for the chat: 3 of" in str(pointer.message.get("content"))
    assert "/digest days:90" in str(pointer.message.get("content"))
    assert store.deliveries(Destination("discord", str(GENERAL))) == []  # not a delivery


async def test_digest_for_the_last_days(chat: DiscordChat) -> None:
    answer = await chat.slash("digest", days=14, by=LI)
    assert answer.embeds[0]["title"].startswith("证据")
    assert ">>> " in answer.text()
