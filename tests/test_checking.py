"""Checking a message: each assertion gets the verdict its evidence allows, never more.

``tests/data/rumours.tsv`` (109 messages, 172 assertions) was written from the research notes
by someone who never saw the checker. Before any tuning the checker flagged 47 of the 99
overstated, false or plan-as-fact assertions, flagged 9 of the 57 true ones, and called 45
unsupported assertions "supported". It was tuned on that set (``benchmarks/score_checks.py``),
which is now a regression set: the floors below hold what the tuning reached.

``tests/data/rumours2.tsv`` (155 messages, 248 assertions) was written the same way after that
tuning and scored before anything was changed for it: 110 of 146 flagged, 16 of 80 true ones
flagged, 22 too strong. Tuned on since (the model's own name is no figure of it; a share is a
share of its topic; "roughly" and "~" hedge a plan; "behind", "diverged" are unsupported).
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest

from answers.check_reply import check_reply
from answers.checking import (
    CONTRADICTED,
    NOT_CHECKED,
    OFF_TOPIC,
    PLAN_AS_FACT,
    SUPPORTED,
    UNSUPPORTED,
    Checker,
)
from answers.second_opinion import Opinion
from answers.verdicts import Assertion
from benchmarks.score_checks import main, score
from bot.chat.conversation import Conversation as Chats
from bot.chat.where import Chat, Quoted
from bot.digest.builder import DigestService
from tests.conftest import Conversation

FLAGS = (CONTRADICTED, UNSUPPORTED, PLAN_AS_FACT)
DATA = Path(__file__).parent / "data"
YOU = Chat("console", "console", "you")


def verdicts(bot: Conversation, message: str) -> list[tuple[str, str]]:
    """The rules' verdicts alone (the second opinion has tests of its own)."""
    rules = Checker(bot.core.kb, bot.core.reader)
    return [(a.words, a.verdict) for a in rules.check(message)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Marin 535B finished training, weights next week!",
            [UNSUPPORTED, UNSUPPORTED],
        ),
        ("It's a 535B MoE with 23B active, on 704 GB200 GPUs", [SUPPORTED, SUPPORTED]),
        ("they trained it on 18.75T tokens over 3 months", [PLAN_AS_FACT]),
        ("it started in July", [CONTRADICTED]),
        ("it runs on 2048 H100s", [CONTRADICTED]),
        (
            "听说 Marin 535B 已经训完了，用了 18.75T tokens，下周开源",
            [UNSUPPORTED, PLAN_AS_FACT, UNSUPPORTED],
        ),
        ("it hasn't finished yet", [SUPPORTED]),
        ("Llama 4 is out and BTC hit 100k", [OFF_TOPIC, OFF_TOPIC]),
        ("Percy said the run is going smoothly", [NOT_CHECKED]),  # nothing to hold it to
        # another model's figure is that model's, even when the run has one like it
        ("Kimi K2 也是 384 experts", [OFF_TOPIC]),
        # a share is a share of its topic: 15% of the steps is no MFU of 15%
        ("Marin 535B MFU 其实只有 15%", [UNSUPPORTED]),
        # 数据 ("data") is no hedge; the planned switch stated as done
        ("冷却数据配比从 312,192 步开始切换了", [PLAN_AS_FACT]),
        ("检查点 step-231464 已经公开了", [UNSUPPORTED]),
        ("the 5e24 vs 2.7e24 gap is because 5e24 counts post-training", [UNSUPPORTED]),
        ("two GB200 racks got fried", [UNSUPPORTED]),
        ("context extension 4k→8k happened at ~195k", [PLAN_AS_FACT]),
        # both counts read (the first one's words do not swallow the second)
        ("each step is 11,264 sequences of 4,096 tokens", [SUPPORTED]),
        ("it started on August 1", [CONTRADICTED]),  # the day counts, not just the month
        ("step 219,518 on 10/07", [SUPPORTED]),  # 10/07 is a date, not the figure 10
        # the plan and the record of it happening agree on the step: a fact
        ("第 108,000 步切到第二阶段", [SUPPORTED]),
        ("他們訓了 18T token", [PLAN_AS_FACT]),  # a total is still the plan
        # no figure: held against what the claims say, in other words
        ("Percy Liang leads Marin", [SUPPORTED]),
        ("Marin 535B 的 model card 已经有了", [UNSUPPORTED]),  # near an absence: asserted
        ("已经开始了", [NOT_CHECKED]),  # too short to say what has begun
        # the run compared with another model, or its money: about the run, no record
        ("Marin 535B 已经超越 Llama 3.1 405B", [UNSUPPORTED]),
        ("Marin 535B burned $50M already", [UNSUPPORTED]),
        ("they moved the whole Marin run to AWS", [UNSUPPORTED]),
        ("官方預計 2027 年 3 月才結束預訓練", [CONTRADICTED]),  # not December 1
        ("the A23B in Marin 535B-A23B is just a version tag", [CONTRADICTED]),
        ("post-training starts next week", [UNSUPPORTED]),
        ("Marin 535B got to step 231k by Oct 9", [SUPPORTED]),  # 231k is 231,464, as written
        # a run goes live too: no release claimed, and the record names its day
        ("new production run hero-mfu30-step231k went live Oct 9", [SUPPORTED]),
        ("第 20 万步之后 loss 发散了", [UNSUPPORTED]),  # no record of a divergence, at any step
        ("the Marin 32B run had loss spikes and restarts", [SUPPORTED]),  # its record says so
        ("#8506 是 Percy 自己开的", [CONTRADICTED]),  # the record names rjpower
        ("Percy said it is 535B total / 23B active", [SUPPORTED]),  # Percy, the source
        ("it started training on August 21st", [CONTRADICTED]),  # announced then, started 19
        ("FA4 kernels 上线后 MFU 26.47%", [SUPPORTED]),  # kernels going live: no release
        ("13% after two weeks = they're way behind schedule", [SUPPORTED, UNSUPPORTED]),  # judged
        ("they swapped to 16K context at step 216k", [PLAN_AS_FACT]),  # no record: still 4K
        ("the 8K/16K runs were tested on one rack", [SUPPORTED]),  # a test stays a test
        ("they cut the token horizon by 25%", [PLAN_AS_FACT]),  # allowed, not done
        ("MFU 在 Oct 9 才到 26.75%", [UNSUPPORTED]),  # 26.75% is the record of Sep 23
        ("Marin 535B already beats DeepSeek-V3 on every benchmark no cap", [UNSUPPORTED]),
        ("Marin 535B crossed halfway around Sept 20", [UNSUPPORTED]),  # the post was Oct 6
        ("所以 Marin 535B 下周就会切 8K", [UNSUPPORTED]),  # no record dates a next week
        ("tracker: 25.8% | step 100,845 / 390,251 | 4.65T / 18T tokens", [SUPPORTED] * 3),
        # a figure written against Chinese is still a figure
        ("规模阶梯一共6级", [CONTRADICTED]),  # four rungs
        ("一共792张卡", [CONTRADICTED]),  # 704 GPUs
        # an issue's number is no count of the words after it
        ("8K/16K 只是 #9615 里的 one-rack test", [SUPPORTED]),
        ("should take ~6 months", [CONTRADICTED]),  # the plan is ~100 days
        ("离 12 月 1 日的计划结束只剩一天", [SUPPORTED]),  # a day left is no length
        ("est. end Nov 27", [SUPPORTED]),  # the tracker's estimate, as an estimate
        ("it'll definitely end Nov 27", [UNSUPPORTED]),  # the estimate, as the end
        ("官方计划 11 月 27 日结束预训练", [CONTRADICTED]),  # the plan ends Dec 1
        ("390,251/390,251 steps", [UNSUPPORTED]),  # all of it: done, which no record shows
        ("percy said its trained on 18.75T tokens", [PLAN_AS_FACT]),  # reported, still done
        ("context 的 4k→8k 在 step ~195k 切过去了", [PLAN_AS_FACT]),
        # a month is a month of the record's day: the gift post went up on Sep 2
        ("the Huang Foundation GPU gift post went up in August", [UNSUPPORTED]),
        ("Oct 13: the step-198000 save failed", [UNSUPPORTED]),  # a heading stays with it
        ("Marin 535B 的 base model 已经 open-source 了", [UNSUPPORTED]),
        ("都公开在HF上了", [UNSUPPORTED]),  # a word boundary holds where scripts meet
        ("比计划慢了两周", [UNSUPPORTED]),  # the plan is the object, not a hedge
        ("loss 在 20 万步出现了大 spike", [UNSUPPORTED]),  # 32B's spikes are not this one
        ("这次 loss 比 Marin 32B 低很多", [UNSUPPORTED]),  # no record compares them
        ("现在是 Larry Dial 在带", [CONTRADICTED]),  # he wrote the plan; Percy leads
        ("10 月 6 日那次重试是因为 GB200 过热", [UNSUPPORTED]),  # the cause is unconfirmed
        # the plan told as the plan; a guess at the end; nothing ever going wrong
        (
            "Marin's open 535B MoE is expected to finish pretraining on December 1, 2026",
            [SUPPORTED],
        ),
        ("will be done by thanksgiving", [UNSUPPORTED]),
        ("its ahead of schedule", [UNSUPPORTED]),
        ("this run has had literally zero incidents", [CONTRADICTED]),
        ("換 run 之後再也沒出過錯", [UNSUPPORTED]),  # no record after the handoff says
        ("上个月官方发了535B的技术报告", [UNSUPPORTED]),
        ("the oct 6 crash was literally a GPU catching fire", [UNSUPPORTED]),
        ("比 DeepSeek-V3 还强", [UNSUPPORTED]),
        ("Larry 一直想要 16K", [SUPPORTED]),  # a wish, not the context changed
        ("197,999 / 390,251 ≈ 50.7%", [SUPPORTED]),  # the step before the failed save
        ("the step-198000 save went through fine", [CONTRADICTED]),  # the record: it failed
        ("推特上的2.7e24是写错了", [UNSUPPORTED]),  # no record calls it a mistake
        ("they've decided to stay at 4k for good", [UNSUPPORTED]),  # nor a decision
        ("the router decision was to keep the original arithmetic", [SUPPORTED]),  # this one
        ("license 是 Apache 2.0", [UNSUPPORTED]),
        ("it hasnt even started", [CONTRADICTED]),
        ("训练根本还没开始", [CONTRADICTED]),
        ("phase 3 cooldown 还没开始", [SUPPORTED]),  # a later phase's start, denied: true
        ("最终损失就是2.04", [PLAN_AS_FACT]),  # the preregistered target, as the result
        ("cooldown mix started at step 312192", [PLAN_AS_FACT]),
        ("最后还有262k阶段", [SUPPORTED]),  # the plan's last phase, as a plan
        (
            "marin.community homepage links a live tracker at mtracker.oa.dev/hero-run-535b",
            [
                SUPPORTED,
            ],
        ),  # a URL's path is no run id
        ("这个会是史上最强open source模型 没有之一", [UNSUPPORTED]),  # "bar none" denies nothing
        # the records' own words
        ("billed as the largest open live training run in history", [SUPPORTED]),
        ("Marin 535B-A23B is done: 18T tokens", [UNSUPPORTED, PLAN_AS_FACT]),
        # a clause mixing a true figure and a false one is cut where they part
        ("11 NVL72 racks = 792 GPUs", [SUPPORTED, CONTRADICTED]),
        ("it runs on 792 B200s spread over 11 NVL72 racks", [CONTRADICTED, SUPPORTED]),
        ("已经在11台GB200 NVL72上训完18.75T tokens", [SUPPORTED, UNSUPPORTED]),
        # but not a figure from where it was measured
        ("eval loss was already 1.91 at step 47k", [UNSUPPORTED]),
        # a count is of its noun: 11,264 sequences, 4,096 tokens each
        ("batch is 11,264 tokens per step", [UNSUPPORTED]),
        ("每一步是4096条序列、每条11264个token", [UNSUPPORTED, UNSUPPORTED]),
        ("batch is 11,264 sequences of 4,096 tokens", [SUPPORTED]),
        # the A23B: 23B active
        ("Marin 535B is 535B total with 32B active", [SUPPORTED, CONTRADICTED]),
        ("Marin 535B-A23B: 23B active", [SUPPORTED]),
        # "now" means the newest record: September's MFU is not October's
        ("MFU 现在只有 23% 左右", [UNSUPPORTED]),
        ("MFU is 29.44% now", [SUPPORTED]),
        ("据说里面一半是中文", [NOT_CHECKED]),  # half of the data, not halfway
        # "the same day" is the day an earlier clause named: an incident is on record on 9/23
        ("9月23号 MFU 涨到 26.75%，同一天晚上存储配额爆了", [SUPPORTED, NOT_CHECKED]),
        ("9月2号 MFU 涨到 26.75%，同一天晚上存储配额爆了", [UNSUPPORTED, UNSUPPORTED]),
        # who posted, when the post is what is claimed (not "Percy said it is 535B")
        ("Larry Dial tweeted on Oct 6 that the run was past the halfway point", [UNSUPPORTED]),
        ("Percy posted on Oct 6 that the run was past the halfway point", [SUPPORTED]),
        ("Percy said 它是 535B total / 23B active", [SUPPORTED]),
        # numbers in words are figures too
        ("the run is on seven hundred ninety-two GPUs", [CONTRADICTED]),
        ("每一步大约吃四千六百万个 token", [SUPPORTED]),  # 46.1M tokens per step
        ("ladder 最大一档 27.7B total / 1.2B active", [SUPPORTED]),  # 27.7B-A1.2B
        # a part of a month holds the record's day, or not (the 13% post: September 2)
        ("Percy's 13% post was at the end of September", [UNSUPPORTED]),
        ("Percy's 13% post was in early September", [SUPPORTED]),
        # a step cut to thousands: step 215,756 was "past 215k" (the next is 216k)
        ("by Oct 6 it was past step 215k", [SUPPORTED]),
        # a wrong figure denied is no wrong figure
        ("计算预算是2.7e24 FLOPs，不是网上传的2.7e25", [SUPPORTED, NOT_CHECKED]),
        # two events told as one: October 3's failed save, September 16's HTTP 405s
        ("step-198000 那次 save fail 是 bucket 回 HTTP 405", [UNSUPPORTED]),
        ("MFU went from 26.47% to 29.44%", [SUPPORTED]),  # a change: two records, as said
        # a rung's figure is no figure of the run's
        ("the hero run was trained on 926B tokens", [UNSUPPORTED]),
        ("scaling ladder 總共有 5 階", [CONTRADICTED]),  # four rungs
        # the present is the newest record: 13% was September 2's
        ("it's barely 13% through", [UNSUPPORTED]),
        ("Percy 在 X 上说 13% through training", [SUPPORTED]),  # a post, of its own time
        # the plan's total a share is of is no plan stated as done
        (
            "tracker screenshot had 25.8%, step 100,845 / 390,251, 4.65T of 18T",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        # a plan told over clauses stays a plan; a condition is no fact
        (
            "context plan is 4k->8k at ~50%, 8k->65k at ~95%, then a 262k phase near the end",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        ("the 65k context phase is running", [PLAN_AS_FACT]),
        # not released is on record; never to be released is nobody's word
        ("they're clearly not releasing the weights", [UNSUPPORTED]),
        ("weights are not released yet", [SUPPORTED]),
        ("taint came from a CoreWeave maintenance window", [UNSUPPORTED]),  # cause unconfirmed
        ("535B-A23B MoE on 1,024 GB200s", [SUPPORTED, UNSUPPORTED]),  # 704 GPUs, not 1,024
        ("roughly 100-day plan ending mid-December", [CONTRADICTED]),  # the plan: Dec 1
        ("the 535B has had zero restarts", [CONTRADICTED]),
        # what has not changed is no plan done
        ("context was still 4k even though they were past the 50% point", [SUPPORTED]),
        # figures one record pairs otherwise: #9615 gives 8K 1.6%, 16K 3.1%
        ("#9615 测出来是 8K 掉 3.1%，16K 才掉 1.6%", [CONTRADICTED, CONTRADICTED]),
        ("8K costs 1.6%, 16K 3.1%", [SUPPORTED, SUPPORTED]),
        # a projected finish is the tracker's estimate; a finish "like the tracker predicted"
        # is the run said to have ended
        ("the mtracker page projected a Nov 27 finish", [SUPPORTED]),
        ("it finished on Nov 27 like the tracker predicted", [UNSUPPORTED]),
        (
            "current run id is hero-main-step121638, it's literally in current_run.py",
            [
                CONTRADICTED,
                SUPPORTED,
            ],
        ),
        # figures told of the wrong thing
        # an issue named for what another issue is: the plan is #8435, the log #8506
        ("#8435 is the status log", [CONTRADICTED]),
        ("status log 在 #8506", [SUPPORTED]),
        ("#8506 是 Larry Dial 開的", [CONTRADICTED]),  # rjpower opened it; Larry, #8435
        ("atomic_rename landed in #8588", [CONTRADICTED]),  # #8974's; #8588 is the bucket's
        ("the delete-deny bucket policy is from #8588", [SUPPORTED]),
        # a one-rack measurement told of the whole run, and the other way round
        ("Marin 535B is running at 30.9% MFU on the full 11 racks now", [CONTRADICTED]),
        ("single-rack benchmark 才 29.44%", [CONTRADICTED]),  # the 11-rack trial's median
        ("the 30.9% number is a single-rack benchmark from the handoff commit", [SUPPORTED]),
        # what the README's FLOPs cover, no record says
        ("the 5e24 includes post-training", [UNSUPPORTED]),
        ("MFU is stuck at 23%", [UNSUPPORTED]),  # September's, said of now
        # a score's figure is not cut from what it scores
        ("marin 535B gets 78 on MMLU per some leaked eval sheet", [UNSUPPORTED]),
        # a forecast states nothing done, so the length after it is the plan's
        ("預計十二月一日結束預訓練，大概一百天", [SUPPORTED, SUPPORTED]),
        # (the point in the run stays with the change it places: "like the plan said" tells it
        # done as planned)
        ("they extended to 8k at 50% like the plan said", [PLAN_AS_FACT]),
        ("Percy's launch tweet was Aug 21", [SUPPORTED]),  # the post, two days after the start
        # an incident of one kind at another incident's step: Aug 21's NVLink error, Oct 6's taint
        ("an NVLink uncorrectable error at step 215,756", [CONTRADICTED]),
        ("an NVLink error stopped one node at step ~2359", [SUPPORTED]),
        # one rung's figures with another's, not a range of them
        ("ladder 最小的 1.6B-A61M 用了 128B tokens", [CONTRADICTED]),
        ("the ladder goes 1.6B-A61M on 48B tokens up to 27.7B-A1.2B on 926B", [SUPPORTED]),
        # a bare count is its topic's: no MFU record says 20, no mixture record 180,000
        ("MFU才二十出头", [UNSUPPORTED]),
        ("数据配比是在第18万步换的", [UNSUPPORTED]),
        ("expected end was Dec 15", [CONTRADICTED]),  # December, but not the plan's day
        ("nobody has posted anything saying it's done", [SUPPORTED]),
        # the day in brackets dates the newest checkpoint; "right now" it is October's
        ("newest permanent checkpoint 是 step-180000 (Sep 30)", [SUPPORTED]),
        ("latest permanent checkpoint right now is still step-180000", [UNSUPPORTED]),
        ("704 GPUs in total (16 nodes x 4 per rack)", [SUPPORTED, SUPPORTED]),
        # one thing's cadence told of another: it evaluates every 3,000 steps
        ("they save permanent checkpoints every 3k steps", [CONTRADICTED]),
        ("每 6000 步存一个永久检查点", [SUPPORTED]),
        # the clause before names the run "that's the live run" is about
        (
            "current_run.py still says hero-main-step121638 so that's the live run",
            [SUPPORTED, CONTRADICTED],  # (current_run.py does say so: its record)
        ),
        ("it's 704 GPUs not 792", [SUPPORTED]),  # a correction: 792 is denied
        ("it was always planned as a 6-month run", [CONTRADICTED]),  # ~100 days
        ("it started at 4k context", [SUPPORTED]),
        ("gift from the Jensen Huang foundation", [SUPPORTED]),  # Jen-Hsun
        ("8K 只掉 1.6% throughput", [SUPPORTED]),  # the context test's tokens/s
        # the plan's condition, told as a condition
        ("if delays eat the buffer they can shorten the token horizon by up to ~25%", [SUPPORTED]),
        ("the marin-community HF page had zero model updates in the Oct 9 snapshot", [SUPPORTED]),
        (
            "Plan was 4k→8k at ~50%, 8k→65k at ~95%, then a 262k phase near the end.",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        # the post's own billing, repeated, is the post's; "the first line" ranks nothing
        ("Open Athena bills it as the largest open live training run in history", [SUPPORTED]),
        ('first line is literally "Hero run started on August 19th."', [SUPPORTED]),
        ("Marin 的 benchmark 已经超过 Qwen3 了", [UNSUPPORTED]),
        ("訓練已經結束", [UNSUPPORTED]),
        ("聽說早就練完了 只是還沒公布", [UNSUPPORTED, NOT_CHECKED]),  # done, not yet announced
        ("phase 3 cooldown is planned at ~80% (step 312,192)", [SUPPORTED]),
        ("#8506 记录 10 月 9 日交接检查点是 231464 步", [SUPPORTED]),  # the log's own step
        # a run id no record names; the live run by its short name
        ("new run is hero-mfu30-step213k", [CONTRADICTED]),
        ("the hero-mfu30 run is live", [NOT_CHECKED]),
        # a change told the wrong way round: the new stack cut the step time
        ("the mfu30 stack took median step time from 13.33s up to 14.91s", [CONTRADICTED]),
        ("median step time 從 14.91s 變成 13.33s", [SUPPORTED]),
        ("MFU 中位数反而从 26.75% 掉到 24.10%", [CONTRADICTED]),
        # the second rung, not two rungs; a rung's own FLOPs
        ("ladder 第二级 d1024 是 4.0B / 162M", [SUPPORTED]),
        ("ladder 最小 rung d768 是 1.6B total / 61M active，5.5e19 FLOPs", [SUPPORTED, SUPPORTED]),
        ("the d1536 rung was 11.5B total trained on 926B tokens", [CONTRADICTED]),
        # a bracketed share stays with its clause, and the plan's word with it
        ("计划在第 312,192 步（约 80%）进入冷却", [SUPPORTED]),
        ("cooldown mix is live now since 312,192", [PLAN_AS_FACT]),
        ("hero is on 16K context now", [PLAN_AS_FACT]),
        ("it launched at 8k context", [CONTRADICTED]),
        ("CURRENT_HERO_RUN_ID in current_run.py is hero-main-step121638", [SUPPORTED]),
        # a plan's list goes on after its header; a condition is no plan done
        (
            "上下文计划：训练到一半从 4k 扩到 8k，最后再来一段 262k。"
            "前提是第一次冷却的数据看起来平滑。",
            [SUPPORTED, SUPPORTED, NOT_CHECKED],
        ),
        # the plan's end, with the day the post told it; a chart's axis ends nothing
        ("the post (Sept 2) said pretraining is expected to end Dec 1", [SUPPORTED]),
        ("homepage chart x-axis goes Aug 19 → Dec 1", [SUPPORTED]),
        # "then" is the day named before; experts' drops are no release
        (
            "Oct 1: checkpoint barrier timeout at step 184,835. newest permanent ckpt then was"
            " step-180000",
            [SUPPORTED, SUPPORTED],
        ),
        ("8K -1.6% tok/s with 4.5x drops", [SUPPORTED]),
        # a setback the record of the clause before reports; a trial at another step
        ("ragged all-to-all 從 54,000 步開始試，卡死兩次就回滾了", [SUPPORTED, NOT_CHECKED]),
        ("ragged all-to-all 从第 81,716 步开始试", [CONTRADICTED]),
        ("10月3日保存第198000步检查点失败，损失了整整两天", [SUPPORTED, UNSUPPORTED]),
        # top-8 routing; minutes told as hours; one number's figure told of the next
        ("我看到的是每个 token 激活 16 个", [CONTRADICTED]),
        ("its 256 experts with top-2 routing", [CONTRADICTED]),
        ("each token routes to 8 of the 384 routed experts", [SUPPORTED]),
        ("step 198k 的 save 失败之后 lost 至少 78 个小时", [SUPPORTED, CONTRADICTED]),
        ("#9834 is the one that got step time to 13.005", [CONTRADICTED]),
        ("#9833 took the step time from 13.541 to 13.005 s", [SUPPORTED]),
        # a figure a little off beside the record's others; a forecast told as the result
        ("target 2.14 @ 18T tokens", [CONTRADICTED]),
        ("preregistered target 2.04 @ 18T tokens", [SUPPORTED]),
        ("最後實際也落在 2.04", [PLAN_AS_FACT]),
        # a measurement set against another than its own: the trial's 29.44% was against 26.32%
        ("median MFU 29.44% vs 24.10% on the old run", [CONTRADICTED]),
        ("median MFU 29.44% vs 26.32% on the old run", [SUPPORTED]),
        ("#9615 was still testing 8K vs 16K on a single rack as of Oct 9", [SUPPORTED]),
        # stable since, shared experts, half a year, about so much, the launch's announcement
        ("ragged a2a went in at 54k and has been stable ever since", [SUPPORTED, UNSUPPORTED]),
        ("384 个路由专家，4 个共享专家", [SUPPORTED, CONTRADICTED]),
        ("计划训练半年", [CONTRADICTED]),
        ("每步大概4600万 token", [SUPPORTED]),
        ("这是八月发布时就说好的计划", [NOT_CHECKED]),
        # the record's own "first"; the biggest rung; zero updates; the post's expected end
        (
            "Open Athena's Huang Foundation post (Sep 2) was the first non-X announcement",
            [SUPPORTED],
        ),
        ("the smallest rung used 5.5e19 FLOPs and the biggest 9.2e21", [SUPPORTED, SUPPORTED]),
        ("HF 上 marin-community 10 月 9 日那天的快照是零更新", [SUPPORTED]),
        ("黄氏基金会那篇博客写的预期结束是 12 月 1 日", [SUPPORTED]),
        # a done word beside an approximate step; "已按计划" is done as planned
        ("目前已在约第 195k 步完成 4K→8K 上下文切换", [PLAN_AS_FACT]),
        ("Context went from 4k to 8k at the 50% mark", [PLAN_AS_FACT]),  # (the mark places it)
        ("缩放阶梯最大一级是 32B", [UNSUPPORTED]),  # the top rung is 27.7B
        # a loss "of" 2.04 is no share of it; a clause that tells what will be is not done
        ("Marin 535B trained on 18.75T tokens, reaching a Paloma loss of 2.04", [PLAN_AS_FACT] * 2),
        (
            "已在第 312,192 步切入冷却配比。第三阶段会上调自然科学研究类数据",
            [PLAN_AS_FACT, NOT_CHECKED],
        ),
        # another model named as the subject is that model's, even in a message about the run
        ("Marin 535B is open. Kimi K2 is 1T total for comparison", [NOT_CHECKED, OFF_TOPIC]),
        (
            "Marin 535B 据说花了 5000 万美元，DeepSeek-V3 训练花了 557 万美元",
            [UNSUPPORTED, OFF_TOPIC],
        ),
        (
            "Marin 535B is open. GLM-4.5 and Qwen3 both beat it on every benchmark",
            [NOT_CHECKED, UNSUPPORTED],
        ),
        # a run's length said anywhere; a later phase that kicked in; a start late in August
        ("Percy's launch post said ~6 months", [CONTRADICTED]),
        ("phase 3 cooldown kicked in at step 312,192 (~80%)", [PLAN_AS_FACT]),
        ("Marin 535B used its full 2.7e24 FLOPs budget", [PLAN_AS_FACT]),
        ("八月底才正式开训的", [CONTRADICTED]),
        ("8k seq len at start", [CONTRADICTED]),
        ("run id 还是最开始那个 hero-12d8b6f0-dee637", [CONTRADICTED]),
        # "late September" is a date; "doesn't" denies; the best on record; a wish; a chart
        ("~3.14M tokens/s after the FA4 switch in late September", [SUPPORTED]),
        ("you can't download any weights", [SUPPORTED]),
        ("The best recorded is 29.44% median on the hero", [SUPPORTED]),
        ("Larry was leaning toward a 16K swap instead of 8K", [SUPPORTED]),
        ("the homepage chart literally runs from 'Aug 19' to 'Dec 1'", [SUPPORTED]),
        ("The Huang Foundation post said Dec 1 for the end of pretraining", [SUPPORTED]),
        # a measurement at the other's step; other cards; a later phase gone live; routing
        ("1.9086 was the step 144,000 eval loss", [CONTRADICTED]),
        ("第 147,000 步的 dropless loss 是 1.9098", [CONTRADICTED]),
        ("dropless loss 1.9086 at step 147,000", [SUPPORTED]),
        ("they're on 11 racks of GB300s now", [CONTRADICTED]),
        ("cooldown mixture went live at step 312,192 a few weeks ago", [PLAN_AS_FACT]),
        ("context got extended to 8K at step ~195k", [PLAN_AS_FACT]),
        ("新优化栈上线后 MFU 从 29.44% 掉到了 26.32%", [CONTRADICTED]),
        ("top-6 routing", [CONTRADICTED]),
        ("MoE top-8 routing always has load balancing issues", [OFF_TOPIC]),
        # a run given another run's figure
        ("hero-nopdl-step108k 的中位 MFU 是 26.75%", [CONTRADICTED]),
        ("hero-nopdl-step108k measured MFU 23.62%", [SUPPORTED]),
        ("hero-wd-gate-router-p02-step58k 是从 step 81,716 接上的", [CONTRADICTED]),
        # an event at another event's step: the cancel was at 231664, the handoff at 231464
        ("old run got cancelled at step 231,464", [CONTRADICTED]),
        ("handoff checkpoint was step-231664", [CONTRADICTED]),
        ("the old run was cancelled at step 231664", [SUPPORTED]),
        ("the new stack is doing 30.9% MFU across the whole 11-rack run now", [CONTRADICTED]),
        ("the 30.9% vs 28.1% MFU was the one-rack benchmark in the #9960 commit", [SUPPORTED]),
        ("Paloma micro went down 1.89998 → 1.89752", [SUPPORTED]),
        ("draft PR #9639 has the context-switch implementation", [SUPPORTED]),
        ("#9832/#9833/#9834 都是在一个 64-GPU hero rack 上 restore step-180000 测的", [SUPPORTED]),
        # a rung named with another's figure; layers named before their count; a changed
        # figure told the long way round; the post's end date is December 1
        ("the d2048 rung was trained on 381B tokens", [CONTRADICTED]),
        ("the d1536 rung was trained on 381B tokens", [SUPPORTED]),
        ("听说层数 64", [CONTRADICTED]),
        ("median step time 反而从 13.33 s 变长到 14.91 s", [CONTRADICTED]),
        (
            "The Huang Foundation post gave Nov 27 as the expected end of pretraining",
            [CONTRADICTED],
        ),
        # a figure put in a document that gives another: the X post's is 2.7e24
        ("Percy 发推写的是 5e24 FLOPs", [CONTRADICTED]),
        ("Percy's tweet said 2.7e24 FLOPs", [SUPPORTED]),
        ("2.7e24 FLOPs vs README 的 5e24", [SUPPORTED]),
        # the README is not the plan issue (#8435's spec comment gives 2.7e24; the README 5e24)
        ("the README says 2.7e24 too", [CONTRADICTED]),
        ("the README says 5e24 model-FLOPs", [SUPPORTED]),
        ("homepage chart has a dashed projected loss line at 2.04", [SUPPORTED]),
        # a person in a role the records give to another: Larry Dial wrote the report and
        # opened #8435, rjpower opened #8506; no record names who wrote the launch note's words
        ("W&B 报告叫 'Hero Run + Scaling Ladder'，作者 Percy Liang", [SUPPORTED, CONTRADICTED]),
        ("David Hall opened the status log #8506", [CONTRADICTED]),
        ("rjpower opened #8506", [SUPPORTED]),
        ("David Hall wrote the launch note on Sept 3", [SUPPORTED]),
        ("rjpower posted the Oct 9 handoff", [CONTRADICTED]),  # the team's agents post them
        # a launch note "by David Hall"; "he" is the one named before
        ("535B 的 launch note 是 Will Held 写的，#8435 也是他开的", [CONTRADICTED, CONTRADICTED]),
        ("the W&B report is by Percy himself", [CONTRADICTED]),
        ("the status thread is by rjpower", [SUPPORTED]),
        ("Percy 推文里写的 18.75T", [SUPPORTED]),  # what his post says, not an authorship
        ("mcwitt-agent posted the Oct 9 handoff", [NOT_CHECKED]),
        # another model's figures go on after its name; the run's own figure does not
        ("DeepSeek V3 也才 671B 總參數、37B active", [OFF_TOPIC, OFF_TOPIC]),
        ("GPT-5 was trained on 100k H100s, 704 GPUs is cute", [OFF_TOPIC, SUPPORTED]),
        # the run's own spec denied; "not dense" is no denial of the MoE
        ("聽說他們根本沒有用 GB200", [CONTRADICTED]),
        ("Marin 535B 是 dense 不是 MoE", [CONTRADICTED]),
        ("不是 dense 是 MoE", [NOT_CHECKED]),
        # a range with its unit once; a share worked out from the two figures beside it; a
        # timeline's zero-padded days
        ("BF16 w/ FP32 accum was 1.5-2% slower per step", [SUPPORTED]),
        ("231k/390k is ~59%", [SUPPORTED]),
        ("231k/390k is 70%", [UNSUPPORTED]),
        ("09-15 mixture phase 2 from 108,000", [SUPPORTED]),
        ("Will Held opened #9615", [CONTRADICTED]),  # mcwitt-agent did
        # slang for done, stopped, lost, ahead; a plan's length told as a plan is no "done"
        ("535B 已经炼完了", [UNSUPPORTED]),
        ("项目怕不是已经停了", [UNSUPPORTED]),  # 怕不是: "probably", no denial
        ("遠遠超前進度", [UNSUPPORTED]),
        ("中间 checkpoint 全丢了", [UNSUPPORTED]),
        ("GB200 机房着火了", [UNSUPPORTED]),
        ("the base model is out", [UNSUPPORTED]),
        ("预计3个月训完", [NOT_CHECKED]),
        # still training: as the newest records say, or of a day none reaches
        ("run 还在跑", [SUPPORTED]),
        ("So it's still training today", [UNSUPPORTED]),
        ("median MFU 29.44% vs 26.32%", [SUPPORTED]),  # the trial's record, "with no restart"
        # a document put on a day none of its kind went out (his posts: Aug 21, Sep 2, Oct 6)
        ("Percy's X post went out Aug 25", [UNSUPPORTED]),
        ("基金会那篇博客是 9 月 20 号发的", [UNSUPPORTED]),
        ("the Huang Foundation blog post went up Sep 2", [SUPPORTED]),
        # a share its own step or tokens do not make (108,000 of 390,251 steps is 27.7%)
        ("switched to phase 2 at step 108,000 (~37% in)", [SUPPORTED, CONTRADICTED]),
        ("第 108,000 步（约 27.7%）", [SUPPORTED]),
        ("the tracker showed 28.5%, 4.65T of 18T tokens", [UNSUPPORTED, CONTRADICTED]),
        # the loss held against its forecast; the target met; racks lost; the plan's full length
        ("the loss is tracking the 2.04 target exactly", [UNSUPPORTED]),
        ("我預測最後會比 2.04 低", [UNSUPPORTED]),
        ("loss 2.04 命中目标", [PLAN_AS_FACT]),
        ("損失了兩個 NVL72", [UNSUPPORTED]),
        ("They trained for the full ~100 days", [PLAN_AS_FACT]),
        # a length, not a count; steps in ten-thousands; what comes next; a hypothetical; a file
        ("it's still 4096 seq len as far as anyone can show", [SUPPORTED]),
        ("10.8 万步换成第二阶段配比", [SUPPORTED]),
        ("下一步：12月1日預訓練結束", [SUPPORTED]),
        ("lol imagine babysitting 704 GB200s for 100 days", [SUPPORTED]),
        (
            "current_run.py 里还是 hero-main-step121638，所以现在跑的就是它",
            [SUPPORTED, CONTRADICTED],
        ),
        ("預計 2027 年 3 月完成", [CONTRADICTED]),  # the plan ends December 1
        ("官方计划是 11 月 27 号收工", [CONTRADICTED]),  # Nov 27 is the tracker's estimate
        ("gg pretrain done 🎉 midtraining next", [UNSUPPORTED, NOT_CHECKED]),  # two clauses
        # a figure with its neighbour's label in the same record
        ("8K 13.15 秒，16K 12.89 秒", [CONTRADICTED, CONTRADICTED]),
        ("听说永久 checkpoint 每 3,000 步存一次", [CONTRADICTED]),  # evals are every 3,000
        ("eval every 3,000 steps, permanent checkpoint every 6,000", [SUPPORTED, SUPPORTED]),
        ("Paloma micro loss 是 2.13755", [CONTRADICTED]),  # the macro's
        ("新 run 中位步时 13.43 秒", [CONTRADICTED]),  # its iteration time; its step took 13.33
        ("median step time 13.33 s vs 14.91 s", [SUPPORTED]),
        ("peak HBM 143.75 GiB", [CONTRADICTED]),  # the whole: "peak HBM 125.4 of 143.75 GiB"
        ("peak HBM 125.4 GiB on one rack", [SUPPORTED]),
        # an event at another event's step, in Chinese too (cancelled at 231,664; handed off
        # at 231,464)
        ("旧 run 在第 231,464 步被取消", [CONTRADICTED]),
        ("新 run 从 step-231664 的 checkpoint 继续", [CONTRADICTED]),
        ("the new run resumed from step 231,464", [SUPPORTED]),
        ("it should be out any day now", [UNSUPPORTED]),
        ("检查点都放抱抱脸上了", [UNSUPPORTED]),
        ("loss curve 完全没有 spike", [UNSUPPORTED]),  # no record speaks of spikes either way
        # arithmetic done in chat on figures the records hold: worked out, supported; a
        # figure from none of them is still no record's
        (
            "handoff ckpt was step-231464, so 231,464 / 390,251 = 59.3%, that leaves 158,787 steps",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        ("3.14M tokens/s on Sep 23 is ~271B tokens/day", [SUPPORTED]),
        ("3.14M tokens/s on Sep 23 is ~300B tokens/day", [UNSUPPORTED]),
        ("it's 704 GPUs, so one day of the full hero = 16,896 GPU-hours", [SUPPORTED, SUPPORTED]),
        ("peak HBM 125.4 GiB on one rack, ~134.6 GB", [SUPPORTED, SUPPORTED]),
        ("peak HBM 125.4 GiB on one rack, ~115 GB", [SUPPORTED, UNSUPPORTED]),  # GiB→GB grows
        (
            "8 月 19 日到 10 月 9 日一共 51 天",
            [SUPPORTED],
        ),  # the days between, not the run's length
        (
            "18T plan, at step 231,464 it was ~10.7T tokens, 18T − 10.7T = ~7.3T to go",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        # two events beside one step: the nearer one is the step's
        ("10 月 9 号交接时旧 run 在 231,664 步被取消", [SUPPORTED]),
        # a budget, a document's word, a one-rack measurement: none is a plan told as done
        (
            "他们已经把 18.75T token 全部训完了。FLOPs 预算是 2.7e24，README 里写的是 5e24",
            [UNSUPPORTED, SUPPORTED, SUPPORTED],
        ),
        ("#9615 measured only -3.1% tokens/s at 16K on one rack", [SUPPORTED]),
        ("seq len 2048", [CONTRADICTED]),  # 2048 is a length here, not a year: the run's is 4K
        ("Marin 现役 run 是 hero-fa4sm100-nomask-step146k", [CONTRADICTED]),
        # the first eval's step is on record, its result is not
        ("新 run 的第一次评估排在第 234,000 步", [SUPPORTED]),
        ("新 run 第 234,000 步的首次评估结果很好", [UNSUPPORTED]),
        # a "why" takes its claim for granted: the rollback was at 54,000
        ("why'd they roll back the ragged all-to-all at step 81k?", [CONTRADICTED]),
        ("the ragged_a2a run restarted from step 81,716 on Sept 9", [SUPPORTED]),
        # a thing put on a day its records do not give (PR #8588 is of Aug 22; the quota
        # incidents of Sep 16 and Sep 23-24)
        ("PR #8588 是 9 月 22 号合的", [CONTRADICTED]),
        ("storage quota 那次事故是 9 月 30 号", [CONTRADICTED]),
        ("storage quota 那次事故是 9 月 23 号", [NOT_CHECKED]),  # its day: not flagged
        ("the storage quota incident suspended writes on Sep 23-24", [SUPPORTED]),
        # a change from a figure, against the record's direction (2.13435 → 2.13755 rose)
        (
            "Paloma macro loss 2.13755 at 212,999, down from 2.13435 at 209,999",
            [SUPPORTED, CONTRADICTED],
        ),
        (
            "Paloma macro loss 2.13755 at 212,999, up from 2.13435 at 209,999",
            [SUPPORTED, SUPPORTED],
        ),
        ("the fa4sm100 cutover took median MFU from 23.03% to 26.75%", [CONTRADICTED]),
        ("2.7e24 FLOPs ÷ 704 张 GPU ≈ 每张卡 3.8e21 FLOPs", [SUPPORTED]),
        ("5350 亿参数、每个 token 激活 230 亿参数的 MoE", [SUPPORTED, SUPPORTED]),
        ("10 月 9 日到 12 月 1 日还有 53 天", [SUPPORTED]),
        ("Will Held 的 launch note", [CONTRADICTED]),  # David Hall's
        ("Marin ladder 顶层 27.7B-A1.2B，hero 用了 5.5e19 FLOPs", [SUPPORTED, CONTRADICTED]),
        # pretraining's end, told of the run: done (or done per the plan), not the plan told
        ("Marin 535B 预训练已于上周按期收官", [UNSUPPORTED]),
        ("Marin 535B 预训练已经在 12 月 1 日按计划结束", [PLAN_AS_FACT]),
        ("Marin 535B 按计划 12 月 1 号结束", [SUPPORTED]),
        ("Marin 535B 预训练已全部完成", [UNSUPPORTED]),
        ("Marin 535B 总共训练了 18.75T tokens", [PLAN_AS_FACT]),
        ("公开的 W&B 报告作者是 Percy Liang", [CONTRADICTED]),  # 公开 is public, not opened
        (
            "hero-ragged_a2a-nccl2307-ep-step81k 是 9 月 9 日起的，用 10 个 NVL72",
            [SUPPORTED, CONTRADICTED],
        ),
        # a rollback the record of the clause before reports; a full day lost is a new detail
        (
            "9 月初试 ragged all-to-all，从第 54,000 步开始挂了两次，被回滚了",
            [SUPPORTED, SUPPORTED, NOT_CHECKED],
        ),
        # "no" answering someone, then an assertion of its own
        ("lol no it finished yesterday", [UNSUPPORTED]),
        ("no, it hasn't finished", [SUPPORTED]),
        # the day the plan's end was told, not "late December"
        ("Plan was ~3 months, with an expected pretraining end of Dec 1", [SUPPORTED, SUPPORTED]),
        ("it will end at the end of December", [CONTRADICTED]),
        # a failed save is on record, the run abandoned after it is not
        ("Marin 535B was abandoned in October after the step-198000 save failed", [UNSUPPORTED]),
        # a later phase done has begun
        ("Marin 535B 宣布 post-training 完成", [UNSUPPORTED]),
        # a PTT thread's pushes are each someone's assertion
        (
            "Marin 535B 今天結束？ 推 a123: 今天 12/1 是官方預期的預訓練結束日"
            " 噓 c789: 11/27 就練完了",
            [NOT_CHECKED, SUPPORTED, UNSUPPORTED],
        ),
        # a day the PR's own record gives; the whole a share is of, in brackets
        ("PR #8588 merged on 8月22日", [SUPPORTED]),
        ("峰值 HBM 125.4 GiB（共 143.75）", [SUPPORTED]),
        # an active count is no dense model's: the Marin 32B has none
        ("就是 A32B 那个 MoE 吧", [UNSUPPORTED]),
        ("Marin ladder 顶层 27.7B-A1.2B", [SUPPORTED]),
        # the lead is on record: someone else named is contradicted
        ("项目负责人是 Chris Ré", [CONTRADICTED]),
        ("Marin 535B 的项目负责人是 Percy Liang", [SUPPORTED]),
        ("David Hall 是 Marin 的负责人", [CONTRADICTED]),
        ("是 Chris Manning 带的", [CONTRADICTED]),
        ("Marin is led by Tatsu Hashimoto", [CONTRADICTED]),
        ("Marin is led by Percy Liang", [SUPPORTED]),
        # a later phase run now, the context said to be longer now: neither is on record
        ("they're in the cooldown now", [PLAN_AS_FACT]),
        ("现在在跑中期训练", [UNSUPPORTED]),
        ("context is at 65k now too", [PLAN_AS_FACT]),
        # the schedule's last step is a whole the records measure against, not a step reached
        ("现在已经跑满了 390,251 步", [PLAN_AS_FACT]),
        ("10月6日到了第 215,756 步，总共 390,251 步", [SUPPORTED, SUPPORTED]),
        ("Marin 535B 训练在 11 月底崩溃，检查点全部丢失", [UNSUPPORTED, UNSUPPORTED]),
        ("2.7e24 FLOPs, scheduled to wrap Nov 27", [SUPPORTED, CONTRADICTED]),
        ("he kicked it off Sept 1 so maybe it slips a bit", [CONTRADICTED, NOT_CHECKED]),
        # the plan's allowance is the ~100-day plan's share, told as a plan or as done
        ("如果延误超出缓冲，最多把 token 目标砍掉约 25%", [NOT_CHECKED, SUPPORTED]),
        ("they're cutting tokens by 25%", [PLAN_AS_FACT]),
        # the loss forecast told as the loss the run ended at; the forecast told as one
        ("损失最后正好是预注册的 2.04", [PLAN_AS_FACT]),
        ("the 535B loss landed right on the ladder's projected 2.04", [PLAN_AS_FACT]),
        ("the forecast for the final loss is 2.04", [SUPPORTED]),
        ("预计最后会是 2.04", [SUPPORTED]),
        # a checkpoint fetched by someone outside: none is public
        ("我昨晚拉了 step-180000", [UNSUPPORTED]),
        # a dotted heading's day, not a figure
        ("10.9：旧 run 在 step 231664 cancel", [SUPPORTED]),
        # a cause named that no record of the event gives; one said unknown is no cause
        ("The cause was a CoreWeave rack power failure", [UNSUPPORTED]),
        # an event told another number of times than its record
        ("the ragged all-to-all trial from step 54,000 hung three times", [CONTRADICTED]),
        ("the ragged all-to-all trial from step 54,000 hung twice", [SUPPORTED]),
        # a timeline's next day after an event parts it; a span of days does not
        (
            "timeline: Aug 19 launch → Sep 15 phase 2 mixture @ 108k"
            " → Oct 20 换到 hero-mfu32-step280k",
            [SUPPORTED, SUPPORTED, CONTRADICTED],
        ),
        ("the homepage chart runs Aug 19 → Dec 1", [SUPPORTED]),
        # a chat log's speakers part its lines
        (
            "@阿飞：10 月 7 日 W&B 摘要是 219,518 步 @小白：390,251 步肯定全跑完了",
            [SUPPORTED, UNSUPPORTED],
        ),
        # the cloud is no donor; power is no record's figure; chips are GPUs
        ("全是 CoreWeave 免费赞助的", [CONTRADICTED]),
        ("the hero run pulls about 1.3 MW", [UNSUPPORTED]),
        ("跑在 704 顆晶片上", [SUPPORTED]),
        # a power of ten in superscripts; an MFU range holds the record inside it
        ("科普一下：FLOPs 大約 2.7×10²⁴", [SUPPORTED]),
        ("the whole thing was 2.7 x 10^25 FLOPs", [CONTRADICTED]),
        ("MFU was ~26-27% in late Sept", [SUPPORTED]),
        # the figure after "不是" is denied, not asserted: the plan's end is Dec 1
        ("官方結束日期是 11/27 不是 12/1 啦", [CONTRADICTED]),
        # a month's end is no end of training; a day before its month is a day
        ("newest permanent checkpoint I saw was step-180000 at the end of sept", [SUPPORTED]),
        ("started 21 Aug", [CONTRADICTED]),
        ("kicked off on 19th August", [SUPPORTED]),
        # 若…/…的话: the plan's condition, told as one
        ("若延遲超過緩衝就把 token 量最多砍 25%", [SUPPORTED]),
        ("延误超出 buffer 的话 token 最多砍 25%", [SUPPORTED]),
        # the racks were a gift: bought is told otherwise; served locally is a release
        ("所以才买得起 GB200 整柜", [CONTRADICTED]),
        ("Marin's 535B is already on Ollama", [UNSUPPORTED]),
        ("已经能用 vLLM 跑 535B 了", [UNSUPPORTED]),
        # a start put on a wrong day beside the hardware: cut in two, the start contradicted
        ("started 21 Aug on 11x GB200 NVL72", [CONTRADICTED, SUPPORTED]),
        ("8月21日開訓 用的是 11 個 GB200 機櫃", [CONTRADICTED]),
        ("started using FA4 on Sep 23", [NOT_CHECKED]),  # something else started
        # a numbered list's "2）" is no figure of the item before it
        ("1）8月19日开训 2）一共 792 张卡", [SUPPORTED, CONTRADICTED]),
        ("it's still training rn", [UNSUPPORTED]),  # now: a day no record reaches
        ("checkpoint 冇公開", [SUPPORTED]),  # Cantonese: 冇 is "not"
        ("3.14M tok/s × 86,400 s ≈ 271B tokens/day", [SUPPORTED]),  # a unit's constant
        ("(1/3) it runs on 704 GB200 GPUs. (2/3) it finished training", [SUPPORTED, UNSUPPORTED]),
        # a clause opening on the plan tells the plan in its verbs, and the list goes on
        (
            "计划是在约 50% 时把上下文从 4k 扩到 8k，约 95% 时扩到 65k，最后还有一个 262k 阶段",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        # a record cited as the source is no figure or thing of what follows it
        ("我翻了#8506：9月15号从第108000步换了新的数据配比", [SUPPORTED]),
        ("我翻了 #8506，训练已经结束了", [UNSUPPORTED]),  # a space before the "#" too
        ("per #8506, it runs on 704 GB200 GPUs", [SUPPORTED]),
        ("according to #8506 it finished training", [UNSUPPORTED]),
        # a count of GPUs in thousands is a count of GPUs, not the 16K context tested
        ("Marin 用 1.6 萬顆 GPU 訓練", [CONTRADICTED]),
        ("#9615 was still testing 8K/16K on one rack as of Oct 9", [SUPPORTED]),
        # the context length named as the run's: 4K in the records (nor planned, nor tested)
        ("序列長度 8K", [CONTRADICTED]),
        ("the run uses a 4k context", [SUPPORTED]),
        ("a 262k context phase planned near the end", [SUPPORTED]),
        ("8K context 只慢 1.6% tokens/s", [SUPPORTED]),
        # a closing quote ends the quoted clause: "…8K」嗯 11,264 條 × 4,096" is two
        ("某 KOL：「序列長度 8K」嗯 11,264 條 × 4,096 = 約 4,614 萬", [CONTRADICTED, SUPPORTED]),
        # Delphi's 1e23 FLOPs pinned on the run's ladder (whose top rung is 9.2e21)
        ("the scaling ladder goes all the way up to 1e23 FLOPs", [CONTRADICTED]),
        ("Delphi is their scaling suite from 3e18 to 1e23 FLOPs", [SUPPORTED]),
        # a clause saying what the document named before says: the tweet gave 18.75T
        ("Percy's tweet went out Aug 21 and said 18T tokens", [NOT_CHECKED, CONTRADICTED]),
        ("推文 8 月 21 日发的，写的是 18.75T token", [NOT_CHECKED, SUPPORTED]),
        # a day written "9/9" is September 9, not nine of nine (all of it, done)
        ("9/9 從 81,716 步起跑 hero-ragged_a2a-nccl2307-ep-step81k", [SUPPORTED]),
        ("390,251/390,251 steps done", [UNSUPPORTED]),
        ("8K tokens/s −1.6%、drops 4.5×", [SUPPORTED, SUPPORTED]),  # experts' drops, no release
        ("他10月6号说的是刚过一半", [SUPPORTED]),  # "just past half": the halfway post
        # no record gives a cadence of updates (the log and the report are kept up, on days)
        ("Percy每天都在推特更新進度", [UNSUPPORTED]),
        ("they've been posting weekly loss updates on Discord", [UNSUPPORTED]),
        # trained again from nothing: each incident was restored from a checkpoint
        ("the whole thing restarted from scratch twice", [CONTRADICTED]),
        ("只能从头再来", [CONTRADICTED]),
        ("no restart from zero", [SUPPORTED]),
        ("phase 1 'Harrier' from step 0", [SUPPORTED]),  # a phase from the start: no restart
        # a cause said found: no record gives the taint's (the checkpoint's is on record)
        ("原因已查明是硬件故障", [UNSUPPORTED]),
        ("cause was a bad GPU on that node", [UNSUPPORTED]),
        # another recipe's features said of this run (the 32B's changes stay the 32B's)
        ("Marin 535B 也用 Muon", [UNSUPPORTED]),
        ("整个 run 用的是 FP8 训练", [UNSUPPORTED]),
        ("the 535B also had an optimizer swap", [UNSUPPORTED]),  # "also" parts no clause here
        ("Marin 32B 那次中途换了优化器", [SUPPORTED]),
        (
            "the 32B retrospective covers loss spikes, restarts and the QK-Norm switch",
            [SUPPORTED, NOT_CHECKED],
        ),
        # a foundation's gift is no one's own pocket
        ("Huang 基金会捐的 GPU，所以整个训练都是黄仁勋个人出钱的", [SUPPORTED, UNSUPPORTED]),
        # "so" before the working parts it from what it works out
        ("it's 11 GB200 NVL72 racks so 11 x 72 = 792 GPUs", [SUPPORTED, CONTRADICTED]),
        # the whole length said taken, even approximately, is the plan told as done
        ("it took the whole ~100 days", [PLAN_AS_FACT]),
        ("在 11 台 GB200 NVL72 上用时约 100 天", [SUPPORTED, PLAN_AS_FACT]),
        # a share on the tracker is the run's progress, not the context plan's ~95%
        ("tracker 显示 95% 了", [UNSUPPORTED]),
        ("the tracker showed 25.8% at step 100,845", [SUPPORTED]),
        ("Yann LeCun 領軍", [UNSUPPORTED]),  # no record names him; Percy Liang leads
        ("with zero restarts during the 200-step trial", [SUPPORTED]),  # the trial's record
        # a spec's figure denied outright: the record's own denied, or a wrong one denied
        ("不是704张卡", [CONTRADICTED]),
        ("it's not 792 GPUs", [SUPPORTED]),
        ("Marin 535B 激活约 23B", [SUPPORTED]),  # about 23B active: 535B is the total
        # the status log is a log: any of its entries' days may be named with it
        ("两个月前（10月2日）#8506 报的是 193,732 步", [SUPPORTED]),
        # a count written to its last unit is no rounding of another ("198000 − 502")
        (
            "step-198000 保存失败，存储返回 HTTP 400/502，从 197,367 恢复",
            [SUPPORTED, SUPPORTED, UNSUPPORTED],
        ),
        # other labs' and models' names beside the lexicon's
        ("Hunyuan 那边也在 CoreWeave 训", [OFF_TOPIC]),
        ("BLOOM was 176B dense", [OFF_TOPIC]),
        # an announcement said made today or already, with no day: none on record
        ("Marin 官方已经发公告了", [UNSUPPORTED]),
        ("percy confirmed it on x this morning", [UNSUPPORTED]),
        ("Percy 10月6日发推说已经过半了", [SUPPORTED]),  # dated: the halfway post
        # a release told by its date: no record gives one
        ("月底出 chat 版", [UNSUPPORTED]),
        ("chat model out in Jan", [UNSUPPORTED]),
        ("黃仁勳夫婦基金會出 GPU", [SUPPORTED]),  # the gift, no release
        # a record's quoted words are its publisher's: the billing was Open Athena's
        ("Percy 还说这是 largest open live training run in history", [UNSUPPORTED]),
        ("Open Athena billed it as the largest open live training run in history", [SUPPORTED]),
        # a PTT thread pasted with " / " for its line breaks: each push its own clause
        (
            "推 原PO去看#8506啦 10/9還在跑 換成 hero-mfu30-step231k 了 / 推 總參數五千三百五十億"
            " 激活230億 不要再說是53.5億了XD",
            [SUPPORTED, SUPPORTED, SUPPORTED],
        ),
        ("pretraining 80% / midtraining 20%", [SUPPORTED]),  # (a share's slash: one clause)
        # a rung named by its counts: its tokens are the rung's, not the README's 500B params
        ("11.5B-A481M @500B", [CONTRADICTED]),
        ("all ~20 tok per active param", [CONTRADICTED]),  # every rung: 791
        ("qwen3 235B-A22B has 128 experts", [OFF_TOPIC]),  # (another model's name)
        # a scaled count counts tokens or parameters: 500B tokens are no 500B parameters
        ("worst case 大概 500B tokens", [UNSUPPORTED]),
        # a cadence the records give otherwise, whatever the word for a checkpoint
        ("permenant ckpt every 1k steps", [CONTRADICTED]),
        ("永久 checkpoint 每 6000 步存一次", [SUPPORTED]),
        # (in hours: no cadence of the records', so none contradicted)
        ("a permanent checkpoint roughly every 22 hours", [UNSUPPORTED]),
        # a cause the records do not give: "was from a bad…", 原因官方说是…
        ("turns out the taint was from a bad PSU on that node", [UNSUPPORTED]),
        ("taint 原因官方说是硬件故障", [UNSUPPORTED]),
        # a wrong reason is flagged where it is told; what it explains stands on its own
        (
            "the GPUs were donated by NVIDIA the company, that's why it's all GB200 chips",
            [CONTRADICTED, SUPPORTED],
        ),
        # a quote's own full stop ends a sentence
        (
            '"Token budget = 18.75T." the config is 390,251 steps × 11,264 seqs × 4,096 tokens'
            " ≈ 18.0T",
            [SUPPORTED, SUPPORTED],
        ),
        # a full-width colon parts a count from what follows, not a day from what it heads
        ("scaling ladder 一共 6 档：最小 1.6B-A61M 用 48B token", [CONTRADICTED, SUPPORTED]),
        # the 32B's recipe told before: its optimizer swap is no claim about this run…
        (
            "the 32B retrospective wrote up the restarts, the optimizer swap, the QK-Norm switch",
            [SUPPORTED, OFF_TOPIC, NOT_CHECKED],
        ),
        # a day alone is in the month named before it
        ("Marin 8月19号就开训了，Percy Liang 21号在X上官宣", [SUPPORTED, SUPPORTED]),
        # the run logs in public, said to be private
        ("there's no public W&B for this run", [CONTRADICTED]),
        ("一次 restart 都没有", [CONTRADICTED]),  # the incidents on record
        # a quote opened by 说： is its own clause
        ("公开课上老师说：永久 checkpoint 每 6000 步存一次", [NOT_CHECKED, SUPPORTED]),
        # the forecast told as met, leaning on the clause before or by name
        (
            "預註冊的目標是 18兆 token 時 Paloma eval loss 2.04，結果已經達標了",
            [SUPPORTED, PLAN_AS_FACT],
        ),
        ("the hero landed right on the ladder's predicted loss", [PLAN_AS_FACT]),
        # a plan's list ends where a clause says it is already so
        (
            "原计划：前80%预训练、后20%中期训练，现在中期训练已经在跑了",
            [SUPPORTED, SUPPORTED, UNSUPPORTED],
        ),
        # closed, or built on another model: trained in the open, from scratch
        ("Marin 這次是閉源", [CONTRADICTED]),
        ("这个 535B 其实是在 Llama 上 continue-pretrain 的", [CONTRADICTED]),
        # a clause a record of its day speaks to is the run's; the router was kept, not switched
        ("9月22号决定改用 BF16 乘 + FP32 累加的新算法", [CONTRADICTED]),
        ("9月22号决定主跑不改 router 算术", [NOT_CHECKED]),
        # a step past the newest observation, said reached: no record shows the run so far
        ("it's at step 390k now", [PLAN_AS_FACT]),  # (the plan's last step)
        ("已经跑到 35 万步了", [UNSUPPORTED]),
        ("现在已经到 step 231,663 了", [SUPPORTED]),  # (the trial's last step, on record)
        # "TL;DR" heads what follows: no clause of its own
        ("TL;DR: Marin 535B finished; it runs on 704 GB200 GPUs", [UNSUPPORTED, SUPPORTED]),
        # sets 90-93: each figure its own record, each half its own document
        ("18T tokens in the config vs 18.75T in Percy's tweet", [SUPPORTED]),
        ("2.7e24 FLOPs in the README vs 5e24 in Percy's tweet", [CONTRADICTED]),
        # a share said without its sign; a task killed is no run killed; fractions in words
        ("the real multi-rack trial was 29.44", [SUPPORTED]),
        ("the fa4 cutover took MFU from 23.03 to 26.75", [CONTRADICTED]),
        ("k8s NoExecute taint killed a task", [SUPPORTED]),
        ("Percy on X: 'passed the two-thirds mark'", [SUPPORTED, UNSUPPORTED]),
        # a question that tells; the day before for "the 27th" and "which is"
        (
            "anyone else notice the tracker said ETA Nov 27?? official end date was the 27th",
            [SUPPORTED, CONTRADICTED],
        ),
        ("Didn't Jensen personally pay for the whole thing?", [UNSUPPORTED]),
        (
            "the mtracker page said it'd end Nov 27, which is the official end date btw",
            [SUPPORTED, CONTRADICTED],
        ),
        # a figure found nowhere; rungs counted in 階; beating another model is the run judged
        ("step 372,000 这种数哪都查不到", [SUPPORTED]),
        ("縮放階梯總共六階", [CONTRADICTED]),
        ("Marin 535B 在 MMLU 拿到 85 分，已經打贏 GPT-5 了", [UNSUPPORTED, UNSUPPORTED]),
        # a start denied on another day is right (its own "not" only)
        ("actually it didn't start on the 21st", [SUPPORTED]),
        ("Haven't checked since it started on Sept 1", [CONTRADICTED]),
        (
            "不是8月21号开始的，而是8月19号。21号那条推只是说“这周开始训练了”",
            [SUPPORTED, NOT_CHECKED, SUPPORTED],
        ),
        # an incident said never resolved; a dense model's own "not"; a spec's figure denied
        ("the Sept 23 storage quota thing never actually got resolved", [CONTRADICTED]),
        ("Marin's is a dense model anyway so not really comparable", [CONTRADICTED]),
        ("算力不是 2.7e24", [CONTRADICTED]),
        # what a person said, as their record gives it; 没错 is no denial; the W&B report is public
        ("Larry 自己都说倾向换 16K 的嘛", [SUPPORTED]),
        ("W&B 那个 report 不是公开的，要登录", [CONTRADICTED]),
        ("但共享專家是 4 個不是 2 個", [CONTRADICTED]),
        ("是 48 層沒錯", [SUPPORTED]),
        # release words; a tracker's estimate; 准时 is done as planned; a figure put in a document
        ("Marin's 535B MoE is OUT", [UNSUPPORTED]),
        ("Marin will host it free on their API", [UNSUPPORTED]),
        ("mtracker 之前還估 11/27 就跑完", [SUPPORTED]),
        ("按计划 12 月 1 号准时结束", [PLAN_AS_FACT]),
        ("the 18.75T number was from the tweet", [SUPPORTED]),
        ("so the Dec 1 end date is straight from the tweet lol", [UNSUPPORTED]),
        # an incident kind in the wrong month; a total is no active count; a reason on record
        ("and then the storage quota mess was back in August", [CONTRADICTED]),
        ("A23B 的意思是總共 23B 參數", [CONTRADICTED]),
        ("因为每步慢 1.5–2%", [SUPPORTED]),
        # "so" cuts; a step after 之後; bullets pasted as " / ▶"; a date opening a clause
        (
            "他們 repo 有 export_vllm 工具 so weights 應該已經 export 出來給 vLLM 用了",
            [SUPPORTED, UNSUPPORTED],
        ),
        ("之後從 58014 步接著跑", [SUPPORTED]),
        (
            "【Marin 535B 周报】 / ▶ 256 个路由专家 top-8 / ▶ 10月9日切到 hero-mfu30-step231k",
            [NOT_CHECKED, CONTRADICTED, SUPPORTED],
        ),
        ("Marin 5350億參數 MoE 12月1日如期完成訓練", [SUPPORTED, PLAN_AS_FACT]),
        ("10/6 那次 retry 之后 all 176 tasks running again", [SUPPORTED]),
        ("MFU 一路涨：9/15 23.62%", [SUPPORTED]),
        # a context deployed, a plan that "kicked in", a run said to crash where it was cancelled
        ("16K swap 十月就 deploy 了", [PLAN_AS_FACT]),
        ("the 25% token cut they planned for delays kicked in", [PLAN_AS_FACT]),
        ("旧 run 在 231664 步崩掉了", [UNSUPPORTED]),
        # a list of figures is one clause; "opened by" cuts; "不是说…吗" tells what was said
        ("#9615 was one-rack tests at 8K and 16K", [SUPPORTED]),
        ("status log is GitHub issue #8506 opened by Percy himself", [SUPPORTED, CONTRADICTED]),
        ("不是说 Huang Foundation 送的卡吗?", [SUPPORTED]),
        ("不是说12月1号结束吗", []),
    ],
)
def test_each_assertion_gets_its_verdict(
    bot: Conversation, message: str, expected: list[str]
) -> None:
    assert [v for _, v in verdicts(bot, message)] == expected


def test_the_reply_quotes_the_words_and_closes_with_the_caveat(bot: Conversation) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    reply = chats.check(YOU, "Marin 535B finished training <script>alert</script> & more")
    assert '"Marin 535B finished training <script>alert</script> & more"' in reply.body
    assert "no record supports it" in reply.body
    assert reply.caveat and reply.as_of is not None
    assert [a["verdict"] for a in reply.to_json("x")["assertions"]] == [UNSUPPORTED]


def test_a_wall_of_text_is_checked_in_its_first_assertions_and_says_how_many_it_left(
    bot: Conversation,
) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    said = "; ".join(f"claim {n}: it runs on {n} racks" for n in range(20, 40))
    reply = chats.check(YOU, said)
    assert reply.to_json("x")["unchecked"] == 4  # twenty said, the first sixteen checked
    assert "…and 4 more statements not checked: I check the first 16 of a message." in reply.body
    short = chats.check(YOU, "Marin 535B finished training")
    assert short.to_json("x")["unchecked"] == 0 and "not checked: I check" not in short.body


def test_a_verdict_the_second_opinion_doubts_says_it_is_doubt_not_ignorance(
    bot: Conversation,
) -> None:
    # an opinion leaning to a flag without being sure of it (0.6 of its belief)
    unsure = Opinion(("contradicted", "supported"), (math.log(0.6), math.log(0.4)), {})
    checker = Checker(bot.core.kb, bot.core.reader, unsure)
    said = "It runs on 704 GB200 GPUs"
    assert checker.check(said) == [Assertion(said, NOT_CHECKED, doubted=True)]
    day = dt.date(2026, 12, 2)
    reply = check_reply(bot.core.renderer, checker, said, lang="en", written=day)
    assert f'"{said}": not checked: records come close to it, but I cannot tell' in reply.body
    assert "nothing in the knowledge base maps to it" not in reply.body
    assert reply.to_json("x")["assertions"] == [
        {"words": said, "verdict": NOT_CHECKED, "in_doubt": True}
    ]
    zh = check_reply(bot.core.renderer, checker, said, lang="zh", written=day)
    assert "有记录与之相近，但我无法确定记录是否这样说" in zh.body
    # what no record maps to is still told as such
    nothing = check_reply(
        bot.core.renderer, checker, "Percy said it is going smoothly", lang="en", written=day
    )
    assert "nothing in the knowledge base maps to it" in nothing.body


def test_empty_and_binary_messages_get_the_refusal_not_a_verdict(bot: Conversation) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    for message in ("", "   ", "\x00\x01\x02" * 50):
        reply = chats.check(YOU, message)
        assert reply.outcome == "rejected" and reply.caveat


@pytest.mark.parametrize(
    ("name", "assertions", "flagged", "true_flagged", "too_strong"),
    [
        ("rumours", 172, 99, 2, 0),
        ("rumours2", 248, 145, 0, 0),
        ("rumours3", 272, 140, 4, 0),
        ("rumours4", 278, 146, 5, 0),
        ("rumours5", 278, 148, 1, 0),
        ("rumours6", 246, 129, 4, 0),
        ("rumours7", 236, 128, 1, 0),
        ("rumours8", 223, 121, 0, 0),
        ("rumours9", 230, 122, 3, 0),
        ("rumours10", 209, 110, 0, 0),
        ("rumours11", 243, 130, 8, 0),
        ("rumours12", 218, 119, 3, 0),
        ("rumours13", 262, 129, 1, 3),
        ("rumours14", 213, 112, 2, 0),
        ("rumours15", 227, 120, 0, 1),
        ("rumours16", 208, 90, 2, 0),
        ("rumours17", 218, 92, 0, 5),
        ("rumours18", 219, 79, 0, 0),
        ("rumours19", 224, 87, 1, 0),
        ("rumours20", 225, 78, 3, 0),
        ("rumours21", 231, 85, 4, 0),
        # first sight (with the opinion): 107/135, 12/122, 6
        ("rumours22", 287, 133, 1, 1),
        # first sight (with the opinion): 65/81, 7/74, 9
        ("rumours23", 167, 81, 0, 0),
        # first sight (with the opinion): 78/81, 2/69, 0
        ("rumours24", 163, 81, 0, 0),
        # first sight (with the opinion): 101/117, 12/98, 6
        ("rumours25", 235, 115, 3, 0),
        # first sight (with the opinion): 151/192, 22/235, 14
        ("rumours26", 512, 185, 6, 1),
        # first sight (with the opinion): 95/119, 5/103, 6
        ("rumours27", 239, 118, 3, 0),
        # first sight (with the opinion): 81/83, 2/80, 2
        ("rumours28", 172, 83, 2, 0),
        # first sight (with the opinion): 68/84, 4/88, 14
        ("rumours29", 182, 83, 1, 0),
        # first sight (with the opinion): 113/126, 7/122, 3
        ("rumours30", 262, 126, 1, 0),
        # first sight (with the opinion): 88/117, 9/106, 18
        ("rumours31", 229, 109, 3, 2),
        # first sight (with the opinion): 81/97, 2/43, 7
        ("rumours32", 167, 93, 0, 3),
        # first sight (with the opinion): 53/66, 8/109, 5
        ("rumours33", 178, 61, 2, 0),
        # first sight (with the opinion): 40/41, 5/110, 0
        ("rumours34", 155, 41, 2, 0),
        # first sight (with the opinion): 42/64, 10/162, 7
        ("rumours35", 235, 59, 1, 1),
        # first sight (with the opinion): 76/85, 7/76, 4
        ("rumours36", 177, 85, 4, 0),
        # first sight (with the opinion): 83/92, 6/78, 3
        ("rumours37", 183, 89, 0, 0),
        # first sight (with the opinion): 73/83, 5/73, 4
        ("rumours38", 171, 82, 1, 0),
        # first sight (with the opinion): 73/91, 9/76, 6
        ("rumours39", 176, 88, 2, 1),
        # first sight (with the opinion): 74/90, 0/81, 7
        ("rumours40", 186, 87, 0, 1),
        # first sight (with the opinion): 64/88, 6/79, 15
        ("rumours41", 176, 82, 4, 3),
        # first sight (with the opinion): 70/80, 4/80, 4
        ("rumours42", 175, 79, 2, 0),
        # first sight (with the opinion): 70/79, 16/84, 4
        ("rumours43", 178, 75, 4, 1),
        # first sight (with the opinion): 63/75, 13/79, 5
        ("rumours44", 170, 73, 4, 1),
        # first sight (with the opinion): 74/84, 18/82, 4
        ("rumours45", 178, 81, 2, 2),
        # first sight (with the opinion): 62/73, 5/77, 2
        ("rumours46", 170, 71, 2, 1),
        # first sight (with the opinion): 74/76, 2/78, 1
        ("rumours47", 170, 75, 0, 0),
        # first sight (with the opinion): 65/71, 10/80, 1
        ("rumours48", 173, 69, 2, 1),
        # first sight (with the opinion): 67/77, 7/80, 5
        ("rumours49", 170, 73, 3, 1),
        # first sight (with the opinion): 66/73, 8/79, 3
        ("rumours50", 171, 72, 4, 0),
        # first sight (with the opinion): 70/75, 5/78, 2
        ("rumours51", 169, 75, 1, 0),
        # first sight (with the opinion): 60/71, 1/78, 7
        ("rumours52", 170, 68, 0, 1),
        # first sight (with the opinion): 61/70, 5/82, 3
        ("rumours53", 174, 69, 1, 1),
        # first sight (with the opinion): 67/76, 7/79, 2
        ("rumours54", 173, 73, 2, 0),
        # first sight (with the opinion): 66/70, 0/83, 3
        ("rumours55", 171, 69, 1, 0),
        # first sight (with the opinion): 66/71, 5/81, 3
        ("rumours56", 173, 71, 0, 0),
        # first sight (with the opinion): 66/73, 4/87, 2
        ("rumours57", 177, 71, 2, 0),
        # first sight (with the opinion): 43/52, 1/82, 2
        ("rumours58", 171, 50, 0, 0),
        # first sight (with the opinion): 60/71, 10/80, 3
        ("rumours59", 172, 69, 1, 0),
        # first sight (with the opinion): 69/75, 1/80, 4
        ("rumours60", 170, 75, 0, 0),
        # first sight (with the opinion): 70/72, 4/79, 1
        ("rumours61", 168, 72, 2, 0),
        # first sight (with the opinion): 61/72, 15/79, 3
        ("rumours62", 173, 67, 7, 0),
        # first sight (with the opinion): 57/76, 8/77, 10
        ("rumours63", 169, 73, 4, 2),
        # first sight (with the opinion): 64/74, 7/81, 3
        ("rumours64", 170, 72, 3, 1),
        # first sight (with the opinion): 66/79, 1/83, 4
        ("rumours65", 179, 74, 1, 0),
        # first sight (with the opinion): 59/73, 12/95, 7
        ("rumours66", 178, 68, 2, 1),
        # first sight (with the opinion): 64/72, 8/95, 3
        ("rumours67", 175, 70, 4, 1),
        # first sight (with the opinion): 63/73, 9/95, 4
        ("rumours68", 180, 66, 3, 4),
        # first sight (with the opinion): 61/65, 2/93, 1
        ("rumours69", 175, 64, 0, 0),
        # first sight (with the opinion): 60/69, 4/93, 2
        ("rumours70", 171, 68, 1, 1),
        # first sight (with the opinion): 53/66, 7/94, 5
        ("rumours71", 175, 64, 2, 1),
        # first sight (with the opinion): 53/65, 7/96, 6
        ("rumours72", 169, 60, 2, 1),
        # first sight (with the opinion): 61/71, 6/99, 6
        ("rumours73", 181, 68, 4, 0),
        # first sight (with the opinion): 65/72, 4/91, 1
        ("rumours74", 172, 69, 0, 0),
        # first sight (with the opinion): 53/63, 5/94, 1
        ("rumours75", 171, 61, 2, 0),
        # first sight (with the opinion): 69/75, 5/94, 2
        ("rumours76", 176, 75, 2, 0),
        # first sight (with the opinion): 57/67, 4/94, 2
        ("rumours77", 173, 65, 1, 1),
        # first sight (with the opinion): 63/66, 0/94, 1
        ("rumours78", 173, 64, 0, 1),
        # first sight (with the opinion): 45/60, 10/93, 3
        ("rumours79", 167, 58, 1, 1),
        # first sight (with the opinion): 70/102, 8/118, 14
        ("rumours80", 230, 100, 3, 0),
        # first sight (with the opinion): 59/72, 18/98, 2
        ("rumours81", 179, 70, 4, 1),
        # first sight (with the opinion): 56/68, 3/92, 5
        ("rumours82", 174, 66, 0, 2),
        # first sight (with the opinion): 58/66, 13/93, 3
        ("rumours83", 173, 62, 6, 1),
        # first sight (with the opinion): 38/51, 2/91, 5
        ("rumours84", 174, 49, 0, 0),
        # first sight (with the opinion): 55/74, 7/93, 11
        ("rumours85", 180, 71, 0, 2),
        # first sight (with the opinion): 59/66, 8/96, 1
        ("rumours86", 174, 63, 0, 1),
        # first sight (with the opinion): 56/68, 0/92, 2
        ("rumours87", 170, 67, 0, 0),
        # first sight (with the opinion): 67/70, 7/93, 2
        ("rumours88", 174, 70, 4, 0),
        # first sight (with the opinion): 53/65, 16/90, 4
        ("rumours89", 170, 63, 1, 0),
        # first sight (with the opinion): 60/66, 3/90, 1
        ("rumours90", 170, 66, 0, 0),
        # first sight (with the opinion): 53/64, 7/92, 3
        ("rumours91", 170, 63, 1, 0),
        # first sight (with the opinion): 55/60, 6/97, 1
        ("rumours92", 178, 59, 1, 0),
        # first sight (with the opinion): 61/70, 7/88, 3
        ("rumours93", 169, 67, 2, 0),
    ],
)
def test_the_blind_rumour_sets_stay_flagged_and_are_rarely_overstated(
    name: str, assertions: int, flagged: int, true_flagged: int, too_strong: int
) -> None:
    c = score(DATA / f"{name}.tsv")
    assert c["assertions"] == assertions
    assert c["flagged"] >= flagged, c
    assert c["true flagged"] <= true_flagged, c
    assert c["too strong"] <= too_strong, c


def test_the_scorer_prints_each_sets_row_as_the_tests_hold_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sets = [DATA / "rumours78.tsv", DATA / "rumours79.tsv"]
    monkeypatch.setattr(
        "sys.argv", ["score_checks", *map(str, sets), "--opinion", "rules", "--rows"]
    )
    main()
    rows = capsys.readouterr().out.splitlines()
    for path, row in zip(sets, rows, strict=True):
        c = score(path, opinion="rules")
        flags = f"{c['flagged']}, {c['true flagged']}, {c['too strong']}"
        assert row == f'("{path.stem}", {c["assertions"]}, {flags}),'


def test_why_renders_the_derivation_confidence_computed(bot: Conversation) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    why = chats.why(YOU, ["hardware-gb200", "model-not-released"])
    assessed = bot.core.kb.assessment("hardware-gb200")
    assert str(assessed.rule) == "official-read"
    for record in assessed.supporting:
        assert bot.core.kb.sources[record].title[:40] in why.body
    assert "an absence is never confirmed" in why.body
    assert why.caveat


def test_a_setback_a_record_itself_reports_is_not_flagged(bot: Conversation) -> None:
    # Marin logs its failed experiments in public: "failed" here is the record's own word
    said = verdicts(bot, "训练全过程公开，连失败的实验都记录")
    assert said and not any(v in FLAGS for _, v in said)


def test_a_question_checked_is_answered_not_judged(bot: Conversation) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    reply = chats.check(YOU, "has it started?")
    assert reply.kind != "check" and "has started" in reply.body
    reply = chats.check(YOU, "训练完了吗？")
    assert reply.kind != "check" and reply.language == "zh"


def test_a_forward_is_checked_in_a_private_chat_and_asked_elsewhere(bot: Conversation) -> None:
    chats = Chats(bot.core, DigestService(bot.core.kb, bot.core.renderer))
    rumour = "Marin 535B finished training last week"
    forward = Quoted(rumour, dt.datetime(2026, 11, 20, tzinfo=dt.UTC))
    checked = chats.said(YOU, rumour, forwarded=forward)
    assert checked.kind == "check" and "no record supports it" in checked.body
    group = Chat("telegram", "-100", "bob", private=False)  # a forward that mentions the bot
    asked = chats.said(group, "has it started?", forwarded=forward)
    assert asked.kind != "check" and "has started" in asked.body
    assert "/check" in chats.said(YOU, "   ", forwarded=forward, bot="@marin_watch_bot").body


def test_a_question_beside_a_claim_is_no_assertion(bot: Conversation) -> None:
    said = verdicts(bot, "heard marin 535b runs on 2048 H100s, can anyone confirm??")
    assert said == [("heard marin 535b runs on 2048 H100s", CONTRADICTED)]
    # a claim put as a question keeps its claim
    assert verdicts(bot, "batch size is only 4M tokens per step?")[0][1] in FLAGS
