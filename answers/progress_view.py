"""The progress answers, rendered from the newest progress observation on the date asked about.

"How far along?", "how many tokens so far?", "is it on schedule?" and "progress history" all
read the same time series (``knowledge/progress.py``). The newest observation is stated with
its record, its date and age and "no record since"; the share of steps and the tokens it
implies are arithmetic on that record, labelled so. Nothing is projected to today.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import END_CLAIM, PLANNED_END, RUN_STARTED, START_CLAIM, Observation

# The progress readings of the vocabulary, answered here rather than from a claim topic.
READINGS = ("progress", "tokens-so-far", "schedule", "progress-history")
HISTORY = "progress-history"
TRACKER_CLAIM = "tracker-estimate"
BUDGET_CLAIM = "tokens-config-18-0t"
# How many earlier observations follow the newest one (the history reading shows them all).
EARLIER = 2


def visible_observations(kb: KnowledgeBase, on: dt.date | None) -> list[Observation]:
    return [o for o in kb.observations if kb.visible(o.claim_id, on)]


def progress_view(
    kb: KnowledgeBase, focus: str, on: dt.date | None, today: dt.date
) -> tuple[list[str], dict[str, Any]] | None:
    """The claims and template context of a progress answer, or None when no step is on
    the public record by ``on``."""
    series = visible_observations(kb, on)
    if not series:
        return None
    newest = series[-1]
    earlier = series[:-1][::-1] if focus == HISTORY else series[-1 - EARLIER : -1][::-1]
    claims = [newest.claim_id, *(o.claim_id for o in earlier)]
    oldest = (earlier[-1] if earlier else newest).date
    posts = [
        c.id
        for c in kb.topics.get(HISTORY, ())
        if kb.visible(c.id, on) and (focus == HISTORY or (c.as_of or oldest) >= oldest)
    ]
    if focus in ("progress", HISTORY):
        claims += [c for c in posts if c not in claims]
    day = on or today
    context: dict[str, Any] = {
        "focus": focus,
        "newest": newest,
        "earlier": [o.claim_id for o in earlier],
        "percent": f"{newest.share * 100:.1f}",
        "tokens_t": f"{newest.tokens / 1e12:.2f}",
        "age_days": (day - newest.date).days,
        "day": day,
    }
    if focus == "tokens-so-far" and kb.visible(BUDGET_CLAIM, on):
        claims.append(BUDGET_CLAIM)  # so far, out of what: the scheduled budget
    if focus == "schedule" and kb.visible(TRACKER_CLAIM, on):
        claims.append(TRACKER_CLAIM)  # "the tracker said Nov 27": what that estimate was
    if focus == "schedule" and kb.visible(START_CLAIM, on) and kb.visible(END_CLAIM, on):
        planned = (PLANNED_END - RUN_STARTED).days
        elapsed = (newest.date - RUN_STARTED).days
        claims += [START_CLAIM, END_CLAIM]
        context |= {
            "planned_days": planned,
            "elapsed_days": elapsed,
            "time_percent": f"{elapsed / planned * 100:.0f}",
            "started": RUN_STARTED,
            "planned_end": PLANNED_END,
        }
    return claims, context
