"""What a checked assertion is: its words, its verdict and the claims the verdict rests on.

supported      a claim holds it (its level is shown; an absence "supports" a denial)
contradicted   a record states the matter otherwise: a figure, a month, the hardware
unsupported    no record supports it: finished, released, scored, or a figure we hold no
               record of (the newest relevant record and its date are named)
plan-as-fact   a planned figure or date stated as done or certain
off-topic      not about this run
not-checked    nothing in the knowledge base maps to it: never guessed
"""

from __future__ import annotations

from dataclasses import dataclass

SUPPORTED, CONTRADICTED, UNSUPPORTED = "supported", "contradicted", "unsupported"
PLAN_AS_FACT, OFF_TOPIC, NOT_CHECKED = "plan-as-fact", "off-topic", "not-checked"
# The verdicts that flag an assertion: a reader is told not to take it as it stands.
FLAGS = frozenset({CONTRADICTED, UNSUPPORTED, PLAN_AS_FACT})
# A verdict before it is put on words: the verdict, and the claims it rests on.
Verdict = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Assertion:
    words: str  # the message's own words
    verdict: str
    claims: tuple[str, ...] = ()  # the claims the verdict rests on, strongest first
    # "not checked" because the second opinion doubts what the rules read, not because nothing
    # maps to it: the reply says which
    doubted: bool = False
