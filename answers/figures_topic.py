"""The topic a clause's figures are weighed in, from the topics its words were read as."""

from __future__ import annotations

import re
from collections.abc import Sequence

from answers.assertions import Figure
from answers.phase_words import LATER_PHASE
from answers.records import PROGRESS_READINGS
from answers.spec_words import NAMED_RUNG
from answers.verdict_words import SPEED

_TRACKER = re.compile(r"\b(?:m?tracker|progress bar)\b|进度|進度")


def figures_topic(
    topic: str | None, read: Sequence[str], text: str, said: list[Figure]
) -> str | None:
    """``topic``, the first topic the clause (folded ``text``) was read as, ``read`` all of
    them; but not the run's progress when the clause speaks of speed ("MFU 26% at step 183k"),
    and a later phase's plan for a share beside one ("後面還有 midtraining（約20%）"); and
    the progress when a tracker shows a share, and the ladder's when a rung is named by its
    counts ("11.5B-A481M @500B")."""
    if said and NAMED_RUNG.search(text):
        return "ladder"
    shown = topic == "tracking" and _TRACKER.search(text)  # (not W&B's: an MFU chart's too)
    if shown and any(f.unit == "%" and not f.measure for f in said):
        return "progress"  # a share on the tracker is the run's progress ("tracker 显示 95%")
    if topic not in PROGRESS_READINGS:
        return topic
    if SPEED.search(text):
        return None
    shares = any(f.unit == "%" for f in said)
    return "phases" if shares and "phases" in read and LATER_PHASE.search(text) else topic
