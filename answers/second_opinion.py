"""A second opinion on each verdict: a linear model trained on the labelled rumour sets.

The rules of ``checking.py`` are precise on the words they know and say "not checked" to the
rest; on a blind set most overstatements they miss are left unchecked, not called true. This
model reads what the rules saw (their verdict, the reading, whether the figures are held, how
near a claim's statement is, denial, hedge and done words) plus the assertion's n-grams, and
was trained on every labelled assertion of ``tests/data/rumours*.tsv``
(``answers/opinion_training.py``; scikit-learn offline, pure Python here).

It may only make a verdict weaker or flag what the rules left open, never stronger:

- the rules left it unchecked (or off-topic) and the model flags it: no record supports it;
- the rules call it unsupported or a plan stated as fact and the model reads it as true: not
  checked (in doubt, say nothing); a record contradicting a figure or date stands;
- the model reads it as off-topic: not checked, unless the rules flagged or declined it;
- it never turns anything into "supported";
- the rules call it supported and the model leans to a flag without being sure of it (at least
  DOUBT_SUPPORTED of its probability): not checked. Each of the seventy-seven sets held out in
  turn, this band held 17 overstatements the rules called supported and 13 true assertions
  (from 0.4, 16 more true ones for one more overstatement): in doubt, a true one goes
  unconfirmed rather than a false one confirmed;
- it flags only when sure enough: what the rules left unchecked, or supported, when the flag
  verdicts together have at least FLAG_UNCHECKED (FLAG_SUPPORTED) of the model's probability
  (chosen leaving each of the thirteen sets out in turn: over 1686 overstatements and 1132
  true assertions, 0.6/0.7 flagged 1577 and 89 true ones, 0.7/0.7 1564 and 79, 0.75/0.8 1553
  and 73; "too strong" 24 to 26 throughout).

Why: on the ninety-three labelled sets, each held out with its fold (nine folds, every ninth
set: the model trained on the other eight), the rules alone flag 7088 of 8063 overstatements,
386 of 8568 true assertions and call 198 unsupported ones "supported"; with the model, 7443,
366 and 162 (``benchmarks/score_checks.py SET --opinion held-out``;
``tests/test_second_opinion.py``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from answers.verdicts import FLAGS, NOT_CHECKED, OFF_TOPIC, SUPPORTED
from knowledge.errors import KnowledgeInvalid, Problem

MODEL = Path(__file__).parent / "data" / "second_opinion.json"
FORMAT = 1
FLAG_UNCHECKED = 0.7
FLAG_SUPPORTED = 0.7
DOUBT_SUPPORTED = 0.5
# Flags a model reading of "true" can put in doubt: not a record contradicting a figure or date
DOUBTFUL = frozenset({"unsupported", "plan-as-fact"})

Features = dict[str, float]


@dataclass(frozen=True)
class Opinion:
    classes: tuple[str, ...]
    intercepts: tuple[float, ...]
    weights: dict[str, tuple[float, ...]]  # feature → one weight per class

    def verdict(self, features: Features) -> str:
        """The verdict the model reads from these features."""
        logits = self._logits(features)
        return self.classes[max(range(len(logits)), key=logits.__getitem__)]

    def flagging(self, features: Features) -> float:
        """How sure the model is that some flag (contradicted, unsupported, plan as fact) is
        right: the flag verdicts' probabilities together."""
        logits = self._logits(features)
        top = max(logits)
        odds = [math.exp(v - top) for v in logits]
        return sum(o for c, o in zip(self.classes, odds, strict=True) if c in FLAGS) / sum(odds)

    def _logits(self, features: Features) -> list[float]:
        logits = list(self.intercepts)
        for name, value in features.items():
            row = self.weights.get(name)
            if row is not None and value:
                logits = [a + value * w for a, w in zip(logits, row, strict=True)]
        return logits


def revise(rules: str, opinion: str, flagging: float = 1.0) -> str:
    """The verdict to give: the rules' one, weakened or completed by the model's (see the
    module's docstring), ``flagging`` how sure it is of a flag; never stronger than the
    rules'."""
    unsure = FLAG_SUPPORTED if rules == SUPPORTED else FLAG_UNCHECKED
    if rules == SUPPORTED and DOUBT_SUPPORTED <= flagging < unsure:
        return NOT_CHECKED  # in doubt about a "supported": say nothing
    if rules in (NOT_CHECKED, OFF_TOPIC, SUPPORTED) and flagging < unsure:
        return rules  # a flag the rules did not raise needs the model to be sure of it
    if opinion == SUPPORTED:
        return NOT_CHECKED if rules in DOUBTFUL else rules
    if opinion == OFF_TOPIC:
        return rules if rules in FLAGS or rules == OFF_TOPIC else NOT_CHECKED
    if rules in (NOT_CHECKED, OFF_TOPIC, SUPPORTED):
        return "unsupported"  # which record would contradict it, the model cannot name
    return rules


def read_opinion(path: Path = MODEL) -> Opinion:
    """The shipped model; a damaged file is a named problem, not a traceback."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise _bad(path, "(file)", f"cannot read the second opinion: {exc}") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _bad(
            path, "format", f"expected {FORMAT}; retrain: python -m answers.opinion_training"
        )
    try:
        return opinion_of(meta)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise _bad(path, "weights", f"the second opinion does not fit together: {exc}") from exc


def opinion_of(meta: dict[str, Any]) -> Opinion:
    """The model a training wrote (``opinion_training.fit``); ValueError if it is malformed."""
    classes = tuple(str(c) for c in meta["classes"])
    weights = {str(name): tuple(float(w) for w in row) for name, row in meta["weights"].items()}
    opinion = Opinion(classes, tuple(float(v) for v in meta["intercepts"]), weights)
    if len(opinion.intercepts) != len(classes) or any(
        len(row) != len(classes) or not all(map(math.isfinite, row)) for row in weights.values()
    ):
        raise ValueError("a row's length or value does not fit the classes")
    return opinion


@lru_cache(maxsize=2)  # read once per process
def load_opinion(path: Path = MODEL) -> Opinion:
    return read_opinion(path)


def _bad(path: Path, where: str, message: str) -> KnowledgeInvalid:
    return KnowledgeInvalid([Problem(str(path), where, message)])
