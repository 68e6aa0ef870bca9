"""Supported, as far as the claims go: the claims found for an assertion support it unless it
tells them otherwise ("bought the racks": a gift; "started aug 21 on 11x gb200": Aug 19), or
puts them on a day, a person, a rank or in a document none of them gives ("#8506 是 Percy 自己
开的": the record names Larry Dial; "the Dec 1 end date is straight from the tweet": the blog
posts give it).
"""

from __future__ import annotations

from collections.abc import Sequence

from answers.denials import told_otherwise
from answers.documents import from_elsewhere
from answers.records import Records
from answers.start_dates import start_beside
from answers.verdicts import CONTRADICTED, SUPPORTED, UNSUPPORTED, Assertion, Verdict


class Support:
    def __init__(self, records: Records) -> None:
        self.records = records

    def weighed(self, words: str, text: str, found: Verdict) -> Assertion:
        """The verdict found, or if it is "supported", as ``supported`` leaves it."""
        if found[0] == SUPPORTED:
            return self.supported(words, text, found[1])
        return Assertion(words, *found)

    def supported(self, words: str, text: str, claims: tuple[str, ...]) -> Assertion:
        """Supported by ``claims``, unless the assertion (``text`` folded) tells them otherwise
        or puts them where none of them does."""
        if wrong := told_otherwise(text, claims) or start_beside(self.records, text, claims):
            return Assertion(words, CONTRADICTED, wrong)
        return Assertion(words, SUPPORTED if self.alike(text, claims) else UNSUPPORTED, claims[:3])

    def alike(self, text: str, claims: Sequence[str]) -> bool:
        """Whether the claims give every day, person, rank and document the text puts them on."""
        records = self.records
        alike = records.dated_alike(text, claims) and records.named_alike(text, claims)
        alike = alike and records.ranked_alike(text, claims)
        return alike and not from_elsewhere(records, text, tuple(claims))
