"""The platform-neutral reply: what an adapter needs to show an answer, nothing platform-specific.

Adapters (console, Telegram, Discord) turn a ``Reply`` into their own messages. ``text`` is the
plain-text rendering with the caveat already appended; ``sections`` are the same content cut
at safe boundaries, so a long reply (a digest) can be split across messages without cutting a
sentence, and the caveat is always the last section.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    ANSWER = "answer"  # one reading clearly won; body answers it
    CHOICES = "choices"  # several readings are close; offer ``choices``
    UNKNOWN = "unknown"  # nothing matched; body says what the bot can answer
    REJECTED = "rejected"  # the input itself was refused (empty, binary, too long)


@dataclass(frozen=True)
class ClaimUse:
    id: str
    kind: str
    level: str  # a knowledge.schema.Level value
    level_label: str  # the level in the reply's language ("单一信源")
    statement: str


@dataclass(frozen=True)
class SourceRef:
    id: str
    title: str
    url: str | None
    kind: str
    publisher: str
    published: dt.date
    seen_via_relay: bool


@dataclass(frozen=True)
class Choice:
    key: str  # stable id an adapter sends back (a topic or intent), at most 64 bytes
    label: str


@dataclass(frozen=True)
class Reply:
    outcome: Outcome
    language: str  # "zh" or "en"
    title: str
    body: str  # the direct answer (no caveat)
    caveat: str  # always present, never empty
    as_of: dt.date | None  # the date the evidence used runs to
    claims: tuple[ClaimUse, ...] = ()
    sources: tuple[SourceRef, ...] = ()
    choices: tuple[Choice, ...] = ()
    # body cut at safe boundaries (paragraphs / digest entries); the caveat is not included
    sections: tuple[str, ...] = ()
    kind: str = "answer"  # the template that produced the body (fact, overview, digest, ...)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The full plain-text rendering: title, answer, caveat last."""
        head = f"{self.title}\n\n" if self.title else ""
        return f"{head}{self.body}\n\n{self.caveat}"

    def to_json(self, question: str) -> dict[str, Any]:
        return {
            "question": question,
            "language": self.language,
            "outcome": str(self.outcome),
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "claims": [c.id for c in self.claims],
            "confidence": {c.id: c.level for c in self.claims},
            "sources": [s.id for s in self.sources],
            "choices": [{"key": c.key, "label": c.label} for c in self.choices],
            "caveat": self.caveat,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            # a checked message: each assertion in its own words, with its verdict ("in_doubt":
            # not checked because the second opinion doubts what the rules read)
            **(
                {
                    "assertions": [
                        {"words": w, "verdict": v, "in_doubt": d}
                        for w, v, d in self.extra["verdicts"]
                    ],
                    "unchecked": self.extra.get("left", 0),  # past the first assertions
                }
                if "verdicts" in self.extra
                else {}
            ),
        }
