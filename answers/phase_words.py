"""The words of the run's phases: a later phase (midtraining, post-training, the cooldown)
begun, and the context length changed. No record shows either: pretraining is still in its
first context length and no later phase has started (``judgments.overclaim``,
``plans.plan_as_fact``). Folded text, as in ``verdict_words``.
"""

from __future__ import annotations

import re

LATER_PHASE = re.compile(
    r"\b(?:mid-?training|post-?training|rlhf|rl|sft|instruct|cool-?down)\b|中期训练|中期訓練"
    r"|中训|中訓|后训|後訓"
    r"|后训练|後訓練|冷却|冷卻|微调"
)
# A phase begun, or run now: "in the cooldown now", "moving into midtraining", "现在在跑"
BEGUN = re.compile(
    r"\b(?:start(?:ed|s)?|began|begun|kicked|underway|running|ran|doing|in progress|entered"
    r"|on|switched|deployed|rolled out|now in|currently in|now|moving into|moved into|going into"
    r"|wrapping up"
    r"|in the (?:cooldown|midtraining|mid-training|post-training))\b"
    r"|开始|開始|进入|進入|上了|已经|已經|在做|启动|啟動|在跑|正在|现在在|現在在|进了|進了"
)

# The context length said to be other than 4K now: no record shows it changed (the 8K/16K
# runs were one-rack tests: a sentence about a test stays about a test, see hedged()).
CONTEXT_CHANGED = re.compile(
    r"\b(?:extended|moved|swapped|switched|bumped|upgraded|running at|now at|trains? at|deployed"
    r"|went from)\b"
    r"|扩到|擴到|扩展到|擴展到|切到|改成|上了|现在是|現在是|切过去|切過去|换过去|換過去|切的|切了"
    r"|\bdeploy\s*了|上线了|上線了"  # "16K swap 十月就 deploy 了"
    r"|\bkicked (?:in|off)\b|\b(?:doing|rn|right now)\b"  # "doing the 262k phase rn"
    r"|\b(?:is|are) (?:running|underway|live|happening)\b|\b(?:went|goes|gone) live\b|在跑|正在跑"
    # "hero is on 16K", "context is at 65k now"
    r"|\b(?:hero|run|it|model|context|ctx|seq len|context window)(?: is|'s) (?:now |already )?"
    r"(?:on|at) (?=\d)"
)
