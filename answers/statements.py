"""Which claim says this? The claim statement nearest to an assertion, by its words.

An assertion with no figure ("Percy Liang leads Marin", "节点被打上 NoExecute taint") can only
be held against the claims by what it says. Each claim's English and Chinese statements are
counted as the classifier's n-grams (``answers.grams``), weighted by how rare each is among the
statements (tf-idf) and compared by cosine. The run's own name is left out on both sides: every
claim is about Marin 535B, so the name says nothing about which one.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from answers.grams import features
from answers.text import fold
from answers.tfidf import Weights, cosine
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Stance, Strength

_NAME = re.compile(r"\bmarin(?:[ -]?535b(?:-a23b)?)?\b|\b535b(?:-a23b)?\b|\ba23b\b")

# How near a claim's statement must be to say the assertion, by cosine: on the first three
# labelled rumour sets no unsupported or false assertion came nearer than 0.45.
SAYS_AT = 0.46


class Statements:
    def __init__(self, kb: KnowledgeBase) -> None:
        counted = [
            (claim.id, _grams(text))
            for claim in kb.claims.values()
            for text in (claim.statement.en, claim.statement.zh, *_quotes(kb, claim.id))
        ]
        self._weights = Weights(grams for _, grams in counted)
        self._vectors = [(claim_id, self._weights.vector(grams)) for claim_id, grams in counted]
        # the rules and the second opinion ask about the same clause several times
        self._ranking = lru_cache(maxsize=64)(self._rank)

    def nearest(self, text: str) -> tuple[str, float]:
        """The claim whose statement is nearest to ``text``, and the cosine (0 to 1); nothing
        for a text too short to say which ("已经开始了": what has begun?)."""
        return next(iter(self.ranked(text)), ("", 0.0))

    def ranked(self, text: str, at_least: float = 0.0) -> list[tuple[str, float]]:
        """Every claim nearer than ``at_least`` to ``text``, nearest first, each once."""
        return [(c, near) for c, near in self._ranking(text) if near > at_least]

    def _rank(self, text: str) -> tuple[tuple[str, float], ...]:
        if not says_something(text):
            return ()
        query = self._weights.vector(_grams(text))
        best: dict[str, float] = {}
        for claim_id, vector in self._vectors:
            near = cosine(query, vector)
            if near > best.get(claim_id, 0.0):
                best[claim_id] = near
        return tuple(sorted(best.items(), key=lambda pair: -pair[1]))


def _quotes(kb: KnowledgeBase, claim_id: str) -> list[str]:
    """The records' own words for a claim (its direct, supporting links' quotes): a rumour
    often repeats the post ("started training this week"), not our statement of it."""
    return [
        link.quote
        for link in kb.links_by_claim[claim_id]
        if link.stance is Stance.SUPPORTS
        and link.strength is Strength.DIRECT
        and not link.paraphrase
    ]


def _grams(text: str) -> Counter[str]:
    return features(_NAME.sub(" ", fold(text)))


def says_something(text: str) -> bool:
    """Three words or more, besides the run's name (a Chinese character counting as half)."""
    rest = _NAME.sub(" ", fold(text))
    latin = re.findall(r"[a-z0-9][\w.+%-]*", rest)
    cjk = re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]", rest)
    return len(latin) + len(cjk) / 2 >= 3
