"""The second matching signal: a linear classifier over a question's n-grams.

The lexicon (``answers/matcher.py``) is precise on the words it knows and blind to the rest.
This signal generalizes from example questions written by people who never saw the lexicon
(``data/examples.tsv`` and the tuned question sets): a multinomial logistic regression over the
TF-IDF weighted grams of ``grams.py``, trained offline by ``answers/training.py`` and shipped
as two data files. Reading it is a sparse dot product: about 150 grams × 31 readings.

Why this: on question sets nobody tuned for, the nearest example (the signal it replaced)
picked the asked reading for 86-89% of single questions, this classifier for 92-94% (the
history of each set is in ``tests/test_matching.py``). A sentence encoder broke the start-up
and memory budgets.
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from answers.grams import features
from knowledge.errors import KnowledgeInvalid, Problem

DATA = Path(__file__).parent / "data"
MODEL = DATA / "classifier.json"
WEIGHTS = DATA / "classifier.f32"  # float32, little-endian, one row of readings per gram
FORMAT = 1


@dataclass(frozen=True)
class Ranking:
    """Readings by the classifier's probability, best first."""

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


class Classifier:
    def __init__(
        self,
        classes: list[str],
        intercepts: list[float],
        grams: list[str],
        idf: list[float],
        weights: array[float],
    ) -> None:
        if len(intercepts) != len(classes) or len(idf) != len(grams):
            raise ValueError("classes/intercepts or grams/idf differ in length")
        if len(weights) != len(grams) * len(classes):
            raise ValueError(f"{len(weights)} weights for {len(grams)} grams × {len(classes)}")
        self.classes = tuple(classes)
        self._intercepts = tuple(intercepts)
        self._index = {g: i for i, g in enumerate(grams)}
        self._idf = idf
        # A memoryview slices a gram's row without copying it.
        self._rows = memoryview(weights)

    def rank(self, question: str) -> Ranking:
        found = []
        for gram, tf in features(question).items():
            i = self._index.get(gram)
            if i is not None:
                found.append((i, (1.0 + math.log(tf)) * self._idf[i]))
        norm = math.sqrt(sum(v * v for _, v in found)) or 1.0
        k = len(self.classes)
        logits = list(self._intercepts)
        for i, value in found:
            x = value / norm
            logits = [
                a + x * w for a, w in zip(logits, self._rows[i * k : (i + 1) * k], strict=True)
            ]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        ranked = sorted(
            ((c, e / total) for c, e in zip(self.classes, exps, strict=True)),
            key=lambda kv: (-kv[1], kv[0]),
        )
        return Ranking(tuple(ranked))


def read_model(model: Path = MODEL, weights: Path = WEIGHTS) -> Classifier:
    """The shipped classifier; a damaged file is a named problem, not a traceback."""

    def bad(path: Path, where: str, message: str) -> KnowledgeInvalid:
        return KnowledgeInvalid([Problem(str(path), where, message)])

    try:
        meta = json.loads(model.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSON errors are ValueErrors
        raise bad(model, "(file)", f"cannot read the classifier: {exc}") from exc
    try:
        raw = weights.read_bytes()
    except OSError as exc:
        raise bad(weights, "(file)", f"cannot read the classifier's weights: {exc}") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise bad(model, "format", f"expected format {FORMAT}; retrain: python -m answers.training")
    table: array[float] = array("f")
    if len(raw) % table.itemsize:
        raise bad(weights, "(file)", f"{len(raw)} bytes is not a whole number of float32")
    table.frombytes(raw)
    if sys.byteorder != "little":
        table.byteswap()
    try:
        return Classifier(
            [str(c) for c in meta["classes"]],
            [float(v) for v in meta["intercepts"]],
            [str(g) for g in meta["grams"]],
            [float(v) for v in meta["idf"]],
            table,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise bad(model, str(exc), "the classifier does not fit its weights") from exc


@lru_cache(maxsize=2)  # loaded once per process: the core and the benchmarks share it
def load_classifier(model: Path = MODEL, weights: Path = WEIGHTS) -> Classifier:
    return read_model(model, weights)
