"""What no record shows, whatever the wording: the run finished, a later phase begun, the model
released or scored (overclaims); and judgments no record makes: a date for what comes next, the
run late, failed or diverging, a cause, hardware destroyed. A record that says so itself (the
32B's "loss spikes", the taint that caused the Oct 6 retry) still supports the assertion.
"""

from __future__ import annotations

import re

from answers.ahead import ahead
from answers.announced import announced_now
from answers.assertions import Figure, figures, same
from answers.cadence import cadence
from answers.days import months
from answers.end_dates import END, LENGTH_DAYS
from answers.forecast import forecast_verdict
from answers.lengths import length_days
from answers.message_context import MessageContext
from answers.phase_words import BEGUN, LATER_PHASE
from answers.reasons import reason_differs, terms
from answers.records import Records
from answers.spec_words import ALL_RACKS, HERO, ONE_RACK, SCOPE
from answers.text import fold
from answers.time_words import FUTURE, NOW, WILL
from answers.times import miscounted
from answers.trouble_words import (
    DAMAGE,
    DIVERGED,
    FROM_SCRATCH,
    NO_TROUBLE,
    PRIVATE,
    SETBACK,
    SINCE,
    UNRESOLVED,
    WRONG,
)
from answers.verdict_words import (
    CAUSE,
    DECIDED,
    DONE,
    FIRST,
    FORECAST_END,
    FULL,
    LEADS,
    MISTAKE,
    NO_INTENT,
    PUBLIC_CHECKPOINT,
    RELEASED,
    REPORT,
    SCORED,
    SUCCESS,
    TO_COME,
    hedged,
)
from answers.verdicts import CONTRADICTED, PLAN_AS_FACT, SUPPORTED, UNSUPPORTED, Verdict

_PLAN_ZH = re.compile(r"计划|预定")  # (not the "(planned)" a plan's list gives its clauses)


def overclaim(records: Records, text: str, denied: bool, before: str = "") -> Verdict | None:
    """Finished, a later phase begun, released, scored: no record shows any of them, so an
    assertion of one is unsupported, and a denial is consistent with the records. ``before``:
    the clause before, which a record of it may need ("passed its trial, no restart")."""
    # "zero incidents": the records hold a dozen (not "the trial ran with no restart, retry
    # or error": its record says so)
    trouble_free = NO_TROUBLE.search(text)
    if trouble_free and not records.says(NO_TROUBLE, [], f"{before} {text}", by_day=False):
        since = SINCE.search(text)  # "换 run 之后再也没出过错": no record after it says
        # (nor does any record speak of the loss curve's spikes, either way)
        unknown = since or DIVERGED.search(trouble_free[0])
        return (UNSUPPORTED if unknown else CONTRADICTED), records.claims("incidents")[-1:]
    if PRIVATE.search(text):  # "there's no public W&B for this run": the report is public
        return CONTRADICTED, records.known("public-tracking", "status-log-public")
    # "Percy 每天都在推特更新進度", "官方已经发公告了": no record gives either
    told = None if denied else cadence(records, text) or announced_now(records, text)
    if told is not None:
        return told
    if FROM_SCRATCH.search(text):  # "只能从头再来": restored from a checkpoint each time
        again = CONTRADICTED if not (FUTURE.search(text) or WILL.search(text)) else UNSUPPORTED
        return SUPPORTED if denied else again, records.known("incident-1003-save")
    verdict = SUPPORTED if denied else UNSUPPORTED
    later = LATER_PHASE.search(text)
    # (a later phase done has begun: "宣布 post-training 完成")
    begun = BEGUN.search(text) or FUTURE.search(text) or DONE.search(text) or "完成" in text
    # (a day to come that someone said is still a day no record gives: "they said
    # post-training starts next week")
    if later and begun and not hedged(text, said_too=not FUTURE.search(text)):
        if later[0].startswith(("cool", "冷")) and not denied:
            return PLAN_AS_FACT, records.known("mixture-plan", "pretraining-not-finished")
        return verdict, records.known("pretraining-not-finished")
    # done, unless told as the plan to come ("is expected to finish pretraining on December 1";
    # "finished on Dec 1 as planned" is still done, "will be done by thanksgiving" a guess)
    to_come = bool(TO_COME.search(text)) and (END.month, END.day) in months(text)
    to_come = to_come or bool(FORECAST_END.search(text))  # "projected a Nov 27 finish"
    # or in the plan's time: "预计3个月训完" (not "12月1号已经正式训完收工了")
    length = length_days(text)
    planned_length = length is not None and LENGTH_DAYS[0] <= length <= LENGTH_DAYS[1]
    to_come = to_come or (planned_length and bool(TO_COME.search(text) or _PLAN_ZH.search(text)))
    if DONE.search(text) and "%" not in text and not to_come or FULL.search(text):
        return verdict, records.known("pretraining-not-finished")
    tooling = _TOOLING.search(text) and not _EXPORTED.search(text)
    if RELEASED.search(text) and not tooling and not _RELEASED_OTHERS.search(text):
        # not released yet is on record; never to be released, a decision no record gives
        never = denied and NO_INTENT.search(text)
        return (UNSUPPORTED if never else verdict), records.known("model-not-released")
    if PUBLIC_CHECKPOINT.search(text):
        return verdict, records.known("checkpoints-not-public", "model-not-released")
    # (a throughput benchmark on one rack is a measurement on record, not an evaluation)
    # (nor the record's own billing: "号称 largest open live training run in history")
    billed = FIRST.search(text) and records.says(FIRST, [], text, by_day=False)
    scored = SCORED.search(text) and not billed
    if (scored or REPORT.search(text)) and not ONE_RACK.search(text):
        return verdict, records.known("no-evaluations")
    return None


