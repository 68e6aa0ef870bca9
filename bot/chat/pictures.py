"""Pictures in the conversation: the progress chart with a caption that carries the caveat."""

from __future__ import annotations

from dataclasses import dataclass

from answers.chart import chart
from answers.reply import Reply
from bot.core import Core
from knowledge.progress import END_CLAIM, PLANNED_END

CHART_FILE = "marin-535b-progress.png"  # the chart's file name, in a chat and a digest


@dataclass(frozen=True)
class Picture:
    """An image with its words: the caption is a ``Reply``, caveat and as-of included."""

    png: bytes
    reply: Reply
    name: str = CHART_FILE


def progress_picture(core: Core, lang: str) -> Picture:
    today = core.clock().date()
    drawn = chart(core.kb, lang=lang, today=today)
    newest = core.kb.observations[-1] if core.kb.observations else None
    caption = core.renderer.reply(
        kind="chart",
        lang=lang,
        claims=[c for c in (newest.claim_id if newest else None, END_CLAIM) if c],
        context={
            "newest": newest,
            "end": PLANNED_END,
            "age": (today - newest.date).days if newest else 0,
        },
        extra={"topic": "chart"},
    )
    return Picture(drawn.png, caption)
