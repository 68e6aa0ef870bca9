"""Render replies through jinja2 templates, one per answer kind and language.

A template writes the direct answer only. ``Renderer.reply`` then renders the caveat from
``caveat.j2`` with facts computed in ``answers.caveat`` and attaches it to the reply: the caveat
is added here, for every reply, so no template can omit it. Templates may export ``title``
with ``{% set title = ... %}``. Blank lines in a template's output separate *sections*, the
units an adapter may split a long reply at.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from answers import labels
from answers.caveat import caveat_facts
from answers.reply import Choice, ClaimUse, Outcome, Reply, SourceRef
from knowledge.clock import Clock
from knowledge.knowledge_base import KnowledgeBase

TEMPLATES = Path(__file__).parent / "templates"
LANGUAGES = ("en", "zh")
# Records named one by one in a caveat; the rest are counted, so it always fits one message.
CAVEAT_NAMED = 3


def format_date(value: dt.date | None, lang: str) -> str:
    if value is None:
        return "—"
    if lang == "zh":
        return f"{value.year}年{value.month}月{value.day}日"
    return value.isoformat()


def shorten(text: str, limit: int = 60) -> str:
    """The start of a statement, to point at it: cut at a word (or, in Chinese, a character)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if " " in cut and not any("\u4e00" <= ch <= "\u9fff" for ch in cut):
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:，；：") + "…"


_GITHUB_API = re.compile(r"^https://api\.github\.com/repos/([^/]+/[^/]+)(/.*)?$")


def page_url(url: str) -> str:
    """The page a person can open for an API endpoint a watcher polls (else the URL itself)."""
    if url.startswith("https://api.github.com/search/issues?q="):
        query = url.split("?q=", 1)[1]
        repo, _, terms = query.partition("+")
        return f"https://github.com/{repo.removeprefix('repo:')}/issues?q={terms}"
    if (m := _GITHUB_API.match(url)) is not None:
        repo, rest = m.group(1), m.group(2) or ""
        if rest.startswith("/issues/") and rest.endswith("/comments"):
            return f"https://github.com/{repo}{rest.removesuffix('/comments')}"
        if rest.startswith("/commits"):
            path = rest.partition("?path=")[2]
            return f"https://github.com/{repo}/commits/main/{path}".rstrip("/")
        return f"https://github.com/{repo}{rest}"
    if url.startswith("https://huggingface.co/api/models?author="):
        return "https://huggingface.co/" + url.split("author=", 1)[1]
    return url


class Renderer:
    def __init__(self, kb: KnowledgeBase, clock: Clock) -> None:
        self.kb = kb
        self.clock = clock
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
            autoescape=False,  # plain text; each adapter escapes for its own markup
        )
        self.env.filters["level"] = lambda v, lang: labels.level(lang, str(v))
        self.env.filters["source_kind"] = lambda v, lang: labels.source_kind(lang, str(v))
        self.env.filters["claim_kind"] = lambda v, lang: labels.CLAIM_KIND[lang][str(v)]
        self.env.filters["d"] = format_date
        self.env.filters["short"] = shorten
        self.env.filters["page"] = page_url

    def today(self) -> dt.date:
        return self.clock().date()

    def reply(
        self,
        *,
        kind: str,
        lang: str,
        context: Mapping[str, Any] | None = None,
        claims: Sequence[str] = (),
        as_of: dt.date | None = None,
        outcome: Outcome = Outcome.ANSWER,
        choices: Sequence[Choice] = (),
        extra: Mapping[str, Any] | None = None,
        public: bool = True,
    ) -> Reply:
        """A reply of template ``kind`` with the caveat appended. ``as_of`` is read as the
        public record on that date (``public``, every answer) or as the knowledge base knew it
        then (the digest, which reports what was recorded when)."""
        if lang not in LANGUAGES:
            raise ValueError(f"unsupported language {lang!r}")
        today = self.today()
        uses = tuple(self.claim_use(cid, lang, as_of, public=public) for cid in claims)
        sources = self.sources_for(claims, as_of, public=public)
        facts = caveat_facts(self.kb, claims, today=today, as_of=as_of, public=public)
        variables: dict[str, Any] = {
            "lang": lang,
            "kb": self.kb,
            "claims": uses,
            "claim_by_id": {u.id: u for u in uses},
            "sources": sources,
            "choices": choices,
            "as_of": as_of,
            "today": today,
            "evidence_date": facts.evidence_date,
            "kb_date": facts.kb_date,
            "record_date": self.kb.newest_published(as_of),
            **(context or {}),
        }
        module = self.env.get_template(f"{lang}/{kind}.j2").make_module(variables)
        body = _tidy(str(module))
        caveat_vars = {**variables, "f": facts, "MAX_NAMED": CAVEAT_NAMED}
        caveat = _tidy(self.env.get_template(f"{lang}/caveat.j2").render(caveat_vars))
        if not caveat:  # a broken caveat template must not produce an unqualified answer
            raise RuntimeError(f"caveat template for {lang!r} rendered empty")
        return Reply(
            outcome=outcome,
            language=lang,
            title=str(getattr(module, "title", "")),
            body=body,
            caveat=caveat,
            as_of=facts.evidence_date or facts.kb_date,
            claims=uses,
            sources=sources,
            choices=tuple(choices),
            sections=tuple(s for s in body.split("\n\n") if s.strip()),
            kind=kind,
            extra=dict(extra or {}),
        )

    def claim_use(
        self, claim_id: str, lang: str, as_of: dt.date | None, *, public: bool = True
    ) -> ClaimUse:
        claim = self.kb.claims[claim_id]
        level = self.kb.assessment(claim_id, as_of, public=public).level
        return ClaimUse(
            id=claim.id,
            kind=str(claim.kind),
            level=str(level),
            level_label=labels.level(lang, str(level)),
            statement=claim.statement.get(lang),
        )

    def sources_for(
        self, claim_ids: Sequence[str], as_of: dt.date | None, *, public: bool = True
    ) -> tuple[SourceRef, ...]:
        """The records behind the claims, strongest links first, each once."""
        seen: dict[str, SourceRef] = {}
        for cid in claim_ids:
            a = self.kb.assessment(cid, as_of, public=public)
            for record_id in (*a.supporting, *a.contradicting, *a.weaker):
                if record_id not in seen:
                    s = self.kb.sources[record_id]
                    seen[record_id] = SourceRef(
                        id=s.id,
                        title=s.title,
                        url=str(s.url) if s.url else None,
                        kind=str(s.kind),
                        publisher=s.publisher,
                        published=s.published,
                        seen_via_relay=s.seen_via_relay,
                    )
        return tuple(seen.values())


def _tidy(text: str) -> str:
    """Collapse the blank-line runs templates leave behind; sections stay one blank line apart."""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()
