"""The static status page: the bot's overview, progress, chart and every claim, as HTML.

``build_site(answers, out_dir)`` writes ``index.html`` (English) and ``zh/index.html``
(simplified Chinese), each beside its ``chart.png``: no JavaScript, no external assets, so the
folder can be opened from disk or hosted as it is (GitHub Pages). The words are the bot's own:
the headline status is the reply to ``answer_key("status")``, with the same caveat, and the
progress is the reply to ``answer_key("progress")``; the page adds only headings, the chart's
description and the table of claims. Everything from the knowledge base reaches the page
through jinja2's autoescape (``templates/site/``), never as markup.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import jinja2

from answers import labels
from answers.chart import Chart, chart
from answers.progress_view import visible_observations
from answers.render import TEMPLATES, Renderer, format_date, page_url
from answers.reply import Reply
from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import END_CLAIM, PLANNED_END, RUN_STARTED
from knowledge.schema import Claim

# Each language's page, relative to the output folder; each has its chart.png beside it.
PAGES = {"en": Path("index.html"), "zh": Path("zh") / "index.html"}
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
BULLET = "• "


class StatusAnswers(Protocol):
    """What the page needs from the bot (``bot.core.Core`` is one): its knowledge base, its
    renderer (whose clock says what "today" is), its answers and its topic labels."""

    @property
    def kb(self) -> KnowledgeBase: ...

    @property
    def renderer(self) -> Renderer: ...

    def answer_key(
        self, key: str, *, lang: str, as_of: dt.date | None = None, days: int | None = None
    ) -> Reply: ...

    def label(self, key: str, lang: str) -> str: ...


@dataclass(frozen=True)
class Line:
    """One line of a reply: the bot's words, with the level it ends with split off."""

    text: str
    level: str | None = None  # a knowledge.schema.Level value
    label: str = ""  # the level as the reply writes it: "[confirmed]", "【已确认】"


@dataclass(frozen=True)
class Record:
    """A record behind a claim, as the table links it."""

    title: str
    url: str | None
    kind: str
    published: dt.date
    relayed: bool  # seen only through a relay
    role: str  # "supports", "contradicts", "weaker" or "relay"


@dataclass(frozen=True)
class Row:
    claim: Claim
    level: str
    records: tuple[Record, ...]


def build_site(answers: StatusAnswers, out_dir: Path) -> list[Path]:
    """Write the English and Chinese pages and their charts under ``out_dir``; return the
    paths written. "Today" is the answers' own clock, so the page's ages and the caveat's
    "N days before today" are counted from the same day. Each file is replaced whole, so a
    server showing the folder never serves half a page."""
    today = answers.renderer.today()
    env = _environment()
    written: list[Path] = []
    for lang, page in PAGES.items():
        folder = (out_dir / page).parent
        folder.mkdir(parents=True, exist_ok=True)
        picture = chart(answers.kb, lang=lang, today=today)
        html = env.get_template("site/page.html.j2").render(
            page_context(answers, lang, today, picture)
        )
        written += [
            _replace(folder / "chart.png", picture.png),
            _replace(out_dir / page, html.encode("utf-8")),
        ]
    return written


def page_context(
    answers: StatusAnswers, lang: str, today: dt.date, picture: Chart
) -> dict[str, Any]:
    """The page template's variables for one language."""
    kb = answers.kb
    status = answers.answer_key("status", lang=lang)
    progress = answers.answer_key("progress", lang=lang)
    series = visible_observations(kb, None)
    newest = series[-1] if series else None
    other = "zh" if lang == "en" else "en"
    return {
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "other_lang": HTML_LANG[other],
        "other_href": _relative(PAGES[lang], PAGES[other]),
        "today": today,
        "status": status,
        "status_lines": answer_lines(status),
        "caveat_lines": status.caveat.splitlines(),
        "progress_lines": answer_lines(progress) if newest else [],
        "newest": newest,
        "age_days": (today - newest.date).days if newest else None,
        "chart": picture,
        "alt": chart_description(kb, picture, lang, today),
        "topics": [
            (answers.label(topic, lang), [row(kb, c) for c in claims])
            for topic, claims in kb.topics.items()
        ],
        "level_names": labels.LEVEL[lang],
    }


