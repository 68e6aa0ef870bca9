"""The knowledge base's figures, for an assertion's to be found in: those its claims' statements
state, and the progress series' own arithmetic (per cent of the schedule, tokens at 11,264 ×
4,096 per step)."""

from __future__ import annotations

from answers.assertions import Figure, figures
from knowledge.knowledge_base import KnowledgeBase


def figure_index(kb: KnowledgeBase) -> list[tuple[Figure, str]]:
    """Every figure a claim states, with the claim; and the progress series' arithmetic."""
    index = [(f, c.id) for c in kb.claims.values() for f in figures(c.statement.en)]
    for o in kb.observations:
        index.append((Figure(100 * o.share, "%"), o.claim_id))
        index.append((Figure(o.tokens, "n"), o.claim_id))
    return index
