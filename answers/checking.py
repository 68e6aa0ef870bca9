"""Check a message: split it into assertions and say, for each, what the evidence says.

    supported      a claim holds it (its level is shown; an absence "supports" a denial)
    contradicted   a record states the matter otherwise: a figure, a month, the hardware
    unsupported    no record supports it: finished, released, scored, or a figure we hold no
                   record of (the newest relevant record and its date are named)
    plan-as-fact   a planned figure or date stated as done or certain
    off-topic      not about this run
    not-checked    nothing in the knowledge base maps to it: never guessed

The verdict is never stronger than the claims it names: "supported" needs a claim that says
it, with every figure of the assertion found in the claims; anything less is one of the
weaker verdicts. The assertion's reading is the answers' own (``reading.Reader``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from answers.assertions import Figure, assertions_in, figure_index, figures, months, same
from answers.lexicon import DECLINING
from answers.reading import Reader
from answers.render import Renderer
from answers.reply import Reply
from answers.text import fold
from answers.verdict_words import (
    APPROXIMATE,
    AS_DONE,
    BEGUN,
    BEHIND,
    CAUSE,
    CURRENT,
    DAMAGE,
    DENSE,
    DONE,
    DONOR,
    DURATION,
    HEDGED,
    LATER_PHASE,
    NEGATION,
    OTHER_HARDWARE,
    PUBLIC_CHECKPOINT,
    REACHED,
    RELEASED,
    RUN_ID,
    SCORED,
    STARTED,
    SURELY_DONE,
    TERMS,
)
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind

OTHER_MODELS = "other-models"
SUPPORTED, CONTRADICTED, UNSUPPORTED = "supported", "contradicted", "unsupported"
PLAN_AS_FACT, OFF_TOPIC, NOT_CHECKED = "plan-as-fact", "off-topic", "not-checked"
# Spec topics: a figure that differs from the record contradicts it (a run's progress only
# moves on, so a step or a share no record holds is unsupported, never "contradicted").
PROGRESS_READINGS = ("progress", "tokens-so-far", "schedule", "finished", "progress-history")
SHARES = {"throughput", "phases", "context-length", "tokens"}  # topics with shares of their own
SCHEDULE = {"tokens", "phases", "duration"}
STATIC = {"architecture", "hardware", "ladder", "started", "flops"}
END = dt.date(2026, 12, 1)


@dataclass(frozen=True)
class Assertion:
    words: str  # the message's own words
    verdict: str
    claims: tuple[str, ...] = ()  # the claims the verdict rests on, strongest first


class Checker:
    def __init__(self, kb: KnowledgeBase, reader: Reader) -> None:
        self.kb = kb
        self.reader = reader
        self.index = figure_index(kb)

    def check(self, message: str) -> list[Assertion]:
        found: list[Assertion] = []
        done = False  # "it is done: 18T tokens, 100 days": the figures after it, as done
        for piece in assertions_in(message):
            found.append(self.verdict(piece, done=done))
            text = fold(piece)
            done = done or bool(
                (DONE.search(text) or AS_DONE.search(text)) and not NEGATION.search(text)
            )
        return found

    def verdict(self, words: str, *, done: bool = False) -> Assertion:
        text = fold(words)
        reading = self.reader.read(words).match
        topic = reading.topics[0] if reading.outcome == "answer" and reading.topics else None
        said = figures(text)
        held = [self._holders(f, topic) for f in said]
        names_run = self.reader.matcher.names_run(words)
        # "256 experts", "three months": something of this run's to check, whatever the reading
        checkable = any(f.noun for f in said) or bool(DURATION.search(text))
        if topic in DECLINING and not names_run and (not checkable or topic == OTHER_MODELS):
            return Assertion(words, OFF_TOPIC)  # "Kimi K2 也是 384 experts": Kimi's figure
        denied = bool(NEGATION.search(text))
        found = self._overclaim(text, denied)
        if found is not None:
            return Assertion(words, *found)
        behind = BEHIND.search(text) and not denied and not self._hedged(text)
        if behind and not any(held):
            newest = self._claims("progress")[-1:]
            return Assertion(words, UNSUPPORTED, (*newest, *self._with("training-ongoing-1010")))
        if CAUSE.search(text) and not denied and not self._states_cause(held):
            # "the gap is because 5e24 counts post-training": a reason no record gives
            return Assertion(words, UNSUPPORTED, self._claims(topic)[:1] if topic else ())
        if DAMAGE.search(text) and not denied:
            return Assertion(words, UNSUPPORTED, self._claims("incidents")[-1:])
        if DONOR.search(text) and not re.search(r"huang|黄|黃", text):
            return Assertion(words, CONTRADICTED, self._with("hardware-gift"))
        if DENSE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("architecture",))
        if OTHER_HARDWARE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("hardware-gb200",))
        ids = RUN_ID.findall(text)
        if ids and CURRENT.search(text) and "hero-mfu30-step231k" not in ids:
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
        if later and BEGUN.search(text) and not self._hedged(text):
            if later[0].startswith(("cool", "冷")) and not denied:
                return PLAN_AS_FACT, self._with("mixture-plan", "pretraining-not-finished")
            return verdict, self._with("pretraining-not-finished")
        if DONE.search(text) and "%" not in text:
            return verdict, self._with("pretraining-not-finished")
        if RELEASED.search(text):
            return verdict, self._with("model-not-released")
        if PUBLIC_CHECKPOINT.search(text):
            return verdict, self._with("checkpoints-not-public", "model-not-released")
        if SCORED.search(text):
            return verdict, self._with("no-evaluations")
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
        # the schedule's spec is a plan too: "already at 15T" states phase 1's share as done
        plans = {
            c.id
            for c in self.kb.claims.values()
            if c.kind is ClaimKind.PLAN or (c.kind is ClaimKind.SPEC and c.topic in SCHEDULE)
        }
        planned = [c for h in held for c in h if c in plans]
        stated = (done or bool(AS_DONE.search(text))) and not self._hedged(text)
        # the plan and a record of it happening at that step agree: "切到第二阶段 at step
        # 108,000" is a fact (a step, not a total: the homepage's "18T" is still the plan)
        happened = bool(held) and all(
            f.unit == "exact"
            and any(self.kb.claims[c].kind in (ClaimKind.STATUS, ClaimKind.RESULT) for c in h)
            for f, h in zip(said, held, strict=True)
        )
        if planned and not happened and (stated or REACHED.search(text)):
            return tuple(dict.fromkeys(planned))
        duration = bool(DURATION.search(text))
        if (duration or (END.month, END.day) in months(text)) and not self._hedged(text):
            return self._with("duration-plan", "expected-end")
        if topic in ("context-length", "phases") and stated and not happened:
            return self._claims(topic, kinds={ClaimKind.PLAN})[:1] or None
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
            # started Aug 19; the status log opened Aug 20, the launch post Aug 21
            ok = all(m == 8 and (d is None or 19 <= d <= 21) for m, d in dates)
            return Assertion(words, SUPPORTED if ok else CONTRADICTED, ("start-date",))
        if (END.month, END.day) in dates:  # the planned end, stated as a plan
            return Assertion(words, SUPPORTED, self._with("expected-end"))
        if not said:
            named = [claim for pattern, claim in TERMS if pattern.search(text)]
            if named and not NEGATION.search(text):
                return Assertion(words, SUPPORTED, self._with(*named))
            return Assertion(words, NOT_CHECKED)  # nothing to hold it against: not guessed
        if all(held):
            # Said by one record, best; else each figure by some record ("the plan is ~18T
            # tokens in about 100 days": two records), if each can speak to what was asked.
            every = set.intersection(*(set(h) for h in held))
            each = [[c for c in h if self._fits(c, topic)] for h in held]
            fitting = [c for c in every if self._fits(c, topic)]
            if fitting or all(each):
                chosen = sorted(fitting or {c for h in each for c in h}, key=self._strongest_first)
                return Assertion(words, SUPPORTED, tuple(chosen[:3]))
        if topic in STATIC:
            return Assertion(words, CONTRADICTED, self._claims(topic)[:1])
        newest = self._claims(topic) if topic else ()
        return Assertion(words, UNSUPPORTED, newest[-1:] if topic == "progress" else newest[:1])

    @staticmethod
    def _hedged(text: str) -> bool:
        """Told as a plan or an estimate, not as done."""
        if HEDGED.search(text):
            return True
        return bool(APPROXIMATE.search(text)) and not SURELY_DONE.search(text)

    def _fits(self, claim_id: str, topic: str | None) -> bool:
        """Whether a claim can speak to an assertion read as ``topic``: a run's progress is
        never shown by a plan's or a spec's figure (15T is the spec's phase-1 share, not the
        tokens trained by October)."""
        if topic in PROGRESS_READINGS:
            return self.kb.claims[claim_id].kind is not ClaimKind.PLAN
        return True

    def _states_cause(self, held: list[list[str]]) -> bool:
        every = set.intersection(*(set(h) for h in held)) if held and all(held) else set()
        return any(CAUSE.search(fold(self.kb.claims[c].statement.en)) for c in every)

    def _holders(self, figure: Figure, topic: str | None) -> list[str]:
        found = dict.fromkeys(c for f, c in self.index if same(f, figure))
        if figure.unit == "%" and topic in PROGRESS_READINGS:
            # a share of the run is a share of the schedule, not "95% into the run" of a plan
            found = dict.fromkeys(
                c
                for c in found
                if self.kb.claims[c].topic in (topic, "progress", "progress-history", "duration")
            )
        elif figure.unit == "%" and topic in SHARES:
            # a share is a share of its topic: "MFU 15%" is not the run's 15% of its steps
            found = dict.fromkeys(c for c in found if self.kb.claims[c].topic == topic)
        return list(found)

    def _strongest_first(self, claim_id: str) -> tuple[int, str]:
        """A spec or result states a figure; a status or context only mentions it."""
        order = (ClaimKind.SPEC, ClaimKind.RESULT, ClaimKind.STATUS, ClaimKind.PLAN)
        kind = self.kb.claims[claim_id].kind
        return (order.index(kind) if kind in order else len(order), claim_id)

    def _claims(self, topic: str, kinds: set[ClaimKind] | None = None) -> tuple[str, ...]:
        return tuple(
            c.id for c in self.kb.topics.get(topic, ()) if kinds is None or c.kind in kinds
        )

    def _with(self, *claims: str) -> tuple[str, ...]:
        return tuple(c for c in claims if c in self.kb.claims)


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
