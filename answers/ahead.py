"""A step said reached beyond the newest step on record: no record shows the run past its
newest observation (the progress series, ``knowledge/progress.py``), and the schedule's last
step told as where the run stands is a plan told as done ("it's at step 390k now"). A step to
come is the plan's ("the cooldown starts at step 312,192"), not this.
"""

from __future__ import annotations

import re

from answers.assertions import figures, same
from answers.records import Records
from answers.time_words import FUTURE, NOW, WILL
from answers.verdict_words import REACHED, hedged
from answers.verdicts import PLAN_AS_FACT, UNSUPPORTED, Verdict

_STEP = re.compile(
    r"\bstep\s*([\d,.]+\s?k?)\b|第\s*([\d,.]+\s?[k万]?)\s*步|([\d,.]+\s?[k万]?)\s*步"
)


def ahead(records: Records, text: str) -> Verdict | None:
    """Unsupported, naming the newest observation, if the folded ``text`` says the run is now
    at, or has reached, a step past it (a plan told as done if the step is the plan's); else
    None."""
    if not (NOW.search(text) or REACHED.search(text)) or FUTURE.search(text) or WILL.search(text):
        return None
    if hedged(text):
        return None
    if not records.kb.observations:
        return None
    newest = records.kb.observations[-1]
    for match in _STEP.finditer(text):
        said = figures(next(g for g in match.groups() if g))
        # (a step of this run: past the newest, within the schedule to the digit it is written)
        if not said or not newest.step < said[0].value <= newest.of + said[0].spread:
            continue
        # (a step a record saw is no step past them: the trial's 231,663, not the plan's)
        seen = any(
            same(f, said[0]) and not f.of and c not in records.plans for f, c in records.index
        )
        if seen:
            continue
        # the plan's own step told as reached is the plan told as done ("已经跑满了 390,251 步")
        planned = [c for f, c in records.index if same(f, said[0]) and c in records.plans]
        return (PLAN_AS_FACT, tuple(planned[:1])) if planned else (UNSUPPORTED, (newest.claim_id,))
    return None
