"""Build the digest ``Reply`` for a window, through the same templates and caveat as answers.

Which window:

- given: ``Window.last_days(n, today)`` or ``Window.since(date, today)``;
- none, for a destination: the changes since the last digest delivered there
  (``Store.last_sent``); if none ever was, the most recent batch (``recent``): the newest
  recorded date's changes, however old, so a KB with history never gives an empty digest,
  with the unreviewed signals seen from that date up to today (they are newer news);
- scheduled: ``Window.between(start, end)``, the complete days a delivery window covers,
  so a digest resent after a crash shows exactly the same changes.

The body has one paragraph per claim (blank-line separated), so ``Reply.sections`` lets an
adapter split a long digest between claims, never inside one. A chat answer can pass
``limit``: only the first claim groups (and signals) are shown, then a line saying how many
more changed and that ``/digest`` shows everything. Scheduled and requested digests are whole.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from dataclasses import dataclass
from functools import cached_property

from answers.chart import chart
from answers.render import Renderer
from answers.reply import Reply
from bot.digest.changes import ChangeKind, Changes, SignalFeed, Timeline, changes, latest_batch
from bot.digest.window import Window
from bot.store.contract import Destination, Store
from knowledge.knowledge_base import KnowledgeBase


@dataclass(frozen=True)
class Digest:
    changes: Changes
    reply: Reply

    @property
    def quiet(self) -> bool:
        """Nothing changed: a subscription that posts only on change skips this one."""
        return self.changes.empty

    @cached_property
    def content_hash(self) -> str:
        return hashlib.sha256(self.reply.text.encode("utf-8")).hexdigest()


class DigestService:
    """Digests from one knowledge base; cheap to build, safe to share."""

    def __init__(
        self,
        kb: KnowledgeBase,
        renderer: Renderer,
        *,
        signals: SignalFeed | None = None,
        pictures: bool = True,
    ) -> None:
        self.kb = kb
        self.renderer = renderer
        self.signals = signals
        self.pictures = pictures  # a chart when progress moved (off: faster tests, benches)
        self.timeline = Timeline.of(kb)  # once: every digest then bisects it

    def today(self) -> dt.date:
        return self.renderer.today()

    def changes(self, window: Window, *, signals_window: Window | None = None) -> Changes:
        return changes(self.kb, window, self.signals, self.timeline, signals_window)

    def build(
        self,
        window: Window,
        *,
        lang: str,
        recent: bool = False,
        limit: int | None = None,
        signals_window: Window | None = None,
    ) -> Digest:
        found = self.changes(window, signals_window=signals_window)
        reply = self.render(found, lang=lang, recent=recent, limit=limit)
        if found.progress is not None and self.pictures and limit is None:
            # progress moved in the window: the whole digest shows it (the senders attach it);
            # a chat's summary ("what changed?") stays words, and the CLI stays light
            drawn = chart(self.kb, lang=lang, today=self.today(), as_of=found.as_of)
            reply = dataclasses.replace(reply, extra={**reply.extra, "picture": drawn.png})
        return Digest(found, reply)

    def recent(
        self, *, lang: str, as_of: dt.date | None = None, limit: int | None = None
    ) -> Digest:
        """The newest recorded batch of changes (as the KB stood on ``as_of``), whatever its age,
        and the unreviewed signals seen since that batch, up to ``as_of`` or today.

        ``limit`` caps the claim groups (and signals) shown, for a chat answer;
        ``lambda lang, as_of: digests.recent(lang=lang, as_of=as_of, limit=5).reply`` is the
        core's ``ChangesProvider`` ("what changed?").
        """
        through = as_of or self.today()  # nothing is recorded in the future
        batch = latest_batch(self.timeline, through)
        if batch is None:  # no evidence (yet, on that date): say so
            return self.build(Window(after=None, through=through), lang=lang, limit=limit)
        # Signals are news the batch does not hold yet: from the batch's day through today.
        seen = Window(after=batch.after, through=through)
        return self.build(batch, lang=lang, recent=True, limit=limit, signals_window=seen)

    def since_last(
        self, store: Store, destination: Destination, *, lang: str, limit: int | None = None
    ) -> Digest:
        """What changed since the last digest delivered to ``destination``."""
        last = store.last_sent(destination)
        if last is None:
            return self.recent(lang=lang, limit=limit)
        covered = Window.between(last.window_start, last.window_end).through
        return self.build(Window(after=covered, through=self.today()), lang=lang, limit=limit)

    def render(
        self, found: Changes, *, lang: str, recent: bool = False, limit: int | None = None
    ) -> Reply:
        age = None if found.newest is None else (self.today() - found.newest).days
        shown = found.claims if limit is None else found.claims[: max(limit, 0)]
        signals = found.signals if limit is None else found.signals[: max(limit, 0)]
        return self.renderer.reply(
            kind="digest",
            lang=lang,
            claims=[g.claim for g in shown],  # the caveat and sources cover what is shown
            # a window ending before the KB's newest evidence reads "as the KB stood" then
            as_of=found.as_of,
            public=False,
            context={
                "digest": found,
                "shown": shown,
                "more_claims": len(found.claims) - len(shown),
                "signals": signals,
                "more_signals": len(found.signals) - len(signals),
                "recent": recent,
                "newest": found.newest,
                "age_days": age,
                "counts": _counts(found, self.kb),
            },
        )


def _counts(found: Changes, kb: KnowledgeBase) -> dict[str, int]:
    all_changes = [c for g in found.claims for c in g.changes]
    return {
        "claims": len(found.claims),
        "levels": sum(c.kind is ChangeKind.LEVEL for c in all_changes),
        "links": sum(len(c.links) for c in all_changes),
        # a relay is the record it repeats, not a new one
        "records": sum(1 for s in found.new_sources if kb.sources[s].relays is None),
        "new_claims": sum(c.kind is ChangeKind.NEW_CLAIM for c in all_changes),
        "contradicted": len(found.contradicted),
        "corrections": sum(c.kind is ChangeKind.CORRECTION for c in all_changes),
        "signals": len(found.signals),
    }


def to_json(found: Changes) -> dict[str, object]:
    """The changes as plain data, for ``digest --json`` and adapters that build embeds."""
    w = found.window
    return {
        "window": {
            "after": w.after.isoformat() if w.after else None,
            "through": w.through.isoformat(),
        },
        "changes": [
            {
                "claim": c.claim,
                "kind": str(c.kind),
                "date": c.date.isoformat(),
                "before": str(c.before) if c.before else None,
                "after": str(c.after) if c.after else None,
                "sources": [link.source for link in c.links],
                "note": c.note.en if c.note else None,
            }
            for g in found.claims
            for c in g.changes
        ],
        "new_sources": list(found.new_sources),
        "contradicted": found.contradicted,
        "signals": [
            {"id": s.id, "seen": s.seen.isoformat(), "title": s.title, "url": s.url}
            for s in found.signals
        ],
    }
