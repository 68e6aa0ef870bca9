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
from collections.abc import Callable

from answers.assertions import Figure, figures, same
from answers.days import MONTH, months
from answers.records import Records, near
from answers.text import fold
from answers.verdict_words import PEOPLE, SOURCE
from answers.verdicts import UNSUPPORTED, Verdict
from knowledge.schema import Source

_VERSUS = re.compile(r"\bvs\b\.?|\bversus\b|对比|對比")
_DOCUMENTS = (
    (re.compile(r"\breadme\b"), {"readme"}),  # (a repository's README, not its issues)
    (re.compile(r"\btweet\w*|\bx post\b|推特|推文|发推|發推"), {"social-post"}),
    (
        re.compile(r"\bblog\b|博客|部落格|\bfoundation post\b|基金会的?公告|基金會的?公告"),
        {"blog", "official-announcement"},
    ),
    (re.compile(r"\bhomepage\b|官网|官網"), {"official-website"}),
)


def document_named(text: str) -> str:
    """The one document the text (folded) names, in its words ("tweet", "readme"); "" if it
    names none, or several."""
    found = [m[0] for pattern, _ in _DOCUMENTS if (m := pattern.search(text))]
    return found[0] if len(found) == 1 else ""


# A day the document went out on, told beside the verb: "went out Aug 25", "8月25号发的", "8月20日
# Percy 發推" (not "Percy tweeted that it started Aug 19": the day of what it tells)
_OUT = r"(?:posted|post|went (?:out|up)|published|tweeted|发的|发布|发了|发推|发文|贴出)"
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
        if _kind(s) in kinds[0]
    }
    if not published or (month, day) in published:
        return None
    near = min(published, key=lambda d: abs((d[0] - month) * 31 + d[1] - (day or 0)))
    return UNSUPPORTED, (published[near],)


def misplaced(records: Records, text: str, said: list[Figure], chosen: list[str]) -> str | None:
    """The claim of the named document (or person: "9 月 2 日 Percy 说已完成 25.8%") that gives
    another figure, if the figures ``said`` (held by the claims ``chosen``) are put in a
    document, or in the mouth of someone, whose records do not give them."""
    units = [f.unit for f in said]
    halves = _VERSUS.split(text)
    if len(set(units)) != len(units) and len(halves) == 2:
        # two figures, each put somewhere: "2.7e24 in the README vs 5e24 in Percy's tweet"
        return next(filter(None, (misplaced(records, h, figures(h), chosen) for h in halves)), None)
    named = _named(text)
    if named is None or not said or len(set(units)) != len(units):
        return None  # (two figures of a kind: "2.7e24 FLOPs vs README 的 5e24" tells both)
    # a record of that document holds it (not a record giving both: "the gap between the
    # post's 2.7e24 and the README's 5e24" says nothing of which said which)
    if any(_by(records, c, named) and _only(records, c, said) for c in chosen):
        return None
    # (or the record tells what the person said: "Larry said 16K", his preference's record)
    people = {n for source in SOURCE.finditer(text) for n in PEOPLE.findall(source[0])}
    statements = [fold(records.kb.claims[c].statement.en) for c in chosen]
    if people and any(all(p in s for p in people) for s in statements):
        return None
    topics = {records.kb.claims[c].topic for c in chosen}
    for figure, claim_id in records.index:
        claim = records.kb.claims[claim_id]
        if claim.topic not in topics or not _by(records, claim_id, named):
            continue
        if any(f.unit == figure.unit and not same(figure, f) for f in said):
            return claim_id
    return None


def _named(text: str) -> Callable[[Source], bool] | None:
    """Which records the text (folded) puts its figures in: of one document's kinds, or by
    the one person it quotes; None if neither."""
    kinds = [k for pattern, k in _DOCUMENTS if pattern.search(text)]
    if len(kinds) == 1:
        return lambda source: _kind(source) in kinds[0]
    people = {n for source in SOURCE.finditer(text) for n in PEOPLE.findall(source[0])}
    if len(kinds) or len(people) != 1:
        return None
    person = re.compile(rf"\b{people.pop()}")
    return lambda source: bool(person.search(fold(source.publisher)))


def _by(records: Records, claim_id: str, named: Callable[[Source], bool]) -> bool:
    """Whether a record of the named kind (or person) says the claim directly."""
    return any(named(source) for source in records.kb.said_by[claim_id])


def _only(records: Records, claim_id: str, said: list[Figure]) -> bool:
    """Whether the claim gives, of each figure said, that figure and no rival of its kind and
    size (2.04 and 18T are a loss and tokens; 2.7e24 and 5e24 are rivals)."""
    return all(
        same(f, s) or not near(f, s)
        for f, c in records.index
        if c == claim_id
        for s in said
        if f.unit == s.unit
    )


def _kind(source: Source) -> str:
    """The source's kind, with a repository's README told apart from its issues."""
    readme = source.kind == "repository" and "readme" in source.title.casefold()
    return "readme" if readme else source.kind


# Words said to come from a document: "the Dec 1 end date is straight from the tweet"
_FROM_DOCUMENT = re.compile(
    r"\b(?:is|was|comes|came) (?:straight |right |directly )?from\b|来自|來自|出自"
)


def from_elsewhere(records: Records, text: str, claims: tuple[str, ...]) -> bool:
    """Whether the text (folded) says what it tells comes from a document by which none of the
    claims is said (the end date is the blog posts', not the launch tweet's)."""
    named = _named(text) if _FROM_DOCUMENT.search(text) else None
    return named is not None and not any(_by(records, c, named) for c in claims)
