"""Conversations with the bot about the run: the questions people actually ask."""

from __future__ import annotations

import datetime as dt

from tests.conftest import Conversation


def test_has_it_started_is_answered_with_its_confidence_and_sources(bot: Conversation) -> None:
    reply = bot.ask("has marin 535b started training?")
    assert reply.outcome == "answer"
    assert reply.claims[0].id == "training-started"
    assert reply.claims[0].level == "confirmed"
    assert "has started training" in reply.body
    assert "Sources:" in reply.caveat and "#8506" in reply.caveat


def test_chinese_question_gets_a_chinese_answer(bot: Conversation) -> None:
    reply = bot.ask("Marin 535B 训练到哪一步了？")
    assert reply.language == "zh"
    assert reply.claims[0].id == "progress-latest"
    assert "50.7%" in reply.body and "已确认" in reply.body
    assert "证据截至" in reply.caveat


def test_on_the_seed_day_the_launch_rested_on_one_relayed_post(bot: Conversation) -> None:
    reply = bot.ask("has it started?", as_of=dt.date(2026, 8, 22))
    assert reply.claims[0].level == "single-source"
    assert "Single source" in reply.caveat
    assert "Percy Liang on X" in reply.caveat
    assert "social post" in reply.caveat and "2026-08-21" in reply.caveat
    assert "not verified by us" in reply.caveat


def test_so_the_model_is_out_is_answered_as_an_absence_with_its_date(bot: Conversation) -> None:
    reply = bot.ask("so the model is out?")
    assert [c.id for c in reply.claims] == ["model-not-released"]
    assert "No record in the knowledge base as of 2026-10-08 shows the model released" in reply.body


def test_two_token_figures_are_shown_side_by_side(bot: Conversation) -> None:
    reply = bot.ask("how many tokens will it train on?")
    assert {"tokens-plan-18-75t", "tokens-config-18-0t"} <= {c.id for c in reply.claims}
    assert "18.75T" in reply.body and "18.0T" in reply.body
    assert "Plan:" in reply.body


def test_stale_evidence_says_how_old_it_is(bot: Conversation) -> None:
    reply = bot.ask("how far along is it?")
    assert "days before today (2026-11-29)" in reply.caveat


def test_a_question_about_something_else_gets_i_dont_know(bot: Conversation) -> None:
    reply = bot.ask("what's the weather in Paris?")
    assert reply.outcome == "unknown"
    assert "I don't know" in reply.title and "I can answer" in reply.body
