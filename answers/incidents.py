"""An incident told of the wrong place in the run: a kind of incident ("NVLink error", "OOM",
"quota") told at a step, or in a month, that no record of that kind holds ("an NVLink error
at step 215,756": that day's retry followed a node taint; "the storage quota mess was back in
August": both quota incidents are September's).
"""

from __future__ import annotations

import re

from answers.assertions import Figure
from answers.days import months
from answers.records import Records
from answers.verdicts import CONTRADICTED, Verdict

# What went wrong, by kind: told at a step, it must be what the records of that step report
# ("an NVLink error at step 215,756": that day's retry followed a node taint).
INCIDENT_KINDS = tuple(
    re.compile(kind)
    for kind in (
        r"nvlink",
        r"\boom\b|out of memory|内存不足|內存不足",
        r"taint|noexecute|evict|污点|污點|驱逐|驅逐",
        r"\bhung\b|\bhang|\bstall|挂起|掛起|卡住|卡死",
        r"barrier|屏障",
        r"quota|配额|配額",
        # (not the run "hero-ragged_a2a-nccl2307-…", folded, nor "the ragged_a2a run")
        r"(?<!-)ragged(?![_ ]a2a)|all-to-all|(?<!ragged )\ba2a\b(?!-)",
    )
)


def misplaced_incident(
    records: Records, text: str, said: list[Figure], held: list[list[str]]
) -> Verdict | None:
    """Contradicted, naming the record of that kind, if an incident of a kind is told at a
    step no record of that kind holds; None otherwise."""
    kind = next((k for k in INCIDENT_KINDS if k.search(text)), None)
    # (a step, not an issue's number: "rjpower 在 #8506 说 restores 卡在 single worker stall")
    steps = [
        h for f, h in zip(said, held, strict=True) if f.value >= 1000 and h and f.noun != "issue"
    ]
    if kind is None:
        return None
    told = [c for c in records.claims("incidents") if kind.search(records.said(c))]
    # or in a month no record of that kind is about: "the storage quota mess was back in
    # August" (September's)
    named = {m for m, _ in months(text)}
    if not steps and named and told:
        of_kind = [c for c in records.kb.claims if kind.search(records.said(c))]
        if not named & {m for c in of_kind for m, _ in records.days[c]}:
            return CONTRADICTED, tuple(told[:1])
    if not steps or records.held_say(kind, steps):
        return None
    return (CONTRADICTED, tuple(told[:1])) if told else None
