"""``signals promote ID --step N``: a signal becomes a progress observation, not a link.

A status-log comment saying "now at step 262,000" adds a point to the progress series
(``knowledge/data/progress.toml``) and, if the record is new, a source with its words. The
files are checked with ``kb check`` before the signal is marked promoted; on any problem
both files are put back as they were.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from bot.curator import Curator, source_for
from bot.knowledge_files import source_toml, toml_string
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import CuratorError
from knowledge.progress import Observation, ProgressRecord
from knowledge.schema import SourceKind, Text

# "step 262,000", "step-262000", "steps 231464–231663": the first number is the step.
_STEP = re.compile(r"\bsteps?[ -]?(\d{1,3}(?:,\d{3})+|\d+)(?![\w,])", re.IGNORECASE)


@dataclass(frozen=True)
class StepPromotion:
    signal: Signal
    source_id: str
    new_source: bool
    observation: Observation
    before: Observation | None  # the newest observation before this one


def steps_in(text: str) -> list[int]:
    """The step numbers a record's text gives, in order."""
    return [int(m.group(1).replace(",", "")) for m in _STEP.finditer(text)]


def promote_step(
    curator: Curator,
    wanted: str,
    *,
    step: int,
    of: int | None = None,
    note: str | None = None,
    kind: SourceKind | None = None,
) -> StepPromotion:
    with curator.exclusive():
        return _promote_step(curator, wanted, step=step, of=of, note=note, kind=kind)


def _promote_step(
    curator: Curator,
    wanted: str,
    *,
    step: int,
    of: int | None,
    note: str | None,
    kind: SourceKind | None,
) -> StepPromotion:
    signal = curator.find(wanted)
    if signal.state is SignalState.DISMISSED:
        raise CuratorError(f"signal {signal.id} was dismissed ({signal.review})")
    today = curator.clock().date()
    kb = curator.load_checked(today)
    text = signal.excerpt or signal.title
    quote = _quote_of(step, text)
    if quote is None:
        raise CuratorError(
            f"signal {signal.id} does not give step {step:,} in its words; the steps it gives: "
            f"{', '.join(f'{s:,}' for s in steps_in(text)) or 'none'}"
        )
    source_id, source = source_for(signal, kb, kind)
    newest = kb.observations[-1] if kb.observations else None
    if newest is None:
        raise CuratorError("progress.toml has no observation to take the scheduled total from")
    about = note or f"reported in {signal.title}"
    observation = Observation(
        date=signal.date.astimezone(dt.UTC).date(),
        step=step,
        of=of or newest.of,
        schedule=newest.schedule if of is None else ProgressRecord(source=source_id, quote=quote),
        records=[ProgressRecord(source=source_id, quote=quote)],
        note=Text(en=about, zh=note or f"见于 {signal.title}"),
        recorded=today,
    )
    stamp = f"# promoted from signal {signal.id} on {today} (marin-watch signals promote --step)\n"
    appends = {"progress.toml": stamp + observation_toml(observation)}
    if source is not None:
        appends["sources.toml"] = stamp + source_toml(source)
    curator.commit(appends, today)
    curator.store.review(
        signal.id,
        SignalState.PROMOTED,
        note=f"progress step {step:,} on {observation.date} via source {source_id}",
        now=curator.clock(),
    )
    return StepPromotion(
        signal=curator.find(signal.id),
        source_id=source_id,
        new_source=source is not None,
        observation=observation,
        before=newest,
    )


def _quote_of(step: int, text: str) -> str | None:
    for m in _STEP.finditer(text):
        if int(m.group(1).replace(",", "")) == step:
            return m.group(0)
    return None


def observation_toml(o: Observation) -> str:
    def record(r: ProgressRecord) -> str:
        return f"{{ source = {toml_string(r.source)}, quote = {toml_string(r.quote)} }}"

    lines = [
        "[[observation]]",
        f"date = {o.date.isoformat()}",
        f"step = {o.step}",
        f"of = {o.of}",
        f"schedule = {record(o.schedule)}",
        f"records = [{', '.join(record(r) for r in o.records)}]",
        f"note.en = {toml_string(o.note.en)}",
        f"note.zh = {toml_string(o.note.zh)}",
        f"recorded = {o.recorded.isoformat()}",
    ]
    return "\n".join(lines) + "\n"
