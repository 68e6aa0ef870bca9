"""Something true told of the wrong thing: a figure put at another's step or in another
document, a change told backwards, a person in another's role, a run id put where it was not,
a document or a thing put on a day it did not go out or happen, a share its own step does not
make, a figure with its neighbour's label, the whole a measure was of. Each check reads the
records, so new evidence needs no code; ``checking.py`` asks them in turn, before it weighs the
figures.
"""

from __future__ import annotations

from answers.assertions import Figure, same
from answers.dated_things import DatedThings
from answers.directions import Directions
from answers.documents import misdated
from answers.labelled import Labels
from answers.records import Records
from answers.roles import Roles
from answers.run_ids import RunIds
from answers.shares import Shares
from answers.step_pairs import StepPairs
from answers.verdicts import CONTRADICTED, Verdict


class Mismatches:
    def __init__(self, records: Records, run_ids: RunIds) -> None:
        self.records = records
        self.run_ids = run_ids
        self.roles = Roles(records.kb)  # "报告作者是 Percy Liang": Larry Dial wrote it
        self.directions = Directions(records.kb)  # "from 13.33 s up to 14.91 s": backwards
        self.step_pairs = StepPairs(records.kb)  # "1.9086 was the step 144,000 eval loss"
        self.shares = Shares(records)  # "step 108,000 (~37% in)": 27.7% of the schedule
        self.labels = Labels(records.kb)  # "8K 13.15 秒": the re-run's 13.15 s was 16K's
        self.dated = DatedThings(records)  # "PR #8588，9 月 22 号合的": it is of August 22

    def found(
        self, words: str, text: str, said: list[Figure], held: list[list[str]], before: str
    ) -> Verdict | None:
        """The verdict and the record it names, if the clause (``words``; ``text`` folded;
        ``said`` its figures, ``held`` their claims; ``before`` the clause before it) tells
        something of the wrong thing; else None."""
        return (
            self.records.references.misnamed(words, said, held)
            or self.roles.misnamed(text, before)
            or self.directions.reversed(text)
            or self.step_pairs.swapped(text, said)
            or self.run_ids.misplaced(text, said, held)
            or misdated(self.records, text)
            or self.dated.misdated(text)
            or self.shares.misstated(text, before)
            or self.labels.swapped(text)
            or self._whole(said)
            or self._cadence(text)
        )

    def _cadence(self, text: str) -> Verdict | None:
        """Contradicted, if the text gives a thing a record does every so often another
        cadence ("permanent ckpt every 1k steps": every 6,000)."""
        missed = self.records.shapes.missed(text)
        return (CONTRADICTED, (missed,)) if missed else None

    def _whole(self, said: list[Figure]) -> Verdict | None:
        """Contradicted, if a figure is the whole a record measures against and nothing of its
        own ("hit 143.75 GiB peak HBM": "peak HBM 125.4 of 143.75 GiB")."""
        for figure in said:
            held = [(f.of, c) for f, c in self.records.index if same(f, figure)]
            if held and not figure.of and all(whole for whole, _ in held):
                return CONTRADICTED, (held[0][1],)
        return None
