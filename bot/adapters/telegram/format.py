"""A ``Reply`` as Telegram HTML: messages under 4,096 characters, the caveat whole and last.

Pure functions. Everything that came from a user or a source is escaped here and only here;
every block is self-contained HTML, so a cut between blocks never breaks a tag, and plain
text is cut *before* it is escaped, so a cut never breaks an entity.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from answers.reply import Reply
from answers.split import pack, split_text
from bot.chat.texts import word

LIMIT = 4096  # Bot API: characters per message, after entity parsing
NONE_OF_THESE = "!none"  # callback data no Choice.key can equal (keys are slugs)
_CALLBACK_BYTES = 64
_TITLE_CHARS = 300  # keeps one source line far below the limit
_MAX_LINKS = 5


def tg_len(value: str) -> int:
    """Telegram counts UTF-16 code units; counting tags and entities too keeps us below it."""
    return len(value.encode("utf-16-le")) // 2


def esc(value: str) -> str:
    return html.escape(value, quote=False)


def _escaped_len(value: str) -> int:
    return tg_len(esc(value))


def _wrapped(value: str, tag: str, limit: int) -> list[str]:
    """``value`` escaped inside ``<tag>``, cut so that each wrapped piece fits ``limit``."""
    budget = limit - len(tag) * 2 - 5
    return [
        f"<{tag}>{esc(piece)}</{tag}>" for piece in split_text(value, budget, measure=_escaped_len)
    ]


def _plain(value: str, limit: int) -> list[str]:
    return [esc(piece) for piece in split_text(value, limit, measure=_escaped_len)]


def link(title: str, url: str | None) -> str:
    if not url or not url.startswith(("https://", "http://")):
        return esc(title)
    return f'<a href="{html.escape(url, quote=True)}">{esc(title)}</a>'


def source_lines(reply: Reply) -> list[str]:
    """The sources as links (the caveat names them; Telegram makes them clickable).

    Left out when the body already shows the URLs (the "sources" reply lists them).
    """
    linked: dict[str, str] = {}  # url → title: several records can share one page
    for s in reply.sources:
        if s.url and s.url.startswith(("https://", "http://")):
            linked.setdefault(s.url, s.title)
    if not linked or all(url in reply.body for url in linked):
        return []
    shown = list(linked.items())[:_MAX_LINKS]
    return [f"• {link(title[:_TITLE_CHARS], url)}" for url, title in shown]


def _line_blocks(heading: str, lines: Iterable[str], limit: int) -> list[str]:
    """A heading and its lines as blocks that each fit, cut only between lines."""
    return pack([heading, *lines], limit, measure=tg_len, joiner="\n")


def messages(reply: Reply, *, limit: int = LIMIT) -> list[str]:
    """The reply as HTML messages: title, sections, sources, then the caveat, kept whole."""
    blocks: list[str] = []
    if reply.title:
        blocks += _wrapped(reply.title, "b", limit)
    # Cut long sections a little short, so the title still shares a message with the first.
    budget = limit - (tg_len(blocks[0]) + 2 if blocks else 0)
    for section in reply.sections or (reply.body,):
        blocks += _plain(section, budget)
    lines = source_lines(reply)
    if lines:
        heading = f"<b>{esc(word(reply.language, 'sources'))}</b>"
        blocks += _line_blocks(heading, lines, limit)
    caveat = _wrapped(reply.caveat, "i", limit)
    return pack(blocks + caveat[:-1], limit, tail=caveat[-1] if caveat else "", measure=tg_len)


def choice_keyboard(reply: Reply) -> InlineKeyboardMarkup | None:
    """The reply's choices, one per row, and "none of these" last."""
    buttons = [
        [InlineKeyboardButton(choice.label[:64], callback_data=choice.key)]
        for choice in reply.choices
        if 0 < len(choice.key.encode()) <= _CALLBACK_BYTES and choice.key != NONE_OF_THESE
    ]
    if not buttons:
        return None
    none = word(reply.language, "none_of_these")
    return InlineKeyboardMarkup(
        [*buttons, [InlineKeyboardButton(none, callback_data=NONE_OF_THESE)]]
    )


WHY = "why:"  # callback data prefix of a "Why?" button; no Choice.key has a colon


def why_keyboard(topic: str | None, lang: str) -> InlineKeyboardMarkup | None:
    """A "Why?" button under an answer whose levels can be explained (``topic``)."""
    if topic is None or len((WHY + topic).encode()) > _CALLBACK_BYTES:
        return None
    label = word(lang, "why_button")
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=WHY + topic)]])


CAPTION_LIMIT = 1024  # Bot API: a photo's caption, after entity parsing


def photo_caption(reply: Reply) -> tuple[str, bool]:
    """A photo's caption: the whole reply when it fits in 1,024 characters (caveat last), else
    its title alone, and True: the reply follows as messages, so the caveat is never cut."""
    whole = "\n\n".join(
        p
        for p in (f"<b>{esc(reply.title)}</b>", esc(reply.body), f"<i>{esc(reply.caveat)}</i>")
        if p
    )
    if tg_len(_visible(whole)) <= CAPTION_LIMIT:
        return whole, False
    return f"<b>{esc(reply.title[:200])}</b>", True


def _visible(markup: str) -> str:
    """The text Telegram counts: tags gone, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))
