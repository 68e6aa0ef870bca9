"""Turn a platform-neutral ``Reply`` into Discord messages made of embeds, within Discord's limits.

Pure: no client, no I/O. One answer reads, top to bottom:

    title        the reply's title
    description  the direct answer, each claim line marked with its level's coloured square,
                 then the caveat as a quote block: in the body, where it cannot be missed
                 (never only in a footer) and never cut
    fields       the claims with their level, when the answer does not list them itself;
                 then the sources as links
    colour       the weakest confidence level among the claims used
    footer       the date the evidence runs to

A long reply (a digest) is cut at the reply's section boundaries into several embeds and, past
6,000 characters or 10 embeds, into several messages, numbered "1/3", "2/3", ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

import discord

from answers.labels import LEVEL
from answers.render import format_date
from answers.reply import ClaimUse, Outcome, Reply, SourceRef
from answers.split import pack, split_text

# Discord's limits. Sizes are measured in UTF-16 code units, which is never less than the
# character count Discord applies, so an emoji can never tip a message over.
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FIELDS_PER_EMBED = 25
EMBEDS_PER_MESSAGE = 10
MESSAGE_TOTAL_LIMIT = 6000
SOURCE_TITLE_LIMIT = 200  # keeps one source line, link included, far below a field's limit
FOOTER_RESERVE = 100  # room kept in every message for the footer ("2/3 · evidence as of …")

# Weakest first: an answer is only as strong as its weakest claim.
LEVEL_ORDER = ("disputed", "no-record", "indirect", "single-source", "corroborated", "confirmed")
LEVEL_COLOUR = {
    "disputed": discord.Colour(0xE74C3C),  # red
    "no-record": discord.Colour(0x95A5A6),  # grey: an absence, not a finding
    "indirect": discord.Colour(0xE67E22),  # orange
    "single-source": discord.Colour(0xF1C40F),  # amber
    "corroborated": discord.Colour(0x3498DB),  # blue
    "confirmed": discord.Colour(0x2ECC71),  # green
}
LEVEL_SQUARE = {
    "disputed": "🟥",
    "no-record": "⬜",
    "indirect": "🟧",
    "single-source": "🟨",
    "corroborated": "🟦",
    "confirmed": "🟩",
}
NEUTRAL_COLOUR = discord.Colour(0x95A5A6)  # no claims: help, unknown, choices
REJECTED_COLOUR = discord.Colour(0x546E7A)
BULLETS = ("• ", "■ ")  # how the templates start a claim line

WORDS = {
    "en": {
        "sources": "Sources",
        "relay": "seen via a relay, not verified by us",
        "as_of": "evidence as of {date}",
        "more": "(continued)",
    },
    "zh": {
        "sources": "来源",
        "relay": "经转述看到，我们未直接核实",
        "as_of": "证据截至 {date}",
        "more": "（续）",
    },
}


@dataclass(frozen=True)
class Outgoing:
    """One Discord message: up to 10 embeds, optionally a short plain-text content."""

    embeds: tuple[discord.Embed, ...] = ()
    content: str | None = None


def size(text: str | None) -> int:
    """Length as Discord may count it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2 if text else 0


def embed_size(embed: discord.Embed) -> int:
    total = size(embed.title) + size(embed.description) + size(embed.footer.text)
    return total + sum(size(f.name) + size(f.value) for f in embed.fields)


def escape(text: str) -> str:
    return discord.utils.escape_markdown(text)


def render(reply: Reply) -> list[Outgoing]:
    """The messages that show ``reply``; every one within Discord's limits."""
    words = WORDS.get(reply.language, WORDS["en"])
    colour = colour_for(reply)
    body, listed = mark_claim_lines(reply)
    descriptions = _descriptions(reply, body)
    claims = () if listed else reply.claims
    fields = [*_claim_fields(claims), *_source_fields(reply, words)]

    embeds: list[discord.Embed] = []
    for index, description in enumerate(descriptions):
        title = clip(escape(reply.title), TITLE_LIMIT) if index == 0 and reply.title else None
        embeds.append(discord.Embed(title=title, description=description, colour=colour))
    budget = MESSAGE_TOTAL_LIMIT - FOOTER_RESERVE
    for name, value in fields:
        last = embeds[-1]
        if len(last.fields) >= FIELDS_PER_EMBED or embed_size(last) + size(name + value) > budget:
            last = discord.Embed(colour=colour)
            embeds.append(last)
        last.add_field(name=name, value=value, inline=False)

    messages = _pack_messages(embeds)
    as_of = words["as_of"].format(date=format_date(reply.as_of, reply.language))
    for number, message in enumerate(messages, start=1):
        parts = [f"{number}/{len(messages)}"] if len(messages) > 1 else []
        if number == len(messages) and reply.as_of is not None:
            parts.append(as_of)
        if parts:
            message[-1].set_footer(text=" · ".join(parts))
    return [Outgoing(embeds=tuple(m)) for m in messages]


