"""How often the run's records are updated: no record gives a cadence of posts or updates,
so "Percy 每天都在推特更新進度", "they've been posting weekly loss updates on Discord" and
"report 每天自动更新" are unsupported (the status log and the W&B report are public and kept
up, on days of their own)."""

from __future__ import annotations

import re

from answers.records import Records
from answers.verdicts import UNSUPPORTED, Verdict

_EVERY = re.compile(
    r"\b(?:daily|weekly|hourly|nightly|every (?:single )?(?:day|week|hour|night|morning)"
    r"|each (?:day|week))\b|每天|每日|每周|每週|每星期|每个?礼拜|每小时|每小時|天天|每晚"
)
# an update, a post, a report put out (not "每天 2.7e22 FLOPs", "天天挂", "每天发生")
_UPDATES = re.compile(
    r"\bupdat\w*|\bpost(?:s|ed|ing)?\b|\btweets?\b|更新|周报|週報|日报|日報|(?:发|發)(?!生)"
)


def cadence(records: Records, text: str) -> Verdict | None:
    """Unsupported, naming the records of public tracking, if the text (folded) gives a
    cadence of updates; None otherwise."""
    if not (_EVERY.search(text) and _UPDATES.search(text)):
        return None
    return UNSUPPORTED, records.known("status-log-public", "wandb-report-maintained")
