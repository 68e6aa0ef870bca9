"""Build the evidence line every answer ends with.

The caveat is computed here, from the claims an answer used, and appended by the rendering
layer, so that no template can leave it out. When any claim used rests on one record, the
caveat is the *single-source caveat*: it names that record, its kind and date, and what would
upgrade the claim. A record we only saw through a relay is said to be unverified by us.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Level, Source, SourceKind, Text

# Stale evidence: past this age the caveat says how old the evidence is.
STALE_AFTER_DAYS = 7

DEFAULT_UPGRADE = {
    SourceKind.SOCIAL_POST: Text(
        en="an official non-X record (announcement, status log, repository file or model card) "
        "saying the same",
        zh="一条非 X 的官方记录（公告、状态日志、仓库文件或模型卡）给出同样说法",
    ),
    SourceKind.NEWS_RELAY: Text(
        en="the original record, read by us, or an official record saying the same",
        zh="由我们直接读到的原始记录，或给出同样说法的官方记录",
    ),
}
FALLBACK_UPGRADE = Text(
    en="a second, independent record saying the same",
    zh="另一条独立记录给出同样说法",
)


@dataclass(frozen=True)
class SingleSource:
    """One record that alone supports the claims listed, and what would upgrade them."""

    record: Source
    claim_ids: tuple[str, ...]
    upgrade: Text


@dataclass(frozen=True)
class CaveatFacts:
    """What the caveat template needs; computed once per reply."""

    single: tuple[SingleSource, ...]
    contradicting: tuple[Source, ...]  # records that contradict a claim used (level disputed)
    relay_only: tuple[Source, ...]  # records used that we saw only through a relay
    levels: tuple[tuple[str, Level], ...]
    evidence_date: dt.date | None  # newest published record behind the claims used
    kb_date: dt.date | None  # newest evidence the KB had recorded on the as-of date
    today: dt.date
    as_of: dt.date | None  # set when answering about a past date
    public: bool = True  # that date read as the public record stood (else as the KB knew it)

    @property
    def age_days(self) -> int | None:
        anchor = self.evidence_date or self.kb_date
        return None if anchor is None else ((self.as_of or self.today) - anchor).days

    @property
    def stale(self) -> bool:
        return self.age_days is not None and self.age_days > STALE_AFTER_DAYS


def _default_upgrade(record: Source) -> Text:
    return DEFAULT_UPGRADE.get(record.kind, FALLBACK_UPGRADE)


def caveat_facts(
    kb: KnowledgeBase,
    claim_ids: Sequence[str],
    *,
    today: dt.date,
    as_of: dt.date | None,
    public: bool = True,
) -> CaveatFacts:
    single: dict[str, list[str]] = {}  # record id → claims resting on it alone
    upgrades: dict[str, list[Text]] = {}
    contradicting: dict[str, Source] = {}
    relay_only: dict[str, Source] = {}
    levels: list[tuple[str, Level]] = []
    for cid in claim_ids:
        a = kb.assessment(cid, as_of, public=public)
        levels.append((cid, a.level))
        for record_id in (*a.supporting, *a.contradicting):  # the records that decide the level
            record = kb.sources[record_id]
            if record.seen_via_relay:
                relay_only[record.id] = record
        for record_id in a.contradicting:
            contradicting[record_id] = kb.sources[record_id]
        if a.level is Level.SINGLE_SOURCE:
            record = kb.sources[a.supporting[0]]
            single.setdefault(record.id, []).append(cid)
            upgrades.setdefault(record.id, []).append(
                kb.claims[cid].upgrade or _default_upgrade(record)
            )
    return CaveatFacts(
        single=tuple(
            SingleSource(
                record=kb.sources[rid],
                claim_ids=tuple(cids),
                # one claim's own upgrade; several claims on one record: what upgrades the record
                upgrade=upgrades[rid][0]
                if len(set(upgrades[rid])) == 1
                else _default_upgrade(kb.sources[rid]),
            )
            for rid, cids in single.items()
        ),
        contradicting=tuple(contradicting.values()),
        relay_only=tuple(relay_only.values()),
        levels=tuple(levels),
        evidence_date=kb.evidence_date(claim_ids, as_of, public=public),
        kb_date=kb.newest_published(as_of) if public and as_of else kb.newest_recorded(as_of),
        today=today,
        as_of=as_of,
        public=public,
    )
