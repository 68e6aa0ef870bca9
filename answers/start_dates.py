"""The run's start put on a day, or denied: it started on August 19 (the status log's word) and
was announced on the 21st; "八月底才正式开训的", "it started in July" and "训练根本还没开始" are
contradicted by those records."""

from __future__ import annotations

import re

from answers.days import month_parts, months
from answers.records import Records
from answers.verdict_words import ANNOUNCED, NEGATION, RUN_ID, STARTED
from answers.verdicts import CONTRADICTED, SUPPORTED, Verdict

# the post that told of the start, by its kind: "percy's X post 8/21 'started this week'"
_TOLD = re.compile(rf"{ANNOUNCED.pattern}|\bx post\b|\bpost\b")


def start_verdict(records: Records, text: str, topic: str | None) -> Verdict | None:
    """The verdict on the start the text (folded) tells, and the claims it names; None when it
    tells none. Supported means the day is right: who said it is the caller's to check."""
    if topic not in ("started", "start-date") or not STARTED.search(text):
        return None
    if RUN_ID.search(text):  # a restart, not the run's start: "9月9日 hero-ragged_a2a-… 开始"
        return None
    if NEGATION.search(text):  # "it hasn't even started": the records say it has
        return CONTRADICTED, records.known("training-started")
    if any(m != 8 or 19 not in days for m, days in month_parts(text)):
        return CONTRADICTED, ("start-date",)  # "八月底才正式开训的"
    dates = months(text)
    if not dates:
        return None
    # started Aug 19, announced Aug 21 (the status log opened Aug 20)
    days = {19, 21} if _TOLD.search(text) else {19}
    if not all(m == 8 and (d is None or d in days) for m, d in dates):
        return CONTRADICTED, ("start-date",)
    announced = ("training-started",) if _TOLD.search(text) else ()
    return SUPPORTED, ("start-date", *announced)
