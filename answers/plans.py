"""A plan stated as a fact: a planned figure, length or end date told as done or certain, or
the context length or the data mixture said to have changed ("trained on 18.75T tokens",
"finished on Dec 1", "context was extended to 65k")."""

from __future__ import annotations

import re

from answers.assertions import Figure, same
from answers.days import months
from answers.end_dates import END, LENGTH_DAYS, TEAM_WORD
from answers.lengths import length_days
from answers.phase_words import CONTEXT_CHANGED, LATER_PHASE
from answers.records import Records
from answers.time_words import NOW, STILL, THEN, WILL
from answers.verdict_words import (
    AS_DONE,
    DURATION,
    NEGATION,
    PLANNED,
    REACHED,
    SAID,
    SOURCED,
    hedged,
)
from knowledge.schema import ClaimKind

_PHASE_TWO = re.compile(r"\bphase[- ]?(?:2|two)\b|\bsecond phase\b|第\s*[2二]\s*(?:阶段|階段|期)")
# where a chart's axis ends is no end told as done ("homepage chart x-axis goes Aug 19 → Dec 1")
_AXIS = re.compile(r"\baxis\b|\bchart\b|横轴|橫軸|x\s?轴|x\s?軸|图表|圖表")
# the third mixture phase by its number (its other names are LATER_PHASE's: "cooldown", 冷却)
_PHASE_THREE = re.compile(
    r"\bphase[- ]?(?:3|three)\b|\bthird phase\b|第\s*[3三]\s*(?:阶段|階段|期)"
)


_DAYS_TO = re.compile(
    r"(?:还有|還有|还剩|還剩|剩下?)\s*\d+\s*天|\b\d+\s*days? (?:left|to go|until|till)\b"
)
_DUE = re.compile(r"\bdeadline\b|\bend date\b|结束日|截止日")  # (folded: 結束日 is 结束日)
# "per the plan": told as the plan (told as done only with a done word, see below)
PER_PLAN = re.compile(r"按计划|按計劃|照计划|照計劃|\bas planned\b|\bper the plan\b")
_DONE_MARK = re.compile(
    r"已|了|准时|準時|\balready\b|\b(?:ended|finished|wrapped)\b"
)  # done, by itself
_HAPPENED = re.compile(r"\b(?:kicked in|took effect|went into effect|was applied|got applied)\b")
_CONFIG = re.compile(r"\bconfig\b|配置")
_WAN_STEPS = re.compile(r"\d\s*万\s*步")  # steps counted in ten-thousands
_AT_STEP = re.compile(r"\bstep\s*[~≈]\s*")


