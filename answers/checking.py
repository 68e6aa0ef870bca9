"""Check a message: split it into assertions and say what the evidence says of each (the
verdicts are listed in ``verdicts.py``). The verdict is never stronger than the claims it
names: "supported" needs claims holding every figure (or the figures it is worked out from:
``worked_out.py``; with none, a statement saying it) on a day some record names. The reading
is the answers' own (``reading.Reader``). A second opinion (``second_opinion.py``) may then
weaken a verdict or flag what the rules left unchecked.
"""

from __future__ import annotations

import datetime as dt

from answers.assertions import GENERIC, Figure, assertions_in, figures
from answers.days import months
from answers.denials import CORRECTED, figure_denied, unfound
from answers.documents import misplaced
from answers.end_dates import END, end_verdict, length_verdict
from answers.figures_topic import figures_topic
from answers.incidents import misplaced_incident
from answers.judgments import failed_instead, judgment, overclaim
from answers.lexicon import DECLINING
from answers.matcher import OTHER
from answers.message_context import MessageContext
from answers.mismatches import Mismatches
from answers.mixed import cuts
from answers.near_miss import near_miss
from answers.on_its_day import on_its_day
from answers.ongoing import ongoing_verdict
from answers.other_models import OtherModels
from answers.plans import plan_as_fact
from answers.reading import Reader
from answers.records import PROGRESS_READINGS, Records
from answers.run_ids import RunIds
from answers.rungs import rung_held
from answers.second_look import SecondLook
from answers.second_opinion import Opinion
from answers.spec_words import HERO, MONEY, RUNGS, routing_misstated, rung_free
from answers.specs import context_from_start, context_stated, misstated_spec
from answers.start_dates import start_verdict
from answers.statements import SAYS_AT
from answers.support import Support
from answers.text import fold, spaced
from answers.time_words import CHANGE, NOW, THEN, present
from answers.unsigned import signed
from answers.verdict_words import (
    AS_DONE,
    DURATION,
    NEGATION,
    RUN_ID,
    SCORED,
    TERMS,
    THIS_RUN,
    hedged,
)
from answers.verdicts import (
    CONTRADICTED,
    FLAGS,
    NOT_CHECKED,
    OFF_TOPIC,
    PLAN_AS_FACT,
    SUPPORTED,
    UNSUPPORTED,
    Assertion,
)
from answers.worked_out import WorkedOut
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind

VERBATIM = 0.9  # "billed as the largest open live training run in history": the post's words
# Spec topics: a figure that differs from the record contradicts it (a run's progress only
# moves on, so a step or a share no record holds is unsupported, never "contradicted").
STATIC = {"architecture", "hardware", "ladder", "started", "flops"}


