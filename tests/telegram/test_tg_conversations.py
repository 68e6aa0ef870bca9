"""Talking to the bot in Telegram: commands, questions in private and in groups, choices.

Every update goes through python-telegram-bot's real parsing, routing and request building;
the fake Bot API refuses what Telegram would refuse (bad HTML, over-long messages).
"""

from __future__ import annotations

import logging
from contextlib import closing
from pathlib import Path

import pytest

from answers.reply import Outcome, Reply
from bot.adapters.telegram.commands import COMMANDS
from bot.adapters.telegram.format import NONE_OF_THESE
from bot.store.signals import SQLiteSignalStore
from bot.watchers.review import queue_reply
from knowledge.knowledge_base import KnowledgeBase
from tests.telegram import tg_updates
from tests.telegram.conftest import MovableClock, TelegramHarness, running_bot, telegram_options
from tests.telegram.tg_fake import ALICE, BOB, BOT, GROUP, LI, SUPERGROUP, FakeBotAPI
from tests.telegram.tg_updates import bot_message, message

# A question that is close to two topics, so the core offers choices.
AMBIGUOUS = "loss gpus"


def caveat_last(text: str) -> bool:
    return text.rstrip().endswith("</i>") and "<i>" in text.rsplit("\n\n", 1)[-1]


# --- private chat -------------------------------------------------------------------------


async def test_start_says_what_the_bot_is_in_the_users_language(telegram: TelegramHarness) -> None:
    [hello] = await telegram.say("/start")
    assert "answers questions about the Marin 535B-A23B training run" in hello.text
    [ni_hao] = await telegram.say("/start", user=LI)
    assert "训练的问题" in ni_hao.text


async def test_help_lists_the_commands_then_the_topics_in_the_users_language(
    telegram: TelegramHarness,
) -> None:
    [hello] = await telegram.say("/start")
    assert "/help lists every command" in hello.text

    replies = await telegram.say("/help")
    help_text = "\n".join(r.text for r in replies)
    for command in COMMANDS["en"]:
        if command not in ("start", "help"):
            assert f"\n/{command}" in help_text, command
    assert "/digest [days | since YYYY-MM-DD]" in help_text
    assert "/subscribe [HH:MM] [time zone]" in help_text
    assert f"mentioning me (@{BOT['username']}), by replying to one of my messages" in help_text
    assert help_text.index("/settings") < help_text.index("You can ask about")  # then topics
    assert caveat_last(replies[-1].text)

    zh = "\n".join(r.text for r in await telegram.say("/help", user=LI))
    assert "/subscribe [HH:MM] [时区]" in zh and "回复我的消息" in zh and "可以问" in zh


async def test_any_text_in_a_private_chat_is_a_question(telegram: TelegramHarness) -> None:
    [answer] = await telegram.say("has it started?")
    assert answer.text.startswith("<b>Has training started?</b>")
    assert "has started training. (status as of 2026-08-21) [confirmed]" in answer.text
    assert caveat_last(answer.text) and "Evidence as of" in answer.text
    assert answer.params.get("reply_parameters") is None  # no quoting in a private chat


async def test_a_chinese_question_gets_a_chinese_answer(telegram: TelegramHarness) -> None:
    [answer] = await telegram.say("训练到哪一步了？")
    assert "已确认" in answer.text and "证据截至" in answer.text


async def test_ask_help_status_sources_and_watch_each_answer_with_a_caveat(
    telegram: TelegramHarness,
) -> None:
    for command, heading in [
        ("/ask how many tokens?", "<b>How many tokens?</b>"),
        ("/help", "<b>marin-watch: what I can answer</b>"),
        ("/status", "<b>Marin 535B-A23B: where the evidence stands</b>"),
        ("/sources", "<b>The records marin-watch relies on</b>"),
        ("/watch", "<b>"),
    ]:
        replies = await telegram.say(command)
        assert replies, command
        assert replies[0].text.startswith(heading), command
        assert caveat_last(replies[-1].text), command


async def test_ask_without_a_question_explains_how(telegram: TelegramHarness) -> None:
    [usage] = await telegram.say("/ask")
    assert "Put the question after the command" in usage.text


