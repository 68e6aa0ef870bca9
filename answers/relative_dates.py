"""Dates a message names relative to when it was written ("last Tuesday", "2 weeks ago",
"上个月", "前天"), made absolute so the checker can hold them against the records' days.

dateparser reads them (English and Chinese). A phrase counts when it points back from now
(ago, last, 上, 前…) and its date moves when "now" moves ("Sept 23rd", "10月3号" do not). The
present ("this week", "today") is left alone: a relayed post's "started training this week"
is the post's week, not ours.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from answers.days import MONTH
from answers.lengths import COUNT_ZH

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

_LANGUAGES = ["en", "zh"]
_SHIFT = dt.timedelta(days=7)
_MONTH_SHIFT = dt.timedelta(days=31)
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
# Chat's words for days dateparser does not know, as the ones it does: 上星期/上礼拜 (last
# week), 昨日 (yesterday), 前日 (the day before)
_ZH_SAID = {"上星期": "上周", "上礼拜": "上周", "上个礼拜": "上周", "昨日": "昨天", "前日": "前天"}
_ZH_WORDS = re.compile("|".join(sorted(_ZH_SAID, key=len, reverse=True)))
# "上周五": a weekday of last calendar week, which dateparser reads as "上周" and a stray "五"
_ZH_LAST_WEEKDAY = re.compile(r"上周\s*([一二三四五六日天])")
_WEEKDAY_ZH = "一二三四五六日"
_ZH_COUNTED = re.compile(r"([一二两三四五六七八九十])\s*(?=(?:个|個)?\s*(?:天|周|週|星期|月)\s*前)")


# What makes a phrase point back from now: dateparser alone also reads a length as a date
# ("3 months" as three months ago, "100 days", "54 天") and a word as a weekday ("we", "fr").
_PAST = re.compile(r"\b(?:ago|last|yesterday|previous)\b|前|上|昨")


@lru_cache(maxsize=4)
def _parser(now: dt.datetime) -> DateDataParser:
    from dateparser.date import DateDataParser  # imported on first use: ask never pays for it

    settings = {"RELATIVE_BASE": now, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
    return DateDataParser(languages=_LANGUAGES, settings=settings)


@lru_cache(maxsize=256)  # a clause is read again as the context of the next one
def absolute(text: str, written: dt.date) -> str:
    """``text`` (folded) with each past relative date written as the day or month it names:
    "last tuesday percy posted" on 2026-11-30 → "nov 24 percy posted"."""
    text = _ZH_COUNTED.sub(lambda m: f"{COUNT_ZH[m[1]]} ", text)  # dateparser reads digits
    text = _ZH_WORDS.sub(lambda m: _ZH_SAID[m[0]], text)
    text = _ZH_LAST_WEEKDAY.sub(lambda m: f" {_last_week(m[1], written)} ", text)
    if not _PAST.search(text):  # most clauses: no need to run the parser at all
        return text
    from dateparser.search import search_dates

    now = dt.datetime.combine(written, dt.time(12))
    settings = {"RELATIVE_BASE": now, "PREFER_DATES_FROM": "past"}
    for words, _ in search_dates(text, languages=_LANGUAGES, settings=settings) or ():
        named = _named(words, now)
        if named is not None:
            text = text.replace(words, f" {named} ", 1)
    return text


def _last_week(weekday: str, written: dt.date) -> str:
    """The day "上周<weekday>" names: that weekday of the calendar week (Monday first) before
    the one ``written`` falls in, so on a Saturday "上周五" is eight days back, not one."""
    index = _WEEKDAY_ZH.index("日" if weekday == "天" else weekday)
    day = written - dt.timedelta(days=written.weekday() + 7 - index)
    return f"{_MONTHS[day.month - 1]} {day.day}"


def _named(words: str, now: dt.datetime) -> str | None:
    """The day ("nov 24") or month ("october") a past relative phrase names; None for any
    other phrase."""
    if MONTH.search(words) or not _PAST.search(words):
        return None  # a date written out ("10月3号"), or no pointer to the past at all
    here = _parser(now).get_date_data(words)
    later = _parser(now + _SHIFT).get_date_data(words)
    if here.date_obj is None or later.date_obj is None:
        return None
    moved = later.date_obj - here.date_obj
    if here.period == "month":  # "上个月", not "may" (a month on: a week may not leave it)
        month_on = _parser(now + _MONTH_SHIFT).get_date_data(words).date_obj
        relative = month_on is not None and here.date_obj.month != month_on.month
    else:
        relative = _SHIFT - dt.timedelta(days=2) <= moved <= _SHIFT + dt.timedelta(days=2)
    if not relative:
        return None
    day = here.date_obj.date()
    if not dt.timedelta(days=1) <= now.date() - day <= dt.timedelta(days=366):
        return None  # the present ("this week"), or no date at all ("at 95%" is no 1995)
    month = _MONTHS[day.month - 1]
    return f"{month} {day.day}" if here.period == "day" else month