class Checker:
    def __init__(self, kb: KnowledgeBase, reader: Reader, opinion: Opinion | None = None) -> None:
        """``opinion``: the second opinion (``load_opinion()``); None, the rules alone."""
        self.kb = kb
        self.reader = reader
        self.records = Records(kb)
        self.statements, self.worked = self.records.statements, WorkedOut(self.records)
        self.run_ids = RunIds(kb, self.records.index)
        self.mismatches = Mismatches(self.records, self.run_ids)  # told of the wrong thing
        self.others = OtherModels(reader.matcher.lexicon, self.records)  # "Kimi K2 is 1T total"
        self.second_look = SecondLook(reader, self.records, self.statements, opinion)
        self.support = Support(self.records)  # supported, unless told otherwise

    def check(self, message: str, written: dt.date | None = None) -> list[Assertion]:
        """``written``: the day the message was written, for the dates it names relative to
        it ("last Tuesday"); None reads no relative date."""
        found: list[Assertion] = []
        about_run = self.reader.matcher.names_run(message)
        ladder = bool(RUNGS.search(spaced(fold(message))))
        context = MessageContext(about_run=about_run, written=written, ladder=ladder)
        for piece in assertions_in(message):
            ruled = self.verdict(piece, context)
            found += [
                self.second_look.revised(p, about_run) for p in self._parts(piece, ruled, context)
            ]
            text, off_topic = context.folded(piece), ruled.verdict == OFF_TOPIC
            other = off_topic and self.others.about(text, context.other)
            flagged = ruled.verdict in FLAGS
            context = context.after(
                text, off_topic=off_topic, other=other, flagged=flagged, claims=ruled.claims
            )
        return found

    def _parts(self, clause: str, ruled: Assertion, context: MessageContext) -> list[Assertion]:
        """The clause's verdict, or, if it is flagged and can be cut into a supported half and
        a flagged one, the two halves' ("trained on 18T tokens | across 704 GPUs")."""
        if ruled.verdict not in FLAGS:
            return [ruled]
        for left, right in cuts(clause):
            first = self.verdict(left, context)
            second = self.verdict(right, context.after(context.folded(left), off_topic=False))
            verdicts = {first.verdict, second.verdict}
            if SUPPORTED in verdicts and len(verdicts & FLAGS) == 1:
                return [first, second]
        return [ruled]

    def verdict(self, words: str, context: MessageContext | None = None) -> Assertion:
        """The clause's verdict, read with what the message said before it (``context``): if
        the message names the run, a clause of it comparing the run with another model, or
        claiming money or a licence, is about the run (unsupported)."""
        context = context or MessageContext()
        about_run, text = context.about_run, CORRECTED.sub(r"\1", context.folded(words))
        reading = self.reader.read(words).match
        topic = reading.topics[0] if reading.outcome == "answer" and reading.topics else None
        said = self.others.own(text, figures(text))  # (not another model's: "… vs Llama 405B")
        topic = figures_topic(topic, reading.topics, text, said)
        rungs = context.ladder and not HERO.search(text) or bool(RUNGS.search(text))  # a rung's
        said = signed(self.records, said, topic, rungs)  # "the trial was 29.44": 29.44%
        held = [self.records.holders(f, topic, rungs) for f in said]
        held = self.worked.filled(text, said, held, context.told)
        held = rung_held(self.kb, text, reading.topics, said, held)
        # ("the biggest 9.2e21": the top rung's FLOPs, no model ranked)
        a_rung = rungs and any(self.kb.claims[c].topic == "ladder" for h in held for c in h)
        names_run, denied = self.reader.matcher.names_run(words), bool(NEGATION.search(text))
        # "256 experts", "three months": something of this run's to check, whatever the reading
        # (or figures the records hold: "8K costs -1.6% tok/s" is #9615's)
        checkable = any(f.noun not in ("", *GENERIC) for f in said) or bool(DURATION.search(text))
        checkable = checkable or bool(topic == "outside" and said and all(held))
        # "top-6 routing": a routing not the run's top-8 is checked, whatever the reading
        checkable = checkable or routing_misstated(text)
        # (not "GLM-4.5 and Qwen3 both beat it": the run judged)
        if self.others.about(text, context.other) and not names_run and not SCORED.search(text):
            return Assertion(words, OFF_TOPIC)  # "DeepSeek R1 cost $5.6M": that model's
        # money or a licence is the run's unless another model's ("license 是 Apache 2.0")
        money = MONEY.search(text) and (about_run or topic != OTHER)
        scored = SCORED.search(text) and not self.records.says(SCORED, held, words, by_day=False)
        if (about_run and scored or money) and not denied:
            # "超越 Llama 3.1 405B", "烧了 5000 万美元": the run judged, or its money
            return Assertion(words, UNSUPPORTED, self.records.known("no-evaluations"))
        ours = names_run or bool(about_run and THIS_RUN.search(text))  # "the run", they, 他们
        ours = ours or on_its_day(self.records, text)  # "9月22号决定主跑不改 router 算术"
        if topic in DECLINING and not ours and (not checkable or topic == OTHER):
            return Assertion(words, OFF_TOPIC)  # "Kimi K2 也是 384 experts": Kimi's figure
        # a record's own words, repeated (a run id said current is judged below)
        if not RUN_ID.search(text) and self.statements.nearest(words)[1] >= VERBATIM:
            verbatim = self._by_statement(words, text)
            if not said:
                return verbatim
            # its figures in their places? (more than a "not" elsewhere in the record can say)
            if verbatim.verdict != NOT_CHECKED:
                wrong = self.mismatches.found(words, text, said, held, context.before)
                return Assertion(words, *wrong) if wrong else verbatim
        found = (
            failed_instead(self.records, text, held)
            or misplaced_incident(self.records, text, said, held)
            or overclaim(self.records, rung_free(text) if a_rung else text, denied, context.before)
            or self.mismatches.found(words, text, said, held, context.before)
            or (None if denied else judgment(self.records, words, text, said, held, topic, context))
        )
        if found is not None:
            return Assertion(words, *found)
        spec = misstated_spec(self.records, text, denied, about_run, topic, context.earlier)
        spec = spec or (None if denied else context_from_start(self.records, text, said, topic))
        if spec is not None:
            return Assertion(words, *spec)
        ended = None if denied else end_verdict(self.records, text)
        ended = ended or (None if denied else length_verdict(self.records, text, topic))
        ended = ended or ongoing_verdict(self.records, text)  # "still training today"
        if ended is not None:
            return self.support.weighed(words, text, ended)
        ran = self.run_ids.verdict(text, context.before)
        if ran is not None:
            return Assertion(words, *ran)
        plan = plan_as_fact(self.records, text, said, held, topic, context.done)
        if plan is not None:
            return Assertion(words, PLAN_AS_FACT, plan)
        return self._by_figures(words, text, topic, said, held)

    def _by_figures(
        self,
        words: str,
        text: str,
        topic: str | None,
        said: list[Figure],
        held: list[list[str]],
    ) -> Assertion:
        started = start_verdict(self.records, text, topic)  # "八月底才正式开训的"
        started = started or context_stated(self.records, text, said, topic)  # "seq len 8192"
        if started is not None:
            return self.support.weighed(words, text, started)
        if (END.month, END.day) in months(text):  # the planned end, stated as a plan
            return self.support.supported(words, text, self.records.known("expected-end"))
        if not said:
            # a statement saying it, before a word naming a topic's claim ("handed off to the
            # MoE optimization stack" is the handoff's record, not the architecture's)
            named = [claim for pattern, claim in TERMS if pattern.search(text)]
            if any(
                self.records.dated_alike(text, [c]) and c not in named
                for c, _ in self.statements.ranked(words, SAYS_AT)
            ):
                named = []
            if named and not NEGATION.search(text):
                return self.support.supported(words, text, self.records.known(*named))
            return self._by_statement(words, text)
        last = self.records.claims(topic)[-1:] if topic else ()
        if nowhere := unfound(held, text, last):  # "step 372,000 这种数哪都查不到"
            return Assertion(words, *nowhere)
        # ("MFU went from 26.47% to 29.44%": two records, each of its own day)
        missed = None if CHANGE.search(text) else near_miss(self.records, said, held)
        if missed is not None:  # "target 2.14 @ 18T tokens": the target is 2.04 at 18T
            return Assertion(words, CONTRADICTED, (missed,))
        if all(held):
            # Said by one record, best; else each figure by some record ("the plan is ~18T
            # tokens in about 100 days": two records), if each can speak to what was asked.
            every = set.intersection(*(set(h) for h in held))
            # "only planned at step 312,192", "if delays eat the buffer, up to ~25%": the plan's
            told = hedged(text, said_too=False, approximate_too=False)
            asked = None if told else topic
            each = [[c for c in h if self.records.fits(c, asked, said)] for h in held]
            fitting = [c for c in every if self.records.fits(c, asked, said)]
            if (
                not fitting
                and all(each)
                and not CHANGE.search(text)
                and self.records.apart(said, each)
            ):
                return Assertion(words, UNSUPPORTED, tuple(h[0] for h in each)[:3])
            if fitting or all(each):
                chosen = sorted(
                    fitting or {c for h in each for c in h}, key=self.records.strongest_first
                )
                # ("18T in the config vs 18.75T in Percy's tweet": each figure's own record)
                if fitting and all(each) and not self.support.alike(text, chosen):
                    apart = sorted({c for h in each for c in h}, key=self.records.strongest_first)
                    chosen = apart if self.support.alike(text, apart) else chosen
                if self.records.crossed(text, said, chosen):  # "8K costs 3.1%": #9615's is 1.6%
                    return Assertion(words, CONTRADICTED, tuple(chosen[:1]))
                written = misplaced(self.records, text, said, chosen)  # "README 写 2.7e24"
                if written is not None:
                    return Assertion(words, CONTRADICTED, (written,))
                stated = [c for c in chosen if not self.records.denies(c)]
                if NEGATION.search(text) and topic in STATIC and figure_denied(text) and stated:
                    return Assertion(words, CONTRADICTED, tuple(stated[:1]))  # "不是704张卡"
                if NEGATION.search(text) and len(stated) == len(chosen):
                    return Assertion(words, NOT_CHECKED)  # "never had a spike": the record had
                progress = all(self.kb.claims[c].topic in PROGRESS_READINGS for c in chosen)
                # ("newest checkpoint is step-180000 (Sep 30)": the newest of its own day)
                now = (NOW.search(text) and not months(text)) or (progress and present(text))
                now = now and not THEN.search(text)
                newer = self.records.superseded(chosen, said, topic) if now else ()
                if newer:  # "MFU 现在只有 23%": September's figure, said of now
                    return Assertion(words, UNSUPPORTED, newer)
                return self.support.supported(words, text, tuple(chosen))
        if topic in STATIC:  # (a figure no record holds, denied: "不是 792 張", the record's word)
            denied = NEGATION.search(text) and not any(held)
            if denied and not figure_denied(text):
                return Assertion(words, NOT_CHECKED)  # "不是网上传的2.7e25": of what?
            found_as = SUPPORTED if denied else CONTRADICTED
            return Assertion(words, found_as, self.records.claims(topic)[:1])
        if not topic and NEGATION.search(text):
            return Assertion(words, NOT_CHECKED)  # "…, not 792": a figure denied, of what?
        newest = self.records.claims(topic) if topic else ()
        return Assertion(words, UNSUPPORTED, newest[-1:] if topic == "progress" else newest[:1])

    def _by_statement(self, words: str, text: str) -> Assertion:
        """A claim that says the same thing in other words, if one is near enough; else not
        checked (nothing to hold it against: never guessed)."""
        # of the statements near enough, the first of the day the assertion names, if any
        near = [c for c, _ in self.statements.ranked(words, SAYS_AT)]
        if not near:
            return Assertion(words, NOT_CHECKED)
        claim_id = next((c for c in near if self.records.dated_alike(text, [c])), near[0])
        claim = self.kb.claims[claim_id]
        denied = bool(NEGATION.search(text))
        if claim.kind is ClaimKind.ABSENCE:  # "no record shows X": X asserted, or denied
            return Assertion(words, SUPPORTED if denied else UNSUPPORTED, (claim_id,))
        if denied != self.records.denies(claim_id):
            return Assertion(words, NOT_CHECKED)  # one of them says "not": too close to call
        planned = claim.kind is ClaimKind.PLAN and not hedged(text, said_too=False)
        if planned and AS_DONE.search(text):
            return Assertion(words, PLAN_AS_FACT, (claim_id,))
        return self.support.supported(words, text, (claim_id,))
