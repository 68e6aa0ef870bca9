"""Train the second opinion of ``second_opinion.py`` from the labelled rumour sets.

    .venv/bin/python -m answers.opinion_training

It checks every message of ``tests/data/rumours*.tsv`` listed in ``TUNED_SETS`` with the
rules alone, lines each labelled assertion up with the checked clause holding most of its
words, and fits a logistic regression from what ``second_look.py`` reads of the clause to the
label. A blind set is scored first and listed here only afterwards. The fingerprint of the
sets is stored with the model; a test fails when a set changes without a retraining.

Training needs scikit-learn (the ``dev`` extra); checking does not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from answers.checking import Checker
from answers.reading import reader_for
from answers.second_opinion import FORMAT, MODEL, Features
from answers.verdicts import FLAGS, NOT_CHECKED, Assertion
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "data"
TUNED_SETS = (
    "rumours",
    "rumours2",
    "rumours3",
    "rumours4",
    "rumours5",
    "rumours6",
    "rumours7",
    "rumours8",
    "rumours9",
    "rumours10",
    "rumours11",
    "rumours12",
    "rumours13",
    "rumours14",
    "rumours15",
    "rumours16",
    "rumours17",
    "rumours18",
    "rumours19",
    "rumours20",
    "rumours21",
    "rumours22",
    "rumours23",
    "rumours24",
    "rumours25",
    "rumours26",
    "rumours27",
    "rumours28",
    "rumours29",
    "rumours30",
    "rumours31",
    "rumours32",
    "rumours33",
    "rumours34",
    "rumours35",
    "rumours36",
    "rumours37",
    "rumours38",
    "rumours39",
    "rumours40",
    "rumours41",
    "rumours42",
    "rumours43",
    "rumours44",
    "rumours45",
    "rumours46",
    "rumours47",
    "rumours48",
    "rumours49",
    "rumours50",
    "rumours51",
    "rumours52",
    "rumours53",
    "rumours54",
    "rumours55",
    "rumours56",
    "rumours57",
    "rumours58",
    "rumours59",
    "rumours60",
    "rumours61",
    "rumours62",
    "rumours63",
    "rumours64",
    "rumours65",
    "rumours66",
    "rumours67",
    "rumours68",
    "rumours69",
    "rumours70",
    "rumours71",
    "rumours72",
    "rumours73",
    "rumours74",
    "rumours75",
    "rumours76",
    "rumours77",
    "rumours78",
    "rumours79",
    "rumours80",
    "rumours81",
    "rumours82",
    "rumours83",
    "rumours84",
    "rumours85",
    "rumours86",
    "rumours87",
    "rumours88",
    "rumours89",
    "rumours90",
    "rumours91",
    "rumours92",
    "rumours93",
)
TODAY = dt.date(2026, 12, 1)  # the day the sets are scored on (benchmarks/score_checks.py)
WRITTEN = dt.date(2026, 11, 30)  # the day the sets' messages are written on ("last Tuesday")
# (the sets whose writers were told "today is 2026-12-01": their "today" is the planned end;
# 74-77 were written the day after)
WRITTEN_ON = {f"rumours{n}": dt.date(2026, 12, 1) for n in (*range(45, 50), *range(54, 74))}
WRITTEN_ON |= {f"rumours{n}": dt.date(2026, 12, 2) for n in range(74, 94)}


def written(name: str) -> dt.date:
    """The day a set's messages are written on."""
    return WRITTEN_ON.get(name, WRITTEN)


C = 1.0
WITHIN = 0.8  # a clause "lies within" a label holding this share of its trigrams


def rules_checker(kb: KnowledgeBase) -> Checker:
    """A checker with the rules alone: what the second opinion learns to read."""
    return Checker(kb, reader_for(kb))


def overlap(label: str, words: str) -> int:
    """Shared character trigrams: how much of a labelled assertion a checked clause holds."""
    a, b = label.casefold(), words.casefold()
    return sum(1 for i in range(len(a) - 2) if a[i : i + 3] in b)


def matched(label: str, found: Sequence[Assertion]) -> Assertion | None:
    """The checked clause holding most of a labelled assertion's words; but if the label
    spans several clauses and one of those lying within it is flagged, that one: a reader of
    the reply sees those words flagged ("MFU is like 45% now | after the MoE stack")."""
    best = max(found, key=lambda f: overlap(label, f.words), default=None)
    if best is None or overlap(label, best.words) == 0:
        return None
    within = [f for f in found if overlap(f.words, label) >= WITHIN * max(1, len(f.words) - 2)]
    flagged = [f for f in within if f.verdict in FLAGS]
    return best if best.verdict in FLAGS or not flagged else flagged[0]


def examples(checker: Checker, names: Sequence[str]) -> list[tuple[Features, str]]:
    """(features, labelled verdict) of every labelled assertion of the named sets."""
    rows = []
    for name in names:
        for line in (SETS / f"{name}.tsv").read_text(encoding="utf-8").splitlines()[1:]:
            message, _, labelled = line.split("\t")
            about_run = checker.reader.matcher.names_run(message)
            found = checker.check(message, written(name))
            for item in json.loads(labelled):
                clause = matched(item["text"], found) or Assertion(item["text"], NOT_CHECKED)
                rows.append((checker.second_look.features(clause, about_run)[0], item["verdict"]))
    return rows


def fingerprint(names: Sequence[str] = TUNED_SETS) -> str:
    digest = hashlib.sha256(f"format={FORMAT} C={C}\n".encode())
    for name in names:
        path = SETS / f"{name}.tsv"
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def fit(rows: list[tuple[Features, str]]) -> dict[str, object]:
    """The model's JSON: classes, intercepts and each feature's weights."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([features for features, _ in rows])
    fitted = LogisticRegression(C=C, max_iter=5000).fit(x, [label for _, label in rows])
    weights = {
        str(name): [round(float(w), 5) for w in fitted.coef_[:, i]]
        for i, name in enumerate(vectorizer.feature_names_)
        if max(abs(float(w)) for w in fitted.coef_[:, i]) >= 1e-4
    }
    return {
        "format": FORMAT,
        "classes": [str(c) for c in fitted.classes_],
        "intercepts": [round(float(v), 6) for v in fitted.intercept_],
        "weights": weights,
    }


def train(path: Path = MODEL, names: Sequence[str] = TUNED_SETS) -> str:
    rows = examples(rules_checker(load(today=TODAY)), names)
    meta = fit(rows) | {"trained_on": fingerprint(names), "examples": len(rows)}
    path.write_text(json.dumps(meta, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
    return f"{len(rows)} labelled assertions, {len(meta['weights'])} features"  # type: ignore[arg-type]


if __name__ == "__main__":
    print(train(), file=sys.stderr)
