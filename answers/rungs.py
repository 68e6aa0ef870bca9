"""The scaling ladder's figures: in a clause picking out a rung or naming the ladder, a figure
is a rung's, not the hero run's nor Delphi's (Marin's other scaling suite, whose 1e23 FLOPs
a rumour pins on this ladder)."""

from __future__ import annotations

from collections.abc import Sequence

from answers.assertions import Figure
from answers.spec_words import HERO, LADDER, NAMED_RUNG, ONE_RUNG
from knowledge.knowledge_base import KnowledgeBase


def rung_held(
    kb: KnowledgeBase,
    text: str,
    topics: Sequence[str],
    said: list[Figure],
    held: list[list[str]],
) -> list[list[str]]:
    """The claims holding each figure of the clause (folded ``text``, read as ``topics``),
    kept to the ladder's where the figure is a rung's."""
    # "阶梯最大一级是 32B": a rung's size; "11.5B-A481M @500B": its tokens
    if NAMED_RUNG.search(text) or "ladder" in topics and ONE_RUNG.search(text):
        return [[c for c in h if kb.claims[c].topic == "ladder"] for h in held]
    if LADDER.search(text) and not HERO.search(text) and "delphi" not in text:
        # "the ladder goes all the way up to 1e23 FLOPs": Delphi's top, no rung's (not the
        # W&B report's title, "535B-A23B 18T Token Hero Run + Scaling Ladder")
        return [
            [c for c in h if f.unit != "flops" or kb.claims[c].topic == "ladder"]
            for f, h in zip(said, held, strict=True)
        ]
    return held
