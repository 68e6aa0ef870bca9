"""Dates a message names relative to when it was written, read as the days they name."""

from __future__ import annotations

import datetime as dt

import pytest

from answers.relative_dates import absolute
from answers.text import fold, spaced

MONDAY = dt.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("last Tuesday percy posted it's at 95%", "nov 24 percy posted it's at 95%"),
        ("昨天刚 switch 到 65k context", "nov 29 刚 switch 到 65k context"),
        ("上个月官方发了技术报告", "oct 官方发了技术报告"),
        ("两周前 loss 炸了", "nov loss 炸了"),  # a week's month, not a made-up day
        ("三天前出事了", "nov 27 出事了"),
    ],
)
def test_a_past_relative_date_becomes_the_day_or_month_it_names(said: str, read: str) -> None:
    assert " ".join(absolute(spaced(fold(said)), MONDAY).split()) == read


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # early in a month, last month is still last month (a week on is the same month)
        ("上個月將 context 由 4k 拉到 16k", "nov 将 context 由 4k 拉到 16k"),
        ("last month they bumped the context", "nov they bumped the context"),
        # chat's and Hong Kong's words for days: 上星期, 昨日 and 噚日, 前日
        ("Percy 上星期先講到 13%", "percy nov 先讲到 13%"),
        ("噚日 Percy 話已經 80%", "dec 1 percy 话已经 80%"),
        ("前日係官方結束日", "nov 30 系官方结束日"),
        # a weekday of last week is that day, not last week's month and a stray "five"
        ("上个礼拜五 Percy 说还在训练", "nov 27 percy 说还在训练"),
        ("上週三嘅 status log", "nov 25 的 status log"),
    ],
)
def test_words_for_days_chat_uses_are_read_on_the_second_of_a_month(said: str, read: str) -> None:
    assert " ".join(absolute(spaced(fold(said)), dt.date(2026, 12, 2)).split()) == read


def test_last_weeks_weekday_is_counted_in_calendar_weeks() -> None:
    saturday = dt.date(2026, 11, 28)  # "上周五" is the Friday of the week before this one
    assert " ".join(absolute(spaced(fold("上周五还在训练")), saturday).split()) == "nov 20 还在训练"


@pytest.mark.parametrize(
    "said",
    [
        "Marin 535B-A23B started training this week!",  # the relayed post's week, not ours
        "they trained it on 18.75T tokens over 3 months",  # a length, not "3 months ago"
        "~100 days",
        "10月3号存档失败",  # a date written out
        "on Sept 23rd MFU was 26.75%",
        "may be done soon",
        "do we just refresh twitter",  # "we" is no Wednesday
    ],
)
def test_anything_else_is_left_as_written(said: str) -> None:
    text = spaced(fold(said))
    assert absolute(text, MONDAY) == text
