"""An announcement said to have just been made: "Marin 官方已经发公告了", "percy confirmed it on
x this morning", "Open Athena blog announced completion this morning". The announcements on
record are dated (the launch post of August 21, the Open Athena post of September 2, the
halfway post of October 6); one said made today or already, with no day, is on none of
them, so it is unsupported (a dated one is weighed with its day elsewhere)."""

from __future__ import annotations

import re

from answers.days import months
from answers.records import Records
from answers.verdict_words import NEGATION, hedged
from answers.verdicts import UNSUPPORTED, Verdict

_ANNOUNCED = re.compile(
    r"\b(?:announc\w*|confirm(?:s|ed)?|made it official)\b"
    r"|官宣|宣布|公告|确认|確認|证实|證實|(?:发|發)推|(?:发|發)文"
)
# (not ongoing.py's "today", which holds "this week": a relayed launch post's "confirmed it
# started this week" is that post's week)
_JUST_NOW = re.compile(
    r"\b(?:today|this morning|tonight|just now|earlier today|already)\b"
    r"|刚刚|剛剛|今天|今早|今晚|已经|已經"
)


def announced_now(records: Records, text: str) -> Verdict | None:
    """Unsupported, naming the official announcement on record, if the text (folded) says an
    announcement was made today or already, naming no day; None otherwise."""
    if not (_ANNOUNCED.search(text) and _JUST_NOW.search(text)) or months(text):
        return None
    if NEGATION.search(text) or hedged(text, said_too=False, approximate_too=False):
        return None  # "沒人能確認今天真的結束了", "expected to announce today"
    return UNSUPPORTED, records.known("official-announcement")
