"""Mechanical truth checks: what a claim states must be in the records it links to.

Two rules, both run by ``kb check`` (and so by ``ask`` and ``serve`` at start-up):

- **Quotes are checkable.** A link's quote is the record's own words: every piece of it (pieces
  are cut at "…") appears in the record's ``excerpts``, unless the link says ``paraphrase``.
- **No claim states a step, date, run id or measured figure that none of its records holds.**
  The numbers of four or more digits, run ids (``hero-…``), percentages and dates written in a
  statement must each appear in the excerpts, the date or the date note of a linked record.
  Figures the knowledge base computed are written "(our arithmetic: …)" and are exempt.

These are the checks an auditor can make without judgment; they catch a fact credited to the
wrong record or the wrong date, which is how the three wrong facts of the 2026-11 audit arose.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from knowledge.schema import Claim, EvidenceLink, Source

_ARITHMETIC = re.compile(r"\((?:our arithmetic|按我们计算)[^)]*\)")
_RUN_ID = re.compile(r"\bhero-[a-z0-9_.-]*[a-z0-9]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{4,})(?!\d|\.\d)")
_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:%|pct\b|percent\b)")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_MONTHS = {
    m: i
    for i, m in enumerate(
        "jan feb mar apr may jun jul aug sep oct nov dec".split(),
        start=1,
    )
}
_LONG = re.compile(r"\b([A-Z][a-z]{2})[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?(?:, (\d{4}))?\b")
_CUTS = re.compile(r"\s*(?:…|\.\.\.)\s*")


@dataclass(frozen=True)
class Mentions:
    """The checkable facts written in a text."""

    numbers: frozenset[int]
    run_ids: frozenset[str]
    percents: frozenset[str]
    dates: frozenset[dt.date]


def normalize(text: str) -> str:
    """For comparing quotes: width, case, quote marks, backticks and spacing do not count."""
    text = unicodedata.normalize("NFKC", text).casefold()
    for a, b in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'"), ("`", ""), ("×", "x")):
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip()


def mentions(text: str, *, year: int = 2026) -> Mentions:
    """Numbers (4+ digits, not years), run ids, percentages and dates written in ``text``."""
    text = strip_arithmetic(unicodedata.normalize("NFKC", text))
    dates: set[dt.date] = set()
    for y, m, d in _ISO.findall(text):
        _add_date(dates, int(y), int(m), int(d))
    for month, d, y in _LONG.findall(text):
        if month.lower() in _MONTHS:
            _add_date(dates, int(y or year), _MONTHS[month.lower()], int(d))
    without_dates = _LONG.sub(" ", _ISO.sub(" ", text))
    run_ids = {m.lower().rstrip(".") for m in _RUN_ID.findall(without_dates)}
    without_ids = _RUN_ID.sub(" ", without_dates)
    numbers = {int(n.replace(",", "")) for n in _NUMBER.findall(without_ids)}
    numbers = {n for n in numbers if not 1990 <= n <= 2100}
    return Mentions(
        numbers=frozenset(numbers),
        run_ids=frozenset(run_ids),
        percents=frozenset(p for p in _PERCENT.findall(without_ids)),
        dates=frozenset(dates),
    )


def strip_arithmetic(text: str) -> str:
    """The text without its "(our arithmetic: …)" parts, which no record needs to hold."""
    return _ARITHMETIC.sub(" ", unicodedata.normalize("NFKC", text))


def _add_date(dates: set[dt.date], y: int, m: int, d: int) -> None:
    try:
        dates.add(dt.date(y, m, d))
    except ValueError:
        pass


def quote_found(quote: str, source: Source) -> bool:
    """Whether every piece of ``quote`` (cut at "…") appears in the record's excerpts."""
    held = [normalize(e) for e in source.excerpts]
    pieces = [normalize(p) for p in _CUTS.split(quote) if p.strip(" .…\"'")]
    return bool(held) and all(any(p in e for e in held) for p in pieces)


