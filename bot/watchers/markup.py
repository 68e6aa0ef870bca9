"""Just enough HTML reading for change detection: the visible text of a page and its links.

Regular expressions rather than a parser, on purpose: we never render or trust a page, we only
need its words (scripts, styles and tags dropped) and its ``<a href>`` targets, and a regex
pass over a few hundred kilobytes costs about a millisecond where ``html.parser`` costs tens.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

_INVISIBLE = re.compile(
    r"<!--.*?-->|<(script|style|noscript|svg|template|head)\b[^>]*>.*?</\1\s*>", re.S | re.I
)
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.S | re.I)
_META = re.compile(r"<meta\b([^>]*)>", re.I)
_ATTR = re.compile(r"""([a-zA-Z_:][-\w:.]*)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
_BLOCK = re.compile(
    r"</?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|section|article|header|footer|main|nav|table|"
    r"blockquote|pre|hr|dt|dd)\b[^>]*>",
    re.I,
)
_TAG = re.compile(r"<[^>]+>")
_ANCHOR = re.compile(r"<a\b([^>]*)>(.*?)</a\s*>", re.S | re.I)
_DESCRIBING = {"description", "og:title", "og:description", "twitter:description"}


@dataclass(frozen=True)
class PageText:
    title: str
    lines: tuple[str, ...]  # meta descriptions first, then the visible text, one block a line

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def page_text(document: str) -> PageText:
    meta = [
        _clean(attrs.get("content", ""))
        for attrs in (_attrs(raw) for raw in _META.findall(document))
        if (attrs.get("name") or attrs.get("property") or "").lower() in _DESCRIBING
    ]
    body = html.unescape(_TAG.sub(" ", _BLOCK.sub("\n", _INVISIBLE.sub(" ", document))))
    visible = (" ".join(line.split()) for line in body.split("\n"))
    lines = tuple(dict.fromkeys(line for line in [*meta, *visible] if line))
    return PageText(title(document), lines)


def title(document: str) -> str:
    m = _TITLE.search(document)
    return _clean(m.group(1)) if m else ""


def plain(fragment: str) -> str:
    """An HTML fragment (a feed summary) as plain text."""
    return "\n".join(page_text(fragment).lines)


def links(document: str, base: str) -> list[tuple[str, str]]:
    """Every ``<a href>`` as (absolute URL without fragment, link text), in document order."""
    out: list[tuple[str, str]] = []
    for raw_attrs, inner in _ANCHOR.findall(_INVISIBLE.sub(" ", document)):
        href = _attrs(raw_attrs).get("href")
        if not href or href.startswith(("#", "mailto:", "javascript:")):
            continue
        parts = urlsplit(urljoin(base, href))
        out.append((urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), _clean(inner)))
    return out


def _attrs(raw: str) -> dict[str, str]:
    return {k.lower(): html.unescape(v.strip("\"'")) for k, v in _ATTR.findall(raw)}


def _clean(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())
