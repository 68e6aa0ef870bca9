"""Check a message: split it into assertions and say, for each, what the evidence says
(the verdicts are listed in ``verdicts.py``).

The verdict is never stronger than the claims it names: "supported" needs claims holding
every figure (or, with none, a statement saying it) on a day some record names; anything less
is a weaker verdict. The reading is the answers' own (``reading.Reader``). A second opinion
(``second_opinion.py``) may then weaken a verdict or flag what the rules left unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from answers.assertions import (
    Figure,
    assertions_in,
    figures,
    months,
)
from answers.end_dates import END, end_verdict, length_verdict
from answers.lexicon import DECLINING
from answers.reading import Reader
from answers.records import Records
from answers.render import Renderer
from answers.reply import Reply
from answers.second_look import SecondLook
from answers.second_opinion import Opinion
from answers.statements import Statements
from answers.text import fold
from answers.verdict_words import (
    A23B_MISREAD,
    ANNOUNCED,
    AS_DONE,
    BEGUN,
    BEHIND,
    CAUSE,
    CONTEXT_CHANGED,
    CURRENT,
    DAMAGE,
    DENSE,
    DIVERGED,
    DONE,
    DONOR,
    DURATION,
    FULL,
    FUTURE,
    LATER_PHASE,
    MONEY,
    NEGATION,
    OTHER_BACKER,
    OTHER_HARDWARE,
    PUBLIC_CHECKPOINT,
    REACHED,
    RELEASED,
    RUN_ID,
    SCORED,
    STARTED,
    TERMS,
    denial,
    hedged,
)
from answers.verdicts import (
    CONTRADICTED,
    NOT_CHECKED,
    OFF_TOPIC,
    PLAN_AS_FACT,
    SUPPORTED,
    UNSUPPORTED,
    Assertion,
)
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind

OTHER_MODELS = "other-models"
# Spec topics: a figure that differs from the record contradicts it (a run's progress only
# moves on, so a step or a share no record holds is unsupported, never "contradicted").
# How near a claim's statement must be to say the assertion, by cosine (answers/statements.py):
# on the three labelled rumour sets no unsupported or false assertion came nearer than 0.45.
SAYS_AT = 0.46
FILE_NAMES = re.compile(r"current run\.py|current hero run id\s*=")


STATIC = {"architecture", "hardware", "ladder", "started", "flops"}


class Checker:
    def __init__(self, kb: KnowledgeBase, reader: Reader, opinion: Opinion | None = None) -> None:
        """``opinion``: the second opinion (``load_opinion()``); None, the rules alone."""
        self.kb = kb
        self.reader = reader
        self.records = Records(kb)
        self.statements = Statements(kb)
        self.second_look = SecondLook(reader, self.records, self.statements, opinion)

    def check(self, message: str) -> list[Assertion]:
        found: list[Assertion] = []
        done = False  # "it is done: 18T tokens, 100 days": the figures after it, as done
        about_run = self.reader.matcher.names_run(message)
        for piece in assertions_in(message):
            ruled = self.verdict(piece, done=done, about_run=about_run)
            found.append(self.second_look.revised(ruled, about_run))
            text = fold(piece)
            done = done or (bool(DONE.search(text) or AS_DONE.search(text)) and not denial(text))
        return found

    def verdict(self, words: str, *, done: bool = False, about_run: bool = False) -> Assertion:
        """``about_run``: the message names the run, so a clause of it comparing the run with
        another model, or claiming money or a licence, is about the run (unsupported)."""
        text = fold(words)
        reading = self.reader.read(words).match
        topic = reading.topics[0] if reading.outcome == "answer" and reading.topics else None
        said = figures(text)
        held = [self.records.holders(f, topic) for f in said]
        names_run, denied = self.reader.matcher.names_run(words), bool(NEGATION.search(text))
        # "256 experts", "three months": something of this run's to check, whatever the reading
        checkable = any(f.noun for f in said) or bool(DURATION.search(text))
        money = MONEY.search(text) and (about_run or topic not in DECLINING)
        if (about_run and SCORED.search(text) or money) and not denied:
            # "超越 Llama 3.1 405B", "烧了 5000 万美元": the run judged, or its money
            return Assertion(words, UNSUPPORTED, self.records.known("no-evaluations"))
        if topic in DECLINING and not names_run and (not checkable or topic == OTHER_MODELS):
            return Assertion(words, OFF_TOPIC)  # "Kimi K2 也是 384 experts": Kimi's figure
        found = self._overclaim(text, denied)
        if found is not None:
            return Assertion(words, *found)
        if FUTURE.search(text) and not denied and not hedged(text):  # no record dates a next
            return Assertion(words, UNSUPPORTED, self.records.claims(topic)[:1] if topic else ())
        # late, stalled, spiking: unless a record holding its figures says so (a stall at step
        # 166,006, 32B's "loss spikes"), a judgment no record makes
        wrong = BEHIND.search(text) or DIVERGED.search(text)
        if wrong and not denied and not hedged(text) and not self.records.held_say(wrong.re, held):
            newest = (*self.records.claims("progress")[-1:], "training-ongoing-1010")
            return Assertion(words, UNSUPPORTED, self.records.known(*newest))
        if CAUSE.search(text) and not denied and not self.records.held_say(CAUSE, held):
            # "the gap is because 5e24 counts post-training": a reason no record gives
            return Assertion(words, UNSUPPORTED, self.records.claims(topic)[:1] if topic else ())
        if DAMAGE.search(text) and not denied:
            return Assertion(words, UNSUPPORTED, self.records.claims("incidents")[-1:])
        if A23B_MISREAD.search(text):
            return Assertion(words, CONTRADICTED, ("architecture",))
        if OTHER_BACKER.search(text) and not denied:
            return Assertion(
                words, UNSUPPORTED, self.records.known("hardware-gift", "hardware-gb200")
            )
        ended = None if denied else end_verdict(self.records, text)
        ended = ended or (None if denied else length_verdict(self.records, text, topic))
        if ended is not None:
            verdict, claims = ended
            if verdict == SUPPORTED:
                return self._supported(words, text, claims)
            return Assertion(words, verdict, claims)
        if DONOR.search(text) and not re.search(r"huang|黄|黃", text):
            return Assertion(words, CONTRADICTED, self.records.known("hardware-gift"))
        if DENSE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("architecture",))
        if OTHER_HARDWARE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("hardware-gb200",))
        ids = RUN_ID.findall(text)
        # "current_run.py has hero-main-step121638" states what the file holds, not the run now
        current = CURRENT.search(FILE_NAMES.sub("", text))
        if ids and current and "hero-mfu30-step231k" not in ids:
            return Assertion(words, CONTRADICTED, ("run-current",))
        plan = self._plan_as_fact(text, said, held, topic, done)
        if plan is not None:
            return Assertion(words, PLAN_AS_FACT, plan)
        return self._by_figures(words, text, topic, said, held)

    def _overclaim(self, text: str, denied: bool) -> tuple[str, tuple[str, ...]] | None:
        """Finished, a later phase begun, released, scored: no record shows any of them, so
        an assertion of one is unsupported, and a denial is consistent with the records."""
        verdict = SUPPORTED if denied else UNSUPPORTED
        later = LATER_PHASE.search(text)
        if later and (BEGUN.search(text) or FUTURE.search(text)) and not hedged(text):
            if later[0].startswith(("cool", "冷")) and not denied:
                return PLAN_AS_FACT, self.records.known("mixture-plan", "pretraining-not-finished")
            return verdict, self.records.known("pretraining-not-finished")
        if DONE.search(text) and "%" not in text or FULL.search(text):
            return verdict, self.records.known("pretraining-not-finished")
        if RELEASED.search(text):
            return verdict, self.records.known("model-not-released")
        if PUBLIC_CHECKPOINT.search(text):
            return verdict, self.records.known("checkpoints-not-public", "model-not-released")
        if SCORED.search(text):
            return verdict, self.records.known("no-evaluations")
        return None

    def _plan_as_fact(
        self,
        text: str,
        said: list[Figure],
        held: list[list[str]],
        topic: str | None,
        done: bool = False,
    ) -> tuple[str, ...] | None:
        """A planned figure, length or end date stated as done or certain (by itself, or by
        the clause before it: "it is done: 18T tokens")."""
        planned = [c for h in held for c in h if c in self.records.plans]
        tested = hedged(text, tests_too=True, said_too=False)
        stated = (done or bool(AS_DONE.search(text))) and not tested
        # the plan and a record of it happening at that step agree: "切到第二阶段 at step
        # 108,000" is a fact (a step, not a total: the homepage's "18T" is still the plan)
        happened = bool(held) and all(
            f.unit == "exact"
            and any(self.kb.claims[c].kind in (ClaimKind.STATUS, ClaimKind.RESULT) for c in h)
            for f, h in zip(said, held, strict=True)
        )
        if planned and not happened and (stated or REACHED.search(text)):
            return tuple(dict.fromkeys(planned))
        said_end = DURATION.search(text) or (END.month, END.day) in months(text)
        if said_end and not hedged(text, said_too=False):
            return self.records.known("duration-plan", "expected-end")
        changed = topic == "context-length" and CONTEXT_CHANGED.search(text) and not tested
        if topic in ("context-length", "phases") and (stated or changed) and not happened:
            return self.records.claims(topic, kinds={ClaimKind.PLAN})[:1] or None
        return None

    def _by_figures(
        self,
        words: str,
        text: str,
        topic: str | None,
        said: list[Figure],
        held: list[list[str]],
    ) -> Assertion:
        dates = months(text)
        if topic in ("started", "start-date") and dates and STARTED.search(text):
            # started Aug 19, announced Aug 21 (the status log opened Aug 20)
            days = {19, 21} if ANNOUNCED.search(text) else {19}
            ok = all(m == 8 and (d is None or d in days) for m, d in dates)
            return Assertion(words, SUPPORTED if ok else CONTRADICTED, ("start-date",))
        if (END.month, END.day) in dates:  # the planned end, stated as a plan
            return Assertion(words, SUPPORTED, self.records.known("expected-end"))
        if not said:
            named = [claim for pattern, claim in TERMS if pattern.search(text)]
            if named and not NEGATION.search(text):
                return self._supported(words, text, self.records.known(*named))
            return self._by_statement(words, text)
        if all(held):
            # Said by one record, best; else each figure by some record ("the plan is ~18T
            # tokens in about 100 days": two records), if each can speak to what was asked.
            every = set.intersection(*(set(h) for h in held))
            each = [[c for c in h if self.records.fits(c, topic)] for h in held]
            fitting = [c for c in every if self.records.fits(c, topic)]
            if fitting or all(each):
                chosen = sorted(
                    fitting or {c for h in each for c in h}, key=self.records.strongest_first
                )
                if NEGATION.search(text) and not any(self.records.denies(c) for c in chosen):
                    return Assertion(words, NOT_CHECKED)  # "never had a spike": the record had
                return self._supported(words, text, tuple(chosen))
        if topic in STATIC:
            return Assertion(words, CONTRADICTED, self.records.claims(topic)[:1])
        newest = self.records.claims(topic) if topic else ()
        return Assertion(words, UNSUPPORTED, newest[-1:] if topic == "progress" else newest[:1])

    def _by_statement(self, words: str, text: str) -> Assertion:
        """A claim that says the same thing in other words, if one is near enough; else not
        checked (nothing to hold it against: never guessed)."""
        claim_id, near = self.statements.nearest(words)
        if near < SAYS_AT:
            return Assertion(words, NOT_CHECKED)
        claim = self.kb.claims[claim_id]
        denied = bool(NEGATION.search(text))
        if claim.kind is ClaimKind.ABSENCE:  # "no record shows X": X asserted, or denied
            return Assertion(words, SUPPORTED if denied else UNSUPPORTED, (claim_id,))
        if denied != self.records.denies(claim_id):
            return Assertion(words, NOT_CHECKED)  # one of them says "not": too close to call
        if (
            claim.kind is ClaimKind.PLAN
            and AS_DONE.search(text)
            and not hedged(text, said_too=False)
        ):
            return Assertion(words, PLAN_AS_FACT, (claim_id,))
        return self._supported(words, text, (claim_id,))

    def _supported(self, words: str, text: str, claims: tuple[str, ...]) -> Assertion:
        """Supported, unless the assertion puts it on a day, or on a person, no claim of these
        names ("#8506 是 Percy 自己开的": the record names Larry Dial)."""
        alike = self.records.dated_alike(text, claims) and self.records.named_alike(text, claims)
        return Assertion(words, SUPPORTED if alike else UNSUPPORTED, claims[:3])


def cited(assertions: Iterable[Assertion]) -> list[str]:
    """Every claim the verdicts rest on, once, in order: the reply's caveat covers them."""
    return list(dict.fromkeys(c for a in assertions for c in a.claims))


def check_reply(renderer: Renderer, checker: Checker, message: str, *, lang: str) -> Reply:
    """The verdict on each assertion of ``message``, quoted in its own words, with the caveat
    covering every claim a verdict names."""
    found = checker.check(message)
    return renderer.reply(
        kind="check",
        lang=lang,
        claims=cited(found),
        context={"assertions": found},
        extra={"topic": "check", "verdicts": [(a.words, a.verdict) for a in found]},
    )
