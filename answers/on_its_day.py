"""A clause is about the run when a record of the day it names says a word of it: "9月22号决定主跑
不改 router 算术" is the router decision of September 22, though its words alone read as
machine learning at large. A day alone is not enough ("Sep 22 was a Tuesday"), nor a word
alone ("router" is every MoE's).
"""

from __future__ import annotations

import re

from answers.days import months
from answers.reasons import terms
from answers.records import Records

_ANY_DAY = frozenset("之后 之後 以后 以後 那天 当天 當天".split())  # (words of any day)
_DAY_TERM = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|[月号號日]")


def on_its_day(records: Records, text: str) -> bool:
    """Whether a record of every day the folded ``text`` names says one of its words."""
    days = {d for d in months(text) if d[1] is not None}
    if not days:
        return False
    own = {t for t in terms(text) if t not in _ANY_DAY and not _DAY_TERM.search(t)}
    return any(any(t in records.said(c) for t in own) for c in records.on_days(days))
