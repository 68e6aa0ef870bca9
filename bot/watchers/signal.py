"""What a watcher saw (``Finding``) and what a curator reviews (``Signal``).

A finding is one public record as a watcher read it: a new #8506 comment, a commit, a model,
a blog post, a changed report page. The runner ties it to the watch points whose rules match
(``bot.watchers.rules``) and stores it as a signal. A signal never changes a claim: it waits
in the curator's queue until someone promotes it into the knowledge files or dismisses it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from enum import StrEnum

from knowledge.schema import SourceKind

EXCERPT_CHARS = 600


class SignalState(StrEnum):
    BASELINE = "baseline"  # already there on a source's first run: recorded, not queued
    NEW = "new"  # unreviewed: in the curator's queue
    DISMISSED = "dismissed"
    PROMOTED = "promoted"


@dataclass(frozen=True)
class Finding:
    """One record as a watcher read it; ``text`` is the full text the rules match against."""

    id: str  # stable dedupe id, also a valid knowledge-file id (see ``signal_id``)
    watched: str  # the configured URL (a watch point's looks_at) it was found through
    kind: SourceKind  # what the record would be as a [[source]]; the curator may override
    url: str  # the record's own public page
    date: dt.datetime  # the record's own date, timezone-aware
    title: str
    text: str
    publisher: str
    # False when ``date`` is only when we fetched it (a page with no Last-Modified): such a
    # finding cannot show that it is newer than the knowledge base.
    dated: bool = True


@dataclass(frozen=True)
class Signal:
    id: str
    watched: str
    kind: SourceKind
    url: str
    date: dt.datetime
    title: str
    excerpt: str
    publisher: str
    claims: tuple[str, ...] = ()  # claims it may bear on, by the watch points' rules
    watch_points: tuple[str, ...] = ()
    state: SignalState = SignalState.NEW
    found_at: dt.datetime | None = None
    reviewed_at: dt.datetime | None = None
    review: str | None = None  # what the curator did: the links written, or why dismissed

    @property
    def unreviewed(self) -> bool:
        return self.state is SignalState.NEW


_NOT_ID = re.compile(r"[^a-z0-9.]+")


def signal_id(prefix: str, *parts: object) -> str:
    """A readable, stable id that is also a valid knowledge-file id: ``gh-8506-c3380012345``."""
    raw = "-".join(str(p) for p in (prefix, *parts)).lower()
    slug = _NOT_ID.sub("-", raw).strip("-.")
    if len(slug) > 60:  # keep ids typeable; the digest keeps them unique
        slug = f"{slug[:47].rstrip('-.')}-{digest(raw)[:12]}"
    return slug


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Whitespace collapsed and cut at a word boundary, with an ellipsis when cut."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return f"{cut}…"
