"""Read a period out of a question: "what changed this week?" → 7 days.

Only for the "what changed" reading, whose answer is a digest over a window. Returns None
when the question names no period (the digest then shows the newest batch of changes).
"""

from __future__ import annotations

import re

from answers.text import fold

_NUMBER_EN = re.compile(r"\b(?:last|past|previous)?\s*(\d{1,4})\s*(day|week|month)s?\b")
_NUMBER_ZH = re.compile(r"(\d{1,4})\s*(天|日|周|星期|个月|月)")
_ZH_DIGITS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "十": 10}
_WORD_ZH = re.compile(r"([一两二三四五六七十])\s*(天|日|周|星期|个月)")
_UNIT_DAYS = {
    "day": 1,
    "week": 7,
    "month": 30,
    "天": 1,
    "日": 1,
    "周": 7,
    "星期": 7,
    "个月": 30,
    "月": 30,
}
_PHRASES = (
    ("yesterday", 1),
    ("today", 1),
    ("this week", 7),
    ("last week", 7),
    ("past week", 7),
    ("this month", 30),
    ("last month", 30),
    ("past month", 30),
    ("昨天", 1),
    ("今天", 1),
    ("这周", 7),
    ("本周", 7),
    ("上周", 7),
    ("一周", 7),
    ("这个月", 30),
    ("本月", 30),
    ("上个月", 30),
)


def period_days(question: str) -> int | None:
    text = fold(question)
    if m := _NUMBER_EN.search(text):
        return max(1, int(m[1]) * _UNIT_DAYS[m[2]])
    if m := _NUMBER_ZH.search(text):
        return max(1, int(m[1]) * _UNIT_DAYS[m[2]])
    if m := _WORD_ZH.search(text):
        return _ZH_DIGITS[m[1]] * _UNIT_DAYS[m[2]]
    for phrase, days in _PHRASES:
        if phrase in text:
            return days
    return None
