"""Slash commands, as people in a research server use them."""

from __future__ import annotations

import pytest

from answers.reply import Reply
from bot.adapters.discord.client import MarinClient
from bot.chat.args import DIGEST_DAYS
from tests.discord.dc_chat import DiscordChat, components
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import LI, MEI


async def test_the_commands_are_synced_at_start_up(
    fake_discord: FakeDiscord, chat: DiscordChat
) -> None:
    names = {c["name"] for c in fake_discord.commands}
    assert names == {"ask", "status", "sources", "watch", "digest", "chart", "why"} | {
        "digest-channel",
        "Check with marin-watch",  # a message command (type 3), in the Apps menu
    }
    ask = next(c for c in fake_discord.commands if c["name"] == "ask")
    assert ask["options"][0]["autocomplete"] is True
    assert "训练" in ask["description_localizations"]["zh-CN"]
    assert "訓練" in ask["description_localizations"]["zh-TW"]  # traditional for Taiwan


async def test_digest_days_has_the_bounds_telegram_has(
    fake_discord: FakeDiscord, chat: DiscordChat
) -> None:
    digest = next(c for c in fake_discord.commands if c["name"] == "digest")
    [days] = digest["options"]
    assert (days["name"], days["required"]) == ("days", False)
    assert (days["min_value"], days["max_value"]) == (DIGEST_DAYS.start, DIGEST_DAYS.stop - 1)
    assert (days["min_value"], days["max_value"]) == (1, 3650)


async def test_ask_answers_with_an_embed_and_its_caveat(chat: DiscordChat) -> None:
    answer = await chat.slash("ask", question="Has training started?")

    assert answer.kind == 4 and not answer.ephemeral
    embed = answer.embeds[0]
    assert embed["title"] == "Has training started?"
    assert (
        "🟩 The Marin 535B-A23B hero run has started training. "
        "(status as of 2026-08-21) [confirmed]" in embed["description"]
    )
    assert "\n\n>>> ⚠ Single source" in embed["description"]  # the caveat, in the body
    assert "Evidence as of" in embed["description"]
    assert embed["color"] == 0xF1C40F  # amber: the weakest claim rests on one record
    sources = next(f for f in embed["fields"] if f["name"] == "Sources")
    assert "](https://github.com/marin-community/marin/issues/8506)" in sources["value"]


async def test_a_chinese_question_gets_a_chinese_answer(chat: DiscordChat) -> None:
    answer = await chat.slash("ask", question="训练开始了吗？", by=LI)

    assert "已确认" in answer.embeds[0]["description"]
    assert answer.embeds[0]["footer"]["text"].startswith("证据截至")


async def test_ask_suggests_topics_while_typing(chat: DiscordChat) -> None:
    suggestions = await chat.autocomplete("ask", "question", "stat")
    assert "status" in suggestions

    answer = await chat.slash("ask", question="status")  # the suggestion was picked
    assert answer.embeds[0]["title"] == "Marin 535B-A23B: where the evidence stands"


async def test_status_sources_and_watch(chat: DiscordChat) -> None:
    status = await chat.slash("status")
    sources = await chat.slash("sources")
    watch = await chat.slash("watch")

    assert "where the evidence stands" in status.embeds[0]["title"]
    for answer in (status, sources, watch):
        assert ">>> " in answer.text()  # every answer carries its caveat
    # the overview's levels can be explained; the lists of records and watch points have none
    assert [c["label"] for c in components(status.message)] == ["Why these levels?"]
    assert not components(sources.message) and not components(watch.message)


async def test_a_chinese_client_gets_the_status_in_chinese(chat: DiscordChat) -> None:
    status = await chat.slash("status", by=LI)
    assert "已确认" in status.text()


async def test_when_something_breaks_the_person_is_told_not_left_waiting(
    chat: DiscordChat, client: MarinClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(key: str, *, lang: str, **_: object) -> Reply:
        raise RuntimeError("template missing")

    monkeypatch.setattr(client.services.core, "answer_key", broken)
    answer = await chat.slash("status")

    assert answer.ephemeral
    assert answer.content == "Something went wrong on my side. Please try again in a moment."


async def test_a_taiwanese_client_gets_traditional_characters(chat: DiscordChat) -> None:
    answer = await chat.slash("status", by=MEI)
    description = answer.embeds[0]["description"]
    assert "訓練" in description  # traditional characters
    assert "训练" not in description  # and no simplified ones left
