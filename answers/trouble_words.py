"""Words that tell of the run going wrong: late, failed, diverged, damaged, or, the other
way, never once in trouble. No record makes most of these judgments, so each is held against
the records of its own kind (``judgments.py``)."""

from __future__ import annotations

import re

# Nothing ever went wrong: the records hold incidents (since a handoff, none is on record).
NO_TROUBLE = re.compile(
    r"\b(?:zero|no|not a single|never had an?)\b.{0,20}\b(?:incidents?|crash(?:es)?|failures?"
    r"|outages?|hiccups?|hangs?|issues|problems)\b"
    r"|\bnever (?:crashed|failed|broke|restarted|hung)\b"
    r"|\b(?:been )?(?:stable|fine|smooth|clean) (?:ever )?since\b"
    # (not "no restarts during the trial": the trial's record says so)
    r"|\b(?:zero|not a single|never had an?)\b.{0,20}\b(?:restarts?|retries)\b(?!.{0,30}\btrial)"
    r"|\bsuper clean\b|(?:完全|从来|從來)?(?:没有|沒有)\s*(?:任何)?\s*(?:loss\s*)?(?:spikes?|尖峰)"
    r"|一次都没|一次都沒|没(?:崩|出错|出錯)过|沒(?:崩|出錯)過|零事故|零故障|从没出过|從沒出過"
    r"|再也没出过|再也沒出過|再也没出|再也沒出|再没出过|再沒出過|没出过问题|沒出過問題"
    # ("这个 run 从来没有 crash 过", "一次 restart 都没有")
    r"|(?:从来|從來)\s*(?:没有|沒有|没|沒)\s*(?:crash|restart|重启|重啟|出事|出问题|出問題)"
    r"|一次\s*(?:crash|restart|retry|重启|重啟|重试|重試)\s*都\s*(?:没|沒)"
)
# Trained again from nothing: the step counts only ever rose, restored from a checkpoint after
# each incident ("restarted from scratch", "只能从头再来"; not "phase 1 from step 0", nor
# "从头到尾都没换过", from start to end)
FROM_SCRATCH = re.compile(
    r"\b(?:restart\w*|start(?:ed|ing)? (?:over|again)|retrain\w*|re-?ran|redone|redo)\b"
    r".{0,24}\bfrom (?:scratch|zero|step 0|the (?:very )?(?:start|beginning))\b"
    r"|\bfrom scratch\b.{0,12}\b(?:again|twice)\b"
    r"|(?:从头|從頭)(?!到尾)\s*(?:再|重|开始|開始|来|來|训|訓)|(?:从零|從零)\s*(?:开始|開始|再|重)"
)
SINCE = re.compile(r"\b(?:after|since)\b|之后|之後|以来|以來")

# The run gone wrong or late: no record says so (the newest record is named instead). Each
# kind is held against the records on its own: a record of a failed save is no divergence.
LATE = re.compile(
    r"\b(?:behind|delayed|late(?!\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))|slipp(?:ed|ing)|sliding|abandon(?:ed)?|cancel(?:l?ed)?|dead"
    # (not a task killed: "k8s NoExecute taint killed a task")
    r"|killed(?! (?:a |one |the |that |\w+ )?(?:tasks?|pods?|process\w*|nodes?|workers?|hosts?)\b)"
    r"|stopped|halted|paused|scrapped|pulled the plug|shut down|moved on|slower than"
    r"|gave up|give up|giving up"
    r"|stepped away|left the project|ahead of schedule"
    r")\b|落后|落後|延期|推迟|推遲|放弃|放棄|取消|停了|烂尾|爛尾|暂停|不管|慢了|拖了|转头去|轉頭去|不搞了"
    # ahead of the plan is no more on record than behind it: "遠遠超前進度", "比預定早了十天"
    r"|停着|停著|停摆|停擺|超前|早了.{0,4}天|提前了.{0,4}天"
)
SETBACK = re.compile(
    r"\b(?:went flat|getting worse|roll(?:ed)? back a week|rolled back|rollback|rolling back"
    r"|roll(?:ed|ing)? (?:all the way )?back|restart(?:ed)? (?:all the way )?back"
    r"|failed|failing|plateau(?:ed|ing)?|crashed|went down(?!\s*(?:from|to|by|~|\d))"
    r"|lost (?:a|an|one|two|three|\d+|like \w+)(?: full)? (?:day|week|hour)s?"
    r"|blew up|broke|lost (?:the|all|every|their)\b.{0,30}\bcheckpoints?"
    r"|(?:was|were|been) down for"
    r")\b|崩溃|崩潰|丢失|丟失|崩了|崩掉|挂掉了|掛掉了|变差|變差|失败|失敗|抢救|搶救|回滚|回滾|平了|耽误|耽誤|黄了|黃了|没钱|沒錢|爆了|爆掉"
    r"|损失了.{0,4}[天周週]|損失了.{0,4}[天周週]|全丢了|全丟了|丢光|丟光"
)

