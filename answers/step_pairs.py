"""A figure or an event told at another's step. A record gives two measurements, each at its
step ("dropless loss 1.9086 at step 147,000, against 1.9098 at step 144,000"), and a message
puts one at the other's step ("1.9086 was the step 144,000 eval loss", "第 147,000 步的
dropless loss 是 1.9098"). Or a record gives two events at two steps ("cancelled at step
231664, after a paired window past the handoff step-231464") and a message swaps them ("old
run got cancelled at step 231,464"). Only a record pairing two things with two steps is read:
a step alone, or one thing at one step, says nothing of what another step had.
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

# An event named beside its step, either way round ("cancelled at step 231664", "handoff
# step-231464", "在第 231664 步取消")
_EVENT = r"(cancel\w*|取消|hand(?:ed)?[- ]?off|交接|restor\w*|resum\w*|恢复|恢復|继续|繼續)"
_EVENT_STEP = (
    re.compile(rf"{_EVENT}([^\d.;]{{0,24}}?)(?:step[- ]?|第\s*)?({_STEP})"),
    re.compile(rf"(?=({_STEP})(\s*步?\s*(?:被|时|時|的 ?checkpoint)?\s*){_EVENT})"),
)
# an event by its first word: a Chinese one by its first character; a new run resumed from a
# step is handed off there ("新 run 从 step-231664 的 checkpoint 继续": the handoff's step)
_KINDS = {"取": "canc", "交": "hand", "恢": "rest", "继": "hand", "繼": "hand", "resu": "hand"}

Paired = tuple[Figure, Figure]  # a measurement, its step


class StepPairs:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.pairs: dict[str, list[Paired]] = {}
        self.events: dict[str, list[tuple[str, Figure]]] = {}
        for claim in kb.claims.values():
            found = []
            for value, step, step_first, value_after in _AT.findall(claim.statement.en):
                measured, at = figures(value or value_after), figures(step or step_first)
                if len(measured) == 1 and len(at) == 1:
                    found.append((measured[0], at[0]))
            if len(found) >= 2:
                self.pairs[claim.id] = found
            events = _events(claim.statement.en)
            if len({kind for kind, _ in events}) >= 2:
                self.events[claim.id] = events

    def swapped(self, text: str, said: list[Figure]) -> Verdict | None:
        """Contradicted, naming the record, if the figures ``said`` put a record's measurement
        at the step the record gives another measurement, or ``text`` (folded) an event at
        another event's step."""
        for kind, step in _events(text):
            for claim_id, events in self.events.items():
                own = [s for k, s in events if k == kind]
                others = [s for k, s in events if k != kind]
                if (
                    own
                    and not any(same(s, step) for s in own)
                    and any(same(s, step) for s in others)
                ):
                    return CONTRADICTED, (claim_id,)
        for claim_id, pairs in self.pairs.items():
            values = [f for f in said if any(same(v, f) for v, _ in pairs)]
            steps = [f for f in said if any(same(s, f) for _, s in pairs)]
            if len(values) != 1 or len(steps) != 1:
                continue
            value, step = values[0], steps[0]
            if not any(same(v, value) and same(s, step) for v, s in pairs):
                return CONTRADICTED, (claim_id,)
        return None


def _events(text: str) -> list[tuple[str, Figure]]:
    """Each event the text names beside a step, as (kind, step): of two events beside one step
    the nearer ("交接时旧 run 在 231,664 步被取消": the cancel's step, not the handoff's)."""
    near: dict[str, tuple[int, str, Figure]] = {}
    folded = text.casefold()
    for event, gap, step in _EVENT_STEP[0].findall(folded):
        _note(near, event, gap, step)
    for step, gap, event in _EVENT_STEP[1].findall(folded):
        _note(near, event, gap, step)
    return [(kind, at) for _, kind, at in near.values()]


def _note(near: dict[str, tuple[int, str, Figure]], event: str, gap: str, step: str) -> None:
    kind = next((k for zh, k in _KINDS.items() if event.startswith(zh)), event[:4])
    at = figures(step)
    if len(at) == 1 and (step not in near or len(gap) < near[step][0]):
        near[step] = (len(gap), kind, at[0])
