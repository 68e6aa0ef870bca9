"""Another model named as the subject of a clause: "Kimi K2 is 1T total", "DeepSeek R1 cost
$5.6M", "Qwen = Apache weights". The clause is about that model, whatever else the message
says of this run, so it is off-topic. (A comparison keeps the run as its subject: "超越 Llama
3.1 405B", "比 DeepSeek 便宜" are judged as the run's.) The names are the lexicon's for other
models, and the labs and models rumours set beside them.
"""

from __future__ import annotations

import re

from answers.lexicon import Lexicon
from answers.matcher import OTHER

_OWN = ("marin", "32b", "8b")  # the Marin 32B is this run's background, not another model
_MORE = ("chinchilla", "maverick", "ai2", "meta", "openai", "anthropic", "xai", "gpt-5")


def other_subject(lexicon: Lexicon) -> re.Pattern[str]:
    """A clause (folded) that begins by naming another model or lab."""
    topic = lexicon.topics[OTHER]
    latin = {t for t in (*topic.en, *_MORE) if not t.startswith(_OWN)}
    chinese = {t for t in topic.zh if not t.isascii()}
    names = "|".join(re.escape(t) for t in sorted(latin, key=len, reverse=True))
    zh = "|".join(re.escape(t) for t in sorted(chinese, key=len, reverse=True))
    return re.compile(rf"^[\W_]*(?:the\s+)?(?:(?:{names})\b|{zh})")
