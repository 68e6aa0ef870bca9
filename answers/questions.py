"""A clause that asks rather than tells ("can anyone confirm??", "有人知道在哪看吗"): no
assertion to judge. A claim put as a question keeps its claim ("batch is only 4M tokens?"),
as a "why" keeps what it takes for granted ("why'd they roll back the a2a at step 81k?").
"""

from __future__ import annotations

import re

_ASKS_EN = re.compile(
    r"^(?:ok\s+|so\s+|wait\s+|but\s+)?(?:can|could|does|do|did|is|are|was|were|has|have|had|will"
    r"|would|should|any|anyone|anybody|who|what|when|where|how|which|wen)\b[^?]*\?+$",
    re.IGNORECASE,
)
_ASKS_ZH = re.compile(
    r"(?<!好)(?<!对)(?<!對)(?<!懂)[吗嗎][?？]*$|^(?:有没有|有沒有|有人知道|谁|誰|请问|請問|哪里|哪裡|哪儿|怎么|怎麼)"
)


def asks(piece: str) -> bool:
    """Whether a clause is a question, not an assertion."""
    return bool(_ASKS_EN.search(piece.strip()) or _ASKS_ZH.search(piece.strip()))


# A question that tells: "anyone else see that #9615 deployed 16K on Oct 3?" tells of #9615,
# "didn't Jensen personally pay for it?" that he did, "有没有人注意到 tracker 说 11/27" of the
# tracker. (Not "did anyone see the loss?", nothing told after it, nor "didn't it start?".)
_TELLS = re.compile(
    r"^(?:(?:ok|so|wait|lol|btw)\s+)?(?:(?:did\s+)?(?:any\s?one|anybody|y'?all|you guys)\s+"
    r"(?:else\s+)?(?:see|saw|notice|noticed|catch|caught|hear|heard|read)"
    r"|did\s+(?:you|u|y'?all)\s+(?:guys\s+)?(?:see|hear|notice|know))\s+(?:that\s+)?(?=\S+\s+\S+\s+\S)"
    r"|^(?:didn'?t|doesn'?t|isn'?t|wasn'?t|aren'?t|weren'?t|hasn'?t|haven'?t)\s+(?=\S+\s+\S+\s+\S)"
    r"|^(?:有没有人|有沒有人|有人|大家有没有|大家有沒有)(?:注意到|看到|发现|發現)了?\s*",
    re.IGNORECASE,
)


# (or "不是说 Huang Foundation 送的卡吗?": it was said)
# (a plan's figures so asked stay asked: "不是说12月1号结束吗")
_TELLS_ZH = re.compile(r"^(?:难道|難道)?不是\s*(?:说|說)\s*([^\d]{3,}?)\s*[吗嗎][?？]*$")


def told(piece: str) -> str:
    """What a question that tells asserts; the piece itself if it is no such question."""
    if said := _TELLS_ZH.match(piece.strip()):
        return said[1]
    found = _TELLS.match(piece)
    return piece[found.end() :] if found and piece.rstrip().endswith(("?", "？")) else piece