def failed_instead(records: Records, text: str, held: list[list[str]]) -> Verdict | None:
    """A success the record of that very step reports as a failure, or an incident on record
    said never to have been resolved (training went on after each), as contradicted."""
    if SUCCESS.search(text) and held and records.held_say(SETBACK, held):
        return CONTRADICTED, tuple(dict.fromkeys(c for h in held for c in h))[:1]
    if UNRESOLVED.search(text) and records.incident_on(text):  # "…9/23 quota never resolved"
        return CONTRADICTED, records.claims("progress")[-1:]
    return None


# The one said to lead, named after "is"/是: a capitalised name or two to four Chinese
# characters ending the clause (not "谁", who)
_NAME = r"((?:[A-Z][\w.'é-]+)(?:\s+[A-Z][\w.'é-]+)*)"
_LEADER = re.compile(
    rf"(?:\bis|是|為|为)\s*(?:{_NAME}|((?![谁誰])[\u4e00-\u9fff]{{2,4}})(?=\s*[。.!！]?$))"
)
# or before it, when the role is after: "David Hall 是 Marin 的负责人", "Percy is the lead"
_LEADER_FIRST = re.compile(rf"^\W*{_NAME}\s*(?:\bis\b|是|為|为)")


def _leader(words: str, role: re.Match[str] | None) -> str | None:
    """The one a clause says leads, folded; None if it names no one."""
    by = re.search(rf"\bby\s+{_NAME}|由\s*{_NAME}", words)  # "led by Tatsu Hashimoto"
    if by:
        return fold(by[1] or by[2])
    said = _LEADER.search(words)
    first = _LEADER_FIRST.search(words)
    if first and role and first.end() <= role.start():
        return fold(first[1])
    return fold(said[1] or said[2]) if said else None


# The export tooling in the repo, no release ("ops/export_vllm writes BF16 weights", folded to
# "export vllm"), unless something was said to be exported with it
_TOOLING = re.compile(r"export[_ ]vllm|\bexport (?:tool|path|section)|(?:导出|導出|匯出)\s?工具")
# (what Marin has released before is not the run: "HF collection 是 marin-community/delphi")
_RELEASED_OTHERS = re.compile(r"^(?!.*(?:535b|rung|ladder|阶梯|階梯)).*(?:\bdelphi\b|\b32b\b)")
_EXPORTED = re.compile(r"\b(?:exported|already|live)\b|已|(?:导出|導出|匯出)了|上线|上線")


