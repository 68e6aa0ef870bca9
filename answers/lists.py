"""A record that lists things of one shape, or says how often each of two things is done, or
how long something took, and figures told of one thing that are another's.

"The ladder's configuration lists the rungs 1.6B-A61M (48B tokens), 4.0B-A162M (128B),
11.5B-A481M (381B) and 27.7B-A1.2B (926B)": each rung is an item, and "the smallest,
1.6B-A61M, used 128B tokens" takes the second rung's tokens. A list is three items or more
with figures of the same units in the same order; prose with commas is none.

"The configuration evaluates every 3,000 steps and keeps a permanent checkpoint every 6,000
steps" pairs each "every N" with the words before it (in Chinese, after 每N步), so "permanent
checkpoints every 3k steps" is the evaluations' cadence told of the checkpoints. Only "every":
the same pairing for "at step N" was measured and dropped (seven true assertions flagged for
one caught, where a statement names several steps).
"""

from __future__ import annotations

import re

from answers.assertions import Figure, figures, same
from answers.lengths import span_crossed, spans
from knowledge.knowledge_base import KnowledgeBase

_ITEMS = re.compile(r",\s+|;\s+|\s+and\s+")
_BRACKETS = re.compile(r"\([^()]*\)|（[^（）]*）")
_COMMA = "\ue010"  # a comma inside brackets, kept from the split
_NAME = re.compile(r"\b[a-z]\d{2,5}\b")  # an item's name: "d768"
# Figures said as a range, a sum or side by side, not as one thing's: "1.6B-A61M up to
# 27.7B-A1.2B", "390,251 steps ≈ 18.0T", "8K/16K"
_RANGE = re.compile(r"\b(?:up to|to|from|vs|x)\b|→|->|~|≈|=|×|/|到|至")


Item = tuple[str | None, list[Figure]]  # an item's name ("d768"), if it has one, and figures


class Shapes:
    """What each claim's statement says of things of one shape, read once: its list (the
    ladder's rungs, by name), how often it does each thing, its lengths of time."""

    def __init__(self, kb: KnowledgeBase) -> None:
        claims = kb.claims.values()
        self.named = {c.id: named_list(c.statement.en) for c in claims}
        self.lists = {c: [found for _, found in items] for c, items in self.named.items()}
        self.cadences = {c.id: cadences(c.statement.en) + cadences(c.statement.zh) for c in claims}
        self.spans = {c.id: spans(c.statement.en.casefold()) for c in claims}

    def missed(self, text: str) -> str | None:
        """The claim whose cadence of a thing the text gives otherwise, if any."""
        missed = (c for c, listed in self.cadences.items() if cadence_missed(text, listed))
        return next(missed, None)

    def crossed(self, text: str, said: list[Figure], claim_id: str) -> bool:
        """Whether the claim gives the figures ``said`` to other things than ``text`` does:
        one rung's with another's, one thing's cadence told of another, minutes as hours."""
        return (
            across_items(text, said, self.lists[claim_id])
            or named_elsewhere(text, said, self.named[claim_id])
            or cadence_crossed(text, self.cadences[claim_id])
            or span_crossed(text, self.spans[claim_id])
        )


def named_list(statement: str) -> list[Item]:
    """Each item of the longest list in the statement, with its name, or nothing."""
    best: list[Item] = []
    run: list[Item] = []
    # (an item's own brackets hold its figures: "d768 1.6B-A61M (48B tokens, 5.5e19 FLOPs)")
    kept = _BRACKETS.sub(lambda m: m[0].replace(",", _COMMA), statement)
    for piece in (piece.replace(_COMMA, ",") for piece in _ITEMS.split(kept)):
        item = figures(piece)
        name = _NAME.search(piece.casefold())
        shape = [f.unit for f in item]
        if item and run and shape == [f.unit for f in run[-1][1]]:
            run.append((name[0] if name else None, item))
        else:
            run = [(name[0] if name else None, item)] if item else []
        if len(run) > len(best):
            best = list(run)
    return best if len(best) >= 3 else []


def named_elsewhere(text: str, said: list[Figure], listed: list[Item]) -> bool:
    """Whether the text names one item and gives a figure only another item has ("the d2048
    rung was trained on 381B tokens": d1536's)."""
    named = [n for n, (name, _) in enumerate(listed) if name and re.search(rf"\b{name}\b", text)]
    if len(named) != 1:
        return False
    own = listed[named[0]][1]
    for figure in said:
        if any(same(figure, f) for f in own):
            continue
        if any(same(figure, f) for name, found in listed for f in found):
            return True
    return False


