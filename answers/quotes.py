"""A record's quoted words are its publisher's. When an assertion rests only on records that
quote someone (the context of a billing or a commit message), a person it names as saying
them must be that publisher: "Percy 还说这是 largest open live training run in history" puts
Open Athena's billing in Percy's mouth."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from answers.verdict_words import PEOPLE, SOURCE
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind


def quoted_alike(
    kb: KnowledgeBase, text: str, claim_ids: Iterable[str], named_in: Callable[[str], str]
) -> bool:
    """False if every claim is a quoting context and none is by (``named_in``: a claim's
    words and publishers, folded) each person the text (folded) names as its source."""
    claims = [kb.claims[c] for c in claim_ids]
    quoting = [c for c in claims if c.kind is ClaimKind.CONTEXT and '"' in c.statement.en]
    if not quoting or len(quoting) != len(claims):
        return True
    told = {n for source in SOURCE.finditer(text) for n in PEOPLE.findall(source[0])}
    return any(told <= set(PEOPLE.findall(named_in(c.id))) for c in quoting)