def judgment(
    records: Records,
    words: str,
    text: str,
    said: list[Figure],
    held: list[list[str]],
    topic: str | None,
    context: MessageContext | None = None,
) -> Verdict | None:
    """A judgment no record makes, as unsupported, naming the records it is measured against;
    None when the text makes none, or a record makes it too. (Denials are the caller's.)
    ``context``: the clauses before; a clause with no figure of its own may go on from the
    records the one before named ("ragged all-to-all 從 54,000 步開始試 | 卡死兩次就回滾了": the
    trial's record says so), unless it was found wrong."""
    past = ahead(records, text)  # "it's at step 390k now": no record shows the run so far
    if past is not None:
        return past
    leaned = [list(context.before_claims)] if context and context.before_claims else []
    first = records.claims(topic)[:1] if topic else ()
    if FUTURE.search(text) and not hedged(text):  # no record dates a next step
        return UNSUPPORTED, first
    against = forecast_verdict(records, text, said, held or leaned)  # "結果已經達標了"
    if against is not None:
        return against
    # late, failed, spiking: unless a record holding its figures, or saying the same, says so
    # too (a stall at step 166,006, 32B's "loss spikes", failed experiments logged in public)
    # each kind on its own: "abandoned in October after the step-198000 save failed" is a
    # failed save on record and an abandonment on none
    wrongs = [kind for kind in WRONG if kind.search(text)]
    # the plan named is the object, not a hedge ("比计划慢了两周" is late)
    unplanned = re.sub(r"计划|計劃|\bplan(?:ned)?\b", " ", text)
    # (someone's word for it is no record of it: "Marin folks said they're 2 weeks behind")
    if wrongs and not hedged(unplanned, said_too=False, approximate_too=False):
        # (not a loss of its own told: "…检查点失败 | 损失了整整两天" adds the two days)
        alone = said or length_days(text) is not None
        for wrong in wrongs:
            # (a setback on a day an incident is recorded: "9月23号存储配额爆了")
            recorded = wrong is SETBACK and records.incident_on(text)
            if (
                not recorded
                and not records.says(wrong, held, words)
                and not (leaned and not alone and records.held_say(wrong, leaned))
            ):
                newest = (*records.claims("progress")[-1:], "training-ongoing-1010")
                return UNSUPPORTED, records.known(*newest)
    # an event told a different number of times than its record ("hung three times": twice)
    miscount = miscounted(records, text, held)
    if miscount:
        return CONTRADICTED, miscount
    # a reason, only where a record of this very event gives it (not any record of that day:
    # "10 月 6 日那次重试是因为 GB200 过热", the day's record leaves the cause unconfirmed)
    # the lead is on record: the one named is it or not ("项目负责人是 Chris Ré")
    leader = _leader(words, LEADS.search(words)) if LEADS.search(text) else None
    leads = [c for c in records.claims("people") if LEADS.search(records.said(c))] if leader else []
    if leader and leads and not any(leader in records.said(c) for c in leads):
        return CONTRADICTED, tuple(leads[:1])
    claims = (DECIDED, MISTAKE) if leads else (DECIDED, MISTAKE, LEADS)
    for claimed in claims:  # "负责人是李飞飞": no record names her
        # (a decision of a day whose record decides: "9月22号决定主跑不改 router 算术")
        by_day = claimed is DECIDED
        if claimed.search(text) and not records.says(claimed, held, words, by_day=by_day):
            return UNSUPPORTED, first
    if SCOPE.search(text) and LATER_PHASE.search(text) and any(f.unit == "flops" for f in said):
        return UNSUPPORTED, records.known("flops-gap-unexplained")  # "5e24 includes post-training"
    measured = [h for f, h in zip(said, held, strict=True) if f.noun != "rack" and h]
    # (or the hero's measure now: "hero 的 MFU 现在是 30.9%", not its "4k sequences for now")
    now = HERO.search(text) and NOW.search(text) and not months(text)
    if now and not ALL_RACKS.search(text):
        measures = [f.unit == "%" or f.unit == "n" and f.value < 100 for f in said]
        measured = [h for h, m in zip(held, measures, strict=True) if m and h]
    whole = bool(ALL_RACKS.search(text) or now)
    if measured and (whole or ONE_RACK.search(text)):
        # "30.9% MFU on the full 11 racks" (one rack's), "single-rack benchmark 才 29.44%"
        # (the eleven racks' trial)
        one_rack = [records.held_say(ONE_RACK, [h]) for h in measured]
        if all(one_rack) if whole else not any(one_rack):
            return CONTRADICTED, tuple(measured[0][:1])
    cause = CAUSE.search(text)
    if cause:
        # (the reason is before "导致", after "because": "taint 导致重试", "因为 taint")
        effect_after = cause[0] in ("导致", "導致") or cause[0].endswith("why")
        reason = text[: cause.start()] if effect_after else text[cause.end() :]
        # (a wrong reason told in the clause before is flagged there, and what it explains
        # stands on its own: "…donated by NVIDIA | that's why it's all GB200")
        own = context and context.before_wrong
        # (a reason whose figures a record holds is on record: "因为每步慢 1.5–2%")
        given = figures(reason)
        held_said = [f for f, h in zip(said, held, strict=True) if h]
        backed = given and all(any(same(g, f) for f in held_said) for g in given)
        unsaid = not backed and not records.says(CAUSE, held, words, by_day=False)
        if (terms(reason) or not own) and unsaid:
            if not records.gives_reason(reason, text):
                return UNSUPPORTED, first  # "the gap is because 5e24 counts post-training"
        elif reason_differs(records, reason, held, words):
            return UNSUPPORTED, first  # "the 114k save broke because of a GPU failure"
    # a later phase said to be part of something the records give without it ("5e24 那个数字
    # 是把中期训练和后训练都算进去了")
    later = LATER_PHASE.search(text)
    if later and held and not records.says(LATER_PHASE, held, words, by_day=False):
        return UNSUPPORTED, first
    if DAMAGE.search(text):
        return UNSUPPORTED, records.claims("incidents")[-1:]
    return None
