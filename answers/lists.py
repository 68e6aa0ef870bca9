"""A record that lists things of one shape, and figures told from two of its items as one.

"The ladder's configuration lists the rungs 1.6B-A61M (48B tokens), 4.0B-A162M (128B),
11.5B-A481M (381B) and 27.7B-A1.2B (926B)": each rung is an item, and "the smallest,
1.6B-A61M, used 128B tokens" takes the second rung's tokens. A list is three items or more
with figures of the same units in the same order; prose with commas is none, and neither is a
pair ("every 3,000 steps … every 6,000 steps", where which words go with which figure is too
loose to tell by position).
"""

from __future__ import annotations

import re

from answers.assertions import Figure, figures, same

_ITEMS = re.compile(r",\s+|;\s+|\s+and\s+")
# Figures said as a range, a sum or side by side, not as one thing's: "1.6B-A61M up to
# 27.7B-A1.2B", "390,251 steps ≈ 18.0T", "8K/16K"
_RANGE = re.compile(r"\b(?:up to|to|from|vs|x)\b|→|->|~|≈|=|×|/|到|至")


def list_of(statement: str) -> list[list[Figure]]:
    """The figures of each item of the longest list in the statement, or nothing."""
    best: list[list[Figure]] = []
    run: list[list[Figure]] = []
    for item in (figures(piece) for piece in _ITEMS.split(statement)):
        shape = [f.unit for f in item]
        if item and run and shape == [f.unit for f in run[-1]]:
            run.append(item)
        else:
            run = [item] if item else []
        if len(run) > len(best):
            best = list(run)
    return best if len(best) >= 3 else []


def across_items(text: str, said: list[Figure], listed: list[list[Figure]]) -> bool:
    """Whether the figures said together are held by different items of the list, and by no
    one item (unless the text tells them as a range or a sum)."""
    if not listed or len(said) < 2 or _RANGE.search(text):
        return False
    where = [{n for n, item in enumerate(listed) if any(same(f, g) for g in item)} for f in said]
    return all(where) and not set.intersection(*where)