def notice(text: str) -> Outgoing:
    """A short plain-text message (refusals, confirmations), clipped to the content limit."""
    return Outgoing(content=clip(text, CONTENT_LIMIT))


def colour_for(reply: Reply) -> discord.Colour:
    if reply.outcome is Outcome.REJECTED:
        return REJECTED_COLOUR
    levels = {c.level for c in reply.claims}
    for level in LEVEL_ORDER:
        if level in levels:
            return LEVEL_COLOUR[level]
    return NEUTRAL_COLOUR


def mark_claim_lines(reply: Reply) -> tuple[list[str], int]:
    """The body's sections, escaped, with each claim line's bullet replaced by its level's
    coloured square; and how many claim lines there were."""
    labels = sorted(
        ((label, level) for level, label in labels_in(reply.language).items()),
        key=lambda pair: -len(pair[0]),
    )
    marked = 0
    sections: list[str] = []
    for section in reply.sections or (reply.body,):
        lines = escape(section).split("\n")
        for index, line in enumerate(lines):
            if not line.startswith(BULLETS):
                continue
            end = line.rstrip()
            for label, level in labels:
                if end.endswith((f"[{label}]", f"【{label}】", f" {label}")):
                    lines[index] = f"{LEVEL_SQUARE[level]} {line[2:]}"
                    marked += 1
                    break
        sections.append("\n".join(lines))
    return sections, marked


def labels_in(lang: str) -> dict[str, str]:
    """Level value → its label in ``lang``, escaped as the body is."""
    return {level: escape(label) for level, label in LEVEL.get(lang, LEVEL["en"]).items()}


def _descriptions(reply: Reply, sections: Sequence[str]) -> list[str]:
    """The answer's sections packed under the description limit; the caveat ends the last one."""
    # Escaping first and cutting after is safe: cuts fall on whitespace, never between a
    # backslash and the character it escapes.
    blocks = [
        piece
        for section in sections
        if section.strip()
        for piece in split_text(section, DESCRIPTION_LIMIT, measure=size)
    ]
    caveat = f">>> {escape(reply.caveat)}"
    return pack(blocks, DESCRIPTION_LIMIT, tail=caveat, measure=size)


def _claim_fields(claims: Iterable[ClaimUse]) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    for claim in claims:
        name = clip(f"{LEVEL_SQUARE.get(claim.level, '⬜')} {claim.level_label}", FIELD_NAME_LIMIT)
        values = split_text(escape(claim.statement), FIELD_VALUE_LIMIT, measure=size)
        for index, value in enumerate(values):
            fields.append((name if index == 0 else "\u200b", value))
    return fields


def _source_fields(reply: Reply, words: dict[str, str]) -> list[tuple[str, str]]:
    """The sources as links, unless the body already cites every one of them by URL."""
    sources = reply.sources
    if not sources or all(s.url and s.url in reply.body for s in sources):
        return []
    lines = [_source_line(s, words) for s in sources]
    blocks = [p for line in lines for p in split_text(line, FIELD_VALUE_LIMIT, measure=size)]
    values = pack(blocks, FIELD_VALUE_LIMIT, measure=size, joiner="\n")
    return [
        (words["sources"] if index == 0 else f"{words['sources']} {words['more']}", value)
        for index, value in enumerate(values)
    ]


def _source_line(source: SourceRef, words: dict[str, str]) -> str:
    plain = clip(source.title, SOURCE_TITLE_LIMIT).replace("[", "(").replace("]", ")")
    title = escape(f".{plain}")[1:]  # escaped as mid-line text: a leading "#" is no heading
    linkable = source.url is not None and source.url.startswith(("https://", "http://"))
    head = f"[{title}]({_safe_url(source.url)})" if source.url and linkable else title
    line = f"{head} — {escape(source.publisher)}, {source.published.isoformat()}"
    return f"{line} ({words['relay']})" if source.seen_via_relay else line


def _safe_url(url: str) -> str:
    """Keep a URL intact inside a masked link: brackets, spaces and quotes are percent-encoded."""
    return quote(url, safe=":/?#@!$&'*+,;=%~-._")


def _pack_messages(embeds: list[discord.Embed]) -> list[list[discord.Embed]]:
    messages: list[list[discord.Embed]] = [[]]
    total = 0
    for embed in embeds:
        needed = embed_size(embed)
        current = messages[-1]
        if current and (
            len(current) >= EMBEDS_PER_MESSAGE
            or total + needed > MESSAGE_TOTAL_LIMIT - FOOTER_RESERVE
        ):
            messages.append([])
            total = 0
        messages[-1].append(embed)
        total += needed
    return messages


def _fit(text: str, limit: int) -> int:
    """The length of the longest prefix of ``text`` whose size is at most ``limit`` (at least 1)."""
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1
        if used > limit:
            return max(index, 1)
    return len(text)


def clip(text: str, limit: int) -> str:
    """Shorten a one-line label (title, field name) to ``limit``, marking the cut with "…"."""
    if size(text) <= limit:
        return text
    return text[: _fit(text, limit - 1)].rstrip() + "…"
