"""'What changed this week?' is answered for the week asked about, not the newest batch."""

from __future__ import annotations

import datetime as dt

import pytest

from answers.periods import period_days
from answers.render import Renderer
from answers.reply import Reply
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.window import Window
from knowledge.clock import fixed_clock
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("what changed this week?", 7),
        ("anything new in the last 3 days", 3),
        ("what's new since yesterday", 1),
        ("updates over the past 2 weeks?", 14),
        ("最近一周有什么变化", 7),
        ("这个月有啥更新", 30),
        ("最近3天有新证据吗", 3),
        ("what changed recently?", None),
    ],
)
def test_periods_are_read_from_the_question(question: str, days: int | None) -> None:
    assert period_days(question) == days


def test_what_changed_this_week_says_nothing_changed_this_week(kb: KnowledgeBase) -> None:
    later = TODAY + dt.timedelta(days=10)  # a quiet week after the 2026-11-30 update
    clock = fixed_clock(later)
    digests = DigestService(kb, Renderer(kb, clock))

    def changes(lang: str, as_of: dt.date | None, days: int | None) -> Reply:
        if days is None:
            return digests.recent(lang=lang, as_of=as_of).reply
        return digests.build(Window.last_days(days, later.date()), lang=lang).reply

    core = Core(kb, clock=clock, changes=changes)
    week = core.ask("what changed this week?")
    assert (
        week.kind == "digest" and "No change to the evidence 2026-12-05 – 2026-12-11" in week.body
    )
    assert "2026-11-30" in week.body  # and when the newest evidence was recorded
    latest = core.ask("what changed recently?")
    assert "Latest evidence changes, on 2026-11-30" in latest.title