def record_mentions(source: Source) -> Mentions:
    """What a record holds: its excerpts, its URL, its date and the note on its date."""
    texts = [*source.excerpts, source.published.isoformat()]
    if source.url is not None:
        texts.append(str(source.url).replace("/", " "))
    if source.date_note is not None:
        texts.append(source.date_note.en)
    parts = [mentions(t) for t in texts]
    return Mentions(
        numbers=frozenset().union(*(p.numbers for p in parts)),
        run_ids=frozenset().union(*(p.run_ids for p in parts)),
        percents=frozenset().union(*(p.percents for p in parts)),
        dates=frozenset().union(*(p.dates for p in parts)),
    )


def unsupported(
    claim: Claim, links: Iterable[EvidenceLink], sources: Mapping[str, Source]
) -> list[str]:
    """What ``claim.statement.en`` states that none of its linked records holds, worded."""
    held = [record_mentions(sources[link.source]) for link in links if link.source in sources]
    said = mentions(claim.statement.en)
    missing: list[str] = []
    missing += [f"{n:,}" for n in sorted(said.numbers) if not any(n in h.numbers for h in held)]
    missing += [r for r in sorted(said.run_ids) if not any(r in h.run_ids for h in held)]
    missing += [f"{p}%" for p in sorted(said.percents) if not any(p in h.percents for h in held)]
    missing += [d.isoformat() for d in sorted(said.dates) if not any(d in h.dates for h in held)]
    return missing


def public_since(
    claim: Claim, links: Iterable[EvidenceLink], sources: Mapping[str, Source]
) -> dt.date | None:
    """The first day the public record held everything ``claim`` states: each figure it
    writes, from the earliest record holding it, and (for anything but an absence) a record
    stating it directly. ``--as-of`` shows a claim from that day on, so an answer about the
    past never carries a figure published later."""
    linked = [link for link in links if link.source in sources]
    if not linked:
        return None
    held = [
        (sources[link.source].public_since, record_mentions(sources[link.source]))
        for link in linked
    ]
    said = mentions(claim.statement.en)
    days: list[dt.date] = []
    for name in ("numbers", "run_ids", "percents", "dates"):
        for item in getattr(said, name):
            found = [day for day, m in held if item in getattr(m, name)]
            if found:
                days.append(min(found))
    if claim.kind != "absence":
        direct = [
            day for (day, _), link in zip(held, linked, strict=True) if link.strength == "direct"
        ]
        days.append(min(direct or [day for day, _ in held]))
    return max(days, default=None)


def figures_differ(claim: Claim) -> Sequence[str]:
    """Numbers and run ids written in one language's statement but not the other's."""
    en, zh = mentions(claim.statement.en), mentions(claim.statement.zh)
    diff = (en.numbers ^ zh.numbers, en.run_ids ^ zh.run_ids)
    return sorted([f"{n:,}" for n in diff[0]] + sorted(diff[1]))


_STATED_MONTHS = {
    name: number
    for number, name in enumerate(
        "january february march april may june july august september october november "
        "december".split(),
        start=1,
    )
}
_STATED_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_STATED_LONG = re.compile(r"\b([A-Z][a-z]+) (\d{1,2}), (\d{4})\b")


def mentioned_dates(text: str) -> list[dt.date]:
    """Dates written in a statement, as 2026-10-03 or October 3, 2026."""
    found: list[dt.date] = []
    for y, m, d in _STATED_ISO.findall(text):
        found.append(_date(int(y), int(m), int(d)))
    for month, d, y in _STATED_LONG.findall(text):
        if month.lower() in _STATED_MONTHS:
            found.append(_date(int(y), _STATED_MONTHS[month.lower()], int(d)))
    return [d for d in found if d != dt.date.min]


def _date(y: int, m: int, d: int) -> dt.date:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return dt.date.min
