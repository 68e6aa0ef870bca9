"""The second matching signal: the nearest example questions, by character n-grams.

The lexicon (``answers/matcher.py``) is precise on the words it knows and blind to the rest.
This signal generalizes from example questions written by people who never saw the lexicon
(``data/examples.tsv``): each question becomes a TF-IDF vector of character n-grams (Latin
words padded and cut into 3- and 4-grams, so typos and shorthand still share most grams;
Chinese as character unigrams and bigrams, so no word segmentation is needed) plus whole
stemmed words. A reading scores the cosine similarity of its nearest example.

Why this and not a model: measured on the project's question sets (``docs/RESEARCH.md``,
matching notes), n-gram TF-IDF classifiers came closest to the lexicon, and fail on
*different* questions, which is what a second signal is for; a sentence encoder broke the
start-up and memory budgets. Nearest neighbours need no training step, so adding an example
is adding a line, and the index builds in well under 100 ms at start-up.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from answers.text import fold, stem, tokens

EXAMPLES = Path(__file__).parent / "data" / "examples.tsv"

_LATIN = re.compile(r"[a-z0-9][a-z0-9.+-]*")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
# A gram in more than this share of examples says nothing about the reading: left out of
# the index, which keeps a query to a few thousand additions.
MAX_DF_SHARE = 0.1


def features(text: str) -> Counter[str]:
    """The n-grams and words of a question, counted."""
    folded = fold(text)
    found: Counter[str] = Counter()
    for word in tokens(folded):
        for piece in _LATIN.findall(word):
            found["w:" + stem(piece)] += 1
            padded = f"<{piece}>"
            for n in (3, 4):
                for i in range(len(padded) - n + 1):
                    found[padded[i : i + n]] += 1
    for run in _CJK_RUN.findall(folded):
        for i, ch in enumerate(run):
            found[ch] += 1
            if i + 1 < len(run):
                found[run[i : i + 2]] += 1
    return found


@dataclass(frozen=True)
class Nearest:
    """Readings by the similarity of their nearest example, best first."""

    ranked: tuple[tuple[str, float], ...]

    @property
    def best(self) -> tuple[str, float]:
        return self.ranked[0] if self.ranked else ("", 0.0)

    @property
    def margin(self) -> float:
        """How far the best reading is ahead of the next one."""
        if not self.ranked:
            return 0.0
        second = self.ranked[1][1] if len(self.ranked) > 1 else 0.0
        return self.ranked[0][1] - second

    def score(self, reading: str) -> float:
        return next((s for r, s in self.ranked if r == reading), 0.0)


class Similar:
    """Nearest-example readings for a question, over an inverted index of weighted grams."""

    def __init__(self, examples: Iterable[tuple[str, str]]) -> None:
        pairs = [(q, label) for q, label in examples if q.strip()]
        counted = [features(q) for q, _ in pairs]
        df: Counter[str] = Counter()
        for c in counted:
            df.update(c.keys())
        n = len(pairs)
        self._idf = {
            g: math.log((n + 1) / (d + 1)) + 1.0 for g, d in df.items() if d <= MAX_DF_SHARE * n
        }
        self._labels = [label for _, label in pairs]
        # Postings as two flat arrays per gram (example ids, weights): a tuple per posting
        # would cost ~20 MB of the CLI's 100 MB budget; arrays cost ~2 MB.
        ids: dict[str, array[int]] = {}
        weights: dict[str, array[float]] = {}
        for i, c in enumerate(counted):
            for gram, weight in self._weights(c).items():
                if gram not in ids:
                    ids[gram], weights[gram] = array("I"), array("f")
                ids[gram].append(i)
                weights[gram].append(weight)
        self._index = {g: (ids[g], weights[g]) for g in ids}

    def _weights(self, counted: Counter[str]) -> dict[str, float]:
        raw = {
            g: (1.0 + math.log(tf)) * self._idf[g] for g, tf in counted.items() if g in self._idf
        }
        norm = math.sqrt(sum(w * w for w in raw.values())) or 1.0
        return {g: w / norm for g, w in raw.items()}

    def nearest(self, question: str) -> Nearest:
        dots: dict[int, float] = {}
        for gram, weight in self._weights(features(question)).items():
            posting = self._index.get(gram)
            if posting is None:
                continue
            for i, w in zip(*posting, strict=True):
                dots[i] = dots.get(i, 0.0) + weight * w
        best: dict[str, float] = {}
        for i, s in dots.items():
            label = self._labels[i]
            if s > best.get(label, 0.0):
                best[label] = s
        return Nearest(tuple(sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))))


def read_examples(path: Path = EXAMPLES) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, _, label = line.partition("\t")
            rows.append((question, label.strip()))
    return rows


@lru_cache(maxsize=2)  # built once per process: the core and the benchmarks share it
def load_similar(path: Path = EXAMPLES) -> Similar:
    return Similar(read_examples(path))
