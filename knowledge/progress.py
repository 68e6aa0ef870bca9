"""Progress as a time series: each dated step number a record gives is one observation.

``data/progress.toml`` lists the observations: the date, the step, the scheduled total, the
records that give it (each with a quote from its excerpts) and when the knowledge base
recorded it. Each observation becomes an ordinary status claim with its evidence links, so
the confidence rules, the caveat, the digest and ``--as-of`` treat it like any other claim;
the progress answer is rendered from the newest one visible on the date asked about.

The token arithmetic uses the scheduled batch of the plan issue #8435: 11,264 sequences of
4,096 tokens per step (the claim ``tokens-config-18-0t`` states it, with its records).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from pydantic import Field

from knowledge.schema import (
    ID_PATTERN,
    Claim,
    ClaimKind,
    EvidenceLink,
    Stance,
    Strength,
    Strict,
    Text,
)

TOPIC = "progress"
# The plan the schedule answer compares with, as its records give it: the status log dates
# the start to August 19 (claim start-date), Open Athena's post the expected end of
# pretraining to December 1 (claim expected-end). tests/test_progress.py holds them together.
RUN_STARTED = dt.date(2026, 8, 19)
PLANNED_END = dt.date(2026, 12, 1)
START_CLAIM = "start-date"
END_CLAIM = "expected-end"
SEQUENCES_PER_STEP = 11_264
TOKENS_PER_SEQUENCE = 4_096
TOKENS_PER_STEP = SEQUENCES_PER_STEP * TOKENS_PER_SEQUENCE


class ProgressRecord(Strict):
    """A record that gives the step, and its words that do."""

    source: str = Field(pattern=ID_PATTERN)
    quote: str = Field(min_length=1)


class Observation(Strict):
    date: dt.date
    step: int = Field(ge=0, le=10_000_000)
    of: int = Field(gt=0, le=10_000_000)  # the scheduled total the step is out of
    schedule: ProgressRecord  # the record giving that total
    records: list[ProgressRecord] = Field(min_length=1)
    note: Text  # what happened at that step, in a few words
    recorded: dt.date

    @property
    def claim_id(self) -> str:
        return f"{TOPIC}-{self.date.isoformat()}-{self.step}"

    @property
    def share(self) -> float:
        return self.step / self.of

    @property
    def tokens(self) -> float:
        """Tokens the scheduled batch implies at this step (arithmetic on the record)."""
        return self.step * TOKENS_PER_STEP


def as_claims(observations: Sequence[Observation]) -> tuple[list[Claim], list[EvidenceLink]]:
    """Each observation as a status claim about that date, linked to its records."""
    claims: list[Claim] = []
    links: list[EvidenceLink] = []
    for o in observations:
        claims.append(
            Claim(
                id=o.claim_id,
                topic=TOPIC,
                kind=ClaimKind.STATUS,
                as_of=o.date,
                added=o.recorded,
                statement=Text(
                    en=f"{o.date.isoformat()}: step {o.step:,} of the {o.of:,} scheduled "
                    f"steps ({o.note.en}).",
                    zh=f"{o.date.isoformat()}：第 {o.step:,} 步 / 排定共 {o.of:,} 步"
                    f"（{o.note.zh}）。",
                ),
            )
        )
        for record in o.records:
            links.append(_link(o, record, Strength.DIRECT))
        links.append(_link(o, o.schedule, Strength.CONTEXT))
    return claims, links


def _link(o: Observation, record: ProgressRecord, strength: Strength) -> EvidenceLink:
    return EvidenceLink(
        claim=o.claim_id,
        source=record.source,
        stance=Stance.SUPPORTS,
        strength=strength,
        quote=record.quote,
        recorded=o.recorded,
    )
