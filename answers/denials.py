"""A record itself denied: said to be fake, made up or a rumour ("the halfway tweet was fake",
"那篇 Huang Foundation 博文是假的"), or told otherwise in a word: the racks the records say
were a gift said to be bought ("所以才买得起 GB200 整柜"). The record is there, so the denial
contradicts it; a "not" or "never happened" is weighed elsewhere
(``verdict_words.NEGATION``): it may deny an overstatement, or a plan that did not happen.
"""

from __future__ import annotations

import re

from answers.verdicts import CONTRADICTED, SUPPORTED, Verdict

_FAKE = re.compile(
    r"\b(?:fake|faked|made up|hoax|fabricated|bogus|photoshopped|just marketing|was marketing"
    r")\b|假的|造假|编的|編的|瞎编|瞎編|p的图|p 的图|是谣言|是謠言"
)
# A purchase: the GB200 racks were a gift of the Jen-Hsun & Lori Huang Foundation
_BOUGHT = re.compile(r"\b(?:bought|buy(?:s|ing)?|purchas\w*)\b|买|買|购入|購入|采购|採購")
_HARDWARE = {"hardware-gb200", "hardware-gpu-count", "hardware-gift"}


def told_otherwise(text: str, claims: tuple[str, ...]) -> tuple[str, ...]:
    """The claims a denial of the records ``claims`` (the text's support) contradicts it with;
    () when it denies none."""
    if _FAKE.search(text):  # "the halfway tweet was fake": the record is there
        return claims[:3]
    if _BOUGHT.search(text) and _HARDWARE & set(claims):  # "they bought the racks": a gift
        return ("hardware-gift",)
    return ()


# A figure denied outright, the "not" right before it: "不是704张卡", "it's not 792 GPUs"
_NOT_FIGURE = re.compile(r"(?:\bnot|\bisn'?t|不是|并非|並非)\s*(?:~|约|約|大概)?\s*\d")


def figure_denied(text: str) -> bool:
    """Whether the text (folded) denies a figure itself: a spec's figure denied is its record
    contradicted, another figure denied is the record's own word."""
    return bool(_NOT_FIGURE.search(text))


# A figure corrected ("704 GPUs not 792", "別再說是 53.5B"): the first is asserted
CORRECTED = re.compile(
    r"(\d.*?)(?:(?:,\s*|\s+)(?:not|rather than|instead of)\s+"
    r"|\s*[,，]?\s*(?:而不是|不是|而非|不要再[说說讲講]是?|别再[说讲]是?|別再[說講]是?)\s*)"
    r"~?\d[\d,./]*(?:\s?[a-z%]+\b)?"
)


# A figure said to be found nowhere: "step 372,000 这种数哪都查不到", "can't find that 35% anywhere"
_NOWHERE = re.compile(
    r"查不到|找不到|搜不到|查无|查無|哪都没有|哪都沒有|没有出处|沒有出處|\bnowhere to be found\b"
    r"|\bcan'?t find (?:it|that|this|any)\b|\bno source for (?:it|that|this)\b"
)


def unfound(held: list[list[str]], text: str, newest: tuple[str, ...]) -> Verdict | None:
    """The verdict on figures said to be found nowhere: supported (by ``newest``, the topic's
    newest record) if no record holds them, contradicted if one does; None if the text says
    no such thing."""
    if not _NOWHERE.search(text):
        return None
    holders = tuple(c for h in held for c in h)
    return (CONTRADICTED, holders[:1]) if holders else (SUPPORTED, newest)
