"""The progress timeline as a picture: recorded steps against the plan, and the gap since.

x is the date, from the run's start to past the planned end (and today); y is the step out of
the schedule. The plan is a straight line from the start to the planned end, labelled as a
plan with its record and level. Each observation of the progress series is a point: filled
for a record we read ourselves, hollow for one seen only through a relay. Run handoffs are
dotted lines, incidents ticks on the date axis. A "today" line ends a shaded span labelled
"no records since DATE": the picture shows what the evidence does not.

matplotlib (Agg, no screen) is imported only when a chart is drawn, so answering text pays
nothing for it. Chinese needs a CJK font (``CJK_FONTS``; the Docker image installs
WenQuanYi Zen Hei); a missing glyph is a warning the tests turn into a failure.
"""

from __future__ import annotations

import datetime as dt
import importlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any

from answers import labels
from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import END_CLAIM, PLANNED_END, RUN_STARTED

CJK_FONTS = ("WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC")
SIZE = (10.0, 5.2)  # inches, at DPI: 1000 × 520 pixels
DPI = 100
MARGIN = dt.timedelta(days=10)
_WORDS = {
    "en": {
        "title": "Marin 535B-A23B: recorded progress against the plan",
        "x": "date",
        "y": "training step",
        "plan": "Plan: {end} end ({source}, {level})",
        "direct": "a record we read",
        "relay": "seen only through a relay",
        "handoff": "run handoff",
        "incident": "incident",
        "today": "today",
        "gap": "no records since {date}",
    },
    "zh": {
        "title": "Marin 535B-A23B：有记录的进度与计划",
        "x": "日期",
        "y": "训练步数",
        "plan": "计划：{end} 结束（{source}，{level}）",
        "direct": "我们亲自读过的记录",
        "relay": "只通过转述看到",
        "handoff": "运行交接",
        "incident": "事故",
        "today": "今天",
        "gap": "{date} 之后没有记录",
    },
}


@dataclass(frozen=True)
class Chart:
    png: bytes
    width: int
    height: int
    points: tuple[tuple[dt.date, int, bool], ...]  # (date, step, read ourselves)
    newest: dt.date | None
    words: dict[str, str] = field(default_factory=dict)


# Drawn once per knowledge base, language and day: a digest run sends the same chart to
# every chat, and drawing costs a few hundred milliseconds.
_DRAWN: dict[tuple[int, str, dt.date, dt.date | None], tuple[KnowledgeBase, Chart]] = {}
_KEPT = 16


def chart(kb: KnowledgeBase, *, lang: str, today: dt.date, as_of: dt.date | None = None) -> Chart:
    """The timeline as the knowledge base stood on ``as_of`` (default: every observation)."""
    key = (id(kb), lang, today, as_of)
    hit = _DRAWN.get(key)
    if hit is not None and hit[0] is kb:
        return hit[1]
    if len(_DRAWN) >= _KEPT:
        _DRAWN.clear()
    drawn = _draw(kb, lang=lang, today=today, as_of=as_of)
    _DRAWN[key] = (kb, drawn)
    return drawn


