"""A length of time a text states, in days: "~6 months" is 180, "三个月" 90, "最近3天" 3.

One reading for the checker (the run's length against the plan's ~100 days) and for
"what changed in the last 2 weeks?" (``periods.py``).
"""

from __future__ import annotations

import re

_COUNT = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# Chinese counts, also for dateparser, which reads only digits ("两周前" is "2 周前")
COUNT_ZH = dict(zip("一二两兩三四五六七八九十", (1, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10), strict=True))
_UNIT_DAYS = {
    "day": 1,
    "week": 7,
    "month": 30,
    "天": 1,
    "日": 1,
    "周": 7,
    "週": 7,
    "期": 7,
    "月": 30,
}
_LENGTH = re.compile(
    r"\b(\d+(?:\.\d+)?|a|one|two|three|four|five|six)[\s-]*(?:(?:full|whole|entire) )?"
    r"(day|week|month)s?\b"  # "a 6-month run", "a full day"
    r"|([\d一二两兩三四五六七八九十]+)\s*(天|周|週|星期|[个個]\s*月)"  # "三个月", not "12 月 1 日"
    r"|(半)\s*(年)|\b(half) an? (year)\b"  # "计划训练半年"
)


def length_days(text: str) -> float | None:
    """The first length of time ``text`` (folded) states, in days; None if it states none."""
    found = _LENGTH.search(text)
    if found is None:
        return None
    if found[5] or found[7]:
        return 182.5  # half a year
    count, unit = (found[1], found[2]) if found[1] else (found[3], found[4])
    if count.replace(".", "", 1).isdigit():
        number = float(count)
    else:
        number = float(_COUNT.get(count) or COUNT_ZH.get(count[-1], 0))
    return number * (_UNIT_DAYS.get(unit) or _UNIT_DAYS[unit[-1]]) or None


# Every length told with its unit, for a figure told in the wrong unit: "lost 至少 78 个小时"
# (the record: at least 78 minutes)
_SPAN = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:(minutes?|mins?|hours?|hrs?|h|days?|weeks?)\b"
    r"|(分钟|分鐘|[个個]?\s*小时|[个個]?\s*小時|天|周|週))"
)
_SPAN_UNIT = {"min": "minute", "hr": "hour", "h": "hour", "分钟": "minute", "分鐘": "minute"}
_SPAN_UNIT |= {"小时": "hour", "小時": "hour", "天": "day", "周": "week", "週": "week"}


def spans(text: str) -> list[tuple[float, str]]:
    """Each length of time ``text`` (folded) tells, as (count, unit): "78 minutes" →
    (78, "minute"), "78 个小时" → (78, "hour")."""
    found = []
    for count, english, chinese in _SPAN.findall(text):
        unit = english.rstrip("s") if english else chinese.lstrip("个個 ")
        found.append((float(count), _SPAN_UNIT.get(unit, unit)))
    return found


def span_crossed(text: str, told: list[tuple[float, str]]) -> bool:
    """Whether ``text`` gives a count a record ``told`` in another unit of time, and never in
    this one ("78 hours": the record's 78 minutes)."""
    for count, unit in spans(text):
        units = {u for c, u in told if c == count}
        if units and unit not in units:
            return True
    return False