async def test_a_long_reply_is_split_and_keeps_its_caveat_whole_in_the_last_message(
    telegram: TelegramHarness,
) -> None:
    replies = await telegram.say("/sources")
    assert all(len(r.text) <= 4096 for r in replies)
    assert caveat_last(replies[-1].text)
    assert all("<i>" not in r.text for r in replies[:-1])


async def test_hostile_text_is_escaped_and_telegram_accepts_every_reply(
    telegram: TelegramHarness,
) -> None:
    # The fake answers 400 "can't parse entities" to bad HTML, as Telegram does; the bot
    # would then apologise with its error message instead of answering.
    for hostile in ['<b>has it started?</b> & </a><a href="x">', "</a>", "&amp; <i>", "<" * 5000]:
        replies = await telegram.say(hostile)
        assert replies, hostile
        assert all("went wrong" not in r.text for r in replies), hostile
        assert all(r.method == "sendMessage" for r in replies)


async def test_edited_messages_and_commands_are_not_answered_again(
    telegram: TelegramHarness,
) -> None:
    update = message("/status")
    edited = {"update_id": update["update_id"] + 10_000, "edited_message": update["message"]}
    assert await telegram.send(edited) == []


# --- choices --------------------------------------------------------------------------------


async def test_choices_come_as_buttons_and_the_chosen_one_replaces_them(
    telegram: TelegramHarness,
) -> None:
    assert telegram.core.ask(AMBIGUOUS).outcome is Outcome.CHOICES  # the premise
    [offer] = await telegram.say(AMBIGUOUS)
    labels = [label for label, _ in offer.buttons]
    assert labels[-1] == "None of these" and len(labels) >= 3
    assert caveat_last(offer.text)

    label, key = offer.buttons[0]
    [edited] = await telegram.press(offer, key)
    assert edited.method == "editMessageText"
    assert edited.params["message_id"] == "901"
    assert edited.text.startswith(f"<b>{label}</b>") or label in edited.text
    assert caveat_last(edited.text)
    assert not edited.buttons  # the keyboard is gone
    assert [c.method for c in telegram.last][0] == "answerCallbackQuery"  # no spinner left


async def test_none_of_these_is_answered_by_editing_the_offer(telegram: TelegramHarness) -> None:
    [offer] = await telegram.say(AMBIGUOUS)
    [edited] = await telegram.press(offer, NONE_OF_THESE)
    assert edited.method == "editMessageText"
    assert "None of those" in edited.text and "/help" in edited.text
    assert not edited.buttons


async def test_a_button_pressed_while_the_bot_was_down_is_still_answered(
    telegram: TelegramHarness,
) -> None:
    [offer] = await telegram.say(AMBIGUOUS)
    label, key = offer.buttons[0]
    # Pressed long ago: too late to stop the spinner, not too late to answer.
    telegram.api.fail(
        "answerCallbackQuery",
        400,
        "Bad Request: query is too old and response timeout expired or query id is invalid",
    )

    [edited] = await telegram.press(offer, key)

    assert edited.method == "editMessageText" and label in edited.text
    assert caveat_last(edited.text)
    assert "went wrong" not in "".join(c.text for c in telegram.last)


async def test_choices_in_chinese_stay_in_chinese(telegram: TelegramHarness) -> None:
    question = "硬件 损失"
    assert telegram.core.ask(question).outcome is Outcome.CHOICES  # the premise
    [offer] = await telegram.say(question, user=LI)
    assert offer.buttons[-1][0] == "都不是"
    label, key = offer.buttons[0]
    [answer] = await telegram.press(offer, key, user=LI)
    assert label in answer.text and "证据截至" in answer.text
    [offer] = await telegram.say(question, user=LI)
    [none] = await telegram.press(offer, NONE_OF_THESE, user=LI)
    assert "都不是" in none.text


# --- groups -----------------------------------------------------------------------------------