def _draw(kb: KnowledgeBase, *, lang: str, today: dt.date, as_of: dt.date | None) -> Chart:
    # Imported here, and as Any: drawing pays for matplotlib, answering does not, and its
    # type stubs would turn every date on an axis into a cast.
    importlib.import_module("matplotlib").use("Agg")
    # WenQuanYi Zen Hei has one weight (Medium): matplotlib logs a warning for every text it
    # draws in "normal" weight. A missing glyph is a warning of another kind, still raised.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    mdates: Any = importlib.import_module("matplotlib.dates")
    plt: Any = importlib.import_module("matplotlib.pyplot")

    words = _WORDS[lang]
    # as the public record stood on as_of: the observations dated by then
    seen = [o for o in kb.observations if as_of is None or o.date <= as_of]
    points = tuple(
        (o.date, o.step, all(kb.sources[r.source].read_directly for r in o.records)) for o in seen
    )
    total = seen[-1].of if seen else 390_251
    with plt.rc_context(_style(lang)):
        fig, ax = plt.subplots(figsize=SIZE, dpi=DPI)
        _plan(ax, kb, words, lang, total)
        for read, marker in ((True, "o"), (False, "o")):
            xs = [d for d, _, r in points if r is read]
            ys = [s for _, s, r in points if r is read]
            ax.plot(
                xs,
                ys,
                linestyle="none",
                marker=marker,
                markersize=6,
                markerfacecolor="#1f5fa8" if read else "white",
                markeredgecolor="#1f5fa8",
                label=words["direct" if read else "relay"],
                gid="observations-direct" if read else "observations-relay",
            )
        _events(ax, kb, words, total)
        newest = seen[-1].date if seen else None
        _gap(ax, newest, today, words, lang)
        start = RUN_STARTED - dt.timedelta(days=3)
        ax.set_xlim(start, max(PLANNED_END, today) + MARGIN)
        ax.set_ylim(0, total * 1.05)
        ax.set_title(words["title"])
        ax.set_xlabel(words["x"])
        ax.set_ylabel(words["y"])
        ax.xaxis.set_major_formatter(mdates.DateFormatter("%m-%d"))
        ax.yaxis.set_major_formatter(lambda v, _: f"{int(v):,}")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=DPI)
        width, height = fig.canvas.get_width_height()
        plt.close(fig)
    return Chart(out.getvalue(), width, height, points, newest, words)


def _style(lang: str) -> dict[str, Any]:
    if lang != "zh":
        return {}
    font_manager: Any = importlib.import_module("matplotlib.font_manager")
    installed = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [name for name in CJK_FONTS if name in installed]
    return {"font.sans-serif": [*cjk, "DejaVu Sans"], "font.family": "sans-serif"}


def _plan(ax: Any, kb: KnowledgeBase, words: dict[str, str], lang: str, total: int) -> None:
    end_claim = kb.claims.get(END_CLAIM)
    level = labels.level(lang, str(kb.assessment(END_CLAIM).level)) if end_claim else "?"
    records = kb.assessment(END_CLAIM).supporting if end_claim else ()
    source = kb.sources[records[0]].publisher if records else "?"
    label = words["plan"].format(end=PLANNED_END.isoformat(), source=source, level=level)
    ax.plot(
        [RUN_STARTED, PLANNED_END],
        [0, total],
        linestyle="--",
        color="#888888",
        label=label,
        gid="plan",
    )


def _events(ax: Any, kb: KnowledgeBase, words: dict[str, str], total: int) -> None:
    handoffs = sorted(c.as_of for c in kb.topics.get("runs", ()) if c.as_of)
    for i, day in enumerate(handoffs):
        label = words["handoff"] if i == 0 else None
        ax.axvline(day, color="#6a994e", linestyle=":", linewidth=1, gid="handoff", label=label)
        ax.annotate(
            words["handoff"],
            (day, total * (0.72 - 0.05 * (i % 3))),
            fontsize=7,
            color="#6a994e",
            rotation=90,
            ha="right",
            va="top",
        )
    incidents = sorted(c.as_of for c in kb.topics.get("incidents", ()) if c.as_of)
    if incidents:
        ax.plot(
            incidents,
            [total * 0.01] * len(incidents),
            linestyle="none",
            marker="|",
            markersize=12,
            color="#bc4749",
            label=words["incident"],
            gid="incidents",
        )


def _gap(ax: Any, newest: dt.date | None, today: dt.date, words: dict[str, str], lang: str) -> None:
    ax.axvline(today, color="#bc4749", linewidth=1.5, label=words["today"], gid="today")
    if newest is None or newest >= today:
        return
    ax.axvspan(newest, today, color="#bc4749", alpha=0.08, gid="gap")
    middle = newest + (today - newest) / 2
    ax.text(
        middle,
        ax.get_ylim()[1] * 0.5 if ax.get_ylim()[1] > 1 else 0.5,
        words["gap"].format(date=newest.isoformat()),
        ha="center",
        va="center",
        fontsize=9,
        color="#bc4749",
        rotation=90 if (today - newest).days < 25 else 0,
    )
