"""Confidence is derived from the evidence, never typed in.

The rules (``claims-and-confidence.md`` in the project's research notes, restated in the README):
collapse relays into the record they repeat, keep only direct links, then

    disputed      some direct record contradicts the claim
    confirmed     >= 2 distinct records support it, at least one official non-social record
    corroborated  >= 2 distinct records support it
    single-source exactly one record supports it
    indirect      no direct record; only indirect or context links

Only links recorded on or before ``as_of`` count, so any past state can be recomputed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from knowledge.schema import (
    OFFICIAL_KINDS,
    EvidenceLink,
    Level,
    Source,
    Stance,
    Strength,
)


@dataclass(frozen=True)
class Assessment:
    """A claim's level on a date, and the records that produced it."""

    level: Level
    supporting: tuple[str, ...]  # distinct original records, oldest first
    contradicting: tuple[str, ...]
    weaker: tuple[str, ...]  # records linked only indirectly or as context
    links: tuple[EvidenceLink, ...]  # every link counted on that date


def origin(source_id: str, sources: Mapping[str, Source]) -> str:
    """The record a relay repeats, followed to its end (cycle-safe: ``kb check`` rejects cycles)."""
    seen = {source_id}
    current = source_id
    while (nxt := sources[current].relays) is not None and nxt in sources and nxt not in seen:
        seen.add(nxt)
        current = nxt
    return current


def assess(
    links: Iterable[EvidenceLink],
    sources: Mapping[str, Source],
    as_of: dt.date | None = None,
    *,
    presorted: bool = False,
) -> Assessment:
    """The level of the claim these links are about. ``presorted``: the links already come
    oldest record first (``KnowledgeBase`` keeps them so), which saves a sort per call."""
    counted = tuple(link for link in links if as_of is None or link.recorded <= as_of)
    if not presorted:
        counted = tuple(
            sorted(counted, key=lambda link: (sources[link.source].published, link.source))
        )
    supporting: list[str] = []
    contradicting: list[str] = []
    weaker: list[str] = []
    for link in counted:
        record = origin(link.source, sources)
        if link.strength is not Strength.DIRECT:
            bucket = weaker
        elif link.stance is Stance.CONTRADICTS:
            bucket = contradicting
        else:
            bucket = supporting
        if record not in bucket:
            bucket.append(record)
    weaker = [r for r in weaker if r not in supporting and r not in contradicting]
    return Assessment(
        level=_level(supporting, contradicting, counted, sources),
        supporting=tuple(supporting),
        contradicting=tuple(contradicting),
        weaker=tuple(weaker),
        links=counted,
    )


def _level(
    supporting: list[str],
    contradicting: list[str],
    counted: tuple[EvidenceLink, ...],
    sources: Mapping[str, Source],
) -> Level:
    if contradicting:
        return Level.DISPUTED
    if len(supporting) >= 2:
        if any(sources[r].kind in OFFICIAL_KINDS for r in supporting):
            return Level.CONFIRMED
        return Level.CORROBORATED
    if len(supporting) == 1:
        return Level.SINGLE_SOURCE
    return Level.INDIRECT
