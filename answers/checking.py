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
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind

SUPPORTED, CONTRADICTED, UNSUPPORTED = "supported", "contradicted", "unsupported"
PLAN_AS_FACT, OFF_TOPIC, NOT_CHECKED = "plan-as-fact", "off-topic", "not-checked"
_NEGATION = re.compile(
    r"\b(?:not|isn'?t|hasn'?t|haven'?t|wasn'?t|aren'?t|no|never|yet to|nothing)\b"
    r"|没|沒|未|不是|尚未"
)
# What no record shows, whatever the wording: finished, a later phase begun, released, scored.
_DONE = re.compile(
    r"\b(?:finish(?:ed|es)?|done|complete[ds]?|wrapped|ended|concluded|fully trained)\b"
    r"|训完|訓完|训练完|訓練完|完成了|已完成|已经完成|已經完成|完成预训练|完成預訓練|结束了|結束了"
    r"|已结束|跑完"
)
_LATER_PHASE = re.compile(
    r"\b(?:mid-?training|post-?training|rlhf|rl|sft|instruct|cool-?down)\b|中期训练|中期訓練"
    r"|后训练|後訓練|冷却|冷卻|微调"
)
_BEGUN = re.compile(
    r"\b(?:start(?:ed|s)?|began|begun|kicked|underway|running|ran|doing|in progress|entered"
    r"|on|switched)\b"
    r"|开始|開始|进入|進入|上了|已经|已經|在做|启动"
)
_RELEASED = re.compile(
    r"\b(?:released?|releasing|weights?|download(?:able)?|open[- ]?source[ds]?|drops?|dropping"
    r"|out now|hugging ?face|hf|available|ship(?:s|ped|ping)?|live|demo|api|playground"
    r"|chat version)\b|发布|發布|开源|開源|放出|权重|權重|下载|下載|上线|上線|釋出|可以用"
)
_SCORED = re.compile(
    r"\b(?:beats?|outperforms?|better than|sota|state of the art|mmlu|gsm8k|humaneval|scores?"
    r"|scored|benchmarks?|elo|arena|eval(?:uation)?s? (?:results?|scores?|numbers))\b"
    r"|结果也?出来|結果也?出來"
    r"|吊打|超过|超越|跑分|分数|打败|碾压|評測|评测|榜|比.{1,12}(?:好|强|強|高)"
)
# A plan's figure or date stated as done or certain.
_AS_DONE = re.compile(
    r"\b(?:was|were|been|got|has|have|had|already|took|finished in|trained|ran|over"
    r"|ends?|ending|will end|extended|switch(?:ed)?|hit|reached|delivered|locked|burn(?:ed|t)?)\b"
    r"|已|训了|訓了|用了|用完|扩展到|擴展到|扩到|擴到|结束|結束|花了|烧了|燒了|达到|達到|到了|肯定|切到|换到"
)
_HEDGED = re.compile(
    r"\b(?:plan(?:s|ned)?|expected|scheduled|target(?:ed)?|aims?|supposed|estimate[ds]?|predict"
    r"(?:s|ed)?|forecast|says|said|according to|per the|roughly|about|around|approximately)\b"
    r"|~|大约|大約|左右|约"
    r"|计划|計劃|预计|預計|目标|目標|预定|預定|估计|預測|预测|写着|寫著|说的是|據|据"
)
_DURATION = re.compile(
    r"\b(?:\d+|three|two|four)\s*(?:months?|days?)\b|[一二三四五六\d]+\s*[个個]月|\d+\s*天"
)
# Words that state a planned figure as reached, whatever hedge sits beside them ("已经达到
# 预注册的目标 loss": the target is the object, not a hedge).
_REACHED = re.compile(r"\b(?:already|hit|reached|used up)\b|已经|已經|达到|達到|用完|到了")
# The run gone wrong or late: no record says so (the newest record is named instead).
_BEHIND = re.compile(
    r"\b(?:behind|delayed|late|slipp(?:ed|ing)|abandon(?:ed)?|cancel(?:l?ed)?|dead|killed"
    r"|stopped|halted|paused|scrapped|diverg(?:ed|es|ing)|pulled the plug|shut down|went flat)\b"
    r"|落后|落後|延期|推迟|推遲|放弃|放棄|取消|停了|烂尾|爛尾|暂停|发散|發散|崩了"
)
_DONOR = re.compile(
    r"\b(?:nvidia|jensen)\b.{0,30}\b(?:donat|gift|sponsor|gave)|(?:英伟达|輝達|nvidia).{0,10}(?:捐|赞助|贊助|送)"
)
_STARTED = re.compile(
    r"\b(?:start|began|begun|kick|launch)|开训|開訓|开始|開始|启动|啟動|开跑|開跑"
)
_DENSE = re.compile(r"\bdense\b|稠密|密集模型")
_RUN_ID = re.compile(r"\bhero-[a-z0-9_.-]*[a-z0-9]")
_CURRENT = re.compile(r"\b(?:current|now|latest|newest)\b|目前|当前|當前|现在|現在|最新")
_OTHER_HARDWARE = re.compile(
    r"\b(?:h100|h200|h800|a100|a800|v100|mi300x?|mi250|tpu|tpuv\d|4090|gaudi)s?\b"
)
# Words that name one fact of the records, when no figure says more.
TERMS = (
    (re.compile(r"\bgb200\b|nvl72"), "hardware-gb200"),
    (re.compile(r"\bhuang\b|黄仁勋|黃仁勳|黄氏|黃氏"), "hardware-gift"),
    (re.compile(r"\bhalf ?way\b|\bhalf done\b|过半|過半|一半"), "progress-halfway-post"),
    (re.compile(r"\bmoe\b|mixture[- ]of[- ]experts|混合专家|混合專家"), "architecture"),
)
# Spec topics: a figure that differs from the record contradicts it (a run's progress only
# moves on, so a step or a share no record holds is unsupported, never "contradicted").
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
                (_DONE.search(text) or _AS_DONE.search(text)) and not _NEGATION.search(text)
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
        checkable = any(f.noun for f in said) or bool(_DURATION.search(text))
        if topic in DECLINING and not names_run and not checkable:
            return Assertion(words, OFF_TOPIC)
        denied = bool(_NEGATION.search(text))
        found = self._overclaim(text, denied)
        if found is not None:
            return Assertion(words, *found)
        behind = _BEHIND.search(text) and not denied and not _HEDGED.search(text)
        if behind and not any(held):
            newest = self._claims("progress")[-1:]
            return Assertion(words, UNSUPPORTED, (*newest, *self._with("training-ongoing-1010")))
        if _DONOR.search(text) and not re.search(r"huang|黄|黃", text):
            return Assertion(words, CONTRADICTED, self._with("hardware-gift"))
        if _DENSE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("architecture",))
        if _OTHER_HARDWARE.search(text) and not denied:
            return Assertion(words, CONTRADICTED, ("hardware-gb200",))
        ids = _RUN_ID.findall(text)
        if ids and _CURRENT.search(text) and "hero-mfu30-step231k" not in ids:
            return Assertion(words, CONTRADICTED, ("run-current",))
        plan = self._plan_as_fact(text, said, held, topic, done)
        if plan is not None:
            return Assertion(words, PLAN_AS_FACT, plan)
        return self._by_figures(words, text, topic, said, held)

    def _overclaim(self, text: str, denied: bool) -> tuple[str, tuple[str, ...]] | None:
        """Finished, a later phase begun, released, scored: no record shows any of them, so
        an assertion of one is unsupported, and a denial is consistent with the records."""
        verdict = SUPPORTED if denied else UNSUPPORTED
        later = _LATER_PHASE.search(text)
        if later and _BEGUN.search(text) and not _HEDGED.search(text):
            if later[0].startswith(("cool", "冷")) and not denied:
                return PLAN_AS_FACT, self._with("mixture-plan", "pretraining-not-finished")
            return verdict, self._with("pretraining-not-finished")
        if _DONE.search(text) and "%" not in text:
            return verdict, self._with("pretraining-not-finished")
        if _RELEASED.search(text):
            return verdict, self._with("model-not-released")
        if _SCORED.search(text):
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
        plans = {c.id for c in self.kb.claims.values() if c.kind is ClaimKind.PLAN}
        planned = [c for h in held for c in h if c in plans]
        stated = (done or bool(_AS_DONE.search(text))) and not _HEDGED.search(text)
        if planned and (stated or _REACHED.search(text)):
            return tuple(dict.fromkeys(planned))
        duration = bool(_DURATION.search(text))
        if (duration or (END.month, END.day) in months(text)) and not _HEDGED.search(text):
            return self._with("duration-plan", "expected-end")
        if topic in ("context-length", "phases") and stated:
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
        if topic in ("started", "start-date") and dates and _STARTED.search(text):
            ok = all(m == 8 for m, _ in dates)  # started Aug 19, announced Aug 21
            return Assertion(words, SUPPORTED if ok else CONTRADICTED, ("start-date",))
        if (END.month, END.day) in dates:  # the planned end, stated as a plan
            return Assertion(words, SUPPORTED, self._with("expected-end"))
        if not said:
            named = [claim for pattern, claim in TERMS if pattern.search(text)]
            if named and not _NEGATION.search(text):
                return Assertion(words, SUPPORTED, self._with(*named))
            return Assertion(words, NOT_CHECKED)  # nothing to hold it against: not guessed
        if all(held):
            every = set.intersection(*(set(h) for h in held))
            chosen = sorted(every, key=self._strongest_first) or sorted(
                {c for h in held for c in h}, key=self._strongest_first
            )
            return Assertion(words, SUPPORTED, tuple(chosen[:3]))
        if topic in STATIC:
            return Assertion(words, CONTRADICTED, self._claims(topic)[:1])
        newest = self._claims(topic) if topic else ()
        return Assertion(words, UNSUPPORTED, newest[-1:] if topic == "progress" else newest[:1])

    def _holders(self, figure: Figure, topic: str | None) -> list[str]:
        found = dict.fromkeys(c for f, c in self.index if same(f, figure))
        if figure.unit == "%" and topic in ("progress", "tokens-so-far", "schedule", "finished"):
            # a share of the run is a share of the schedule, not "95% into the run" of a plan
            found = dict.fromkeys(
                c
                for c in found
                if self.kb.claims[c].topic in (topic, "progress", "progress-history")
            )
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