def across_items(text: str, said: list[Figure], listed: list[list[Figure]]) -> bool:
    """Whether the figures said together are held by different items of the list, and by no
    one item (unless the text tells them as a range or a sum)."""
    if not listed or len(said) < 2 or _RANGE.search(text):
        return False
    where = [{n for n, item in enumerate(listed) if any(same(f, g) for g in item)} for f in said]
    if len(said) >= 3 and all(len(w) == 1 for w in where) and len(set.union(*where)) == len(said):
        return False  # the list recited, one figure of each item ("5.5e19, 2.7e20, 1.8e21")
    return all(where) and not set.intersection(*where)


# "evaluates every 3,000 steps", "每 6,000 步保存一个永久检查点": what is done how often
_EVERY_EN = re.compile(r"((?:[a-z-]+\s+){1,4}?)every\s+(\d[\d,.]*)\s*(k?)\b")
_EVERY_ZH = re.compile(r"每\s*(\d[\d,.]*)\s*(k?)\s*步([^、，。,;；]{1,12})")
_PLAIN = frozenset("the a an and they we it its also then just only still".split())
_CKPT = re.compile(r"\bckpts?\b")  # chat's word for a checkpoint
_IN_TIME = re.compile(r"\bevery\s+[\d,.]+\s*k?\s*(?:hours?|hrs?|days?|min(?:ute)?s?|weeks?)\b")


def cadences(text: str) -> list[tuple[float, frozenset[str]]]:
    """How often each thing is done, with the words that say what: "keeps a permanent
    checkpoint every 6,000 steps" → (6000, {keep, perm, chec}); Chinese as character pairs."""
    folded = _CKPT.sub("checkpoint", text.casefold())
    found = [
        (_number(n, k), frozenset(w[:4] for w in what.split() if w not in _PLAIN))
        for what, n, k in _EVERY_EN.findall(folded)
    ]
    found += [
        (_number(n, k), frozenset(what[i : i + 2] for i in range(len(what) - 1)))
        for n, k, what in _EVERY_ZH.findall(folded)
    ]
    return found


def cadence_crossed(text: str, listed: list[tuple[float, frozenset[str]]]) -> bool:
    """Whether the text says a thing is done as often as a statement's ``cadences`` say
    another thing is ("permanent checkpoints every 3k steps": it evaluates every 3,000, and
    keeps a permanent checkpoint every 6,000)."""
    if len(listed) < 2:
        return False
    for often, what in cadences(text):
        shared = [len(what & words) for _, words in listed]
        best = max(shared)
        if best == 0 or shared.count(best) > 1:
            continue  # (what is done is not told apart)
        meant = listed[shared.index(best)][0]
        if often != meant and any(often == other for other, _ in listed):
            return True
    return False


def cadence_missed(text: str, listed: list[tuple[float, frozenset[str]]]) -> bool:
    """Whether the text gives one of a statement's cadenced things another cadence than any
    the statement lists ("permanent ckpt every 1k steps": every 6,000)."""
    if len(listed) < 2 or _IN_TIME.search(text):
        return False  # ("a permanent checkpoint roughly every 22 hours": steps in time)
    for often, what in cadences(text):
        shared = [len(what & words) for _, words in listed]
        best = max(shared)
        if best and shared.count(best) == 1 and all(often != other for other, _ in listed):
            return True
    return False


def _number(digits: str, thousands: str) -> float:
    return float(digits.replace(",", "")) * (1000 if thousands else 1)


def pairs_crossed(said: list[Figure], lists: list[list[Figure]]) -> bool:
    """Whether two figures of different kinds are paired otherwise by a claim listing several
    of each (``lists``: each claim's lengths and shares, in order): #9615 gives "8K 1.6%, 16K
    3.1%", so "8K costs 3.1%" crosses them."""
    if len(said) != 2 or {f.unit for f in said} != {"n", "%"}:
        return False  # (a length and its share: "8K costs 3.1%")
    first, second = said
    for listed in lists:
        kinds = [f.unit for f in listed]
        # a list of pairs ("8K 1.6%, 16K 3.1%"), not "4K to 8K at 50%"
        pairs = all(a != b for a, b in zip(kinds, kinds[1:], strict=False))
        if not pairs or min(kinds.count(x.unit) for x in said) < 2:
            continue
        at = next((i for i, f in enumerate(listed) if same(f, first)), None)
        if at is None:
            continue
        # the figure of the second kind next to the first; on a tie, the one the claim pairs
        # it with: "8K 1.6%, 16K 3.1% below 4K" pairs a length with the share after it
        after = listed[0].unit == first.unit
        kin = [(abs(i - at), (i < at) == after, f) for i, f in enumerate(listed)]
        kin = [k for k in kin if k[2].unit == second.unit]
        if kin and not same(min(kin, key=lambda k: (k[0], k[1]))[2], second):
            return True
    return False
