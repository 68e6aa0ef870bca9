"""A figure told at another figure's step: a record gives two measurements, each at its step
("dropless loss 1.9086 at step 147,000, against 1.9098 at step 144,000"), and a message puts
one at the other's step ("1.9086 was the step 144,000 eval loss", "第 147,000 步的 dropless loss
是 1.9098"). Only a record pairing two figures with two steps is read: a step alone, or one
figure at one step, says nothing of which figure another step had.
"""

from __future__ import annotations

import re

from answers.assertions import Figure, figures, same
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase

_NUM = r"\d+\.\d+"  # a measurement, written to its decimals
_STEP = r"\d{1,3}(?:,\d{3})+|\d{4,}"
_AT = re.compile(
    rf"({_NUM})\s+at step ({_STEP})"  # "2.13435 at step 209,999"
    rf"|at step ({_STEP}):?\s+(?:[a-z&-]+\s+){{0,3}}({_NUM})"  # "at step 147,000: … loss 1.9086"
)

Paired = tuple[Figure, Figure]  # a measurement, its step


class StepPairs:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.pairs: dict[str, list[Paired]] = {}
        for claim in kb.claims.values():
            found = []
            for value, step, step_first, value_after in _AT.findall(claim.statement.en):
                measured, at = figures(value or value_after), figures(step or step_first)
                if len(measured) == 1 and len(at) == 1:
                    found.append((measured[0], at[0]))
            if len(found) >= 2:
                self.pairs[claim.id] = found

    def swapped(self, said: list[Figure]) -> Verdict | None:
        """Contradicted, naming the record, if the figures ``said`` put a record's measurement
        at the step the record gives another measurement."""
        for claim_id, pairs in self.pairs.items():
            values = [f for f in said if any(same(v, f) for v, _ in pairs)]
            steps = [f for f in said if any(same(s, f) for _, s in pairs)]
            if len(values) != 1 or len(steps) != 1:
                continue
            value, step = values[0], steps[0]
            if not any(same(v, value) and same(s, step) for v, s in pairs):
                return CONTRADICTED, (claim_id,)
        return None
