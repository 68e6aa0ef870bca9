"""Checking a message from Discord's Apps menu, and asking why a level is what it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.discord.dc_chat import DiscordChat, components
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import ALICE, LI, MEI

RUMOUR = "Marin 535B finished training, weights next week! It runs on 704 GB200 GPUs."
MENU = "Check with marin-watch"


async def test_checking_a_message_answers_the_asker_only_with_a_verdict_per_assertion(
    chat: DiscordChat,
) -> None:
    answer = await chat.apps_menu(MENU, RUMOUR, author=MEI, by=ALICE)
    assert answer.ephemeral
    text = answer.text()
    assert "What the evidence says about this message" in text
    assert "no record supports it" in text and "It runs on 704 GB200 GPUs" in text
    assert "I answer only from recorded evidence" in text  # the caveat closes it
    for call in [answer.callback, *answer.followups]:
        for embed in call.embeds:
            assert len(embed.get("description") or "") <= 4096
    labels = [c.get("label") for c in components(answer.message)]
    assert labels == ["Post publicly"]


# An explainer thread of twelve points, each checked: the longest kind of check reply
THREAD = (
    "TL;DR • Marin 535B started on Aug 19 • it runs on 11 GB200 NVL72 racks "
    "• that is 792 GPUs • the plan is 18.75T tokens • it finished training last week "
    "• the weights come out next week • MFU hit 45% • the last checkpoint is step 231,464 "
    "• it took 2.7e24 FLOPs • context is 32k • it beats DeepSeek-V3 on MMLU "
    "• it has 23B active parameters"
)


async def test_a_twelve_point_thread_is_checked_whole_within_discords_limits(
    chat: DiscordChat,
) -> None:
    answer = await chat.apps_menu(MENU, THREAD, author=MEI, by=ALICE)
    text = answer.text()
    assert "not checked: I check the first" not in text  # all twelve points checked
    assert "it has 23B active parameters" in text
    for call in [answer.callback, *answer.followups]:
        embeds = call.embeds
        assert len(str(call.message.get("content") or "")) <= 2000 and len(embeds) <= 10
        assert all(len(e.get("description") or "") <= 4096 for e in embeds)
        sizes = [len(e.get("title", "")) + len(e.get("description") or "") for e in embeds]
        assert sum(sizes) <= 6000
    assert "I answer only from recorded evidence" in text and "Evidence as of" in text


async def test_post_publicly_puts_the_same_verdict_in_the_channel(chat: DiscordChat) -> None:
    answer = await chat.apps_menu(MENU, RUMOUR, author=MEI, by=ALICE)
    posted = await chat.click(answer.sent, "Post publicly")
    assert not posted.ephemeral
    assert posted.embeds and posted.embeds[0]["title"] == answer.embeds[0]["title"]


async def test_a_chinese_client_gets_the_check_in_chinese(chat: DiscordChat) -> None:
    answer = await chat.apps_menu(MENU, "听说 Marin 535B 已经训完了，下周开源", by=LI)
    text = answer.text()
    assert "关于这条消息" in text and "没有记录支持" in text
    assert [c.get("label") for c in components(answer.message)] == ["公开发布"]


async def test_why_names_the_records_and_the_rule(chat: DiscordChat) -> None:
    answer = await chat.slash("why", topic="started")
    text = answer.text()
    assert "Why these levels" in text and "Records that count" in text
    assert "official record" in text


async def test_the_why_button_under_an_answer_explains_it_to_whoever_presses(
    chat: DiscordChat,
) -> None:
    answer = await chat.slash("ask", question="has it started?")
    [why_button] = components(answer.message)
    assert why_button["label"] == "Why these levels?"
    why = await chat.click(answer.sent, "Why these levels?", by=MEI)
    assert why.ephemeral
    assert "Why these levels" in why.text() and "Records that count" in why.text()


async def test_chart_is_an_embed_with_the_image_attached_and_the_caveat_in_the_body(
    chat: DiscordChat,
) -> None:
    answer = await chat.slash("chart")
    [(name, png)] = answer.callback.files.items()
    assert png.startswith(b"\x89PNG")
    embed = answer.embeds[0]
    assert embed["image"]["url"] == f"attachment://{name}"
    assert "Progress against the plan" in embed["title"]
    assert "I answer only from recorded evidence" in answer.text()


async def test_a_digest_where_progress_moved_carries_the_chart(
    fake_discord: FakeDiscord, client: Any
) -> None:
    dm = DiscordChat(fake_discord, client, dm=True)
    digest = await dm.slash("digest")  # the newest batch: the 2026-10-08 handoff's progress
    [(name, png)] = digest.callback.files.items()
    assert png.startswith(b"\x89PNG")
    assert digest.embeds[0]["image"]["url"] == f"attachment://{name}"
    assert "I answer only from recorded evidence" in digest.text()


async def test_a_relative_date_is_read_from_when_the_message_was_posted(
    chat: DiscordChat,
) -> None:
    said = "Percy posted yesterday that the run passed the halfway mark"
    # posted on Oct 7, "yesterday" is Oct 6, the day of Percy's post
    then = await chat.apps_menu(
        MENU, said, author=MEI, written=dt.datetime(2026, 10, 7, tzinfo=dt.UTC)
    )
    assert f'✓ "{said}": supported' in then.text()
    # posted today, "yesterday" is a day no record names: never supported (the rules say no
    # record supports it; the second opinion may leave it in doubt)
    now = await chat.apps_menu(MENU, said, author=MEI)
    assert f'"{said}": ' in now.text() and f'✓ "{said}": supported' not in now.text()
