"""Read a period out of a question: "what changed this week?" → 7 days.

Only for the "what changed" reading, whose answer is a digest over a window. Returns None
when the question names no period (the digest then shows the newest batch of changes).
"""

from __future__ import annotations

from answers.lengths import length_days
from answers.text import fold

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
    if (days := length_days(text)) is not None:  # "the last 3 days", "最近一周"
        return max(1, round(days))
    for phrase, period in _PHRASES:
        if phrase in text:
            return period
    return None
