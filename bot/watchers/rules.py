"""Tie a finding to the watch points and claims it may bear on, by the watch points' rules.

A watch point *looks at* some URLs and has *patterns* (case-insensitive regexes) and the claims
it *bears on*. A finding is tied to:

- every watch point that looks at the URL it was found through (where it came from), and
- every watch point one of whose patterns occurs in its title or text;

and it may bear on the ``bears_on`` claims of the watch points whose patterns matched (or of
its own watch points when they have no patterns). So a #8506 comment saying "step 230,112"
matches ``\\bstep[ -]?\\d`` and may bear on the progress claim. The rules only *suggest*: a
curator decides what a record proves.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from answers.inputs import clean
from bot.watchers.signal import Finding, Signal, SignalState, excerpt
from knowledge.schema import WatchPoint

# A terminal escape sequence, dropped whole: ``clean`` alone drops the ESC and leaves "[31m".
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erasing the screen
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC: window titles, links
    r"|\x1b[ -/]*[0-~]"  # any other: ESC, intermediates, one final character
)


def displayable(text: str, *, cut: bool = False) -> str:
    """Watched text made safe to show: escape sequences and control characters dropped
    (``cut``: to an excerpt, once the escapes are gone, so that none is cut in half)."""
    bare = _ESCAPE.sub("", text)
    return clean(excerpt(bare) if cut else bare)


@dataclass(frozen=True)
class _Point:
    id: str
    looks_at: tuple[str, ...]
    bears_on: tuple[str, ...]
    pattern: re.Pattern[str] | None  # the point's patterns as one alternation


@dataclass(frozen=True)
class Match:
    watch_points: tuple[str, ...]
    claims: tuple[str, ...]
    by_pattern: bool  # some pattern matched (a broad watcher keeps only these)


class Rules:
    def __init__(self, points: Iterable[WatchPoint]) -> None:
        self._points = tuple(
            _Point(
                id=p.id,
                looks_at=tuple(p.looks_at),
                bears_on=tuple(p.bears_on),
                pattern=re.compile("|".join(f"(?:{x})" for x in p.patterns), re.IGNORECASE)
                if p.patterns
                else None,
            )
            for p in sorted(points, key=lambda p: p.order)
        )

    @property
    def urls(self) -> list[str]:
        """Every configured URL, each once, in watch-point order."""
        return list(dict.fromkeys(url for p in self._points for url in p.looks_at))

    def watch_points_for(self, url: str) -> tuple[str, ...]:
        return tuple(p.id for p in self._points if url in p.looks_at)

    def home(self, finding: Finding) -> Match:
        """Only the watch points that look where the finding came from; no pattern is run."""
        return Match(self.watch_points_for(finding.watched), (), False)

    def match(self, finding: Finding) -> Match:
        haystack = f"{finding.title}\n{finding.text}"
        points: list[str] = []
        claims: list[str] = []
        by_pattern = False
        for p in self._points:
            home = finding.watched in p.looks_at
            hit = p.pattern is not None and p.pattern.search(haystack) is not None
            by_pattern |= hit
            if home or hit:
                points.append(p.id)
            if hit or (home and p.pattern is None):
                claims.extend(p.bears_on)
        return Match(tuple(points), tuple(dict.fromkeys(claims)), by_pattern)

    def signal(
        self,
        finding: Finding,
        *,
        state: SignalState,
        found_at: dt.datetime,
        match: Match | None = None,
    ) -> Signal:
        m = match or self.match(finding)
        return Signal(
            id=finding.id,
            watched=finding.watched,
            kind=finding.kind,
            url=clean(finding.url),
            date=finding.date,
            # Control characters (ANSI escapes, bells, RTL overrides…) in watched content never
            # reach a terminal or a chat: they are dropped before the signal is stored.
            title=displayable(finding.title),
            excerpt=displayable(finding.text, cut=True),
            publisher=displayable(finding.publisher),
            claims=m.claims,
            watch_points=m.watch_points,
            state=state,
            found_at=found_at,
        )
