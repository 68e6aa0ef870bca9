"""The shape of the curated knowledge files, as pydantic models.

A *source* is one record (a post, a status-log entry, a repository file). A *claim* is one
statement the bot may make. An *evidence link* ties a claim to a source, with a stance, a
strength and the date the knowledge base learned it. Confidence is never stored: it is
derived from the links (see ``knowledge.confidence``).
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, HttpUrl

ID_PATTERN = r"^[a-z0-9][a-z0-9.-]*$"


class Strict(BaseModel):
    """Unknown fields are errors: a typo in a curated file must not pass silently."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceKind(StrEnum):
    SOCIAL_POST = "social-post"
    OFFICIAL_ANNOUNCEMENT = "official-announcement"
    STATUS_LOG = "status-log"
    REPOSITORY = "repository"
    TRACKING_REPORT = "tracking-report"
    MODEL_CARD = "model-card"
    NEWS_RELAY = "news-relay"
    BLOG = "blog"
    OFFICIAL_WEBSITE = "official-website"


# Records that count as "official, non-social" for the `confirmed` level.
OFFICIAL_KINDS = frozenset(
    {
        SourceKind.OFFICIAL_ANNOUNCEMENT,
        SourceKind.STATUS_LOG,
        SourceKind.REPOSITORY,
        SourceKind.MODEL_CARD,
        SourceKind.OFFICIAL_WEBSITE,
    }
)


class ClaimKind(StrEnum):
    PLAN = "plan"
    STATUS = "status"
    RESULT = "result"
    SPEC = "spec"
    CONTEXT = "context"
    JUDGMENT = "judgment"
    ABSENCE = "absence"


class Stance(StrEnum):
    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"


class Strength(StrEnum):
    DIRECT = "direct"
    INDIRECT = "indirect"
    CONTEXT = "context"


class Level(StrEnum):
    """Confidence levels, strongest signal first in the order the rules are applied.

    ``no-record`` is the one level of an absence ("no record shows X"): an absence is never
    "confirmed", because "[confirmed] no record shows pretraining finished" reads as "confirmed
    still training". Its records are the ones it was checked against, and its date is the
    as-of date written into the sentence.
    """

    DISPUTED = "disputed"
    CONFIRMED = "confirmed"
    CORROBORATED = "corroborated"
    SINGLE_SOURCE = "single-source"
    INDIRECT = "indirect"
    NO_RECORD = "no-record"


class Text(Strict):
    """A statement in both languages the bot answers in."""

    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


class Source(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str = Field(min_length=1)
    url: HttpUrl | None = None
    kind: SourceKind
    publisher: str = Field(min_length=1)
    published: dt.date
    # Free text when `published` is approximate or undated ("living document; date read").
    date_note: Text | None = None
    relays: str | None = None
    seen_via_relay: bool = False
    # Who we saw it through, when seen_via_relay is true (e.g. "the 2026-08-22 seed brief").
    seen_via: Text | None = None
    # When that relay was published, if later than the record: a record we know only through
    # a relay is part of the public record, for us, from the relay's date.
    relayed_on: dt.date | None = None
    # The record's own words as we hold them, copied exactly (from the record, our archived
    # copy of it, or the relay that quoted it). Link quotes are checked against these.
    excerpts: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)

    @property
    def public_since(self) -> dt.date:
        """The first day the record, as we know it, was on the public record."""
        if self.relayed_on is not None and self.relayed_on > self.published:
            return self.relayed_on
        return self.published

    @property
    def read_directly(self) -> bool:
        """Whether we read the record itself (or a verbatim copy), not a third party's quote."""
        return not self.seen_via_relay


class EvidenceLink(Strict):
    claim: str = Field(pattern=ID_PATTERN)
    source: str = Field(pattern=ID_PATTERN)
    stance: Stance
    strength: Strength
    # The record's own words (an excerpt, "…" for a cut), unless ``paraphrase`` is true.
    quote: str = Field(min_length=1)
    # True when ``quote`` is our summary of the record, not its words: such a link can only
    # be indirect or context (``kb check`` refuses a direct link that quotes nothing).
    paraphrase: bool = False
    # When only this part of a record repeats another record (a news brief quoting a post),
    # the record it repeats: the link collapses into that record, the source's other links
    # stand as its own words. A source whose every word is a relay sets ``relays`` instead.
    repeats: str | None = Field(default=None, pattern=ID_PATTERN)
    recorded: dt.date


class Claim(Strict):
    id: str = Field(pattern=ID_PATTERN)
    topic: str = Field(pattern=ID_PATTERN)
    kind: ClaimKind
    statement: Text
    # For status claims: the date the status describes.
    as_of: dt.date | None = None
    do_not_infer: list[Text] = Field(default_factory=list)
    # What record would raise this claim's level; shown in the single-source caveat.
    upgrade: Text | None = None
    # The date the claim itself entered the knowledge base.
    added: dt.date


class Correction(Strict):
    """A fact or level the bot stated before, corrected: the digest tells its readers.

    Levels are recomputed from the evidence on every date, so a correction to the data or to
    the rules leaves no trace in the evidence itself; this is that trace (ICD 203 standard 7:
    explain changes in judgments).
    """

    date: dt.date
    claim: str = Field(pattern=ID_PATTERN)  # the claim that now carries the corrected fact
    before: Level | None = None  # the level shown before the correction, if it changed
    cause: Text


class WatchPoint(Strict):
    id: str = Field(pattern=ID_PATTERN)
    order: int = Field(ge=1)
    title: Text
    # Only these URLs are ever fetched by the watchers.
    looks_at: list[Annotated[str, Field(pattern=r"^https://[^\s]+$")]] = Field(min_length=1)
    bears_on: list[str] = Field(default_factory=list)
    # Case-insensitive regular expressions; a signal whose text matches one bears on `bears_on`.
    patterns: list[str] = Field(default_factory=list)
