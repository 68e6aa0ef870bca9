"""The loaded knowledge base: lookups and the view of it on any date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from knowledge.audit import public_since
from knowledge.confidence import Assessment, assess, origin
from knowledge.progress import Observation
from knowledge.schema import (
    Claim,
    ClaimKind,
    Correction,
    EvidenceLink,
    Source,
    Stance,
    Strength,
    WatchPoint,
)


@dataclass(frozen=True)
class KnowledgeBase:
    sources: Mapping[str, Source]
    claims: Mapping[str, Claim]  # in file order: curated order is presentation order
    links: Sequence[EvidenceLink]
    watch_points: Sequence[WatchPoint]
    corrections: Sequence[Correction] = ()
    observations: Sequence[Observation] = ()  # oldest first
    _cache: dict[tuple[str, dt.date | None, bool], Assessment] = field(
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
    def said_by(self) -> Mapping[str, tuple[Source, ...]]:
        """The records that say each claim directly (direct, supporting links), in file order:
        whose words a claim is ("Percy Liang on X", the README)."""
        return {
            cid: tuple(
                self.sources[link.source]
                for link in links
                if link.strength is Strength.DIRECT and link.stance is Stance.SUPPORTS
            )
            for cid, links in self.links_by_claim.items()
        }

    @cached_property
    def topics(self) -> Mapping[str, tuple[Claim, ...]]:
        grouped: dict[str, list[Claim]] = {}
        for claim in self.claims.values():
            grouped.setdefault(claim.topic, []).append(claim)
        return {t: tuple(cs) for t, cs in grouped.items()}

    def assessment(
        self, claim_id: str, as_of: dt.date | None = None, *, public: bool = False
    ) -> Assessment:
        """The claim's level on ``as_of``.

        Two views of the past: by default, as the knowledge base *knew* it that day (links
        recorded by then: what the digest reports); with ``public``, as the *public record*
        stood that day (records published by then, relayed ones from the relay's date,
        whenever the knowledge base learned them: what ``--as-of`` answers).
        """
        key = (claim_id, as_of, public)
        cached = self._cache.get(key)
        if cached is None:
            claim = self.claims.get(claim_id)
            links = self.links_by_claim.get(claim_id, ())
            if public and as_of is not None:
                links = tuple(
                    link for link in links if self.sources[link.source].public_since <= as_of
                )
                cut = None
            else:
                cut = as_of
            cached = assess(
                links,
                self.sources,
                cut,
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

    def visible(self, claim_id: str, on: dt.date | None = None) -> bool:
        """Whether the public record held the claim on that date: every figure it states was
        published by then (``since``), and a record of its own was."""
        claim = self.claims.get(claim_id)
        if claim is None:
            return False
        if on is None:
            return True
        since = self.since.get(claim_id)
        return since is not None and since <= on

    @cached_property
    def since(self) -> Mapping[str, dt.date]:
        """The first day each claim could be stated from the public record (see
        ``knowledge.audit.public_since``)."""
        first = self.first_public
        found: dict[str, dt.date] = {}
        for cid, claim in self.claims.items():
            day = public_since(claim, self.links_by_claim.get(cid, ()), self.sources)
            if day is None and claim.kind is ClaimKind.ABSENCE:
                day = first  # "no record shows X" holds from the run's first record
            if day is not None and claim.as_of is not None:
                day = max(day, claim.as_of)  # a status is never shown before the day it describes
            if day is not None:
                found[cid] = day
        return found

    def claims_as_of(self, as_of: dt.date | None = None, *, public: bool = False) -> list[Claim]:
        test = self.visible if public else self.known
        return [c for c in self.claims.values() if test(c.id, as_of)]

    def sources_as_of(self, as_of: dt.date | None = None, *, public: bool = False) -> list[Source]:
        """Sources linked by at least one evidence link by that date, newest first (public:
        records public by then; else links recorded by then)."""
        used = {
            link.source
            for link in self.links
            if as_of is None
            or (
                self.sources[link.source].public_since <= as_of
                if public
                else link.recorded <= as_of
            )
        }
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
        """The date of the newest record on the public record on ``as_of`` that the KB holds:
        what "no record shows X" was checked up to."""
        dates = [
            s.published
            for s in (self.sources[link.source] for link in self.links)
            if as_of is None or s.public_since <= as_of
        ]
        return max(dates, default=None)

    @cached_property
    def first_public(self) -> dt.date | None:
        """The first day the public record held one of the KB's records about the run itself
        (background posts about Marin, from earlier, do not start its record)."""
        background = (ClaimKind.CONTEXT, ClaimKind.JUDGMENT)
        return min(
            (
                self.sources[link.source].public_since
                for link in self.links
                if link.claim in self.claims and self.claims[link.claim].kind not in background
            ),
            default=None,
        )

    def evidence_date(
        self, claim_ids: Iterable[str], as_of: dt.date | None = None, *, public: bool = False
    ) -> dt.date | None:
        """The date the evidence behind these claims runs to: its newest published record."""
        dates = [
            self.sources[link.source].published
            for cid in claim_ids
            for link in self.assessment(cid, as_of, public=public).links
        ]
        return max(dates, default=None)

    def origin(self, source_id: str) -> Source:
        return self.sources[origin(source_id, self.sources)]
