"""Refuse input we will not process, with a one-line reason in both languages.

Chat messages arrive from anyone: empty, enormous, binary, full of control characters or
markup. Markup is harmless here (matching ignores it and every adapter escapes what it
echoes), so only what cannot be a question is refused.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MAX_CHARS = 1_000
# Above this share of control/unassigned/replacement characters, the text is not language.
MAX_JUNK_SHARE = 0.2


@dataclass(frozen=True)
class Rejection:
    en: str
    zh: str


def clean(text: str) -> str:
    """Drop control characters (keeping line breaks as spaces) and surrounding space."""
    return "".join(
        " " if ch in "\n\r\t" else ch
        for ch in text
        if ch in "\n\r\t" or unicodedata.category(ch)[0] != "C"
    ).strip()


def reject_reason(text: str) -> Rejection | None:
    """Why ``text`` is not a question we will answer, or None when it is fine."""
    if len(text) > MAX_CHARS:
        return Rejection(
            en=f"That message is too long ({len(text):,} characters); please ask in under "
            f"{MAX_CHARS:,} characters.",
            zh=f"消息太长（{len(text):,} 个字符），请在 {MAX_CHARS:,} 个字符以内提问。",
        )
    junk = sum(
        1
        for ch in text
        if ch == "\ufffd"
        or unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs")
        and ch not in "\n\r\t"
    )
    if text and junk / len(text) > MAX_JUNK_SHARE:
        return Rejection(
            en="That looks like binary data, not a question. Please ask in words.",
            zh="这看起来是二进制数据，而不是问题。请用文字提问。",
        )
    if not any(ch.isalnum() for ch in clean(text)):
        return Rejection(
            en='I didn\'t get a question. Ask me, e.g., "has it started?" or "help".',
            zh="没有收到问题。可以问我，例如“开训了吗？”或“帮助”。",
        )
    return None


# A count typed by a person (a day count, a choice number, a limit) never needs more digits.
MAX_COUNT_DIGITS = 8


def count(text: str, *, max_digits: int = MAX_COUNT_DIGITS) -> int | None:
    """The number a person typed, or None: ASCII digits only ("²" and "٣" are digits to
    ``str.isdigit`` but not to ``int``), at most ``max_digits`` of them (``int`` refuses a
    5,000-digit string with an exception)."""
    text = text.strip()
    if not text or len(text) > max_digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
