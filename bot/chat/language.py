"""The reply language: the chat's subscription, else the person's client locale, else default.

Replies are English or Chinese; a Chinese reply is written in traditional characters for a
client set to Taiwan, Hong Kong or Macau (or "Hant"), and for a question typed in them.
"""

from __future__ import annotations

_TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")


def locale_language(locale: str | None) -> str | None:
    """``"zh"`` or ``"en"`` for a client locale, None when it says neither."""
    tag = (locale or "").lower().replace("_", "-")
    if tag.startswith("zh"):
        return "zh"
    if tag.startswith("en"):
        return "en"
    return None


def wants_traditional(locale: str | None) -> bool:
    tag = (locale or "").lower().replace("_", "-")
    return tag.startswith(_TRADITIONAL)
