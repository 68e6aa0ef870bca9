"""Properties of every reply: the caveat is always there, and says "single source" exactly
when a claim used rests on one record."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from answers.render import Renderer
from knowledge.clock import fixed_clock
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load
from knowledge.schema import Level
from tests.conftest import TODAY

KB: KnowledgeBase = load(today=TODAY.date())
RENDERER = Renderer(KB, fixed_clock(TODAY))
CLAIMS = sorted(KB.claims)
SINGLE_MARK = {"en": "⚠ Single source:", "zh": "⚠ 单一信源："}

dates = st.dates(min_value=dt.date(2026, 8, 22), max_value=TODAY.date())
langs = st.sampled_from(["en", "zh"])


@settings(max_examples=300, deadline=None)
@given(
    claims=st.lists(st.sampled_from(CLAIMS), min_size=1, max_size=4, unique=True),
    lang=langs,
    as_of=st.one_of(st.none(), dates),
)
def test_every_claim_renders_with_the_caveat(
    claims: list[str], lang: str, as_of: dt.date | None
) -> None:
    known = [c for c in claims if KB.visible(c, as_of)]
    if not known:
        return
    reply = RENDERER.reply(
        kind="fact", lang=lang, claims=known, as_of=as_of, context={"topic_label": "t", "notes": []}
    )
    assert reply.caveat and reply.text.endswith(reply.caveat)
    evidence_line = "Evidence as of" if lang == "en" else "证据截至"
    assert evidence_line in reply.caveat
    single = any(KB.assessment(c, as_of, public=True).level is Level.SINGLE_SOURCE for c in known)
    assert (SINGLE_MARK[lang] in reply.caveat) == single


@settings(max_examples=100, deadline=None)
@given(claim=st.sampled_from(CLAIMS), lang=langs)
def test_a_single_source_caveat_names_the_record_its_kind_and_date(claim: str, lang: str) -> None:
    a = KB.assessment(claim)
    if a.level is not Level.SINGLE_SOURCE:
        return
    record = KB.sources[a.supporting[0]]
    reply = RENDERER.reply(
        kind="fact", lang=lang, claims=[claim], context={"topic_label": "t", "notes": []}
    )
    assert record.title in reply.caveat
    date = (
        record.published.isoformat()
        if lang == "en"
        else f"{record.published.year}年{record.published.month}月{record.published.day}日"
    )
    assert date in reply.caveat
    kind = {"en": str(record.kind).replace("-", " "), "zh": ""}[lang]
    if lang == "en" and record.kind.value != "repository":
        assert kind in reply.caveat
    if record.seen_via_relay:
        assert ("not verified by us" if lang == "en" else "未经我们核实") in reply.caveat


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), lang=st.one_of(st.none(), langs))
def test_any_text_gets_a_reply_with_a_caveat_never_an_exception(
    text: str, lang: str | None
) -> None:
    from bot.core import Core

    reply = Core(KB, clock=fixed_clock(TODAY)).ask(text, lang=lang)
    assert reply.caveat
    assert reply.outcome in ("answer", "choices", "unknown", "rejected")


@settings(max_examples=60, deadline=None)
@given(since=dates, lang=langs)
def test_even_the_longest_digest_has_a_caveat_that_fits_one_chat_message(
    since: dt.date, lang: str
) -> None:
    from bot.digest.builder import DigestService
    from bot.digest.window import Window

    reply = DigestService(KB, RENDERER).build(Window.since(since, TODAY.date()), lang=lang).reply
    # Discord's embed description (4,096) and Telegram's message (4,096) with room to spare
    assert len(reply.caveat) <= 2_500
