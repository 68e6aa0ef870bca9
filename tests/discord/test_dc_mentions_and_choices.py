"""Mentions are questions; ambiguous questions offer choices as buttons or a select menu."""

from __future__ import annotations

import pytest

from answers.reply import Choice, Outcome, Reply
from bot.adapters.discord.client import MarinClient
from tests.discord.dc_chat import DiscordChat, components
from tests.discord.dc_fake import FakeDiscord
from tests.discord.dc_server import LI


async def test_a_mention_is_answered_in_a_reply(chat: DiscordChat) -> None:
    reply = await chat.mention("has training started?")

    assert reply.body["message_reference"]["fail_if_not_exists"] is False
    assert reply.body["allowed_mentions"] == {"parse": [], "replied_user": False}
    embed = reply.embeds[0]
    assert embed["title"] == "Has training started?"
    assert "[confirmed]" in embed["description"] and ">>> " in embed["description"]


async def test_a_chinese_mention_gets_a_chinese_answer(chat: DiscordChat) -> None:
    reply = await chat.mention("训练开始了吗？", by=LI)
    assert "【已确认】" in reply.embeds[0]["description"]


async def test_a_bare_mention_gets_help(chat: DiscordChat) -> None:
    reply = await chat.mention("")
    assert ">>> " in reply.embeds[0]["description"]


async def test_messages_without_a_mention_are_left_alone(
    chat: DiscordChat, fake_discord: FakeDiscord
) -> None:
    before = len(fake_discord.calls)
    await chat.say("has training started?")
    await chat.mention("has training started?")  # answered: the first one was not
    assert len(fake_discord.made("POST", r"/channels/\d+/messages", after=before)) == 1


async def test_close_readings_are_offered_as_buttons_with_none_of_these(chat: DiscordChat) -> None:
    answer = await chat.slash("ask", question="loss gpus")

    labels = [c["label"] for c in components(answer.message)]
    assert labels[-1] == "None of these" and len(labels) == 3
    assert ">>> " in answer.embeds[0]["description"]  # a question back still has its caveat

    picked = await chat.click(answer.sent, labels[0])
    assert picked.kind == 7  # the question becomes the answer, in place
    assert [c["label"] for c in components(picked.message)] == ["Why these levels?"]
    assert "[" in picked.embeds[0]["description"] and ">>> " in picked.embeds[0]["description"]


async def test_none_of_these_suggests_other_words_as_telegram_does(chat: DiscordChat) -> None:
    answer = await chat.slash("ask", question="loss gpus")
    none = await chat.click(answer.sent, "None of these")

    assert none.kind == 7 and none.message["components"] == []
    assert none.embeds == []  # the offer is replaced, not followed by the whole help
    assert none.content.startswith("None of those, then. Try asking in other words")
    assert "`/ask`" in none.content


async def test_none_of_these_in_chinese_stays_in_chinese(chat: DiscordChat) -> None:
    answer = await chat.slash("ask", question="发布 硬件", by=LI)
    labels = [c["label"] for c in components(answer.message)]
    assert labels[-1] == "都不是"  # the premise: a choice offered in Chinese

    none = await chat.click(answer.sent, "都不是", by=LI)

    assert none.content.startswith("好的，都不是。请换个说法再问")


async def test_choices_offered_in_a_mention_can_be_clicked(chat: DiscordChat) -> None:
    reply = await chat.mention("loss gpus")
    picked = await chat.click(reply.answer, "None of these")
    assert picked.kind == 7


@pytest.fixture
def many_readings(client: MarinClient, monkeypatch: pytest.MonkeyPatch) -> list[Choice]:
    """A core that finds six close readings for one question."""
    core = client.services.core
    choices = core.topic_choices("en")[:6]

    def ask(text: str, *, lang: str | None = None, **_: object) -> Reply:
        return core.renderer.reply(
            kind="choices", lang=lang or "en", outcome=Outcome.CHOICES, choices=choices
        )

    monkeypatch.setattr(core, "ask", ask)
    return choices


async def test_many_readings_become_a_select_menu(
    chat: DiscordChat, many_readings: list[Choice]
) -> None:
    answer = await chat.slash("ask", question="everything")

    (menu,) = components(answer.message)
    assert menu["type"] == 3
    assert [o["label"] for o in menu["options"]] == [c.label for c in many_readings] + [
        "None of these"
    ]

    picked = await chat.pick(answer.sent, many_readings[0].label)
    assert picked.kind == 7  # the choices gave way to the answer (and its "Why?")
    assert [c["label"] for c in components(picked.message)] == ["Why these levels?"]
    assert picked.embeds[0]["title"] == "Marin 535B-A23B: where the evidence stands"


async def test_in_a_direct_message_every_message_is_a_question(
    fake_discord: FakeDiscord, client: MarinClient
) -> None:
    dm = DiscordChat(fake_discord, client, dm=True)

    reply = await dm.say_and_wait("has training started?")
    status = await dm.slash("status")

    assert "[confirmed]" in reply.embeds[0]["description"]
    assert "where the evidence stands" in status.embeds[0]["title"]


async def test_a_mention_reply_that_needs_several_messages_sends_them_all(
    chat: DiscordChat, fake_discord: FakeDiscord
) -> None:
    first = await chat.mention("what are your sources?")
    total = int(first.embeds[0]["footer"]["text"].split("/")[1])
    assert total >= 2  # the premise: the sources list needs more than one message

    def is_last(call: object) -> bool:
        embeds = getattr(call, "body", {}).get("embeds") or [{}]
        return str((embeds[0].get("footer") or {}).get("text")).startswith(f"{total}/{total}")

    last = await fake_discord.wait_for(
        "POST", rf"/channels/{chat.channel_id}/messages", after=0, where=is_last
    )
    # the later messages are sent (they used to raise TypeError), without a reference, and
    # the last one carries the caveat and the as-of date
    assert last.body.get("message_reference") is None
    assert "evidence as of" in str(last.body).lower()
