"""The claims behind an assertion's figures: which hold each figure, which can speak to what
was asked, and in which order a verdict names them (``checking.py`` decides the verdict)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from answers.assertions import Figure, figures, same
from answers.days import month_parts, months, unspanned
from answers.figure_index import figure_index
from answers.lists import Shapes, pairs_crossed
from answers.measures import RUN
from answers.quotes import quoted_alike
from answers.references import References
from answers.statements import SAYS_AT, Statements
from answers.text import fold, spaced
from answers.trouble_words import OUTCOME
from answers.verdict_words import ANNOUNCED, CAUSE, FIRST, LEADS, NEGATION, PEOPLE, SOURCE
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind

NEAR_ENOUGH = 0.2  # a statement this near that uses the assertion's own word says it
PROGRESS_READINGS = ("progress", "tokens-so-far", "schedule", "finished", "progress-history")
SCHEDULE = {"tokens", "phases", "duration"}
MEASURED = {*PROGRESS_READINGS, "throughput", "loss", "checkpoints"}  # (newest record: now's)
SHARES = {"throughput", "phases", "context-length", "tokens"}  # topics with shares of their own
_MEASURES_SPEED = re.compile(r"tokens/s|throughput|\bmfu\b", re.IGNORECASE)
OWN_COUNTS = {"throughput", "phases", "loss"}  # topics whose bare counts are their own


class Records:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.index = figure_index(kb)
        self.statements = Statements(kb)
        # (month, day) each claim is about: its own date and the dates its statement names
        self.days = {
            c.id: {d for d in months(c.statement.en) if d[1] is not None}
            | ({(c.as_of.month, c.as_of.day)} if c.as_of else set())
            for c in kb.claims.values()
        }
        self.references = References(kb, self.days)  # "#8435 is the status log": #8506 is
        self.all_days = set().union(*self.days.values())
        # the months a claim is about: its days', and its records' own (the gift post's, Sep)
        self.months = {
            c: {m for m, _ in days}
            | {kb.sources[link.source].published.month for link in kb.links_by_claim[c]}
            for c, days in self.days.items()
        }
        # each claim's scaled figures and shares, in its statement's order (for pairs)
        self.shares = {
            c.id: [f for f in figures(c.statement.en) if f.unit in ("n", "%")]
            for c in kb.claims.values()
        }
        self.units: dict[str, set[str]] = {c: set() for c in kb.claims}
        for figure, claim_id in self.index:
            self.units[claim_id].add(figure.unit)
        # each claim's lists, cadences and lengths of time (the ladder's rungs, "every 3,000")
        self.shapes = Shapes(kb)
        # the claims that measured speed (MFU, tokens/s): the context tests did too
        self.speeds = {c.id for c in kb.claims.values() if _MEASURES_SPEED.search(c.statement.en)}
        # the schedule's spec is a plan too: "already at 15T" states phase 1's share as done
        self.plans = {
            c.id
            for c in kb.claims.values()
            if c.kind is ClaimKind.PLAN or (c.kind is ClaimKind.SPEC and c.topic in SCHEDULE)
        }

    def superseded(
        self, claim_ids: Iterable[str], said: list[Figure], topic: str | None = None
    ) -> tuple[str, ...]:
        """The newest record of these claims' topics with a figure of the same kind, if it is
        newer than every one of them: "MFU is 23% now" is September's figure, not October's.
        Of ``topic``'s claims, if it is a measure and some are ("the latest permanent
        checkpoint is still step-180000": September 30's, not the context test's)."""
        # (the dated ones: "step 197,999 of 390,251" is October 3's, of the plan's steps)
        claims = [self.kb.claims[c] for c in claim_ids if self.kb.claims[c].as_of]
        if topic in MEASURED:
            claims = [c for c in claims if c.topic == topic] or claims
        if not claims or any(c.topic not in MEASURED for c in claims):
            return ()  # (the context length's newest figure is a test's, not the run's)
        topics = {c.topic for c in claims}
        if topics & set(PROGRESS_READINGS):  # the run's progress: the posts' and the log's
            topics |= set(PROGRESS_READINGS)
        # a figure of the same kind and size ("231k/390k is ~59%" has no rival in the homepage's
        # "18 trillion tokens" of the day after)
        alike = {c for f, c in self.index for s in said if f.unit == s.unit and near(f, s)}
        of_topics = [c for topic in topics for c in self.kb.topics.get(topic, ())]
        rivals = [(c.as_of, c.id) for c in of_topics if c.as_of and c.id in alike]
        if not rivals:
            return ()
        newest_day, newest = max(rivals)
        return (newest,) if newest_day > max(c.as_of for c in claims if c.as_of) else ()

    def denies(self, claim_id: str) -> bool:
        """Whether the claim's statement says "not"/"no" (a denial, or an absence)."""
        return bool(NEGATION.search(fold(self.kb.claims[claim_id].statement.en)))

    def named_alike(self, text: str, claim_ids: Iterable[str]) -> bool:
        """Every person the assertion names is named by one of these claims; not one named as
        its source ("Percy said it is 535B total": the spec need not name Percy)."""
        said = set(PEOPLE.findall(SOURCE.sub(" ", text)))
        named = {n for c in claim_ids for n in PEOPLE.findall(self._both(c))}
        # …unless it is the post itself that is claimed, and these claims name who posted:
        # "Larry Dial tweeted on Oct 6" is Percy's post ("Percy said it is 535B" is not)
        posts = [s[0] for s in SOURCE.finditer(text) if ANNOUNCED.search(s[0])]
        by = {n for source in posts for n in PEOPLE.findall(source)}
        alike = said <= named and (not named or by <= named)
        return alike and quoted_alike(self.kb, text, claim_ids, self._both)  # (its publisher's)

    def _both(self, claim_id: str) -> str:
        """The claim's statements, and who its records are by ("Percy Liang on X")."""
        claim = self.kb.claims[claim_id]
        by = " ".join(f"{s.title} {s.publisher}" for s in self.kb.said_by[claim_id])
        # (Jen-Hsun is the name Jensen Huang's foundation is under)
        return fold(f"{claim.statement.en} {claim.statement.zh} {by}").replace("jen-hsun", "jensen")

    def ranked_alike(self, text: str, claim_ids: Iterable[str]) -> bool:
        """A lead or a first said by the assertion is said by one of these claims too, and no
        outcome is told of what a record of an absence names ("eval at 234k came in at 1.90")."""
        claims = list(claim_ids)
        absent = any(self.kb.claims[c].kind is ClaimKind.ABSENCE for c in claims)
        if absent and OUTCOME.search(text):
            return bool(NEGATION.search(text))  # ("…still not exercised as of Oct 9")
        said = [words for words in (LEADS, FIRST) if words.search(text)]
        return all(any(w.search(self._both(c)) for c in claims) for w in said)

    def dated_alike(self, text: str, claim_ids: Iterable[str]) -> bool:
        """Every day the assertion names is a day of these claims, or at least of some record:
        "crossed halfway around Sept 20" is not the halfway post of October 6, and no record
        names September 20 (while "kicked off Aug 19 on 11 racks" names the start's day)."""
        said = {d for d in months(text) if d[1] is not None}
        claims = list(claim_ids)
        days = set().union(*(self.days[c] for c in claims))
        dated = any(self.kb.claims[c].as_of for c in claims)  # a dated record: its day only
        # a month alone is a month of these claims' days ("the gift post went up in August"
        # is not the post of September 2)
        said_months = {m for m, d in months(text) if d is None}
        if not said_months <= set().union(*(self.months[c] for c in claims)):
            return False
        # and a part of a month holds a day of theirs ("Percy's 13% post was at the end of
        # September": it was September 2)
        for month, part in month_parts(text):
            in_month = [d for m, d in days if m == month and d is not None]
            if in_month and not any(d in part for d in in_month):
                return False
        # a span of days is alike if a day of it is ("Sep 2-3": the trial of September 3)
        said = unspanned(said, text, days if dated else days | self.all_days)
        return said <= days or (not dated and said <= self.all_days)

    def on_days(self, days: set[tuple[int, int | None]]) -> tuple[str, ...]:
        """The claims about every one of these days, dated ones first."""
        found = [c for c, held in self.days.items() if days <= held]
        return tuple(sorted(found, key=lambda c: self.kb.claims[c].as_of is None))

    def incident_on(self, text: str) -> bool:
        """Whether an incident is recorded on every day the text names (one at least)."""
        days = {d for d in months(text) if d[1] is not None}
        on = self.on_days(days) if days else ()
        return any(self.kb.claims[c].topic == "incidents" for c in on)

    def fits(self, claim_id: str, topic: str | None, said: Iterable[Figure] = ()) -> bool:
        """Whether a claim can speak to an assertion read as ``topic`` (``said``: its figures):
        a run's progress is never a plan's or a spec's figure (15T is phase 1's, not trained)."""
        if topic in PROGRESS_READINGS:
            return self.kb.claims[claim_id].kind is not ClaimKind.PLAN
        if topic in ("runs", "checkpoints"):  # a handoff's step is a run's, not any progress
            shares = any(f.unit != "exact" for f in said)  # (progress: "59.3% at the handoff")
            return shares or self.kb.claims[claim_id].topic not in ("progress", "progress-history")
        if topic == "phases":  # the mixture's start is its own record, not a handoff's step
            return self.kb.claims[claim_id].topic != "runs"
        return True

    def held_say(self, words: re.Pattern[str], held: list[list[str]]) -> bool:
        """Whether a claim holding every figure says these words too."""
        every = set.intersection(*(set(h) for h in held)) if held and all(held) else set()
        return any(words.search(self.said(c)) for c in every)

    def says(
        self, words: re.Pattern[str], held: list[list[str]], assertion: str, *, by_day: bool = True
    ) -> bool:
        """Whether a claim holding every figure of the assertion, or the claim whose statement
        is nearest to it, or (``by_day``) a claim of the day it names, says these words too."""
        claim_id, near = self.statements.nearest(assertion)
        if self.held_say(words, held) or (near >= SAYS_AT and words.search(self.said(claim_id))):
            return True
        # the very word, in a statement that is merely near ("连失败的实验都记录": Marin logs
        # its failed experiments too) and holds its figures, if it has any (the 32B's spikes
        # are no spike at step 200,000)
        term = words.search(spaced(fold(assertion)))
        near_enough = near >= NEAR_ENOUGH and all(claim_id in h for h in held)
        if term and near_enough and term[0] in self.said(claim_id):
            return True
        # or a record of the day it names says so ("10月3号存档失败": the Oct 3 save failed)
        days = {d for d in months(fold(assertion)) if d[1] is not None}
        found = by_day and bool(days)
        return found and any(words.search(self.said(c)) for c in self.on_days(days))

    def gives_reason(self, reason: str, text: str) -> bool:
        """Whether a record of the day the text names gives the reason, a word of it right after
        its own "because" ("10月6号重试是因为 k8s 节点被打了 NoExecute taint": that day's record
        says "因 NoExecute taint"; not "因为 GB200 过热", a reason it does not give)."""
        days = {d for d in months(text) if d[1] is not None}
        words = spaced(fold(reason))
        terms = {*re.findall(r"[a-z]{4,}", words), *re.findall(r"(?=([\u4e00-\u9fff]{2}))", words)}
        for claim_id in self.on_days(days) if days else ():
            given = CAUSE.search(said := self.said(claim_id))
            if given and any(t in said[given.end() : given.end() + 24] for t in terms):
                return True
        return False

    def said(self, claim_id: str) -> str:
        """The claim's statements, as the rules read words (folded, spaced)."""
        claim = self.kb.claims[claim_id]
        return spaced(fold(f"{claim.statement.en} {claim.statement.zh}"))

    def crossed(self, text: str, said: list[Figure], claim_ids: Iterable[str]) -> bool:
        """Whether a claim tells the figures otherwise: in different items of its list (one
        rung's figures with another's), as the cadence of another thing ("permanent
        checkpoints every 3k steps"), or paired otherwise: #9615 gives "8K 1.6%, 16K 3.1%",
        so "8K costs 3.1%" crosses them (two figures of different kinds, in a claim listing
        several of each)."""
        said = [f for f in said if f.noun != "issue"]  # "#9615" names the record
        claim_ids = list(claim_ids)
        if any(self.shapes.crossed(text, said, c) for c in claim_ids):
            return True
        return pairs_crossed(said, [self.shares[c] for c in claim_ids])

    def apart(self, said: list[Figure], each: list[list[str]]) -> bool:
        """Whether the figures are held only by dated records of different days: two events
        told as one ("the step-198000 save failed with HTTP 405": October 3's save, September
        16's quota incident). An issue number is where things are logged, on every day."""
        days = []
        for figure, holders in zip(said, each, strict=True):
            if figure.noun == "issue":
                continue
            dated = {self.kb.claims[c].as_of for c in holders}
            if None in dated:
                return False  # an undated record (a spec, a plan) may hold it with the others
            days.append(dated)
        return len(days) > 1 and not set.intersection(*days)

    def holders(self, figure: Figure, topic: str | None, rungs: bool = False) -> list[str]:
        """The claims holding the figure, as said of ``topic``; ``rungs``: the message is
        about the scaling ladder."""
        if figure.unit == "%" and topic in PROGRESS_READINGS and not figure.measure:
            figure = replace(figure, measure=RUN)  # "25% on Sep 2" is no cut of "up to ~25%"
        found = dict.fromkeys(c for f, c in self.index if same(f, figure))
        if topic != "ladder" and not rungs:
            # the ladder's rungs are smaller models: "trained on 926B tokens" is no rung's
            found = dict.fromkeys(c for c in found if self.kb.claims[c].topic != "ladder")
        if figure.unit == "%" and topic in PROGRESS_READINGS:
            # a share of the run is a share of the schedule, not "95% into the run" of a plan
            found = dict.fromkeys(
                c
                for c in found
                if self.kb.claims[c].topic in (topic, "progress", "progress-history", "duration")
            )
        elif figure.unit == "%" and topic in SHARES:
            # a share is a share of its topic: "MFU 15%" is not the run's 15% of its steps
            # (the context tests measured throughput too: "8K 只掉 1.6% throughput"; the plan's
            # topics share theirs: "最多把 token 目标砍掉约 25%" is the ~100-day plan's)
            own = {topic, *(SCHEDULE if topic in SCHEDULE else ())}
            speeds = self.speeds if topic == "throughput" else set()
            found = dict.fromkeys(c for c in found if self.kb.claims[c].topic in own or c in speeds)
        elif topic in OWN_COUNTS and _count(figure):
            # so is a bare count: "MFU才20出头" is no 20-step trial's, "配比在第18万步换的" no
            # checkpoint's step
            found = dict.fromkeys(c for c in found if self.kb.claims[c].topic == topic)
        return list(found)

    def strongest_first(self, claim_id: str) -> tuple[int, str]:
        """A spec or result states a figure; a status or context only mentions it."""
        order = (ClaimKind.SPEC, ClaimKind.RESULT, ClaimKind.STATUS, ClaimKind.PLAN)
        kind = self.kb.claims[claim_id].kind
        return (order.index(kind) if kind in order else len(order), claim_id)

    def claims(self, topic: str, kinds: set[ClaimKind] | None = None) -> tuple[str, ...]:
        return tuple(
            c.id for c in self.kb.topics.get(topic, ()) if kinds is None or c.kind in kinds
        )

    def known(self, *claims: str) -> tuple[str, ...]:
        return tuple(c for c in claims if c in self.kb.claims)


def _count(figure: Figure) -> bool:
    """A bare count: a whole number of something unnamed, as written or a step count in
    万 ("20", "第18万步"; not "15T", "8k" context or a loss of 2.6783)."""
    if figure.noun or figure.value != int(figure.value):
        return False
    return figure.unit == "exact" or (figure.unit == "n" and 1e5 <= figure.value < 1e7)


def near(one: Figure, other: Figure) -> bool:
    """Whether two figures are within ten times each other: a step beside a step, not a
    token count."""
    return bool(one.value and other.value) and 0.1 <= one.value / other.value <= 10
