"""The conversation's own words, in both languages, and how each platform writes them.

Answers come from the core with their caveat; these are the short messages around them
(usage, confirmations, refusals). They are written once, in a small markup: ``**bold**`` and
```code```. A ``Dialect`` renders it: HTML for Telegram, Markdown for Discord, plain text for
the console. Values typed by people are escaped for the dialect, never read as markup.

A few messages name a platform's own commands; those have a variant per platform (the key
``"default"`` is used elsewhere).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from answers.script import to_traditional
from bot.chat.text_table import TEXTS

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Dialect:
    """How a platform writes the markup, and how it escapes what people typed."""

    escape: Callable[[str], str]
    bold: tuple[str, str]
    code: tuple[str, str]
    escape_template: bool = False  # HTML: the template's own text needs escaping too


def _markdown_value(value: str) -> str:
    # a backtick would close the code span the value sits in
    return value.replace("`", "'")


HTML = Dialect(html.escape, ("<b>", "</b>"), ("<code>", "</code>"), escape_template=True)
MARKDOWN = Dialect(_markdown_value, ("**", "**"), ("`", "`"))
PLAIN = Dialect(lambda value: value, ("", ""), ("", ""))


@dataclass(frozen=True)
class Notice:
    """A short message of the conversation: which text, in which language, with what values."""

    key: str
    lang: str
    values: Mapping[str, str] = field(default_factory=dict)
    platform: str = "default"
    traditional: bool = False  # Chinese for a Taiwan / Hong Kong client

    def render(self, dialect: Dialect) -> str:
        template = template_for(self.lang, self.key, self.platform)
        if dialect.escape_template:
            template = html.escape(template, quote=False)
        template = _BOLD.sub(lambda m: f"{dialect.bold[0]}{m[1]}{dialect.bold[1]}", template)
        template = _CODE.sub(lambda m: f"{dialect.code[0]}{m[1]}{dialect.code[1]}", template)
        said = template.format(**{k: dialect.escape(v) for k, v in self.values.items()})
        return to_traditional(said) if self.traditional and self.lang == "zh" else said

    def plain(self) -> str:
        return self.render(PLAIN)


def template_for(lang: str, key: str, platform: str = "default") -> str:
    """The text ``key`` in ``lang`` (English when the language is unknown)."""
    found = TEXTS.get(lang, TEXTS["en"])[key]
    if isinstance(found, str):
        return found
    return found.get(platform, found["default"])


def word(lang: str, key: str, platform: str = "default") -> str:
    """A text with no markup and no values: a button label, a language's name."""
    return Notice(key, lang, platform=platform).plain()
