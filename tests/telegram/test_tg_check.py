"""Checking a message in Telegram: /check as a reply, a forwarded message, and "why?"."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from tests.telegram import tg_updates
from tests.telegram.conftest import TelegramHarness
from tests.telegram.tg_fake import ALICE, BOB, GROUP, LI

LIMIT = 4096
RUMOUR = "Marin 535B finished training, weights next week! It runs on 704 GB200 GPUs."


def posted(text: str, user: dict[str, Any] = BOB, date: float | None = None) -> dict[str, Any]:
    """A message someone else posted in the group (at ``date``, by default now), as it
    appears in a reply to it."""
    return {
        "message_id": 4242,
        "date": int(date if date is not None else time.time()),
        "chat": GROUP,
        "from": user,
        "text": text,
    }


async def test_check_as_a_reply_gives_a_verdict_on_each_assertion(
    telegram: TelegramHarness,
) -> None:
    said = await telegram.say("/check", chat=GROUP, reply_to=posted(RUMOUR))
    assert all(len(m.text) <= LIMIT for m in said)
    text = "\n".join(m.text for m in said)
    assert "Marin 535B finished training" in text and "no record supports it" in text
    assert "weights next week!" in text
    assert "It runs on 704 GB200 GPUs" in text and "supported" in text
    assert "Evidence as of" in text and "I answer only from recorded evidence" in text


async def test_a_message_forwarded_to_the_bot_is_checked_in_the_askers_language(
    telegram: TelegramHarness,
) -> None:
    update = tg_updates.message("听说 Marin 535B 已经训完了，用了 18.75T tokens", user=LI)
    update["message"]["forward_origin"] = {
        "type": "user",
        "date": int(time.time()),
        "sender_user": BOB,
    }
    said = await telegram.send(update)
    text = "\n".join(m.text for m in said)
    assert all(len(m.text) <= LIMIT for m in said)
    assert "关于这条消息" in text
    assert "没有记录支持" in text and "把计划当成了事实" in text
    assert "证据截至" in text


async def test_a_twelve_point_thread_is_checked_whole_within_telegrams_limit(
    telegram: TelegramHarness,
) -> None:
    thread = (
        "TL;DR • Marin 535B 8月19日开训 • 跑在 11 个 GB200 NVL72 机柜上 • 共 792 张 GPU "
        "• 计划 18.75T tokens • 上周已经训完了 • 下周放权重 • MFU 到了 45% "
        "• 最新 checkpoint 是 step 231,464 • 算力 2.7e24 FLOPs • 上下文 32k "
        "• MMLU 超过 DeepSeek-V3 • 激活参数 23B"
    )
    said = await telegram.say("/check", chat=GROUP, user=LI, reply_to=posted(thread))
    assert all(len(m.text) <= LIMIT for m in said)
    text = "\n".join(m.text for m in said)
    assert "激活参数 23B" in text and "未核查：每条消息我只核查前" not in text
    assert "证据截至" in text


async def test_words_that_could_be_markup_are_quoted_escaped(telegram: TelegramHarness) -> None:
    [verdict] = await telegram.say("/check <b>it finished</b> & the weights are out", user=ALICE)
    assert "&lt;b&gt;it finished&lt;/b&gt;" in verdict.text
    assert "<b>it finished</b>" not in verdict.text


async def test_why_after_an_answer_shows_the_derivation(telegram: TelegramHarness) -> None:
    await telegram.say("has it started?")
    said = await telegram.say("why is that confirmed?")
    assert all(len(m.text) <= LIMIT for m in said)
    text = "\n".join(m.text for m in said)
    assert "Why these levels" in text
    assert "Records that count" in text and "official record" in text
    assert "Relays counted as the record they repeat" in text
    assert "I answer only from recorded evidence" in said[-1].text  # the caveat closes it


async def test_why_as_a_command_names_the_rule(telegram: TelegramHarness) -> None:
    [why] = await telegram.say("/why release")
    assert "an absence is never confirmed" in why.text
    [usage] = await telegram.say("/check")
    assert "Reply <code>/check</code> to a message" in usage.text


async def test_the_why_button_under_an_answer_posts_the_derivation(
    telegram: TelegramHarness,
) -> None:
    said = await telegram.say("has it started?")
    last = said[-1]
    assert last.buttons == [("Why these levels?", "why:started")]
    explained = await telegram.press(last, "why:started")
    text = "\n".join(m.text for m in explained if m.method == "sendMessage")
    assert "Why these levels" in text and "Records that count" in text
    assert all(len(m.text) <= LIMIT for m in explained if m.method == "sendMessage")


async def test_chart_is_a_photo_whose_caption_carries_the_caveat(
    telegram: TelegramHarness,
) -> None:
    said = await telegram.say("/chart")
    photo = next(m for m in said if m.method == "sendPhoto")
    assert photo.params["photo"].startswith(b"\x89PNG")
    caption = photo.params["caption"]
    text = "\n".join(m.text for m in said)
    assert "Progress against the plan" in caption
    assert "I answer only from recorded evidence" in text  # in the caption, or right after it
    assert "2026-10-09" in text  # the newest record, and the gap since it


async def test_a_relative_date_is_read_from_when_the_replied_message_was_posted(
    telegram: TelegramHarness,
) -> None:
    said = "Percy posted yesterday that the run passed the halfway mark"
    october_7 = dt.datetime(2026, 10, 7, 9, tzinfo=dt.UTC).timestamp()
    [then] = await telegram.say("/check", chat=GROUP, reply_to=posted(said, date=october_7))
    assert f'✓ "{said}": supported' in then.text.replace("&quot;", '"')
    [now] = await telegram.say("/check", chat=GROUP, reply_to=posted(said))
    # today, "yesterday" is a day no record names: never supported
    assert said in now.text.replace("&quot;", '"') and "✓" not in now.text
