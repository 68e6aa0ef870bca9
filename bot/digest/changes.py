"""What changed in the evidence during a window, derived from the knowledge base itself.

Every evidence link carries the date the knowledge base learned it (``recorded``) and
confidence can be computed as of any date, so a window's changes are the difference between
two states of the KB: the links recorded in it, the claims added in it, and every confidence
move inside it with the links that caused it (ICD 203, Standard 7: explain changes in
judgments).

Unreviewed watcher signals are not evidence: they come from a ``SignalFeed`` (the watchers'
``bot.watchers.review.StoreSignalFeed``) and are carried beside the changes, never mixed in.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import Protocol

from bot.digest.window import ONE_DAY, Window
from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import Observation
from knowledge.schema import EvidenceLink, Level, Stance, Strength, Text


class ChangeKind(StrEnum):
    NEW_CLAIM = "new-claim"  # the claim entered the KB
    LEVEL = "level"  # confidence moved; ``links``: the direct links recorded that day (the cause)
    EVIDENCE = "evidence"  # a supporting or weaker link that did not move the level
    CONTRADICTION = "contradiction"  # a contradicting link that did not move the level
    CORRECTION = "correction"  # a curator corrected what the bot said (``note``: why)


@dataclass(frozen=True)
class Change:
    kind: ChangeKind
    claim: str
    date: dt.date
    links: tuple[EvidenceLink, ...] = ()
    before: Level | None = None  # LEVEL only
    after: Level | None = None  # LEVEL and CORRECTION
    note: Text | None = None  # CORRECTION only: its cause

    @property
    def contradicts(self) -> bool:
        return any(link.stance is Stance.CONTRADICTS for link in self.links)


@dataclass(frozen=True)
class ClaimChanges:
    claim: str
    level: Level  # as of the window's end
    changes: tuple[Change, ...]  # newest first

    @property
    def newest(self) -> dt.date:
        return self.changes[0].date


@dataclass(frozen=True)
class UnreviewedSignal:
    """A watcher's finding no curator has reviewed yet; it changes no confidence."""

    id: str
    seen: dt.date
    title: str
    source: str  # where it was seen, e.g. "marin-community/marin#8506"
    url: str | None = None
    bears_on: tuple[str, ...] = ()  # claim ids it may bear on


class SignalFeed(Protocol):
    """The seam for the watchers: the unreviewed signals first seen in a window."""

    def unreviewed(self, window: Window) -> Sequence[UnreviewedSignal]: ...


@dataclass(frozen=True)
class Changes:
    window: Window
    claims: tuple[ClaimChanges, ...]  # newest change first, then the KB's curated order
    new_sources: tuple[str, ...] = ()  # records first linked in the window
    signals: tuple[UnreviewedSignal, ...] = ()
    newest: dt.date | None = None  # the newest evidence recorded by the window's end
    # The date to judge claims on: None when the window reaches the KB's newest evidence
    # (judge as today), else its last date (as the KB stood then). The same key the
    # renderer's caveat uses, so each assessment is computed once per digest.
    as_of: dt.date | None = None
    # The newest progress observation the KB knew before the window and by its end, when a
    # newer one arrived in it ("step 197,637 (2026-10-03) → 231,464 (2026-10-09)").
    progress: tuple[Observation | None, Observation] | None = None

    @property
    def empty(self) -> bool:
        return not self.claims and not self.signals

    @property
    def claim_ids(self) -> list[str]:
        return [c.claim for c in self.claims]

    @property
    def contradicted(self) -> list[str]:
        """Claims a record contradicted during the window."""
        return [c.claim for c in self.claims if any(ch.contradicts for ch in c.changes)]


@dataclass(frozen=True)
class Timeline:
    """The KB's evidence links in the order they were recorded, built once per KB, so a
    window's links are found by bisection instead of a scan of every link."""

    links: tuple[EvidenceLink, ...]  # by recorded date
    days: tuple[dt.date, ...]  # links[i].recorded
    first_linked: dict[str, dt.date]  # source id → the date it was first linked

    @classmethod
    def of(cls, kb: KnowledgeBase) -> Timeline:
        links = tuple(sorted(kb.links, key=attrgetter("recorded")))
        days = tuple(map(attrgetter("recorded"), links))
        first: dict[str, dt.date] = {}
        for link, day in zip(links, days, strict=True):
            first.setdefault(link.source, day)
        return cls(links, days, first)

    @property
    def latest(self) -> dt.date | None:
        return self.days[-1] if self.days else None

    def newest(self, through: dt.date | None = None) -> dt.date | None:
        """The newest recorded date on or before ``through``."""
        if through is None:
            return self.latest
        i = bisect_right(self.days, through)
        return self.days[i - 1] if i else None

    def between(self, window: Window) -> tuple[EvidenceLink, ...]:
        lo = 0 if window.after is None else bisect_right(self.days, window.after)
        return self.links[lo : bisect_right(self.days, window.through)]