# Hardware destroyed: no record says any was (the incidents are hangs, errors and saves).
# An incident said to be still unresolved: "never actually got resolved", "一直没修好"
UNRESOLVED = re.compile(
    r"\bnever (?:actually |really )?(?:got |was |been )?(?:resolved|fixed|recovered|sorted)\b"
    r"|\b(?:still|remains?) (?:unresolved|broken|unfixed)\b"
    r"|(?:一直|从来|從來|始终|始終)?(?:没|沒)(?:有)?(?:解决|解決|修好|恢复|恢復)"
)
DAMAGE = re.compile(
    r"\b(?:burn(?:ed|t)? (?:out|up|down)|fried|melted|caught fire|catch(?:ing|es)? fire|on fire"
    r"|exploded)\b"
    r"|烧了|燒了|烧坏|燒壞|烧掉|燒掉|炸了|起火|着火|著火|失火"
    # racks or nodes lost for good: "損失了兩個 NVL72", "lost two racks"
    r"|(?:损失|損失|少)了.{0,4}(?:个|個|台)?\s*(?:nvl72|机柜|機櫃|机架|機架|rack)"
    r"|\blost (?:a|one|two|three|\d+) (?:racks?|nodes?|nvl72s?)\b"
)

# The loss diverging or blowing up: no record says it did (a subset of BEHIND).
# (the loss blew up; a save or a quota that "blew up" failed: a setback)
DIVERGED = re.compile(
    r"\b(?:diverg(?:ed|es|ing)|spike[sd]?)\b|发散|發散|尖峰"
    r"|(?:loss|损失|損失|训练|訓練).{0,12}(?:\bblew up\b|\bexploded\b|爆掉|爆了|爆炸)"
)
WRONG = (DIVERGED, SETBACK, LATE)
# An outcome told of something: what only a record of its absence names has none ("the first
# eval at step 234000 came back clean": no record gives that eval's result)
OUTCOME = re.compile(
    r"\b(?:came (?:back|in|out)|look(?:s|ed)? (?:great|good|fine|clean)|clean|great)\b"
    r"|结果|結果|过了|過了|正常|很好|不错|不錯|出来了|出來了"
)

# What the run logs in public said to be private: the W&B report and the status log are public
PRIVATE = re.compile(
    r"\bno (?:public|open) (?:w&b|wandb|logs?|status log|dashboard|tracking)\b"
    r"|\b(?:w&b|wandb|status log|#8506|logs?) (?:is|are) (?:private|not public|internal)\b"
    r"|(?:w&b|wandb|日志|日誌|#8506)[^，,。]{0,12}?(?:没有|沒有|不是|不)(?:公开|公開)"
    r"|(?:w&b|wandb)[^，,。]{0,16}?(?:要登录|要登錄|需要登录|需要登錄|needs? (?:a )?login)"
)