async def test_in_a_group_the_bot_stays_quiet_unless_addressed(telegram: TelegramHarness) -> None:
    assert await telegram.say("has it started?", chat=GROUP) == []
    assert await telegram.say("nice weather today", chat=GROUP, user=BOB) == []


async def test_in_a_group_a_mention_is_a_question_answered_in_a_reply(
    telegram: TelegramHarness,
) -> None:
    [answer] = await telegram.say(f"@{BOT['username']} has it started?", chat=GROUP)
    assert "has started training" in answer.text
    assert answer.params["reply_parameters"]["message_id"]  # quotes the question


async def test_in_a_group_a_reply_to_the_bot_is_a_question(telegram: TelegramHarness) -> None:
    [first] = await telegram.say("/ask has it started?", chat=GROUP)
    [follow_up] = await telegram.say(
        "and how many tokens?", chat=GROUP, reply_to=bot_message(first)
    )
    assert "<b>How many tokens?</b>" in follow_up.text


async def test_in_a_group_a_bare_mention_gets_the_help(telegram: TelegramHarness) -> None:
    [helped] = await telegram.say(f"@{BOT['username']}", chat=GROUP)
    assert "what I can answer" in helped.text and "/subscribe" in helped.text


async def test_commands_addressed_to_the_bot_by_name_work_in_groups(
    telegram: TelegramHarness,
) -> None:
    [status] = await telegram.say(f"/status@{BOT['username']}", chat=GROUP)
    assert "where the evidence stands" in status.text
    assert await telegram.say("/status@some_other_bot", chat=GROUP) == []


# --- subscription and settings -------------------------------------------------------------


async def test_subscribe_settings_and_unsubscribe_in_a_private_chat(
    telegram: TelegramHarness,
) -> None:
    [ok] = await telegram.say("/subscribe 07:30 Asia/Shanghai")
    assert "daily at <b>07:30</b> (Asia/Shanghai)" in ok.text
    sub = telegram.subscription(ALICE["id"])
    assert (sub.digest_time.isoformat(), sub.timezone, sub.language) == (
        "07:30:00",
        "Asia/Shanghai",
        "en",
    )

    [shown] = await telegram.say("/settings")
    assert "daily digest: 07:30 (Asia/Shanghai)" in shown.text
    [quiet] = await telegram.say("/settings quiet on")
    assert "quiet days: on" in quiet.text and telegram.subscription(ALICE["id"]).post_on_quiet_days
    [zh] = await telegram.say("/settings language zh")
    assert "本聊天的设置" in zh.text
    [still_zh] = await telegram.say("/status")  # commands now answer in the chat's language
    assert "证据截至" in still_zh.text

    [bye] = await telegram.say("/unsubscribe")
    assert "已取消订阅" in bye.text
    sub = telegram.subscription(ALICE["id"])
    assert not sub.active and sub.inactive_reason == f"/unsubscribe by user {ALICE['id']}"
    [again] = await telegram.say("/unsubscribe")
    assert "not subscribed" in again.text


async def test_subscribe_defaults_to_nine_utc_and_keeps_earlier_choices(
    telegram: TelegramHarness,
) -> None:
    await telegram.say("/subscribe")
    sub = telegram.subscription(ALICE["id"])
    assert (sub.digest_time.hour, sub.timezone) == (9, "UTC")
    await telegram.say("/subscribe Europe/Berlin")
    sub = telegram.subscription(ALICE["id"])
    assert (sub.digest_time.hour, sub.timezone) == (9, "Europe/Berlin")


async def test_bad_times_and_zones_are_explained(telegram: TelegramHarness) -> None:
    [bad_time] = await telegram.say("/subscribe 25:00")
    assert "<code>25:00</code> as a time of day" in bad_time.text
    [bad_zone] = await telegram.say("/subscribe 08:00 Mars/Olympus_Mons")
    assert "time zone <code>Mars/Olympus_Mons</code>" in bad_zone.text
    [hostile] = await telegram.say("/subscribe <b>&")
    assert "&lt;b&gt;&amp;" in hostile.text
    assert telegram.subscription(ALICE["id"]) is None
    [bad_setting] = await telegram.say("/settings")
    assert "not subscribed" in bad_setting.text


