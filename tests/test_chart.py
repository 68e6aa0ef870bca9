"""The progress chart: the picture holds the observations, the plan and the gap since."""

from __future__ import annotations

import datetime as dt
import struct
import warnings

import pytest

from answers.chart import chart
from knowledge.knowledge_base import KnowledgeBase
from tests.conftest import TODAY


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chart_is_a_png_of_the_observations_with_real_glyphs(
    kb: KnowledgeBase, lang: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "Glyph … missing" would fail here
        drawn = chart(kb, lang=lang, today=TODAY.date())
    width, height = png_size(drawn.png)
    assert (width, height) == (drawn.width, drawn.height) and width >= 800 and height >= 400
    assert [(d, s) for d, s, _ in drawn.points] == [(o.date, o.step) for o in kb.observations]
    relayed = [d for d, _, read in drawn.points if not read]
    assert relayed == [dt.date(2026, 10, 7)]  # the W&B summary, seen through a report
    assert drawn.newest == dt.date(2026, 10, 9)
    assert "2026-10-09" in drawn.words["gap"].format(date=drawn.newest.isoformat())


def test_a_chart_as_of_a_past_day_shows_only_what_was_public_then(kb: KnowledgeBase) -> None:
    drawn = chart(kb, lang="en", today=dt.date(2026, 9, 20), as_of=dt.date(2026, 9, 20))
    assert drawn.points and all(d <= dt.date(2026, 9, 20) for d, _, _ in drawn.points)
    assert drawn.newest == dt.date(2026, 9, 15)
