"""What every watcher is: a configured URL, the query it adds, and a parser of the answer.

A watcher does no I/O of its own. The runner asks it for the query parameters of this poll,
fetches the configured URL through the ``Fetcher`` (conditional, bounded, rate-limit aware),
and hands the answer back to ``parse``. So a watcher is a small pure translation from one
public API's payload to ``Finding``s, and can fetch nothing but its own configured URL.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.watchers.fetch import Fetched
from bot.watchers.signal import Finding


@dataclass(frozen=True)
class Poll:
    findings: list[Finding] = field(default_factory=list)
    cursor: str | None = None  # remembered for the next poll (e.g. GitHub's ``since``)


class Watcher(Protocol):
    @property
    def url(self) -> str:
        """The configured URL, exactly as a watch point's ``looks_at`` lists it."""
        ...

    @property
    def label(self) -> str:
        """A short human name: "comments on marin-community/marin#8506"."""
        ...

    @property
    def accept(self) -> str: ...

    @property
    def broad(self) -> bool:
        """A firehose (every commit): only findings some watch point's patterns match are kept."""
        ...

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]: ...

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll: ...


def parse_time(value: object) -> dt.datetime:
    """An ISO 8601 timestamp from an API payload, as an aware UTC datetime."""
    if not isinstance(value, str):
        raise ValueError(f"expected an ISO timestamp, got {value!r}")
    parsed = dt.datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=dt.UTC)
    try:
        return parsed.astimezone(dt.UTC)
    except OverflowError as exc:  # 0001-01-01T00:00:00+14:00 is before the first UTC day
        raise ValueError(f"timestamp {value[:40]!r} has no UTC time") from exc


def iso_z(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
