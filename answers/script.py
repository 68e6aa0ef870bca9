"""Answer in traditional characters when the question was asked in them.

Templates and statements are written in simplified Chinese; a reply to 訓練開始了嗎 is
converted character by character with a table shipped in ``data/s2t.json`` (derived from
OpenCC's Taiwan-standard s2tw data). Character-level conversion can miss a phrase-level
choice now and then; it is still far closer to what a Taiwan or Hong Kong reader expects
than simplified text.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache

from answers.reply import Choice, ClaimUse, Reply
from answers.text import DATA, t2s_table


@lru_cache(maxsize=1)
def _s2t() -> dict[int, str]:
    table: dict[str, str] = json.loads((DATA / "s2t.json").read_text(encoding="utf-8"))
    return {ord(k): v for k, v in table.items()}


def is_traditional(text: str) -> bool:
    """More traditional-only than simplified-only characters in ``text``."""
    trad, simp = t2s_table(), _s2t()
    traditional = sum(1 for ch in text if ord(ch) in trad)
    simplified = sum(1 for ch in text if ord(ch) in simp)
    return traditional > simplified


def to_traditional(text: str) -> str:
    return text.translate(_s2t())


def traditional_reply(reply: Reply) -> Reply:
    """The same reply with every Chinese text field in traditional characters."""
    t = to_traditional
    return replace(
        reply,
        title=t(reply.title),
        body=t(reply.body),
        caveat=t(reply.caveat),
        sections=tuple(t(s) for s in reply.sections),
        claims=tuple(
            ClaimUse(c.id, c.kind, c.level, t(c.level_label), t(c.statement)) for c in reply.claims
        ),
        choices=tuple(Choice(c.key, t(c.label)) for c in reply.choices),
        extra={**reply.extra, "script": "traditional"},
    )
