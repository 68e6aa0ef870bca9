"""The topic a clause's figures are weighed in, from the topics its words were read as."""

from __future__ import annotations

import re
from collections.abc import Sequence

from answers.assertions import Figure
from answers.phase_words import LATER_PHASE
from answers.records import PROGRESS_READINGS
from answers.spec_words import NAMED_RUNG
from answers.verdict_words import SPEED

_PHASE = re.compile(
    r"phase|阶段|階段|mixture|mix\b|配比|cool ?down|冷却|冷卻|mid-?train|中期|switch|切换|切換"
    r"|post-?train|后训练|後訓練|pre-?train|预训练|預訓練|中训练|中訓練"
)
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
    # (with words of its own: a list's "…, 312,192" goes on from its head)
    steps_only = all(f.unit != "%" for f in said) and re.search(r"[^\W\d_]", text)
    if topic == "phases" and said and steps_only and not _PHASE.search(text):
        return "progress"  # (read as what comes "after": "之後從 58014 步接著跑" is a step)
    if topic not in PROGRESS_READINGS:
        return topic
    if SPEED.search(text):
        return None
    shares = any(f.unit == "%" for f in said)
    return "phases" if shares and "phases" in read and LATER_PHASE.search(text) else topic
