"""Another model named as the subject of a clause: "Kimi K2 is 1T total", "DeepSeek R1 cost
$5.6M", "Qwen = Apache weights". The clause is about that model, whatever else the message
says of this run, so it is off-topic. (A comparison keeps the run as its subject: "超越 Llama
3.1 405B", "比 DeepSeek 便宜" are judged as the run's.) The names are the lexicon's for other
models, and the labs and models rumours set beside them.
"""

from __future__ import annotations

import re

from answers.assertions import Figure, figures
from answers.days import months
from answers.lexicon import Lexicon
from answers.matcher import OTHER
from answers.records import Records

_OWN = ("marin", "32b", "8b")  # the Marin 32B is this run's background, not another model
_MORE: tuple[str, ...] = ("chinchilla", "maverick", "ai2", "meta", "openai", "anthropic", "xai")
_MORE += ("gpt-5", "hunyuan", "gemma", "yi-lightning", "nemotron", "minimax", "falcon", "bloom")
_MORE += ("dbrx",)
_MORE_ZH = ("混元", "腾讯混元", "零一万物", "阶跃", "稀宇")  # (as folded)


# A clause that goes on with a figure and no subject of its own: "…、37B active" after "DeepSeek
# V3 也才 671B 總參數" is DeepSeek's too (not a timeline's next day: "09-09 81,716")
_FIGURE_FIRST = re.compile(r"^[\W_]*(?:约|約|~|about|only|just)?\s*\d")


_VERSUS = re.compile(r"\s(?:vs\.?|versus|compared (?:to|with))\s|对比|對比|比起")


class OtherModels:
    def __init__(self, lexicon: Lexicon, records: Records) -> None:
        self.subject = other_subject(lexicon)
        self.records = records

    def about(self, text: str, before: bool) -> bool:
        """Whether the clause (folded) is about another model: it names it first, or it goes
        on with figures after a clause that did (``before``: "DeepSeek V3 也才 671B 總參數、37B
        active"), not the run's own ("GPT-5 was trained on 100k H100s, 704 GPUs is cute")."""
        goes_on = bool(_FIGURE_FIRST.match(text)) and not months(text[:8])
        if not before or not goes_on:
            return bool(self.subject.match(text))
        return not all(self.records.holders(f, None) for f in figures(text))

    def own(self, text: str, said: list[Figure]) -> list[Figure]:
        """The run's figures of a clause (folded) that sets them against another model's:
        those before "vs" ("2.7e24 FLOPs vs Llama 3 405B": not a 405B of the run's)."""
        halves = _VERSUS.split(text, maxsplit=1)
        if len(halves) == 2 and self.subject.match(halves[1]) and not self.subject.match(text):
            return figures(halves[0])
        return said


def other_subject(lexicon: Lexicon) -> re.Pattern[str]:
    """A clause (folded) that begins by naming another model or lab."""
    topic = lexicon.topics[OTHER]
    latin = {t for t in (*topic.en, *_MORE) if not t.startswith(_OWN)}
    chinese = {t for t in (*topic.zh, *_MORE_ZH) if not t.isascii()}
    names = "|".join(re.escape(t) for t in sorted(latin, key=len, reverse=True))
    zh = "|".join(re.escape(t) for t in sorted(chinese, key=len, reverse=True))
    return re.compile(rf"^[\W_]*(?:the\s+)?(?:(?:{names})\b|{zh})")
