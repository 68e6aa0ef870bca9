"""The loss held against its preregistered forecast: no record measures the one against the
other, nor gives a final loss. "the loss is tracking the 2.04 target exactly" is unsupported;
"损失最后正好是预注册的 2.04" and "目標是 … loss 2.04 | 結果已經達標了" tell the forecast as
met, a plan told as done; "预计最后会是 2.04" tells the forecast.
"""

from __future__ import annotations

import re

from answers.assertions import Figure
from answers.records import Records
from answers.time_words import WILL
from answers.verdict_words import AGAINST_FORECAST, AS_DONE
from answers.verdicts import PLAN_AS_FACT, UNSUPPORTED, Verdict

# The loss the run ended at: met exactly, or "final" (not "the forecast for the final loss",
# which tells the forecast)
_MET = re.compile(
    r"\b(?:exactly|spot on|perfectly|nailed|ended (?:up )?at|landed (?:right )?(?:on|at)"
    r"|came in at|hit (?:the |its )?target|met (?:the |its )?target"
    r"|crossed (?:it|the target|the line)|already (?:hit|reached|beat) it)\b"
    r"|正好|恰好|刚好|剛好|完美|命中|达标|達標"
)
_FINAL = re.compile(r"\bfinal(?:ly)?\b|最后|最後|最终|最終")
_LOSS = re.compile(r"\bloss\b|损失|損失")
_FORECAST = re.compile(
    r"\b(?:forecast|target|projected|predicted|prediction)\b|预测|預測|目标|目標"
)
# (or a forecast still to be met: what will be, or would, should, is expected to)
_TO_BE = re.compile(rf"{WILL.pattern}|\b(?:would|should|expected to)\b|预计|預計|预期|預期")


def forecast_verdict(
    records: Records, text: str, said: list[Figure], held: list[list[str]]
) -> Verdict | None:
    """The verdict on the folded ``text`` measuring the loss against its forecast, naming the
    forecast; None if it does not. ``held``: the claims holding each figure, or those the clause
    before named when it has none ("…2.04 | 結果已經達標了")."""
    # the loss measured against its forecast, now or at the end: no record does ("the loss is
    # tracking the 2.04 target exactly", "我預測最後會比 2.04 低")
    # (or named by the clause before: "目標是 … loss 2.04 | 結果已經達標了"; or by name: "the
    # hero landed right on the ladder's predicted loss")
    losses = records.claims("loss")
    forecast = [c for h in held for c in h if c in records.plans and c in losses]
    if not said and _FORECAST.search(text) and _LOSS.search(text):
        forecast = forecast or [c for c in losses if c in records.plans]
    if forecast and AGAINST_FORECAST.search(text) and not AS_DONE.search(text):
        return UNSUPPORTED, tuple(forecast[:1])
    # or the forecast told as the loss it ended at ("损失最后正好是预注册的 2.04"): no record
    # gives a final loss (not "预计最后会是 2.04", the forecast told)
    final = _FINAL.search(text)
    told = final and _FORECAST.search(text[: final.start()])
    if forecast and (_MET.search(text) or final and not told) and not _TO_BE.search(text):
        return PLAN_AS_FACT, tuple(forecast[:1])
    return None
