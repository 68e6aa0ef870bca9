"""A share said without its sign: "the real multi-rack trial was 29.44" is the trial's 29.44%
MFU, when a record holds that share and no record holds the bare number. Only a figure written
to the hundredth is read so (a loss of "1.5" is no 1.5% of anything).
"""

from __future__ import annotations

from dataclasses import replace

from answers.assertions import Figure
from answers.records import Records


def signed(records: Records, said: list[Figure], topic: str | None, rungs: bool) -> list[Figure]:
    """The figures, one only a share holds read as that share."""
    return [_signed(records, f, topic, rungs) for f in said]


def bare(figure: Figure) -> bool:
    """Whether the figure may be a share said without its sign: a plain number to the
    hundredth."""
    return figure.unit == "n" and not figure.noun and figure.spread <= 0.005


def _signed(records: Records, figure: Figure, topic: str | None, rungs: bool) -> Figure:
    share = replace(figure, unit="%")
    unsigned = bare(figure) and topic != "loss"  # (a loss of "2.13" is no per cent)
    if (
        unsigned
        and not records.holders(figure, topic, rungs)
        and records.holders(share, topic, rungs)
    ):
        return share
    return figure
