"""Figures a message works out from figures the records hold: "231,464 / 390,251 = 59.3%, so
that leaves 158,787 steps", "3.14M tokens/s is ~271B tokens/day", "8 月 19 日到 10 月 9 日一共
51 天", "704 GPUs … one day of the full hero = 16,896 GPU-hours".

People do the run's arithmetic in chat. A figure no record holds is worked out when it is, to
the precision it is written in, one figure the message gave (or a span between two days it
named) converted, or two of them added, taken apart, multiplied or divided (and converted):
its verdict then rests on the records holding those figures. What may be converted is read
from the clause's own words ("a day", "GPU-hours", "GB"), and a share only comes of a share or
of a part over its whole, so a figure is not found by chance among every product of every
figure the message gave.

Only figures the records hold, days they name, or figures already worked out are taken: a
figure from a wrong one ("step 250,000, so 64% done") is not worked out. Wrong arithmetic is
left as it was: a figure no record holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from answers.assertions import Figure, figures
from answers.days import days_apart, months
from answers.records import Records

# The conversions a clause's words allow, each by what the figure worked out is multiplied:
# per second to per day and back, days to hours, GiB to GB (not back: "123.4 GiB ≈ 115 GB").
_TIME = (86_400.0, 1 / 86_400, 24.0, 1 / 24, 3_600.0, 1 / 3_600)
_CONVERSIONS = (
    (re.compile(r"\b(?:a|per|each) day\b|/d(?:ay)?\b|一天|每天|每日|\bdaily\b"), _TIME),
    (re.compile(r"\bhours?\b|\bhrs?\b|小时|小時"), _TIME),
    (re.compile(r"\bper second\b|/s\b|每秒"), _TIME),
    (re.compile(r"\d\s*gb\b"), (1.073_741_824,)),
)
_DAYS = re.compile(r"\bdays?\b|天")  # a count of days: a span between two days may be it
_POINTS = re.compile(r"\bpoints?\b|\bpts\b|个点|個點|百分点|百分點")  # a share's difference
_COUNTS = {"exact", "n"}
_PRECISION = 0.005  # a figure written bare is still rounded ("~4,540 steps a day": 4,538.5)
_LOOSEST = 0.015  # however it is rounded, a figure worked out is this near ("~33 days": 32.6)
# Only the two clauses before are worked from: among every figure of a long recap, some
# product turns up by chance ("18.0T … 228亿 … 一共 792 张卡": 18.0T / 22.8B is ~790)
_NEAR = 2
_TIMES = re.compile(r"[×*]|\sx\s?(?=\d)|\dx(?=\d)")  # an operator written out
_CONSTANTS = {86_400.0, 3_600.0, 1_440.0, 24.0, 60.0}  # seconds a day, an hour; hours a day
_LARGE = 1_000  # steps and tokens, one a count and one scaled, may be added or taken apart


@dataclass(frozen=True)
class _Known:
    value: float
    unit: str  # a figure's unit ("exact", "n", "%"), or "days" for a span between two days
    claims: tuple[str, ...]


class WorkedOut:
    def __init__(self, records: Records) -> None:
        self.records = records

    def filled(
        self, text: str, said: list[Figure], held: list[list[str]], told: Sequence[str]
    ) -> list[list[str]]:
        """``held`` with each figure no record holds, but that the clause (``text``, folded)
        works out from the clauses ``told`` before it and its own held figures, held by the
        records of the figures it was worked out from."""
        if all(held):
            return held
        told = told[-_NEAR:]
        known = self._spans(" ".join((*told, text)))
        for clause in told:  # what the clauses before gave, as this one is read (it joins)
            self._worked(clause, figures(clause), known)
        pairs = list(zip(said, held, strict=True))
        known += [_Known(f.value, f.unit, tuple(h[:2])) for f, h in pairs if h and _operand(f)]
        open_ = [i for i, (_, h) in enumerate(pairs) if not h]  # (the records' are as they were)
        filled = list(held)
        for i, found in self._worked(text, [said[i] for i in open_], known, held_too=False):
            filled[open_[i]] = list(dict.fromkeys(found.claims))
        # a unit's constant multiplied in ("3.14M tok/s × 86,400 s ≈ 271B"), once the working
        # is found, rests on what it worked with
        worked = [c for i in open_ for c in filled[i]]
        if worked and _TIMES.search(text):
            for i in open_:
                if not filled[i] and said[i].unit == "exact" and said[i].value in _CONSTANTS:
                    filled[i] = worked[:2]
        return filled

    def _worked(
        self, text: str, said: Sequence[Figure], known: list[_Known], held_too: bool = True
    ) -> list[tuple[int, _Known]]:
        """Each figure of ``said`` the records hold (if ``held_too``), or the clause works out
        from ``known``, with its place; each joins ``known``."""
        conversions = [c for words, cs in _CONVERSIONS if words.search(text) for c in cs]
        points, days = bool(_POINTS.search(text)), bool(_DAYS.search(text))
        found_all = []
        for i, figure in enumerate(said):
            if not _operand(figure):
                continue
            claims = self.records.holders(figure, None) if held_too else []
            found: _Known | None = _Known(figure.value, figure.unit, tuple(claims[:2]))
            if not claims:
                unit = "%" if points else "days" if days and figure.unit == "exact" else figure.unit
                found = _from(figure, unit, known, conversions)
            if found is not None:
                known.append(found)
                found_all.append((i, found))
        return found_all

    def _spans(self, text: str) -> list[_Known]:
        """The days between each two days the text names that records name too."""
        on = {(m, d): self.records.on_days({(m, d)})[:1] for m, d in months(text) if d is not None}
        days = {day: claims for day, claims in on.items() if claims}
        return [
            _Known(float(days_apart(a, b)), "days", days[a] + days[b])
            for a, b in combinations(days, 2)
        ]


def _operand(figure: Figure) -> bool:
    """A figure to work with: a count, a share or FLOPs, not an issue's number ("#9833")."""
    return figure.unit in ("exact", "n", "%", "flops") and figure.noun != "issue"


