"""A share of the run that does not follow from the step or the tokens told beside it:
"switched to phase 2 at step 108,000 (~37% in)" (108,000 of the 390,251 scheduled steps is
27.7%), "28.5%, 4.65T of 18T tokens" (4.65 of 18 is 25.8%). The schedule's steps are read
from its record; a share and a step told apart ("at step 231,464, 29.44% MFU") are not read.
"""

from __future__ import annotations

import re

from answers.assertions import figures
from answers.records import Records
from answers.verdicts import CONTRADICTED, Verdict

_STEP = r"(\d[\d,]*(?:\.\d+)?\s?k?)"
# a share of the run, not an MFU or another measure's per cent ("MFU 26.75%，第 147,000 步")
_SHARE = (
    r"(?<![\d.])(?<!mfu )(?<!mfu)[~≈约]?\s*(\d+(?:\.\d+)?)\s*%"
    r"(?!\s*(?:mfu|of (?:the )?(?:slices|tasks)))"
)
_BESIDE = re.compile(
    rf"(?:step[- ]?|第\s*){_STEP}\s*步?\s*[(（,，]\s*(?:about\s+|at\s+)?{_SHARE}"  # step (share)
    rf"|{_SHARE}\s*[(（,，]\s*(?:at\s+)?(?:step[- ]?|第\s*){_STEP}"  # share (step)
)
_TOKENS = r"(\d+(?:\.\d+)?\s?[kmbt])"
_OF = re.compile(rf"{_SHARE}\s*[(（,，]\s*{_TOKENS}\s*(?:of|/)\s*{_TOKENS}")  # share (a of b)
_OFF = 1.5  # points a rounded share may be off by ("~50%" for 49.97%)
SCHEDULE = "tokens-config-18-0t"  # the record of the scheduled steps


class Shares:
    def __init__(self, records: Records) -> None:
        self.records = records
        steps = [f.value for f, c in records.index if c == SCHEDULE and f.unit == "exact"]
        self.total = max((s for s in steps if s < 1e7), default=0.0)

    def misstated(self, text: str, before: str = "") -> Verdict | None:
        """Contradicted, naming the record of the step (or the schedule), if ``text`` (folded)
        gives a share that its step or its tokens beside it do not make (or the clause
        ``before`` it: a share in brackets is a clause of its own, "… step 108,000 | ~37% in")."""
        told = f"{before} ({text})" if before else text
        start = len(before) + 2 if before else 0  # (what this clause tells, not the one before)
        for match in _BESIDE.finditer(told):
            if match.end() <= start:
                continue
            step_a, share_a, share_b, step_b = match.groups()
            step, share = figures(step_a or step_b), float(share_a or share_b)
            if len(step) == 1 and self.total and step[0].value >= 1000:
                made = 100 * step[0].value / self.total
                if abs(made - share) > _OFF:
                    held = self.records.holders(step[0], "progress")
                    return CONTRADICTED, (held[0] if held else SCHEDULE,)
        for of_match in _OF.finditer(told):
            if of_match.end() <= start:
                continue
            share_text, part, whole = of_match.groups()
            done, of = figures(part), figures(whole)
            if len(done) == 1 and len(of) == 1 and of[0].value:
                if abs(100 * done[0].value / of[0].value - float(share_text)) > _OFF:
                    return CONTRADICTED, self.records.known("tracker-estimate", SCHEDULE)[:1]
        return None
