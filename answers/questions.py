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
