"""The same conversation on the console, Telegram and Discord: the same input gives the same
reply everywhere, rendered in each platform's way (``conftest.readable`` reads it back)."""

from __future__ import annotations

import datetime as dt

import pytest

from answers.reply import Reply
from bot.chat.conversation import Conversation
from bot.chat.where import Chat
from bot.core import Core
from bot.digest.builder import DigestService
from knowledge.clock import fixed_clock
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY
from tests.everywhere.conftest import Platform, readable

QUESTIONS = [
    "has it started?",
    "how far along is it and when does it end?",
    "训练开始了吗",
    "訓練開始了嗎",
    "what's the capital of France?",
    "loss gpus",
]


def expected(kb: KnowledgeBase, question: str) -> Reply:
    """The platform-free reply: what every platform must show, each in its own markup."""
    core = Core(kb, clock=fixed_clock(TODAY))
    conversation = Conversation(core, DigestService(kb, core.renderer))
    return conversation.ask(Chat("reference", "reference", "someone"), question)


def shows(text: str, reply: Reply) -> None:
    """``text`` (as read on a platform) holds the reply's title, every claim and the date."""
    said = text.replace("\\", "")  # Discord's markdown escapes
    assert readable(reply.title) in said
    for claim in reply.claims:
        assert readable(claim.statement)[:60] in said, claim.id
    if reply.as_of is not None:
        day = reply.as_of
        written = f"{day.year}年{day.month}月{day.day}日" if reply.language == "zh" else str(day)
        assert written in said
    for choice in reply.choices:
        assert choice.label[:30] in said or reply.title in said


@pytest.mark.parametrize("question", QUESTIONS)
async def test_a_question_gets_the_same_answer_everywhere(
    platform: Platform, kb: KnowledgeBase, question: str
) -> None:
    shows(await platform.ask(question), expected(kb, question))


async def test_the_overview_command_is_the_same_everywhere(
    platform: Platform, kb: KnowledgeBase
) -> None:
    core = Core(kb, clock=fixed_clock(TODAY))
    status = core.answer_key("status", lang="en")
    text = await platform.command("status")
    assert readable(status.title) in text
    assert str(status.as_of) in text


async def test_a_digest_of_the_last_week_is_the_same_everywhere(
    platform: Platform, kb: KnowledgeBase
) -> None:
    text = await platform.command("digest", "7")
    core = Core(kb, clock=fixed_clock(TODAY))
    digests = DigestService(kb, core.renderer)
    from bot.digest.window import Window

    digest = digests.build(Window.last_days(7, TODAY.date()), lang="en")
    assert readable(digest.reply.title) in text
    assert "I answer only from recorded evidence" in text  # the caveat closes it


async def test_a_whole_hour_offset_is_a_time_zone_everywhere(platform: Platform) -> None:
    """``UTC+8`` was a zone on Telegram and an error on Discord; the console has no daily
    digest at all, and says so instead of refusing the zone."""
    said = await platform.daily_digest_at("08:30", "UTC+8")
    if platform.name == "console":
        assert "/digest shows what changed" in said
    else:
        assert "08:30" in said and "UTC+8" in said


async def test_an_unknown_time_zone_gets_the_same_refusal_everywhere(platform: Platform) -> None:
    said = await platform.daily_digest_at("08:30", "Mars/Olympus")
    if platform.name == "console":
        assert "/digest shows what changed" in said
    else:
        assert "I do not know the time zone Mars/Olympus" in said


def test_the_reference_clock_is_the_platforms_clock() -> None:
    assert TODAY.date() == dt.date(2026, 12, 1)