def _from(
    figure: Figure, unit: str, known: list[_Known], conversions: list[float]
) -> _Known | None:
    """The working that makes the figure (of ``unit``: a share, a count of days, or as it
    was written), if any: the value worked out, of the records of what it came from."""
    # (to the precision written, but a count's half a unit is loose: "14 of 16" is no 13.86)
    # (a FLOPs figure's spread is a tenth of its last digit's: "3.8e21" is 3.75e21 to 3.85e21)
    written = figure.spread * (10 if figure.unit == "flops" else 1)
    spread = max(_PRECISION * abs(figure.value), min(written, _LOOSEST * abs(figure.value)))
    # (a count written to its last unit is no rounding of another count: "从 197,367 恢复" is
    # no step 198,000, though "46,137,344 tokens a step" is the "46.1M" a record rounds)
    precise = figure.unit == "exact" and figure.value % 10
    for a in known:
        # a span of days told as days; or a figure converted ("3.14M tokens/s, ~271B a day")
        scales: Sequence[float] = (1.0,) if a.unit == "days" == unit else conversions
        near = written if precise and a.unit == "exact" else spread
        if a.unit != "%" and any(abs(a.value * s - figure.value) <= near for s in scales):
            return _Known(figure.value, figure.unit, a.claims)
    for a, b in combinations(known, 2):
        if a.value == b.value:
            continue  # a figure told twice is not two ("~18T tokens … 18T": not 100%)
        near = written if precise and a.unit == b.unit == "exact" else spread
        for value, scales in _workings(a, b, unit, conversions):
            if any(abs(value * s - figure.value) <= near for s in scales):
                return _Known(value, figure.unit, a.claims + b.claims)
    return None


def _workings(
    a: _Known, b: _Known, unit: str, conversions: list[float]
) -> Iterator[tuple[float, Sequence[float]]]:
    """What two figures make, and what it may then be multiplied by: a share of a share
    ("59.3% − 13% is ~46 points") or of a part and its whole ("231,464 / 390,251 = 59.3%");
    a part of a whole from its share; else their sum or difference if they are of one kind,
    and their product and quotients, converted."""
    shares = (a.unit == "%") + (b.unit == "%")
    plain = (1.0, *conversions)
    if unit == "%":
        if shares == 2:
            yield from ((a.value + b.value, (1.0,)), (abs(a.value - b.value), (1.0,)))
        elif shares == 0 and a.unit == b.unit and a.value and b.value:
            small, large = sorted((a.value, b.value))
            yield small / large, (100.0,)
        return
    if shares == 2:
        return
    if shares == 1:  # "59.3% of the 18T is ~10.7T"
        yield a.value * b.value, (0.01,)
        return
    # "18T − 10.7T = ~7.3T to go", "390,251 − 231,464" (not a loss from a count of slices)
    if a.unit == b.unit or min(a.value, b.value) >= _LARGE and {a.unit, b.unit} == _COUNTS:
        yield from ((a.value + b.value, plain), (abs(a.value - b.value), plain))
    yield a.value * b.value, plain
    if a.value and b.value:
        yield from ((a.value / b.value, plain), (b.value / a.value, plain))
