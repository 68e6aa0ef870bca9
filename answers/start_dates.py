"""The run's start put on a day, or denied: it started on August 19 (the status log's word) and
was announced on the 21st; "八月底才正式开训的", "it started in July" and "训练根本还没开始" are
contradicted by those records."""

from __future__ import annotations

import re

from answers.days import MONTH, month_parts, months
from answers.records import Records
from answers.verdict_words import ANNOUNCED, NEGATION, RUN_ID, STARTED
from answers.verdicts import CONTRADICTED, SUPPORTED, Verdict

# A start put on a day in a clause telling something else: "started aug 21 on 11x gb200",
# "8 月 21 日开训 用的是 11 个 gb200 机柜" (a start with its day next to it, not "started using
# fa4 on sep 23")
_STARTED_ON = re.compile(
    r"\b(?:start(?:ed|s)?|began|kick(?:ed)? off|launch(?:ed)?)\s+(?:on\s+|in\s+)?"
    rf"(?:{MONTH.pattern})"
    rf"|(?:{MONTH.pattern})\s*(?:就|才)?(?:开训|開訓|开跑|開跑)"
)
# something else started: "started using fa4 on sep 23"
_STARTED_DOING = re.compile(r"\b(?:start(?:ed|s)?|began)\s+(?:using|to use|switching|running)\b")
_START_CLAIMS = {"start-date", "training-started", "start-wandb-run"}
# the post that told of the start, by its kind: "percy's X post 8/21 'started this week'"
_TOLD = re.compile(
    rf"{ANNOUNCED.pattern}|\bx post\b|\bpost\b|\btweet\b|[那这這]?[条條篇]推(?![迟遲])"
)


_ORDINAL = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b|(?<!\d)(\d{1,2})\s*[号號](?!\d)")


def start_verdict(records: Records, text: str, topic: str | None) -> Verdict | None:
    """The verdict on the start the text (folded) tells, and the claims it names; None when it
    tells none. Supported means the day is right: who said it is the caller's to check."""
    if topic not in ("started", "start-date") or not STARTED.search(text):
        return None
    # a restart, not the run's start ("9月9日 hero-ragged_a2a-… 开始"), or another start
    if RUN_ID.search(text) or _STARTED_DOING.search(text):
        return None
    if NEGATION.search(text):  # "it hasn't even started": the records say it has
        # (but not on another day than the 19th: "it didn't start on the 21st")
        days = {d for _, d in months(text) if d} | {int(a or b) for a, b in _ORDINAL.findall(text)}
        start = STARTED.search(text)  # (its own "not": not "haven't checked since it started")
        near = start is not None and NEGATION.search(
            text[max(0, start.start() - 12) : start.start()]
        )
        if days and 19 not in days and near:  # (the 21st is the day it was announced)
            return SUPPORTED, records.known("start-date", "training-started")
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


def start_beside(records: Records, text: str, claims: tuple[str, ...]) -> tuple[str, ...]:
    """The start's claim, when the text (folded, supported by ``claims`` on another fact) puts
    the run's start on a wrong day beside it; () otherwise."""
    if _START_CLAIMS & set(claims) or not _STARTED_ON.search(text):
        return ()
    told = start_verdict(records, text, "started")
    return told[1] if told is not None and told[0] == CONTRADICTED else ()
