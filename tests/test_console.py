"""A conversation at the console prompt, as a user without any token would have it."""

from __future__ import annotations

import io

from answers.reply import Reply
from bot.adapters.console import Console, run
from tests.conftest import Conversation


def test_a_console_conversation_with_a_choice_picked_by_number(bot: Conversation) -> None:
    console = Console(bot.core)
    offer = console.reply_to("is it open source or where are the sources")
    assert offer is not None and offer.outcome == "choices"
    assert [c.key for c in offer.choices] == ["release", "sources"]
    picked = console.reply_to("1")
    assert picked is not None and picked.claims[0].id == "model-not-released"


def test_commands_answer_in_the_language_of_the_last_question(bot: Conversation) -> None:
    console = Console(bot.core)
    console.reply_to("开训了吗")
    status = console.reply_to("/status")
    assert status is not None and status.language == "zh" and "证据现状" in status.title


def test_the_prompt_loop_answers_each_line_and_stops_at_quit(bot: Conversation) -> None:
    out = io.StringIO()
    code = run(
        bot.core, io.StringIO("has it started?\n\n/quit\nnever read\n"), out, interactive=False
    )
    text = out.getvalue()
    assert code == 0
    assert "Has training started?" in text and "what I can answer" in text  # an empty line: help
    assert text.count("Evidence as of") + text.count("newest evidence was recorded") == 2


def test_a_follow_up_is_read_against_the_last_question(bot: Conversation) -> None:
    console = Console(bot.core)
    first = console.reply_to("how often do they save checkpoints")
    assert first is not None and first.extra["topic"] == "checkpoints"
    follow = console.reply_to("are any of them public")
    assert follow is not None and follow.extra["topic"] == "checkpoints"
    assert "checkpoints-not-public" in [c.id for c in follow.claims]
    # a question that reads on its own is not bent towards the last one
    own = console.reply_to("what hardware?")
    assert own is not None and own.extra["topic"] == "hardware"


def test_typed_numbers_that_are_not_plain_digits_never_crash_the_console(
    bot: Conversation,
) -> None:
    console = Console(bot.core)
    for line in ("/digest ²", "/digest " + "9" * 5000, "٣", "9" * 5000):
        said = console.reply_to(line)
        # an answer with its caveat, or a line saying what works: never a traceback
        assert said is not None
        assert said.caveat if isinstance(said, Reply) else "/digest 7" in said.plain()
