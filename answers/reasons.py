"""A cause told otherwise: the record holding the clause's figures gives a reason, and the
clause gives another ("the 114k checkpoint save broke because of a GPU failure": the record's
is an atomic rename under a bucket policy denying deletes). A reason is the same when a word of
it is among the record's words beside its own "because"; a reason with no word of its own to
compare ("because of that") is never judged. (Who did it is beyond this: "because some intern
deleted the bucket" shares the record's words.)
"""

from __future__ import annotations

import re

from answers.records import Records
from answers.statements import SAYS_AT
from answers.text import fold, spaced
from answers.verdict_words import CAUSE

_AFTER = 60  # characters of a record's reason looked at, beside its "because"
# words any reason has, which tell one from another not at all
_PLAIN = frozenset("that this with from them they their have been some because after".split())


def terms(reason: str) -> set[str]:
    """The words of a reason to compare: English words of four letters or more, Chinese pairs."""
    words = spaced(fold(reason))
    english = {w for w in re.findall(r"[a-z]{4,}", words) if w not in _PLAIN}
    return english | set(re.findall(r"(?=([\u4e00-\u9fff]{2}))", words))


def reason_differs(records: Records, reason: str, held: list[list[str]], assertion: str) -> bool:
    """Whether the records holding every figure of the assertion (or its nearest statement)
    give a reason, and no word of ``reason`` is in it."""
    own = terms(reason)
    if not own:
        return False
    every = set.intersection(*(set(h) for h in held)) if held and all(held) else set()
    claim_id, near = records.statements.nearest(assertion)
    if near >= SAYS_AT:
        every.add(claim_id)
    given = False
    for claim in every:
        said = records.said(claim)
        for cause in CAUSE.finditer(said):
            given = True
            # (either side: "导致" tells its reason before it)
            if any(t in said[max(0, cause.start() - _AFTER) : cause.end() + _AFTER] for t in own):
                return False
    return given
