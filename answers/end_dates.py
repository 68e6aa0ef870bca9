"""An end of pretraining put on a day, judged against the plan's December 1 and the days the
records name (the tracker's own estimate of Nov 27 among them); the run's length, against the
plan's ~100 days."""

from __future__ import annotations

import datetime as dt
import re

from answers.days import MONTH, month_parts, months
from answers.lengths import length_days
from answers.records import Records
from answers.verdict_words import PLANNED, hedged
from answers.verdicts import CONTRADICTED, SUPPORTED, UNSUPPORTED

END = dt.date(2026, 12, 1)  # the planned end of pretraining
# The plan's ~100 days, and the ~25% it may be shortened by: "three months" is about it,
# "~6 months" is not.
LENGTH_DAYS = (75, 125)
# the team's own word for the end date, not the third-party tracker's estimate
TEAM_WORD = re.compile(
    r"\b(?:post|blog|announcement|homepage|tweet)\b|博客|文章|推文|官方|官网|官網|公告"
    r"|\bexpected end of pretraining\b"  # (the post's own words)
)
_TRACKER = re.compile(r"\btracker\b|mtracker|追踪|追蹤")
RUN_LENGTH = 30  # a length this long, said anywhere, is the run's (not "2 days later")
# A part of the run's time, not its length: "只剩一天", "lost 3 days", "two weeks late".
_PART = re.compile(
    r"\b(?:left|remaining|more|ago|after|since|lost|behind|late|delay\w*|in the last|first|into)\b"
    r"|剩|还有|還有|之后|之後|以后|以後|晚了|延|落后|落後|前"
    r"|/\s?day\b|\bper day\b|\ba day\b|每天|一天"  # a rate: "46 points in 37 days, ~1.25/day"
    r"|\b(?:points?|pts)\s+in\b"
)
# An end word and a date within a few words of each other: "ETA is mid-January 2027",
# "2027 年 3 月才結束" (not "ends at step 390,251 - the plan as of mid-Sep").
# The end of pretraining: a date other than the planned December 1 contradicts the plan.
ENDING = re.compile(
    r"\b(?:(?<!the )end(?:s|ing)?|end(?! of (?:aug|sep|oct|nov))"  # (not "at the end of sept")
    r"|finish(?:es|ed)?|eta|done by|wrap(?:s|ped)?(?: up)?)\b|结束|結束|训完|訓完"
    r"|(?:预训练|預訓練|训练|訓練)完成|完成(?:预训练|預訓練|训练|訓練)"  # not 完成上下文扩展
    # "预计 2027 年 3 月完成", "11 月 27 号收工"
    r"|收工|完工|收尾|练完|炼完|跑完|(?:(?<=[月号號日])|(?<=[月号號日]\s))完成(?=\s*了?\s*$)"
)

_ENDS_ON = re.compile(
    rf"(?:{ENDING.pattern}).{{0,24}}?(?:{MONTH.pattern})|(?:{MONTH.pattern}).{{0,20}}?(?:{ENDING.pattern})"
)


def end_verdict(records: Records, text: str) -> tuple[str, tuple[str, ...]] | None:
    """The verdict on an end put on a day other than the plan's, and the claims it names; None
    when the text puts no end on such a day (a denial is the caller's to set aside)."""
    if not _ENDS_ON.search(text) or "%" in text:
        return None
    said = months(text)
    plan = records.known("expected-end")
    # a part of the plan's month that leaves out its day: "ending mid-December"
    if any(m == END.month and END.day not in part for m, part in month_parts(text)):
        return CONTRADICTED, plan
    if (END.month, END.day) in said:
        return None  # the plan's end, with the day it was told ("the Sep 2 post: ends Dec 1")
    # an end date no record gives: another month, or another day of December ("Dec 15")
    other = [d for d in said if d[0] != END.month or d[1] not in (None, END.day)]
    if any(d not in records.all_days for d in other):
        return CONTRADICTED, plan
    days = {d for d in said if d != (END.month, END.day) and d in records.all_days}
    if not days:
        return None
    # "官方计划 11 月 27 日结束", "the Huang Foundation post gave Nov 27": the plan ends Dec 1
    if PLANNED.search(text) or (TEAM_WORD.search(text) and not _TRACKER.search(text)):
        return CONTRADICTED, plan
    if hedged(text):  # "est. end Nov 27": the tracker's estimate, as an estimate
        return SUPPORTED, records.on_days(days)
    return UNSUPPORTED, plan  # "it'll definitely end Nov 27": an estimate told as the end


def length_verdict(
    records: Records, text: str, topic: str | None
) -> tuple[str, tuple[str, ...]] | None:
    """A length of the whole run far from the plan's contradicts it; None otherwise (a length
    near the plan's is a plan, judged with the other plans)."""
    # (nor the days between two days it names: "8 月 19 日到 10 月 9 日一共 51 天")
    spans = len({d for d in months(text) if d[1] is not None}) >= 2
    days = length_days(text) if not _PART.search(text) and not spans else None
    # a run's length (a month or more) whatever the reading: "the launch post said ~6 months"
    days = days if topic == "duration" or (days or 0) >= RUN_LENGTH else None
    if days is None or LENGTH_DAYS[0] <= days <= LENGTH_DAYS[1]:
        return None
    return CONTRADICTED, records.known("duration-plan")
