"""A figure said to be written where it is not: "Percy 发推写的是 5e24 FLOPs，README 写 2.7e24"
(the X post gives 2.7e24, the README 5e24). Each document a message names (the README, a
tweet, the blog, the homepage) is matched with the kinds of record it is; the figure is
misplaced when a record of that kind, on the same topic, gives another figure of its kind
and the records holding the figure said are of other kinds. Or a document said to have gone
out on a day no record of its kind was published: "Percy's X post went out Aug 25" (his
posts are of August 21, September 2 and October 6).
"""

from __future__ import annotations

import re

from answers.assertions import Figure, same
from answers.days import MONTH, months
from answers.records import Records
from answers.verdicts import UNSUPPORTED, Verdict

_DOCUMENTS = (
    (re.compile(r"\breadme\b"), {"repository"}),
    (re.compile(r"\btweet\w*|\bx post\b|推特|推文|发推|發推"), {"social-post"}),
    (re.compile(r"\bblog\b|博客|部落格"), {"blog", "official-announcement"}),
    (re.compile(r"\bhomepage\b|官网|官網"), {"official-website"}),
)


# A day the document went out on, told beside the verb: "went out Aug 25", "8月25号发的", "8月20日
# Percy 發推" (not "Percy tweeted that it started Aug 19": the day of what it tells)
_OUT = r"(?:posted|went (?:out|up)|published|tweeted|发的|发布|发了|发推|发文|贴出)"
_OUT_ON = re.compile(
    rf"{_OUT}\s*(?:on\s+)?(?:{MONTH.pattern})|(?:{MONTH.pattern})\s*(?:\S+\s*)?{_OUT}"
)


def misdated(records: Records, text: str) -> Verdict | None:
    """Unsupported, naming the record of that kind nearest the day, if ``text`` (folded) says
    a document of one kind went out on a day none of that kind was published."""
    kinds = [k for pattern, k in _DOCUMENTS if pattern.search(text)]
    told = _OUT_ON.search(text)
    days = [d for d in months(told[0]) if d[1] is not None] if told and len(kinds) == 1 else []
    if len(days) != 1:
        return None
    month, day = days[0]
    published = {
        (s.published.month, s.published.day): c
        for c, sources in records.kb.said_by.items()
        for s in sources
        if s.kind in kinds[0]
    }
    if not published or (month, day) in published:
        return None
    near = min(published, key=lambda d: abs((d[0] - month) * 31 + d[1] - (day or 0)))
    return UNSUPPORTED, (published[near],)


def misplaced(records: Records, text: str, said: list[Figure], chosen: list[str]) -> str | None:
    """The claim of the named document that gives another figure, if the figures ``said``
    (held by the claims ``chosen``) are put in a document that does not give them."""
    kinds = [k for pattern, k in _DOCUMENTS if pattern.search(text)]
    units = [f.unit for f in said]
    if len(kinds) != 1 or not said or len(set(units)) != len(units):
        return None  # (two figures of a kind: "2.7e24 FLOPs vs README 的 5e24" tells both)
    named = kinds[0]
    if any(_kinds(records, c) & named for c in chosen):
        return None  # a record of that document holds it
    topics = {records.kb.claims[c].topic for c in chosen}
    for figure, claim_id in records.index:
        claim = records.kb.claims[claim_id]
        if claim.topic not in topics or not _kinds(records, claim_id) & named:
            continue
        if any(f.unit == figure.unit and not same(figure, f) for f in said):
            return claim_id
    return None


def _kinds(records: Records, claim_id: str) -> set[str]:
    """The kinds of record that say the claim directly."""
    return {source.kind for source in records.kb.said_by[claim_id]}