def plan_as_fact(
    records: Records,
    text: str,
    said: list[Figure],
    held: list[list[str]],
    topic: str | None,
    done: bool = False,
) -> tuple[str, ...] | None:
    """The plans a clause states as done or certain (by itself, or by the clause before it:
    "it is done: 18T tokens"), or None."""
    kb = records.kb
    # (not the whole a share is of: "4.65T of 18T" states 4.65T, of the plan's 18T)
    planned = [
        c for f, h in zip(said, held, strict=True) if not f.of for c in h if c in records.plans
    ]
    # (or a figure put in its document: "the 18.75T number was from the tweet")
    tested = hedged(text, tests_too=True, said_too=False) or bool(SOURCED.search(text))
    # (a plan named as the subject of what happened: "the 25% cut they planned kicked in")
    tested = tested and not (_HAPPENED.search(text) and not WILL.search(text))
    # (a clause after a done one may still tell what will be: "…已切入冷却 | 第三阶段会上调…")
    # (nor a document's word or a plan: "…都训完了。FLOPs 预算是 2.7e24，README 里写的是 5e24")
    # (nor the config's own figures: "…trained on ~18T by now | config is 390,251 steps")
    told_as = WILL.search(text) or SAID.search(text) or PLANNED.search(text) or _CONFIG.search(text)
    inherited = done and not told_as
    stated = (inherited or bool(AS_DONE.search(text))) and not tested
    # the plan and a record of it happening at that step agree: "切到第二阶段 at step
    # 108,000" is a fact (a step, not a total: the homepage's "18T" is still the plan)
    # (not the whole a status measures against: "已经跑满了 390,251 步" is the schedule's)
    happened = bool(held) and all(
        (f.unit == "exact" or f.unit == "n" and bool(_WAN_STEPS.search(text)))  # "10.8 万步"
        and any(
            kb.claims[c].kind in (ClaimKind.STATUS, ClaimKind.RESULT) and _as_part(records, c, f)
            for c in h
        )
        for f, h in zip(said, held, strict=True)
    )
    # or, with no figure, on a day a status record of this topic names ("9月15号切到第二阶段")
    days = {d for d in months(text) if d[1] is not None}
    on_record = [kb.claims[c] for c in records.on_days(days)] if days else []
    happened = happened or (
        not said and any(c.topic == topic and c.kind is ClaimKind.STATUS for c in on_record)
    )
    # "they did NOT extend context yet", "still 4k seq len": what has not changed
    unchanged = NEGATION.search(text) or STILL.search(text)
    # (or told of now: "ctx is 65k now", "现在早就过 80% 进 cooldown 了")
    # (a figure only a plan holds: "trains at 4,096 tokens until then" is the plan's and now's)
    only_planned = all(c in records.plans for h in held for c in h) and not STILL.search(text)
    now = NOW.search(text) and not THEN.search(text) and not PLANNED.search(text)
    now = now and only_planned and not hedged(text, said_too=False)
    if planned and not happened and not unchanged and (stated or REACHED.search(text) or now):
        return tuple(dict.fromkeys(planned))
    # a length near the plan's ("trained in ~100 days"), not any ("2 days later on the 21st")
    length = length_days(text)
    near_plan = length is not None and LENGTH_DAYS[0] <= length <= LENGTH_DAYS[1]
    # (not the days counted to it: "10 月 9 日到 12 月 1 日还有 53 天")
    end_day = (END.month, END.day) in months(text) and not _DAYS_TO.search(text)
    # (a length told with no word of it done is no plan done: "11 racks for 3 months is insane")
    done_word = stated or REACHED.search(text) or _DONE_MARK.search(text)
    lasted = DURATION.search(text) and near_plan and done_word
    said_end = lasted or end_day
    # ("已经按计划结束" is done per the plan; "按计划 12 月 1 号结束" the plan told)
    per_plan = PER_PLAN.sub(" ", text) if _DONE_MARK.search(text) else text
    told = hedged(per_plan, said_too=False) or PLANNED.search(per_plan) or _AXIS.search(text)
    # (a record that says the end date: "the post said Dec 1", not "Percy said it ended")
    told = told or (SAID.search(text) and TEAM_WORD.search(text))
    # or the schedule's day named as such, not reached ("Dec 1 deadline", "今天就是結束日"; not
    # "they hit the Dec 1 deadline")
    due = bool(_DUE.search(text)) and not AS_DONE.search(_DUE.sub(" ", text))
    if said_end and not told and not due:
        return records.known("duration-plan", "expected-end")
    # the second mixture phase is on record (since step 108,000); a later phase is a plan
    happened = happened or (topic == "phases" and bool(_PHASE_TWO.search(text)))
    later = topic == "phases" and bool(LATER_PHASE.search(text) or _PHASE_THREE.search(text))
    # (a change told at an approximate step is still told as done: "bumped to 8K at step
    # ~195k"; "约95%时扩到65K" is the plan's way of telling it)
    told_only = hedged(_AT_STEP.sub(" step ", text), tests_too=True, said_too=False)
    changing = topic == "context-length" or later
    # (or a length said of now other than the 4K it trains at: "context window is 8k now")
    lengths = [f.value for f in said if f.unit in ("n", "exact") and 1000 <= f.value <= 3e5]
    other_now = bool(NOW.search(text)) and any(not 3500 <= n <= 4200 for n in lengths)
    changed = changing and (bool(CONTEXT_CHANGED.search(text)) or other_now) and not told_only
    if topic in ("context-length", "phases") and (stated or changed) and not unchanged:
        return None if happened else records.claims(topic, kinds={ClaimKind.PLAN})[:1] or None
    return None


def _as_part(records: Records, claim_id: str, figure: Figure) -> bool:
    """Whether the claim states the figure itself (or its figures work it out), not only as a
    whole it measures against."""
    stated = [f for f, c in records.index if c == claim_id and same(f, figure)]
    return not stated or any(not f.of for f in stated)
