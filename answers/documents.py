"""A figure said to be written where it is not: "Percy 发推写的是 5e24 FLOPs，README 写 2.7e24"
(the X post gives 2.7e24, the README 5e24). Each document a message names (the README, a
tweet, the blog, the homepage) is matched with the kinds of record it is; the figure is
misplaced when a record of that kind, on the same topic, gives another figure of its kind
and the records holding the figure said are of other kinds.
"""

from __future__ import annotations

import re

from answers.assertions import Figure, same
from answers.records import Records

_DOCUMENTS = (
    (re.compile(r"\breadme\b"), {"repository"}),
    (re.compile(r"\btweet\w*|\bx post\b|推特|推文|发推|發推"), {"social-post"}),
    (re.compile(r"\bblog\b|博客|部落格"), {"blog", "official-announcement"}),
    (re.compile(r"\bhomepage\b|官网|官網"), {"official-website"}),
)


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
