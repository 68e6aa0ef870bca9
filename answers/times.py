"""How many times something happened, as a clause tells it: "hung twice", "three times",
"挂了两次". A record that tells the same event a different number of times contradicts it
("the ragged all-to-all trial hung three times": its record says twice)."""

from __future__ import annotations

import re

from answers.records import Records
from answers.text import fold

_WORDS = {"once": 1, "twice": 2, "thrice": 3}
_ZH = {"一": 1, "两": 2, "兩": 2, "二": 2, "三": 3, "四": 4, "五": 5}
_TIMES = re.compile(
    r"\b(once|twice|thrice)\b|\b(\d+)\s*times\b|(?<![第\d])([一两兩二三四五]|\d+)\s*次(?!方)"
)


def times(text: str) -> set[int]:
    """The counts of times the text tells ("twice", "3 times", "两次")."""
    found = set()
    for word, digits, zh in _TIMES.findall(fold(text)):
        if word:
            found.add(_WORDS[word])
        elif digits:
            found.add(int(digits))
        elif zh:
            found.add(int(zh) if zh.isdigit() else _ZH[zh])
    return found


def miscounted(records: Records, text: str, held: list[list[str]]) -> tuple[str, ...]:
    """The records holding the clause's figures that tell the event another number of times
    (each telling one count); () if none does, or any agrees."""
    said = times(text)
    if len(said) != 1:
        return ()
    claims = dict.fromkeys(c for h in held for c in h)
    told = {c: times(records.kb.claims[c].statement.en) for c in claims}
    counted = {c: n for c, n in told.items() if len(n) == 1}
    if not counted or any(n == said for n in counted.values()):
        return ()
    return tuple(counted)[:1]
