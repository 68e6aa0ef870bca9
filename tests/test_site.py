"""The static status page: what it says (the bot's own words), what it is made of (no script,
no external asset, escaped), and how it looks in a real browser at desktop and phone widths."""

from __future__ import annotations

import dataclasses
import re
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest

from answers import labels
from answers.render import TEMPLATES, format_date, page_url
from answers.site import PAGES, build_site
from bot.cli import main
from bot.core import Core
from knowledge.clock import fixed_clock
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Text
from tests.conftest import TODAY
from tests.site_browser import Browser, chromium, colours

LANGS = ("en", "zh")
DESKTOP = (1280, 900)
PHONE = (390, 844)


class Page(HTMLParser):
    """A page read back: its tags with their attributes, its text, each table row's text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.chunks: list[str] = []
        self.rows: dict[str, list[str]] = {}
        self._row: str | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        self.tags.append((tag, found))
        if tag == "tr" and found.get("id", "").startswith("claim-"):
            self._row = found["id"].removeprefix("claim-")
            self.rows[self._row] = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)
        if self._row is not None:
            self.rows[self._row].append(data)

    @property
    def text(self) -> str:
        return _words("".join(self.chunks))

    def row(self, claim_id: str) -> str:
        return _words("".join(self.rows[claim_id]))

    def all(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def core(kb: KnowledgeBase) -> Core:
    return Core(kb, clock=fixed_clock(TODAY))


@pytest.fixture(scope="module")
def site(core: Core, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("site")
    return out, build_site(core, out)


def html_of(site: tuple[Path, list[Path]], lang: str) -> str:
    return (site[0] / PAGES[lang]).read_text(encoding="utf-8")


def test_both_pages_and_their_charts_are_written(site: tuple[Path, list[Path]]) -> None:
    out, written = site
    expected = [out / "chart.png", out / "index.html", out / "zh/chart.png", out / "zh/index.html"]
    assert written == expected
    assert all(p.is_file() and p.stat().st_size > 0 for p in written)
    assert sorted(p.name for p in out.rglob(".*")) == []  # no partial file left behind


@pytest.mark.parametrize("lang", LANGS)
def test_no_script_and_only_relative_assets(site: tuple[Path, list[Path]], lang: str) -> None:
    html = html_of(site, lang)
    assert "<script" not in html.lower()
    page = Page(html)
    for tag, attr in (("link", "href"), ("img", "src"), ("script", "src")):
        for attrs in page.all(tag):
            value = attrs.get(attr, "")
            assert "http" not in value and not value.startswith("//"), f"<{tag} {attr}={value}>"
            assert (site[0] / PAGES[lang]).parent.joinpath(value).exists(), value
    assert "url(" not in html and "@import" not in html  # no font or image pulled in by CSS
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)


@pytest.mark.parametrize(("lang", "html_lang"), [("en", "en"), ("zh", "zh-Hans")])
def test_each_page_says_its_language_and_links_the_other(
    site: tuple[Path, list[Path]], lang: str, html_lang: str
) -> None:
    page = Page(html_of(site, lang))
    assert page.all("html") == [{"lang": html_lang}]
    other = "zh" if lang == "en" else "en"
    links = [a["href"] for a in page.all("a") if a.get("hreflang")]
    assert links and all(
        (site[0] / PAGES[lang]).parent.joinpath(href).resolve() == site[0] / PAGES[other]
        for href in links
    )
    meta = {m.get("name"): m.get("content") for m in page.all("meta")}
    assert meta["viewport"] == "width=device-width, initial-scale=1"
    assert [h for h, _ in page.tags if h in ("h1",)] == ["h1"]  # one page title, then h2/h3


@pytest.mark.parametrize("lang", LANGS)
def test_the_status_is_the_bots_own_with_its_levels_and_caveat(
    site: tuple[Path, list[Path]], core: Core, lang: str
) -> None:
    text = Page(html_of(site, lang)).text
    status = core.answer_key("status", lang=lang)
    assert status.title in text
    first = status.sections[0].splitlines()
    assert len(first) == len(status.claims) > 3
    for line in first:  # every overview line, word for word, level included
        assert _words(line.removeprefix("• ")) in text
    for line in status.caveat.splitlines():
        assert _words(line) in text
    assert status.as_of is not None and format_date(status.as_of, lang) in text


@pytest.mark.parametrize(
    ("lang", "as_of"),
    [("en", "As of 2026-10-09, 53 days ago"), ("zh", "截至2026年10月9日，53 天前")],
)
def test_the_progress_has_its_date_and_age(
    site: tuple[Path, list[Path]], kb: KnowledgeBase, lang: str, as_of: str
) -> None:
    assert kb.observations[-1].date.isoformat() == "2026-10-09"  # TODAY is 2026-12-01
    text = Page(html_of(site, lang)).text
    assert as_of in text
    assert "59.3%" in text  # the bot's arithmetic on the record, as the progress answer gives it


@pytest.mark.parametrize("lang", LANGS)
def test_every_claim_is_listed_with_its_level_and_records(
    site: tuple[Path, list[Path]], kb: KnowledgeBase, lang: str
) -> None:
    page = Page(html_of(site, lang))
    assert set(page.rows) == set(kb.claims)
    for cid, claim in kb.claims.items():
        row = page.row(cid)
        assert _words(claim.statement.get(lang)) in row
        assert labels.level(lang, str(kb.assessment(cid).level)) in row
    hrefs = {a["href"] for a in page.all("a")}
    linked = {link.source for link in kb.links}
    for sid in linked:
        source = kb.sources[sid]
        if source.url is not None:
            assert page_url(str(source.url)) in hrefs, sid


@pytest.mark.parametrize("lang", LANGS)
def test_the_chart_is_big_enough_and_described(
    site: tuple[Path, list[Path]], kb: KnowledgeBase, lang: str
) -> None:
    folder = (site[0] / PAGES[lang]).parent
    png = (folder / "chart.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width >= 800 and height >= 400
    [img] = Page(html_of(site, lang)).all("img")
    assert (img["src"], img["width"], img["height"]) == ("chart.png", str(width), str(height))
    alt = img["alt"]
    newest = kb.observations[-1]
    points = str(len(kb.observations))
    for words in (points, newest.date.isoformat(), f"{newest.step:,}", "53", "2026-12-01"):
        assert words in alt, (words, alt)
    assert ("plan" if lang == "en" else "计划") in alt and len(alt) > 120


def test_the_css_keeps_text_readable_and_the_page_inside_a_phone() -> None:
    css = (TEMPLATES / "site" / "_style.css.j2").read_text(encoding="utf-8")
    assert re.search(r"img \{[^}]*max-width: 100%", css)
    assert re.search(r"\.page \{[^}]*max-width: 60rem", css)
    var = dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", css))
    for fg in ("fg", "muted", "link"):
        for bg in ("bg", "panel"):
            assert contrast(var[fg], var[bg]) >= 4.5, (fg, bg)
    badges = re.findall(
        r"\.level-[a-z-]+ \{ color: (#[0-9a-f]{6}); background: (#[0-9a-f]{6})", css
    )
    assert len(badges) == len(labels.LEVEL["en"])
    assert all(contrast(fg, bg) >= 4.5 for fg, bg in badges)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_everything_from_the_knowledge_base_is_escaped(kb: KnowledgeBase, tmp_path: Path) -> None:
    evil = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    claims = dict(kb.claims)
    claims["training-started"] = claims["training-started"].model_copy(
        update={"statement": Text(en=evil, zh=evil)}
    )
    sources = dict(kb.sources)
    sources["gh-8506-start"] = sources["gh-8506-start"].model_copy(update={"title": evil})
    tampered = dataclasses.replace(kb, claims=claims, sources=sources, _cache={})
    build_site(Core(tampered, clock=fixed_clock(TODAY)), tmp_path)
    for lang in LANGS:
        html = (tmp_path / PAGES[lang]).read_text(encoding="utf-8")
        assert "<script" not in html and "<img src=x" not in html
        page = Page(html)
        assert len(page.all("img")) == 1
        assert evil in page.row("training-started") and page.text.count(evil) >= 3


def test_site_build_command_writes_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["site", "build", str(tmp_path / "public")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"wrote {tmp_path / 'public' / name}"
        for name in ("chart.png", "index.html", "zh/chart.png", "zh/index.html")
    ]


# --- in a real browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    return Browser(chromium(), tmp_path_factory.mktemp("chromium"))


@pytest.mark.parametrize("lang", LANGS)
def test_chromium_shows_the_caveat_the_date_and_the_chart(
    site: tuple[Path, list[Path]], core: Core, browser: Browser, lang: str
) -> None:
    page = Page(browser.dump_dom(site[0] / PAGES[lang]))
    status = core.answer_key("status", lang=lang)
    assert status.as_of is not None
    for words in (*status.caveat.splitlines(), format_date(status.as_of, lang)):
        assert _words(words) in page.text
    [img] = page.all("img")
    assert img["src"] == "chart.png" and img["alt"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_chromium_screenshots_are_not_blank(
    site: tuple[Path, list[Path]], browser: Browser, tmp_path: Path, lang: str, size: tuple
) -> None:
    shot = browser.screenshot(site[0] / PAGES[lang], size, tmp_path / "shot.png")
    found, distinct, inked = colours(shot)
    assert found == size  # the screenshot is the window: 390 px wide at phone size
    assert distinct > 32, f"{distinct} colours: a blank or one-colour page"
    assert inked > 0.01, f"only {inked:.1%} of the pixels differ from the background"


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_wider_than_a_phone(
    site: tuple[Path, list[Path]], browser: Browser, lang: str
) -> None:
    measured = browser.layout_width(site[0] / PAGES[lang], *PHONE)
    assert measured["client_width"] == PHONE[0]
    assert measured["scroll_width"] <= PHONE[0], measured  # no horizontal scrolling
    assert measured["image_natural_width"] >= 800  # the chart loaded from the folder
    assert measured["image_width"] <= PHONE[0], measured  # and was scaled down to fit


async def test_serve_rebuilds_the_page_when_a_promotion_changes_the_knowledge_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import os
    import shutil

    from bot import assembly
    from bot.config import Settings
    from bot.context import AppContext
    from knowledge.clock import fixed_clock
    from knowledge.loader import DEFAULT_DIR
    from tests.conftest import TODAY

    kb_dir = tmp_path / "kb"
    shutil.copytree(DEFAULT_DIR, kb_dir)
    site = tmp_path / "site"
    monkeypatch.setattr(assembly, "SITE_CHECK_SECONDS", 0.05)
    ctx = AppContext(
        Settings(kb_dir=kb_dir, site_dir=site, db_path=tmp_path / "db.sqlite3"),
        clock=fixed_clock(TODAY),
    )
    stop = asyncio.Event()
    running = asyncio.create_task(assembly.run_site(ctx, stop))
    index = site / "index.html"
    for _ in range(400):
        if index.exists():
            break
        await asyncio.sleep(0.05)
    first = index.stat().st_mtime_ns
    # a curator's promotion rewrites a knowledge file (here: the same file, newer)
    evidence = kb_dir / "evidence.toml"
    evidence.write_text(evidence.read_text(encoding="utf-8") + "\n# promoted\n", encoding="utf-8")
    later = os.stat(evidence).st_mtime + 5
    os.utime(evidence, (later, later))
    for _ in range(400):
        if index.stat().st_mtime_ns != first:
            break
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.wait_for(running, 10)
    assert index.stat().st_mtime_ns != first
    assert (site / "zh" / "index.html").exists()
