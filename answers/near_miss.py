"""A figure a little off, beside figures of one record: "target 2.14 @ 18T tokens" (the
preregistered target is 2.04 at 18T). The other figures name the record; the record gives a
figure of the same kind close to the one said, and no record holds them all together (each
is held by some record: a figure none holds is unsupported without this).
"""

from __future__ import annotations

from answers.assertions import Figure, same
from answers.records import Records

NEAR = 0.1  # within a tenth of each other: a misremembered figure, not another quantity


def near_miss(records: Records, said: list[Figure], held: list[list[str]]) -> str | None:
    """The record the figures ``said`` (held by the claims ``held``) all point to but one,
    which is near a figure of its own; None if there is none or one record holds them all."""
    told = [(f, set(h)) for f, h in zip(said, held, strict=True) if f.noun != "issue"]
    # (a figure no record holds is unsupported already; a count or a step is no measurement
    # to be a little off: step 231,664 is not step 231,464 misremembered)
    if len(told) < 2 or not all(h for _, h in told) or set.intersection(*(h for _, h in told)):
        return None
    for claim_id in dict.fromkeys(c for _, h in told for c in h):
        missing = [f for f, h in told if claim_id not in h]
        if len(missing) != 1:
            continue
        figure = missing[0]
        if figure.unit == "exact":
            continue
        own = [g for g, c in records.index if c == claim_id and g.unit == figure.unit]
        if any(_near(g, figure) for g in own):
            return claim_id
    return None


def _near(a: Figure, b: Figure) -> bool:
    top = max(abs(a.value), abs(b.value))
    return not same(a, b) and top > 0 and abs(a.value - b.value) <= NEAR * top