async def test_a_utc_offset_is_a_time_zone_not_a_time(telegram: TelegramHarness) -> None:
    [ok] = await telegram.say("/subscribe 09:00 UTC+8")
    assert "daily at <b>09:00</b> (UTC+8)" in ok.text
    assert telegram.subscription(ALICE["id"]).timezone == "Etc/GMT-8"  # POSIX: sign inverted

    [west] = await telegram.say("/subscribe GMT-5")
    assert "(UTC-5)" in west.text
    assert telegram.subscription(ALICE["id"]).timezone == "Etc/GMT+5"
    [shown] = await telegram.say("/settings timezone UTC+8")
    assert "daily digest: 09:00 (UTC+8)" in shown.text


async def test_a_half_hour_offset_gets_a_city_to_use_instead(telegram: TelegramHarness) -> None:
    [india] = await telegram.say("/subscribe 09:00 UTC+5:30")
    assert "no fixed time zone for <code>UTC+5:30</code>" in india.text
    assert "<code>Asia/Kolkata</code>" in india.text
    [zh] = await telegram.say("/subscribe UTC+9:30", user=LI)
    assert "没有对应的固定时区" in zh.text and "Australia/Darwin" in zh.text
    [too_far] = await telegram.say("/subscribe GMT+15")
    assert "time zone <code>GMT+15</code>" in too_far.text
    assert telegram.subscription(ALICE["id"]) is None
    assert telegram.subscription(LI["id"]) is None


async def test_only_group_admins_change_the_groups_subscription(telegram: TelegramHarness) -> None:
    [refused] = await telegram.say("/subscribe 08:00", chat=GROUP, user=BOB)
    assert "Only the group's administrators" in refused.text
    assert telegram.subscription(GROUP["id"]) is None

    telegram.api.members[(str(GROUP["id"]), ALICE["id"])] = "administrator"
    [ok] = await telegram.say("/subscribe 08:00", chat=GROUP, user=ALICE)
    assert "Subscribed" in ok.text and telegram.subscription(GROUP["id"]).active
    [refused] = await telegram.say("/unsubscribe", chat=GROUP, user=BOB)
    assert "Only the group's administrators" in refused.text


async def test_a_group_that_becomes_a_supergroup_keeps_its_subscription(
    telegram: TelegramHarness,
) -> None:
    telegram.api.members[(str(GROUP["id"]), ALICE["id"])] = "creator"
    await telegram.say("/subscribe 08:00", chat=GROUP)
    migrate = message("", chat=GROUP)
    del migrate["message"]["text"]
    migrate["message"]["migrate_to_chat_id"] = SUPERGROUP["id"]
    await telegram.send(migrate)
    assert telegram.subscription(SUPERGROUP["id"]).digest_time.hour == 8
    assert telegram.subscription(GROUP["id"]) is None


async def test_a_user_who_blocks_the_bot_is_unsubscribed_with_the_reason(
    telegram: TelegramHarness,
) -> None:
    await telegram.say("/subscribe")
    blocked = {
        "update_id": 77,
        "my_chat_member": {
            "chat": {"id": ALICE["id"], "type": "private", "first_name": "Alice"},
            "from": ALICE,
            "date": 0,
            "old_chat_member": {"status": "member", "user": BOT},
            "new_chat_member": {"status": "kicked", "user": BOT, "until_date": 0},
        },
    }
    await telegram.send(blocked)
    sub = telegram.subscription(ALICE["id"])
    assert not sub.active and sub.inactive_reason == "the user blocked the bot"


# --- curators ------------------------------------------------------------------------------


async def test_signals_shows_the_curators_queue_to_the_bots_admins_only(
    kb: KnowledgeBase, api: FakeBotAPI, db_path: Path, clock: MovableClock
) -> None:
    def signals_for(lang: str) -> Reply:
        with closing(SQLiteSignalStore(db_path)) as signals:
            return queue_reply(signals, lang=lang)

    options = telegram_options(admin_ids=frozenset({BOB["id"]}))
    async with running_bot(kb, api, db_path, clock, options, signals_for) as telegram:
        [refused] = await telegram.say("/signals")
        assert "for the bot's curators" in refused.text
        [queue] = await telegram.say("/signals", user=BOB)
        assert queue.text.startswith("<b>Unreviewed signals (0)</b>")
        assert "not evidence" in queue.text  # its caveat, as every reply has one


