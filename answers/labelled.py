"""A figure given the label of its neighbour in the same record: "8K 13.15 秒，16K 12.89 秒"
(the re-run measured 12.89 s at 8K and 13.15 s at 16K), "永久 checkpoint 每 3,000 步存一次"
(evals every 3,000 steps, permanent checkpoints every 6,000), "micro loss 2.13755" (the macro's).

The labels come in sets of rivals (macro and micro, the context lengths, eval and permanent,
a step's time and an iteration's); each figure of a record takes the rival label nearest
before it in its clause (or, with none before, the first after it: "12.89 s at 8K"). A
message's figure with another rival's label than every record gives it, where a record gives
that label another figure of its kind, is contradicted by that record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from answers.assertions import Figure, figures, same
from answers.text import fold
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase

_RIVALS = (
    {"macro": "macro", "micro": "micro"},
    {"4k": "4k", "8k": "8k", "16k": "16k", "65k": "65k"},
    {"eval": "eval", "评估": "eval", "评测": "eval", "permanent": "perm", "永久": "perm"},
    {"step time": "step", "步时": "step", "iteration time": "iter", "迭代时间": "iter"},
)


# What each set labels: a loss (not its step), a step time (not the plan's shares), a cadence
# ("every 3,000 steps"), read from the number and the words before it
def _a_loss(number: str, before: str) -> bool:
    return bool(re.fullmatch(r"\d\.\d{3,}", number))


def _a_time(number: str, before: str) -> bool:
    return number.endswith(("s", "秒"))


def _a_cadence(number: str, before: str) -> bool:
    return bool(re.search(r"(?:\bevery|每)\s*$", before))


_KINDS = (_a_loss, _a_time, _a_cadence, _a_time)  # one per set of rivals, in their order
_LABEL = [
    re.compile(r"(?<![a-z0-9_.])(" + "|".join(sorted(group, key=len, reverse=True)) + r")")
    for group in _RIVALS
]
_NUMBER = re.compile(r"(?<![a-z0-9_.])\d[\d,]*(?:\.\d+)?(?:e-?\d+)?(?:\s?(?:%|s\b|gib\b|秒))?")
_CLAUSE = re.compile(r"[;；。，]|,\s|\band\b|\(")

Labelled = tuple[int, str, Figure]  # the rival set, the label, the figure


class Labels:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.known: list[tuple[int, str, Figure, str]] = [
            (group, label, figure, claim.id)
            for claim in kb.claims.values()
            for group, label, figure in _labelled(fold(claim.statement.en))
        ]

    def swapped(self, text: str) -> Verdict | None:
        """Contradicted, naming the record, if ``text`` (folded) gives a figure the label of
        its rival in the records."""
        for group, label, figure in _labelled(text):
            given = [(lab, c) for g, lab, f, c in self.known if g == group and same(f, figure)]
            if not given or any(lab == label for lab, _ in given):
                continue
            # (the label said gives another figure of that kind in the records)
            if any(
                g == group and lab == label and f.unit == figure.unit for g, lab, f, _ in self.known
            ):
                return CONTRADICTED, (given[0][1],)
        return None


def _labelled(text: str) -> Iterator[Labelled]:
    """Each measured figure of the text with the rival label nearest it in its clause (not
    in a clause after a bare label: "8K and 16K sped up by 10.0% and 9.6%" pairs them in
    order, which the nearest label does not read)."""
    bare: set[int] = set()
    for clause in _CLAUSE.split(text):
        after_bare, bare = bare, set()
        for group, pattern in enumerate(_LABEL):
            labels = [(m.start(), _RIVALS[group][m[1]]) for m in pattern.finditer(clause)]
            if not labels:
                continue
            measured = list(_measured(clause, {start for start, _ in labels}, _KINDS[group]))
            if not measured:
                bare.add(group)
            if group in after_bare:
                continue
            for start, figure in measured:
                # the label before it, nearest; or, with none before, the one after
                before = [lab for lab in labels if lab[0] < start]
                nearest = max(before) if before else min(labels)
                yield group, nearest[1], figure


def _measured(
    clause: str, labels: set[int], kind: Callable[[str, str], bool]
) -> Iterator[tuple[int, Figure]]:
    """The measured figures of the clause of the ``kind`` its labels label, where they start
    (not the labels themselves: "8k")."""
    for number in _NUMBER.finditer(clause):
        found = figures(number[0])
        if number.start() in labels or len(found) != 1:
            continue
        if not kind(number[0], clause[: number.start()]):
            continue
        if found[0].spread <= 0.01 * abs(found[0].value):  # (not a round size)
            yield number.start(), found[0]
