"""Why a claim has its level: the derivation ``knowledge/confidence.py`` computed, rendered.

Nothing here decides a level. ``KnowledgeBase.assessment`` returns the records that count, the
rule that fired and the links it counted; this module only gathers what a person asking
"why is that confirmed?" wants to see: those records, the relays that collapsed into them,
the records left out and why (seen only through a relay, only indirect, recorded later).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from answers.render import Renderer
from answers.reply import Reply
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Source


@dataclass(frozen=True)
class Derivation:
    claim: str
    rule: str  # knowledge.confidence.Rule
    counted: tuple[Source, ...]  # the distinct records that count, oldest first
    contradicting: tuple[Source, ...]
    relays: tuple[tuple[Source, Source], ...]  # (relay, the record it collapsed into)
    unread: tuple[Source, ...]  # counted, but seen only through a relay: cannot confirm
    weaker: tuple[Source, ...]  # only indirect or context links
    later: tuple[tuple[Source, dt.date], ...]  # linked after the as-of date


def derivation(kb: KnowledgeBase, claim_id: str, as_of: dt.date | None = None) -> Derivation:
    a = kb.assessment(claim_id, as_of, public=as_of is not None)
    src = kb.sources
    counted_links = {id(link) for link in a.links}
    later = tuple(
        (src[link.source], link.recorded)
        for link in kb.links_by_claim.get(claim_id, ())
        if id(link) not in counted_links
    )
    return Derivation(
        claim=claim_id,
        rule=str(a.rule),
        counted=tuple(src[r] for r in a.supporting),
        contradicting=tuple(src[r] for r in a.contradicting),
        relays=tuple((src[relay], src[record]) for relay, record in a.relays(src)),
        unread=tuple(src[r] for r in a.unread(src)),
        weaker=tuple(src[r] for r in a.weaker),
        later=later,
    )


def why_reply(
    renderer: Renderer, claim_ids: Sequence[str], *, lang: str, as_of: dt.date | None = None
) -> Reply:
    """The derivation of each claim's level, with the caveat as on every answer."""
    kb = renderer.kb
    known = [c for c in dict.fromkeys(claim_ids) if c in kb.claims]
    return renderer.reply(
        kind="why",
        lang=lang,
        claims=known,
        as_of=as_of,
        context={"derivations": {c: derivation(kb, c, as_of) for c in known}},
        extra={"topic": "why"},
    )
