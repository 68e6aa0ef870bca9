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
    assert reply.claims[0].id == "progress-2026-10-09-231464"
    assert "231,464" in reply.body and "59.3%" in reply.body and "已确认" in reply.body
    assert "证据截至" in reply.caveat


def test_on_the_seed_day_the_public_record_already_held_the_status_log(bot: Conversation) -> None:
    # The seed brief had only the relayed X post, but #8506 ("Hero run started on August
    # 19th.", 2026-08-20) was public: as the public record stood, the start was confirmed.
    reply = bot.ask("has it started?", as_of=dt.date(2026, 8, 22))
    assert reply.claims[0].level == "confirmed"
    assert "Seen only through a relay, not verified by us: Percy Liang on X" in reply.caveat
    assert "GitHub issue #8506" in reply.caveat


def test_the_day_before_the_relay_the_start_rested_on_the_status_log_alone(
    bot: Conversation,
) -> None:
    reply = bot.ask("has it started?", as_of=dt.date(2026, 8, 21))
    assert reply.claims[0].level == "single-source"
    assert "Single source" in reply.caveat and "status log" in reply.caveat
    assert "Percy Liang" not in reply.caveat


def test_so_the_model_is_out_is_answered_as_an_absence_with_its_date(bot: Conversation) -> None:
    reply = bot.ask("so the model is out?")
    assert [c.id for c in reply.claims] == ["model-not-released", "export-tooling"]
    assert (
        "No record in the knowledge base (its newest record is from 2026-10-10) shows the model "
        "released" in reply.body
    )
    # an absence is never "confirmed": that would read as "confirmed not released"
    assert "[no record found]" in reply.body and "[confirmed]" not in reply.body


def test_two_token_figures_are_shown_side_by_side(bot: Conversation) -> None:
    reply = bot.ask("how many tokens will it train on?")
    assert {"tokens-plan-18-75t", "tokens-config-18-0t"} <= {c.id for c in reply.claims}
    assert "18.75T" in reply.body and "18.0T" in reply.body
    assert "Plan:" in reply.body


def test_stale_evidence_says_how_old_it_is(bot: Conversation) -> None:
    reply = bot.ask("how far along is it?")
    assert "days before today (2026-12-01)" in reply.caveat


def test_a_question_about_something_else_gets_i_dont_know(bot: Conversation) -> None:
    reply = bot.ask("what's the weather in Paris?")
    assert reply.outcome == "unknown"
    assert "I don't know" in reply.title and "I can answer" in reply.body


def test_a_question_about_another_model_is_not_answered_with_this_runs_facts(
    bot: Conversation,
) -> None:
    for question in (
        "how many tokens was llama 3 trained on?",
        "what hardware does deepseek use?",
        "is the marin 32b model released?",
        "qwen3 的权重开源了吗",
    ):
        reply = bot.ask(question)
        assert reply.outcome == "unknown", question
        assert reply.claims == ()
    assert "I only follow Marin 535B-A23B" in bot.ask("is gpt-5 released?").title


def test_comparing_with_another_model_is_still_about_this_run(bot: Conversation) -> None:
    reply = bot.ask("is it better than llama?")
    assert reply.extra["topic"] == "evaluation"
    assert "No record in the knowledge base (its newest record is from 2026-10-10)" in reply.body


def test_a_two_part_question_gets_both_parts(bot: Conversation) -> None:
    reply = bot.ask("tokens and hardware?")
    ids = [c.id for c in reply.claims]
    assert "tokens-plan-18-75t" in ids and "hardware-gb200" in ids
    assert ids.index("tokens-plan-18-75t") < ids.index("hardware-gb200")
    zh = bot.ask("什么时候开始的，和什么时候结束？")
    assert {"training-started", "expected-end"} <= {c.id for c in zh.claims}


def test_the_seed_day_picture_holds_nothing_published_later(bot: Conversation) -> None:
    seed_day = dt.date(2026, 8, 22)
    for topic in ("status", "release", "hardware", "tracking", "ladder", "duration", "tokens"):
        reply = bot.core.answer_key(topic, lang="en", as_of=seed_day)
        for use in reply.claims:
            assert bot.core.kb.since[use.id] <= seed_day
        for later in ("2026-09", "2026-10", "September", "October", "390,251"):
            assert later not in reply.body, (topic, later)


def test_a_day_in_october_shows_the_entry_of_two_days_before(bot: Conversation) -> None:
    reply = bot.ask("how far along?", as_of=dt.date(2026, 10, 5))
    assert reply.claims[0].id == "progress-2026-10-03-197637"
    assert "step 197,637" in reply.body and "2 days before the date asked about" in reply.body
    assert "231,464" not in reply.body and "215,756" not in reply.body


def test_dates_outside_the_knowledge_base_are_refused_clearly(bot: Conversation) -> None:
    future = bot.ask("status", as_of=dt.date(2099, 1, 1))
    assert future.outcome == "rejected" and "is in the future" in future.body
    before = bot.ask("status", as_of=dt.date(2020, 1, 1))
    assert before.outcome == "rejected"
    assert "its first record is from 2026-08-19" in before.body
    assert "recorded 2026-11-30" in before.caveat  # a real date, never a placeholder


def test_several_single_source_statements_are_each_named(bot: Conversation) -> None:
    reply = bot.ask("what's the loss?")
    assert reply.caveat.count("⚠ Single source:") == 3
    assert '"The status log of 2026-09-24 reports the first evaluation…"' in reply.caveat


def test_a_traditional_chinese_question_gets_a_traditional_answer(bot: Conversation) -> None:
    reply = bot.ask("模型發佈了沒有？")
    assert reply.language == "zh" and reply.extra["script"] == "traditional"
    assert "知識庫中沒有任何記錄顯示模型已發布" in reply.body
    assert "證據截至" in reply.caveat
    assert "script" not in bot.ask("模型发布了吗？").extra


def test_a_two_part_question_in_chinese_gets_both_parts(bot: Conversation) -> None:
    reply = bot.ask("用了什么硬件，损失是多少？")
    assert reply.outcome == "answer" and reply.extra["topic"] == "hardware+loss"


def test_the_october_node_eviction_is_answered(bot: Conversation) -> None:
    reply = bot.ask("what happened on oct 6, the node eviction?")
    assert "incident-1006-taint" in [c.id for c in reply.claims]
    assert "s14fys64" in reply.body and "215756" in reply.body


def test_early_september_shows_the_start_on_more_than_one_record(bot: Conversation) -> None:
    reply = bot.ask("has it started?", as_of=dt.date(2026, 9, 5))
    assert reply.claims[0].id == "training-started" and reply.claims[0].level == "confirmed"
    assert "as the public record stood on 2026-09-05" in reply.caveat
