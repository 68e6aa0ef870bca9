"""Words that place an assertion in time: now, still, a time to come, the present tense.

A figure said of now is the newest record's ("MFU is 23% now" is September's figure); a later
time is one no record dates. Each pattern runs over folded text (``answers.text.fold``).
"""

from __future__ import annotations

import re

from answers.days import MONTH

# Said of the run as it is now, or still: "current run id", "still on 4k".
CURRENT = re.compile(
    r"\b(?:current|now|latest|newest|live|rn|still|today|active)\b|目前|当前|當前|现在|現在|最新|正在"
    r"|现役|現役"  # "现役 run": the one serving now
)
# Now, as against "still" or "live": the figure of the newest record is meant.
NOW = re.compile(
    r"\b(?:current(?:ly)?|now|latest|newest|rn|today|stuck)\b|目前|当前|當前|现在|現在|最新|卡在"
)
# Unchanged: "still 4k seq len" is no change.
STILL = re.compile(r"\bstill\b|仍|还是|還是|依然")
# A later time, for a later phase or a release: no record dates one.
# What will be, not what is: "will", 会, 将 (not 会议, a meeting, nor 将近, nearly)
WILL = re.compile(r"\b(?:will|going to)\b|(?<!不)会(?![议議])|(?<!不)會(?!議)|将(?!近)|將(?!近)")
FUTURE = re.compile(
    r"\b(?:next (?:week|month)|tomorrow|soon|in \w+ weeks?|any day now)\b"
    r"|下周|下週|下个月|下個月|明天|马上|馬上"
)
# The present, said of the run's progress with no day named: "it's barely 13% through" is
# now, and 13% was September 2's ("13% after two weeks", "was 13% on Sept 2" are not now).
_PRESENT = re.compile(
    r"\b(?:it'?s|is|are|sits|sitting|stands|standing)\b|%\s*(?:done|through|complete)\b"
)
# A time before now, named by an earlier clause: "Oct 1: … newest permanent ckpt then was
# step-180000" is the newest on Oct 1 ("and then" goes on, not back).
THEN = re.compile(
    r"\b(?:back then|at the time|by then)\b|(?<!and )(?<!^)\bthen\b|当时|當時|那时|那時"
)
# (a figure someone said is of when they said it: "Percy 在 X 上说 13% through")
_PAST = re.compile(
    r"\b(?:was|were|had|after|back then|at the time|by then|said|says|posted|tweeted)\b"
    r"|当时|當時|那时|那時|之后|之後|说|說"
)


def present(text: str) -> bool:
    """Whether the text states the present, naming no day or time of its own."""
    return bool(_PRESENT.search(text)) and not _PAST.search(text) and not MONTH.search(text)


# A change from one figure to another: two records, each of its own day ("MFU went from
# 26.47% to 29.44%").
CHANGE = re.compile(
    r"\bfrom\b.{0,40}\bto\b|\bvs\.?\b|\bup from\b|\bdown from\b|[从從].{0,20}[到至]|→|->"
)
# A context length the run had from its first step: it trained at 4K (the records to Oct 9).
FROM_START = re.compile(
    r"\bfrom (?:the )?(?:start|day one|day 1|step 0|the beginning)\b|\bnatively\b"
    r"|\bat (?:the )?(?:start|launch)\b"
    r"|\b(?:started|launched|began) (?:at|with|on) (?=\d)"  # "it started at 4k context"
    r"|一开始|一開始|从头|從頭|从第一步|從第一步"
)
