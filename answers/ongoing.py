"""Training said to be still going. "run 还在跑" and "still pretraining as of the last public
record (Oct 9)" are what the newest records say; "still training today" and "as of today (nov
30) it's definitely still running" say it of a day no record reaches, so no record supports
them (the newest is named instead)."""

from __future__ import annotations

import datetime as dt
import re

from answers.days import months
from answers.records import Records
from answers.verdict_words import NEGATION
from answers.verdicts import SUPPORTED, UNSUPPORTED, Verdict

_ONGOING = re.compile(
    r"\bstill (?:training|running|going|pretraining|in pretraining|chugging)\b"
    r"|\b(?:training|pretraining|the run) is (?:still )?ongoing\b"
    r"|还在(?:训|练|炼|跑|进行)|仍在(?:训|练|跑|进行)"
)
# the day it is said on, which no record reaches (not "现在", often "as the records stand")
_TODAY = re.compile(
    r"\b(?:today|tonight|right now|rn|atm|as we speak|this (?:morning|week)|as of now)\b"
    r"|今天|今日|此刻|眼下"
)


def ongoing_verdict(records: Records, text: str) -> Verdict | None:
    """The verdict on training said (in ``text``, folded) to be still going, and the records
    it names; None if the text says no such thing, or denies it (judged elsewhere)."""
    if not _ONGOING.search(text) or NEGATION.search(text):
        return None
    newest = records.known("training-ongoing-1010", *records.claims("progress")[-1:])
    last = max(day for c in newest if (day := records.kb.claims[c].as_of) is not None)
    days = [dt.date(last.year, m, d) for m, d in months(text) if d is not None]
    if _TODAY.search(text) or any(day > last for day in days):
        return UNSUPPORTED, newest
    return SUPPORTED, newest