def answer_lines(reply: Reply) -> list[Line]:
    """The answer itself, the first section of the reply's body (later ones are chat hints and
    earlier records), as lines, each claim line's level split off for its badge."""
    names = sorted(labels.LEVEL[reply.language].items(), key=lambda kv: -len(kv[1]))
    section = reply.sections[0] if reply.sections else reply.body
    texts = (raw.removeprefix(BULLET).strip() for raw in section.splitlines())
    return [_split_level(text, names) for text in texts if text]


def _split_level(text: str, names: list[tuple[str, str]]) -> Line:
    for level, name in names:
        for written in (f"[{name}]", f"【{name}】"):
            if text.endswith(written):  # the space before it, if any, stays the reply's
                return Line(text.removesuffix(written), level, written)
    return Line(text)


def row(kb: KnowledgeBase, claim: Claim) -> Row:
    """A claim with its level and records: supporting, contradicting, weaker, then the relays
    that count as the record they repeat."""
    a = kb.assessment(claim.id)
    counted = (*a.supporting, *a.contradicting, *a.weaker)
    relays = tuple(dict.fromkeys(r for r, _ in a.relays(kb.sources) if r not in counted))
    roles = (
        ("supports", a.supporting),
        ("contradicts", a.contradicting),
        ("weaker", a.weaker),
        ("relay", relays),
    )
    records = tuple(
        Record(
            title=s.title,
            url=page_url(str(s.url)) if s.url else None,
            kind=str(s.kind),
            published=s.published,
            relayed=s.seen_via_relay,
            role=role,
        )
        for role, ids in roles
        for s in (kb.sources[i] for i in ids)
    )
    return Row(claim=claim, level=str(a.level), records=records)


def chart_description(kb: KnowledgeBase, picture: Chart, lang: str, today: dt.date) -> str:
    """The chart in words, for its alt text: the plan line, the points, the newest, the gap."""
    points = picture.points
    read = sum(1 for _, _, ours in points if ours)
    total = kb.observations[-1].of if kb.observations else 0
    plan_level = (
        labels.level(lang, str(kb.assessment(END_CLAIM).level)) if END_CLAIM in kb.claims else "—"
    )
    newest = max(points, default=None)
    if lang == "zh":
        text = (
            f"训练步数随日期变化的图表。虚线为计划：从 {RUN_STARTED.isoformat()} 的第 0 步，"
            f"到计划的预训练结束日期 {PLANNED_END.isoformat()}（{plan_level}）的排定 {total:,} 步。"
            f"共 {len(points)} 个有记录的点（{read} 个来自我们亲自读过的记录，"
            f"{len(points) - read} 个只通过转述看到）"
        )
        if newest is None:
            return text + "。"
        gap = (today - newest[0]).days
        return text + (
            f"；最新一个是 {newest[0].isoformat()} 的第 {newest[1]:,} 步。"
            f"此后没有记录：到今天（{today.isoformat()}）已 {gap} 天。"
        )
    text = (
        f"Chart of the training step against the date. A dashed line shows the plan: from step "
        f"0 on {RUN_STARTED.isoformat()} to the {total:,} scheduled steps on "
        f"{PLANNED_END.isoformat()}, the planned end of pretraining ({plan_level}). "
        f"{len(points)} recorded points ({read} from records we read, {len(points) - read} "
        "seen only through a relay)"
    )
    if newest is None:
        return text + "."
    gap = (today - newest[0]).days
    return text + (
        f"; the newest is step {newest[1]:,} on {newest[0].isoformat()}. No record since: "
        f"a gap of {gap} days to today ({today.isoformat()})."
    )


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=True,  # HTML: every value is escaped unless a template says otherwise
    )
    env.filters["d"] = format_date
    env.filters["level"] = lambda v, lang: labels.level(lang, str(v))
    env.filters["source_kind"] = lambda v, lang: labels.source_kind(lang, str(v))
    env.filters["claim_kind"] = lambda v, lang: labels.CLAIM_KIND[lang][str(v)]
    return env


def _relative(page: Path, target: Path) -> str:
    return Path(os.path.relpath(target, page.parent)).as_posix()


def _replace(path: Path, data: bytes) -> Path:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    partial.replace(path)
    return path