# --- the command menu ---------------------------------------------------------------------------


async def test_every_command_in_the_menu_is_handled_in_both_languages(
    telegram: TelegramHarness,
) -> None:
    from telegram.ext import CommandHandler

    from bot.adapters.telegram.commands import register_commands

    handled = {
        command
        for group in telegram.app.handlers.values()
        for h in group
        if isinstance(h, CommandHandler)
        for command in h.commands
    }
    assert set(COMMANDS["en"]) == set(COMMANDS["zh"]) == handled - {"signals"}  # admins only

    await register_commands(telegram.app.bot)
    en, zh = telegram.api.of("setMyCommands")
    assert "language_code" not in en.params and zh.params["language_code"] == "zh"
    assert [c["command"] for c in en.params["commands"]] == list(COMMANDS["en"])
    assert {c["command"]: c["description"] for c in zh.params["commands"]} == COMMANDS["zh"]


async def test_a_follow_up_in_a_chat_is_about_the_last_question(telegram: TelegramHarness) -> None:
    await telegram.say("权重开源了吗")
    [answer] = await telegram.say("那有checkpoint公开吗")
    assert "检查点" in answer.text
    [vague] = await telegram.say("ok when then?")
    # too vague to read alone: about the last answered question (the checkpoints)
    assert "检查点" in vague.text or "checkpoint" in vague.text.lower()


# What the Bot API answers an edit that changes nothing (a double tap on a choice, or two
# members of a group pressing the same button).
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


async def test_a_choice_pressed_twice_is_answered_once_and_the_chat_hears_nothing_more(
    telegram: TelegramHarness,
) -> None:
    [offer] = await telegram.say(AMBIGUOUS)
    _, key = offer.buttons[0]
    await telegram.press(offer, key)
    telegram.api.fail("editMessageText", 400, NOT_MODIFIED)

    await telegram.press(offer, key)

    sent = [c for c in telegram.last if c.method == "sendMessage"]
    assert sent == []  # no "Something went wrong on my side" posted to the chat
    assert [c.method for c in telegram.last][0] == "answerCallbackQuery"  # the spinner stops


async def test_an_answer_survives_one_flood_wait_and_one_server_error(
    telegram: TelegramHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    telegram.api.fail(
        "sendMessage", 429, "Too Many Requests: retry after 1", parameters={"retry_after": 1}
    )
    refused, answer = await telegram.say("has it started?")
    assert refused.text == answer.text  # the same message, sent again after the wait
    assert "has started training" in answer.text  # the answer, not an error text
    # waited out, so not an error: one INFO line, no traceback
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert "retrying in 1 s" in caplog.text

    telegram.api.fail("sendMessage", 502, "Bad Gateway")
    failed, answer = await telegram.say("what hardware?")
    assert failed.text == answer.text and "GB200" in answer.text


async def test_a_refused_answer_is_not_retried(telegram: TelegramHarness) -> None:
    telegram.api.fail("sendMessage", 403, "Forbidden: bot was blocked by the user")
    await telegram.say("has it started?")
    assert len([c for c in telegram.api.of("sendMessage") if "started" in (c.text or "")]) <= 1


async def test_an_unknown_command_in_a_private_chat_gets_a_hint(telegram: TelegramHarness) -> None:
    [hint] = await telegram.say("/frobnicate now")
    assert "/help" in hint.text and "don't know that command" in hint.text
    [zh] = await telegram.say("/frobnicate", user=LI)
    assert "/help" in zh.text and "命令" in zh.text


async def test_a_photo_whose_caption_asks_a_question_is_answered(
    telegram: TelegramHarness,
) -> None:
    [answer] = await telegram.send(tg_updates.photo("is this thing released yet?"))
    assert "released" in answer.text and caveat_last(answer.text)
