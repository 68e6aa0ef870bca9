"""Confidence is derived from the evidence, never typed in.

The rules (``docs/CONFIDENCE.md``): collapse relays into the record they repeat, keep only
direct links, then

    disputed      some direct record contradicts the claim
    no-record     the claim is an absence ("no record shows X") and nothing contradicts it
    confirmed     >= 2 distinct records support it, and at least one of them is an official
                  non-social record that we read ourselves (not only through a relay)
    corroborated  >= 2 distinct records support it
    single-source exactly one record supports it
    indirect      no direct record; only indirect or context links

A record seen only through a relay is unverified by us, so it can corroborate but never
confirm. Only links recorded on or before ``as_of`` count, so any past state can be
recomputed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from knowledge.schema import (
    OFFICIAL_KINDS,
    EvidenceLink,
    Level,
    Source,
    Stance,
    Strength,
)


class Rule(StrEnum):
    """Which rule gave the level: "why is that confirmed?" names it."""

    CONTRADICTED = "contradicted"  # a direct record contradicts
    ABSENCE = "absence"  # an absence, nothing contradicting
    OFFICIAL_READ = "official-read"  # >= 2 records, one official and read by us
    TWO_RECORDS = "two-records"  # >= 2 records, none official and read by us
    ONE_RECORD = "one-record"
    NO_DIRECT = "no-direct"  # only indirect or context links


@dataclass(frozen=True)
class Assessment:
    """A claim's level on a date, the records that produced it, and the rule that did."""

    level: Level
    supporting: tuple[str, ...]  # distinct original records, oldest first
    contradicting: tuple[str, ...]
    weaker: tuple[str, ...]  # records linked only indirectly or as context
    links: tuple[EvidenceLink, ...]  # every link counted on that date, in file order
    rule: Rule = Rule.NO_DIRECT

    def relays(self, sources: Mapping[str, Source]) -> tuple[tuple[str, str], ...]:
        """(relay, the record it collapsed into) for each counted link that is a relay."""
        found: dict[tuple[str, str], None] = {}
        for link in self.links:
            record = link_origin(link, sources)
            if record != link.source:
                found[(link.source, record)] = None
        return tuple(found)

    def unread(self, sources: Mapping[str, Source]) -> tuple[str, ...]:
        """Supporting records we saw only through a relay: they corroborate, never confirm."""
        return tuple(r for r in self.supporting if not sources[r].read_directly)


def origin(source_id: str, sources: Mapping[str, Source]) -> str:
    """The record a relay repeats, followed to its end (cycle-safe: ``kb check`` rejects cycles)."""
    if sources[source_id].relays is None:  # the common case: an original record
        return source_id
    seen = {source_id}
    current = source_id
    while (nxt := sources[current].relays) is not None and nxt in sources and nxt not in seen:
        seen.add(nxt)
        current = nxt
    return current


def link_origin(link: EvidenceLink, sources: Mapping[str, Source]) -> str:
    """The record a link's words come from: what it repeats, else its source's origin."""
    if link.repeats is not None and link.repeats in sources:
        return origin(link.repeats, sources)
    return origin(link.source, sources)


def assess(
    links: Iterable[EvidenceLink],
    sources: Mapping[str, Source],
    as_of: dt.date | None = None,
    *,
    absence: bool = False,
) -> Assessment:
    """The level of the claim these links are about, on ``as_of`` (None: with every link)."""
    counted = (
        tuple(links) if as_of is None else tuple(link for link in links if link.recorded <= as_of)
    )
    # Dicts keep each record once, in first-seen order; records are sorted once at the end
    # (a claim has a handful of records, but may have many links).
    supporting: dict[str, None] = {}
    contradicting: dict[str, None] = {}
    weaker: dict[str, None] = {}
    for link in counted:
        record = link_origin(link, sources)
        if link.strength is not Strength.DIRECT:
            weaker[record] = None
        elif link.stance is Stance.CONTRADICTS:
            contradicting[record] = None
        else:
            supporting[record] = None
    weaker = {r: None for r in weaker if r not in supporting and r not in contradicting}
    level, rule = _level(supporting, contradicting, sources, absence=absence)
    return Assessment(
        level=level,
        supporting=_oldest_first(supporting, sources),
        contradicting=_oldest_first(contradicting, sources),
        weaker=_oldest_first(weaker, sources),
        links=counted,
        rule=rule,
    )


def _oldest_first(records: Iterable[str], sources: Mapping[str, Source]) -> tuple[str, ...]:
    return tuple(sorted(records, key=lambda r: (sources[r].published, r)))


def _level(
    supporting: Mapping[str, None],
    contradicting: Mapping[str, None],
    sources: Mapping[str, Source],
    *,
    absence: bool,
) -> tuple[Level, Rule]:
    if contradicting:
        return Level.DISPUTED, Rule.CONTRADICTED
    if absence:
        return Level.NO_RECORD, Rule.ABSENCE
    if len(supporting) >= 2:
        if any(sources[r].kind in OFFICIAL_KINDS and sources[r].read_directly for r in supporting):
            return Level.CONFIRMED, Rule.OFFICIAL_READ
        return Level.CORROBORATED, Rule.TWO_RECORDS
    if len(supporting) == 1:
        return Level.SINGLE_SOURCE, Rule.ONE_RECORD
    return Level.INDIRECT, Rule.NO_DIRECT
