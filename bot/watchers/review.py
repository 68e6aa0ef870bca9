"""The curator's queue as others see it: the digest's "unreviewed" section and ``/signals``.

Both are read-only views of the store. The digest gets the unreviewed signals first seen in
its window through ``StoreSignalFeed`` (the digest's ``SignalFeed`` seam); admins in a chat get
``queue_reply``: a ``Reply`` whose sections are one signal each (so an adapter can split it)
and whose caveat says, every time, that a signal is not evidence until a curator promotes it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from answers.reply import Outcome, Reply
from bot.digest.changes import UnreviewedSignal
from bot.digest.window import Window
from bot.store.signals import SignalStore
from bot.watchers.signal import Signal, SignalState

TEXT = {
    "en": {
        "title": "Unreviewed signals ({n})",
        "empty": "No unreviewed signals: the watchers found nothing new since the last review.",
        "bears": "may bear on",
        "more": "… and {n} more (marin-watch signals list)",
        "caveat": "Unreviewed: a signal is a public record a watcher noticed, not evidence. It "
        "changes no answer and no confidence until a curator promotes it "
        "(marin-watch signals promote).",
    },
    "zh": {
        "title": "未审核信号（{n} 条）",
        "empty": "没有未审核信号：自上次审核以来，监视器未发现新内容。",
        "bears": "可能涉及",
        "more": "……另有 {n} 条（marin-watch signals list）",
        "caveat": "未审核：信号只是监视器发现的公开记录，不是证据。在管理员采纳"
        "（marin-watch signals promote）之前，它不改变任何回答或置信度。",
    },
}


class StoreSignalFeed:
    """The digest's ``SignalFeed``: unreviewed signals first seen on the window's dates (UTC)."""

    def __init__(self, store: SignalStore) -> None:
        self.store = store

    def unreviewed(self, window: Window) -> Sequence[UnreviewedSignal]:
        signals = self.store.signals(
            states=(SignalState.NEW,),
            found_after=_end_of(window.after) if window.after is not None else None,
            found_through=_end_of(window.through),
        )
        return [to_unreviewed(s) for s in signals]


def to_unreviewed(s: Signal) -> UnreviewedSignal:
    return UnreviewedSignal(
        id=s.id,
        seen=(s.found_at or s.date).astimezone(dt.UTC).date(),
        title=s.title,
        source=s.publisher,
        url=s.url,
        bears_on=s.claims,
    )


def queue_reply(store: SignalStore, *, lang: str, limit: int = 10) -> Reply:
    """The unreviewed queue, newest first, for an admin's ``/signals``."""
    t = TEXT[lang]
    signals = store.signals(states=(SignalState.NEW,))
    shown = signals[:limit]
    sections = [_entry(s, t["bears"]) for s in shown]
    if len(signals) > limit:
        sections.append(t["more"].format(n=len(signals) - limit))
    if not sections:
        sections = [t["empty"]]
    newest = max((s.date.date() for s in signals), default=None)
    return Reply(
        outcome=Outcome.ANSWER,
        language=lang,
        title=t["title"].format(n=len(signals)),
        body="\n\n".join(sections),
        caveat=t["caveat"],
        as_of=newest,
        sections=tuple(sections),
        kind="signals",
        extra={"signals": [s.id for s in shown], "unreviewed": len(signals)},
    )


def _entry(s: Signal, bears: str) -> str:
    lines = [f"[{s.id}] {s.date:%Y-%m-%d} · {s.title}"]
    if s.excerpt:
        lines.append(f"“{_short(s.excerpt)}”")
    if s.claims:
        lines.append(f"{bears}: {', '.join(s.claims)}")
    lines.append(s.url)
    return "\n".join(lines)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _end_of(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)
