"""Where a clause may mix a true and a false assertion, and so be cut in two.

"trained on 18T tokens across 704 GPUs" says two things, one a plan stated as done and one
a record's figure; "11 NVL72 racks = 792 GPUs" one true figure and one wrong one. A cut falls
before a phrase that adds a figure or a circumstance to what came before ("across", "at",
"on", "with", "=", "because (of)", "ending", 之后, 到现在…). ``checking.py`` keeps a cut only
when one side is supported and the other flagged, so a clause whose parts agree is judged
whole.
"""

from __future__ import annotations

import re

from answers.assertions import substantial
from answers.days import MONTH, months
from answers.text import fold
from answers.verdict_words import STARTED

_CUT = re.compile(
    r"\s+(?=(?:at|on|across|over|spread over|with|like the|because(?: of)?|due to|so"
    r"|(?:opened|created|filed|written|authored|posted) by)\s)"
    r"|\s*=\s*"
    r"|(?=之后|之後|到现在|到現在|因为|因為)"
    r"|(?<=上)(?=[训訓跑]|用[时時])"
    r"|\s+(?=(?:ending|finishing|wrapping up|to end|to finish)\b)"
    r"|\s+(?=\d{1,2}\s*月\s*\d{1,2}\s*[日号號])",  # "Marin 5350億參數 MoE | 12月1日如期完成訓練"
    re.IGNORECASE,
)
_ZH_DAY_FIRST = re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号號]\s*\S*[\u4e00-\u9fff]{2}")
_ENDS = re.compile(r"(?:ending|finishing|wrapping up|to end|to finish)\b", re.IGNORECASE)
# A half that places the other in time or in the run is no second assertion: "1.91 at step
# 47k", "started at step 108,778 on Sep 16", "35% MFU across all 11 racks" bind a figure to
# where it was measured, as "8k | at 50%" binds a change to its point in the run.
_WHERE = re.compile(
    r"\bstep|步|\bnow\b|现在|現在|\bweek|\bday|\brun\b|\bracks? in prod|\d+k\b"
    r"|^at (?:the |about |around |~)*[\d.]+\s?%(?: (?:mark|point|of the (?:run|way)))?"
    r"(?: (?:like|as) .*)?[.!]?$|^at (?:the )?(?:halfway|half-way|midpoint)(?: mark| point)?[.!]?$"
)

# A half that ends waiting for its figure ("loss at 147k was | like 2.5") says nothing alone,
# nor one whose figure waits for what it counts ("gets 78 | on MMLU").
# (a day is no figure waiting: "started 21 aug | on 11x gb200")
_DAY_LAST = re.compile(rf"(?:{MONTH.pattern})\.?$")
_OPEN = re.compile(r"\b(?:is|was|are|were|be|been|of|to|the|a)$|[是为為]$|(?<![#\w.,])\d[\d,.]*$")


def cuts(clause: str) -> list[tuple[str, str]]:
    """Each way of cutting the clause in two, both halves a few words or more."""
    found = []
    for match in _CUT.finditer(clause):
        left, right = clause[: match.start()].strip(), clause[match.end() :].strip()
        if not (left and right and substantial(left) and substantial(right)):
            continue
        # (an end put on a day is the assertion itself: "100-day plan | ending mid-December")
        ends = bool(_ENDS.match(right))
        # (a date opening a clause of its own is no place: "… MoE | 12月1日如期完成訓練")
        dated = bool(months(right)) and not ends and not _ZH_DAY_FIRST.match(right)
        opened = _OPEN.search(fold(left)) and not _DAY_LAST.search(fold(left))
        bound = bool(_WHERE.search(fold(right)) or dated or opened)
        if bound or _coordinate(left):
            continue
        found.append((left, right))
    return found


def _coordinate(half: str) -> bool:
    """Whether the half is a place in the run and nothing more ("第 20 万步 | 之后 loss 发散了":
    after step 200k, the loss diverged; "Oct 3 | after the failed save"); a start put on a day
    is an assertion ("started 21 aug | on 11x gb200")."""
    if STARTED.search(fold(half)):
        return False
    rest = _WHERE.sub(" ", MONTH.sub(" ", fold(half)))
    return not substantial(re.sub(r"[\d.,]+\s*(?:k|万|萬)?|第|\b(?:at|on|by|the)\b", " ", rest))