def changes(
    kb: KnowledgeBase,
    window: Window,
    signals: SignalFeed | None = None,
    timeline: Timeline | None = None,
    signals_window: Window | None = None,
) -> Changes:
    """Every change to the evidence in ``window``, grouped by claim, newest first.

    Pass the KB's ``timeline`` when building several digests from one KB (``DigestService``
    does); without it one is built for this call. The unreviewed signals are those first
    seen in ``signals_window`` (default: ``window``).
    """
    timeline = timeline or Timeline.of(kb)
    new: dict[str, dict[dt.date, list[EvidenceLink]]] = {}
    for link in timeline.between(window):
        new.setdefault(link.claim, {}).setdefault(link.recorded, []).append(link)
    latest = timeline.latest
    end = None if latest is None or latest <= window.through else window.through
    order = {cid: i for i, cid in enumerate(kb.claims)}
    groups = []
    fixes: dict[str, list[Change]] = {}
    for fix in kb.corrections:
        if fix.date in window:
            level = kb.assessment(fix.claim, end).level
            fixes.setdefault(fix.claim, []).append(
                Change(
                    ChangeKind.CORRECTION,
                    fix.claim,
                    fix.date,
                    before=fix.before,
                    after=level,
                    note=fix.cause,
                )
            )
    for claim in kb.claims.values():
        by_date = new.get(claim.id, {})
        added = claim.added in window
        corrected = fixes.get(claim.id, [])
        if not by_date and not added and not corrected:
            continue
        found = _claim_changes(kb, claim.id, window.after, end, by_date, added, claim.added)
        found = sorted([*corrected, *found], key=lambda c: -c.date.toordinal())
        groups.append(ClaimChanges(claim.id, kb.assessment(claim.id, end).level, tuple(found)))
    groups.sort(key=lambda g: (-g.newest.toordinal(), order[g.claim]))
    return Changes(
        window=window,
        claims=tuple(groups),
        new_sources=tuple(sorted(s for s, day in timeline.first_linked.items() if day in window)),
        signals=() if signals is None else tuple(signals.unreviewed(signals_window or window)),
        newest=timeline.newest(window.through),
        as_of=end,
        progress=progress_move(kb, window),
    )


def progress_move(
    kb: KnowledgeBase, window: Window
) -> tuple[Observation | None, Observation] | None:
    """The newest step the KB knew before the window, and the newest by its end, if it moved."""

    def newest(known: list[Observation]) -> Observation | None:
        return max(known, key=lambda o: (o.date, o.step), default=None)

    before = newest(
        [o for o in kb.observations if window.after is not None and o.recorded <= window.after]
    )
    after = newest([o for o in kb.observations if o.recorded <= window.through])
    if after is None or after == before or not any(o.recorded in window for o in kb.observations):
        return None
    return before, after


def latest_batch(timeline: Timeline, through: dt.date | None = None) -> Window | None:
    """The window holding the newest recorded date (its whole day), or None for no evidence."""
    newest = timeline.newest(through)
    return None if newest is None else Window(after=newest - ONE_DAY, through=newest)


def _claim_changes(
    kb: KnowledgeBase,
    claim_id: str,
    after: dt.date | None,
    end: dt.date | None,
    by_date: dict[dt.date, list[EvidenceLink]],
    added: bool,
    added_on: dt.date,
) -> list[Change]:
    found: list[Change] = []
    # No links yet means no level to move *from*: the first links are evidence, not a move.
    # A claim added inside the window had no level before it: it arrives at its level.
    known_before = after is not None and added_on <= after
    before = kb.assessment(claim_id, after) if known_before else None
    level = before.level if before is not None and before.links else None
    days = sorted(by_date)
    for day in days:
        links = by_date[day]
        # After its last day in the window the claim gains no link up to ``end``: the same
        # assessment, under the key the rest of the digest uses.
        now = kb.assessment(claim_id, end if day == days[-1] else day).level
        moved = level is not None and now is not level
        # Only direct links count toward a level, so they are the cause of a move; the day's
        # weaker links are reported as evidence of their own.
        causes: tuple[EvidenceLink, ...] = ()
        if moved:
            direct = tuple(link for link in links if link.strength is Strength.DIRECT)
            causes = direct or tuple(links)
            found.append(Change(ChangeKind.LEVEL, claim_id, day, causes, before=level, after=now))
        for link in links:
            if link not in causes:
                kind = (
                    ChangeKind.CONTRADICTION
                    if link.stance is Stance.CONTRADICTS
                    else ChangeKind.EVIDENCE
                )
                found.append(Change(kind, claim_id, day, (link,)))
        level = now
    if added:
        found.append(Change(ChangeKind.NEW_CLAIM, claim_id, added_on))
    # Newest first; on one day the level move leads, then the claim's arrival, then evidence.
    rank = {ChangeKind.LEVEL: 0, ChangeKind.NEW_CLAIM: 1}
    found.sort(key=lambda c: (-c.date.toordinal(), rank.get(c.kind, 2)))
    return found
