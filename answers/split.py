"""Cut a reply into messages that fit a platform's limit, only at safe boundaries.

Platform-neutral and pure: an adapter passes the blocks of a reply already rendered in its
own markup (each block self-contained, so no tag spans two messages), a ``measure`` that
counts what its platform counts, and the caveat as ``tail``. ``split_text`` cuts one
oversized *plain-text* block (escape after cutting, so no entity is broken): at blank lines,
then line breaks, then sentence ends, then spaces, and only as a last resort anywhere.
``pack`` then fills messages greedily and keeps the caveat whole in the last message.

``measure`` must be additive over concatenation (``len``, UTF-16 units, escaped length all
are): that keeps both functions linear in the length of the reply.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

Measure = Callable[[str], int]

# Coarsest first. Each pattern matches the zero-width point *after* a boundary, so the
# delimiter stays with the text before it.
_BOUNDARIES = (
    re.compile(r"(?<=\n\n)(?=[^\n])"),  # paragraphs
    re.compile(r"(?<=\n)(?=[^\n])"),  # lines
    re.compile(r"(?<=[.!?;:])(?=\s)|(?<=[。！？；：])"),  # sentences (Latin and CJK)
    re.compile(r"(?<=[\s,，、])(?=\S)"),  # words and clauses
)


def split_text(text: str, limit: int, *, measure: Measure = len) -> list[str]:
    """Cut ``text`` into pieces each measuring at most ``limit``, at the coarsest boundary."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    if measure(text) <= limit:
        return [text] if text.strip() else []
    return [p for p in (_tidy(p) for p in _split(text, limit, measure, 0)) if p]


def _split(text: str, limit: int, measure: Measure, level: int) -> list[str]:
    if level == len(_BOUNDARIES):
        return _hard_cut(text, limit, measure)
    units = [u for u in _BOUNDARIES[level].split(text) if u]
    if len(units) == 1:
        return _split(text, limit, measure, level + 1)
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for unit in units:
        # The boundary's own whitespace is dropped at a cut, so only the rest must fit.
        visible = measure(unit.rstrip())
        if visible > limit:
            if current:
                pieces.append("".join(current))
                current, size = [], 0
            pieces.extend(_split(unit, limit, measure, level + 1))
            continue
        if current and size + visible > limit:
            pieces.append("".join(current))
            current, size = [], 0
        current.append(unit)
        size += measure(unit)
    if current:
        pieces.append("".join(current))
    return pieces


def _hard_cut(text: str, limit: int, measure: Measure) -> list[str]:
    """No boundary left (a URL, unbroken CJK): cut by characters."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for char in text:
        width = measure(char)
        if current and size + width > limit:
            pieces.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    if current:
        pieces.append("".join(current))
    return pieces


def _tidy(piece: str) -> str:
    # Whitespace at a cut is the boundary itself; whitespace inside a piece is kept.
    return piece.strip()


def pack(
    blocks: Sequence[str],
    limit: int,
    *,
    tail: str = "",
    measure: Measure = len,
    joiner: str = "\n\n",
) -> list[str]:
    """Join ``blocks`` into as few messages as fit ``limit``; ``tail`` whole, in the last one.

    Every block must already fit (cut it with ``split_text`` first). A tail that cannot fit
    even alone is a bug upstream; it is then cut rather than dropped, and still comes last.
    """
    join_width = measure(joiner)
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for block in blocks:
        width = measure(block)
        if width > limit:
            raise ValueError(f"block of {width} exceeds the limit of {limit}; split it first")
        extra = width + (join_width if current else 0)
        if current and size + extra > limit:
            messages.append(joiner.join(current))
            current, size = [], 0
            extra = width
        current.append(block)
        size += extra
    if tail:
        tail_width = measure(tail)
        if tail_width > limit:
            if current:
                messages.append(joiner.join(current))
            return messages + split_text(tail, limit, measure=measure)
        if current and size + join_width + tail_width > limit:
            messages.append(joiner.join(current))
            current = []
        current.append(tail)
    if current:
        messages.append(joiner.join(current))
    return messages
