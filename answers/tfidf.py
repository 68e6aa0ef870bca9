"""Texts as counted n-grams weighted by how rare each is among the texts compared with
(tf-idf), and how near two of them are (cosine): ``statements.py`` ranks the claims nearest a
clause this way, ``references.py`` the passages nearest what is said of an issue number."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

Vector = dict[str, float]


class Weights:
    def __init__(self, texts: Iterable[Counter[str]], *, unseen_counts: bool = True) -> None:
        """``texts``: the n-grams of every text compared with. ``unseen_counts``: a gram none
        of them has still weighs in a vector (as the rarest of all), making it less near."""
        counted = list(texts)
        seen: Counter[str] = Counter(g for grams in counted for g in grams)
        self.idf = {g: math.log((1 + len(counted)) / (1 + n)) + 1 for g, n in seen.items()}
        self.unseen = math.log(1 + len(counted)) + 1 if unseen_counts else 0.0

    def vector(self, grams: Counter[str]) -> Vector:
        weights = {g: (1 + math.log(n)) * self.idf.get(g, self.unseen) for g, n in grams.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {g: w / norm for g, w in weights.items() if w}


def cosine(query: Vector, vector: Vector) -> float:
    return sum(w * vector.get(g, 0.0) for g, w in query.items())
