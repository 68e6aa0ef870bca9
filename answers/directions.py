"""A change told the wrong way round: "median step time went from 13.33 s up to 14.91 s" (the
new stack took it from 14.91 s down to 13.33 s), "MFU 从 26.75% 掉到 24.10%", "Paloma fell from
2.13755 to 2.13435" (it rose).

The records give a change as "from A to B", "A → B", or a measurement against the one before
it: "a median MFU of 26.75% against 24.10%", "13.33 s against 14.91 s" (the new figure first).
Each becomes an ordered pair (before, after). A message that says "from X to Y" is checked
against them: a pair the records hold the other way round, with no record of it this way, is a
change reversed. "X vs Y" in a message may be said in either order: it is only held against
the pairs the records measure ("29.44% vs 24.10%": the trial's 29.44% was against 26.32%).
"""

from __future__ import annotations

import re
from dataclasses import replace

from answers.assertions import Figure, figures, same
from answers.unsigned import bare
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase

_NUM = r"\d[\d,]*(?:\.\d+)?(?:e-?\d+)?\s?(?:%|[kmbt](?![a-z])|s\b|gib\b)?"
# in a record: "26.75% against 24.10%", "2.13755 at step 212,999, against 2.13435" (after, before)
_AGAINST = re.compile(rf"({_NUM})(?:\s+at step [\d,]+)?,?\s+(?:against|vs\.?)\s+({_NUM})", re.I)
# in a record or a message: "from 13.732 to 13.541 s", "14.91 → 13.33" (before, after)
_FROM_TO = re.compile(
    rf"\bfrom\s+({_NUM})\s*(?:(?:up|down|all the way)\s+)?to\s+({_NUM})"
    rf"|({_NUM})\s*(?:→|->|=>)\s*({_NUM})"
    rf"|(?:从|從|由)\s*({_NUM})\s*[^\d，。,;；]{{0,6}}?(?:到|至|成)\s*了?\s*({_NUM})",
    re.I,
)

# in a message: a change from one figure, by its direction ("down from 2.13435 at 209,999",
# "比 209,999 步的 2.13435 降了一点")
_DOWN = r"down|dropped|fell|lower|decreased|降|低|少|跌"
_UP = r"up|rose|climbed|higher|increased|升|高|涨|漲"
_SINCE = re.compile(
    rf"\b(?:({_DOWN})|{_UP})\s+from\s+({_NUM})"
    rf"|比\s*(?:第?\s*[\d,]+\s*步的?\s*)?({_NUM})\s*(?:略|稍|还|還)?(?:({_DOWN})|{_UP})",
    re.I,
)

# in a message: one measurement against another, said in either order
_VERSUS = re.compile(rf"({_NUM})\s*(?:vs\.?|versus|against|对比|對比)\s*({_NUM})", re.I)

Pair = tuple[Figure, Figure, str]  # before, after, the claim that says so


class Directions:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.pairs: list[Pair] = []
        for claim in kb.claims.values():
            text = claim.statement.en
            for after, before in _AGAINST.findall(text):
                self._add(before, after, claim.id)
            for groups in _FROM_TO.findall(text):
                before, after = _ordered(groups)
                self._add(before, after, claim.id)

    def _add(self, before: str, after: str, claim_id: str) -> None:
        one, two = figures(before), figures(after)
        if len(one) == 1 and len(two) == 1:
            self.pairs.append((one[0], two[0], claim_id))

    def reversed(self, text: str) -> Verdict | None:
        """Contradicted, naming the record, if ``text`` tells a change the records hold the
        other way round and never this way."""
        for groups in _FROM_TO.findall(text):
            before, after = (self._figures(part) for part in _ordered(groups))
            if len(before) != 1 or len(after) != 1:
                continue
            x, y = before[0], after[0]
            if any(same(a, x) and same(b, y) for a, b, _ in self.pairs):
                continue
            backwards = [c for a, b, c in self.pairs if same(a, y) and same(b, x)]
            if backwards:
                return CONTRADICTED, (backwards[0],)
            # two measured pairs' sides mixed: "took MFU from 23.03% to 26.75%" (26.75% was
            # against 24.10%, 23.03% the control of another trial)
            ends = [[c for a, b, c in self.pairs if same(a, f) or same(b, f)] for f in (x, y)]
            if all(ends) and _measured(x) and _measured(y) and not set(ends[0]) & set(ends[1]):
                return CONTRADICTED, (ends[1][0],)
        return self._since(text) or self._versus(text)

    def _figures(self, part: str) -> list[Figure]:
        """The part's figures, a share said without its sign read as the share a pair holds
        ("from 23.03 to 26.75": 23.03% and 26.75% MFU)."""
        said = figures(part)
        return [
            replace(f, unit="%")
            if bare(f)
            and not any(same(a, f) for p in self.pairs for a in p[:2])
            and any(same(a, replace(f, unit="%")) for p in self.pairs for a in p[:2])
            else f
            for f in said
        ]

    def _since(self, text: str) -> Verdict | None:
        """Contradicted, if ``text`` says a measurement went down from a figure the records
        give it going up from, or up from one it went down from."""
        for down, from_, zh_from, zh_down in _SINCE.findall(text):
            said = figures(from_ or zh_from)
            if len(said) != 1 or not _measured(said[0]):
                continue
            fell = bool(down or zh_down)
            for a, b, claim_id in self.pairs:
                if same(a, said[0]) and a.unit == b.unit and (b.value < a.value) != fell:
                    return CONTRADICTED, (claim_id,)
        return None

    def _versus(self, text: str) -> Verdict | None:
        """Contradicted, if ``text`` sets a figure of a measured pair against another figure
        than the pair's ("median MFU 29.44% vs 24.10%": the trial's 29.44% was against 26.32%),
        in either order."""
        for one, two in _VERSUS.findall(text):
            said = [self._figures(one), self._figures(two)]
            if any(len(f) != 1 for f in said):
                continue
            x, y = said[0][0], said[1][0]
            if not _measured(x) or not _measured(y):
                continue  # "8k vs 16k": lengths compared, not a measurement's two sides
            if any({_key(a, x, y), _key(b, x, y)} == {0, 1} for a, b, _ in self.pairs):
                continue  # the pair itself, either way round
            for a, b, claim_id in self.pairs:
                ends = [f for f in (a, b) if same(f, x) or same(f, y)]
                if len(ends) == 1 and a.unit == b.unit == x.unit == y.unit:
                    return CONTRADICTED, (claim_id,)
        return None


def _ordered(groups: tuple[str, ...]) -> tuple[str, str]:
    """The before and after of a ``_FROM_TO`` match, whichever of its forms matched."""
    found = [g for g in groups if g]
    return (found[0], found[1]) if len(found) >= 2 else ("", "")


def _key(figure: Figure, x: Figure, y: Figure) -> int | None:
    """0 if ``figure`` is ``x``, 1 if it is ``y``, else None."""
    return 0 if same(figure, x) else 1 if same(figure, y) else None


def _measured(figure: Figure) -> bool:
    """A measurement written to its last digits ("29.44%", "12.33 s"), not a round size."""
    return figure.spread <= 0.01 * abs(figure.value)
