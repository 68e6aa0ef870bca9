"""The loaded knowledge base: lookups and the view of it on any date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from knowledge.confidence import Assessment, assess, origin
from knowledge.schema import Claim, ClaimKind, Correction, EvidenceLink, Source, WatchPoint


@dataclass(frozen=True)
class KnowledgeBase:
    sources: Mapping[str, Source]
    claims: Mapping[str, Claim]  # in file order: curated order is presentation order
    links: Sequence[EvidenceLink]
    watch_points: Sequence[WatchPoint]
    corrections: Sequence[Correction] = ()
    _cache: dict[tuple[str, dt.date | None], Assessment] = field(
        default_factory=dict, repr=False, compare=False
    )

    @cached_property
    def links_by_claim(self) -> Mapping[str, tuple[EvidenceLink, ...]]:
        """Each claim's links, in file order."""
        grouped: dict[str, list[EvidenceLink]] = {cid: [] for cid in self.claims}
        for link in self.links:
            grouped.setdefault(link.claim, []).append(link)
        return {cid: tuple(ls) for cid, ls in grouped.items()}

    @cached_property
    def topics(self) -> Mapping[str, tuple[Claim, ...]]:
        grouped: dict[str, list[Claim]] = {}
        for claim in self.claims.values():
            grouped.setdefault(claim.topic, []).append(claim)
        return {t: tuple(cs) for t, cs in grouped.items()}

    def assessment(self, claim_id: str, as_of: dt.date | None = None) -> Assessment:
        key = (claim_id, as_of)
        cached = self._cache.get(key)
        if cached is None:
            claim = self.claims.get(claim_id)
            cached = assess(
                self.links_by_claim.get(claim_id, ()),
                self.sources,
                as_of,
                absence=claim is not None and claim.kind is ClaimKind.ABSENCE,
            )
            self._cache[key] = cached
        return cached

    def known(self, claim_id: str, as_of: dt.date | None = None) -> bool:
        """Whether the claim existed in the knowledge base on that date."""
        claim = self.claims.get(claim_id)
        if claim is None:
            return False
        return as_of is None or (
            claim.added <= as_of and bool(self.assessment(claim_id, as_of).links)
        )

    def claims_as_of(self, as_of: dt.date | None = None) -> list[Claim]:
        return [c for c in self.claims.values() if self.known(c.id, as_of)]

    def sources_as_of(self, as_of: dt.date | None = None) -> list[Source]:
        """Sources linked by at least one evidence link recorded by that date, newest first."""
        used = {link.source for link in self.links if as_of is None or link.recorded <= as_of}
        return sorted(
            (s for s in self.sources.values() if s.id in used),
            key=lambda s: (s.published, s.id),
            reverse=True,
        )

    def newest_recorded(self, as_of: dt.date | None = None) -> dt.date | None:
        """The date of the newest evidence the KB had learned by ``as_of``."""
        dates = [link.recorded for link in self.links if as_of is None or link.recorded <= as_of]
        return max(dates, default=None)

    def newest_published(self, as_of: dt.date | None = None) -> dt.date | None:
        """The date of the newest record the KB held on ``as_of``: what "no record shows X"
        was checked up to (never later than ``as_of`` itself)."""
        dates = [
            self.sources[link.source].published
            for link in self.links
            if (as_of is None or link.recorded <= as_of) and link.source in self.sources
        ]
        newest = max(dates, default=None)
        return newest if newest is None or as_of is None else min(newest, as_of)

    @cached_property
    def first_recorded(self) -> dt.date | None:
        """The day the knowledge base recorded its first evidence."""
        return min((link.recorded for link in self.links), default=None)

    def evidence_date(
        self, claim_ids: Iterable[str], as_of: dt.date | None = None
    ) -> dt.date | None:
        """The date the evidence behind these claims runs to: its newest published record."""
        dates = [
            self.sources[link.source].published
            for cid in claim_ids
            for link in self.assessment(cid, as_of).links
        ]
        return max(dates, default=None)

    def origin(self, source_id: str) -> Source:
        return self.sources[origin(source_id, self.sources)]
