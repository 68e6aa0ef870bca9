"""What a per cent measures, read from the words around it: a share of the run ("13% through
training"), a utilisation ("MFU 26.47%", "30.91% MFU"), a gain ("about 10% faster", "sped up
by 10.0%") or a loss ("8K costs 10% throughput", "16K 掉了 31%", "吃掉 13% 的吞吐").

The same number of a different measure is a different figure: "MFU 只有 10%" is not the
context tests' "about 10% faster", nor "吞吐掉了 13%" the run being "13% through training". A
per cent whose words say nothing ("26.32%" after "against") is any measure's, so only two
figures that both say what they measure can differ by it.
"""

from __future__ import annotations

import re

RUN, MFU, GAIN, LOSS = "run", "mfu", "gain", "loss"
TOKENS, PARAMS = "tokens", "params"  # what a scaled count counts: "500B tokens" is no 500B params

# Read on folded text (lower case, simplified characters), nearest words first.
_GAIN = re.compile(
    r"fast|quick|speed|sped|\bgain|improve|boost|above|higher|\+\s*$|^\s*(?:up|more)\b|快|提速|加速|提升|提高|多了"
)
_LOSS = re.compile(
    r"(?:^|[\s=(:])[-−]\s*$|slow|drop|cost|\beat|overhead|\blos[st]\b|\bless\b|penalt|below"
    r"|under\b|lower|behind|shorten|\bcut(?!over)|trim|reduc|(?<![关關])掉|砍|缩短|慢|降|吃|损失|开销|占|少了"
)
_MFU = re.compile(r"\bmfu\b|利用率")
_RUN = re.compile(
    r"through(?!put)|\bdone\b|complete|^\s*in\s*$|^\s*in(?:to)?\s+(?:the\s+)?(?:run|training)\b"
    r"|完成|进度|训练了|跑了"
)
# a change's words around a level ("MFU 从 26.32% 提升到 29.44%", "went from 26% to 29.4%")
_LEVEL = re.compile(r"到|至|(?<!up )\bto\b|\bfrom\b|从|→|->")
_BEFORE, _AFTER = 16, 14  # characters looked at on each side, never past another figure
_DIGIT = re.compile(r"\d")
# a range's two ends measure one thing: "about 1.5–2% slower", "快了 1.5~2%"
_TO = r"\s*(?:[-–~]|to|至|到)\s*"
_RANGE_BEFORE = re.compile(rf"[\d.]+%?{_TO}$")
_RANGE_AFTER = re.compile(rf"^{_TO}[\d.]+\s*%?")
# nearly: "MFU 一路优化到快 30%" is 29.44%, within the 2% a figure may be off by
NEARLY = re.compile(r"(?:\bnearly|\balmost|\bclose to|接近|将近|近乎|(?:到|至)\s*快)\s*$")
# a bare number told as MFU is a per cent ("MFU went 23.62 vs 23.03"), as is the one it is
# compared with
_UNIT_AFTER = re.compile(r"\s*(?!vs\b|against\b|to\b)[a-z]")
_MFU_BEFORE = re.compile(r"\bmfu\b[^\d%]{0,14}$|[\d.]+\s*(?:vs\.?|against|对|比|→|->)\s*$")


def measure(text: str, start: int, end: int) -> str:
    """What the per cent at ``text[start:end]`` measures, or "" if its words do not say."""
    if low := _RANGE_BEFORE.search(text[max(0, start - _BEFORE) : start]):
        start -= len(low.group())
    if high := _RANGE_AFTER.match(text[end : end + _AFTER]):
        end += high.end()
    before = text[max(0, start - _BEFORE) : start]
    before = before[_last_digit(before) :]
    after = text[end : end + _AFTER]
    after = after[: (m.start() if (m := _DIGIT.search(after)) else len(after))]
    # a change first: "MFU +10%" is a gain in MFU, not an MFU of 10%
    for words in (after, before):
        if _LEVEL.search(words):
            continue
        if _GAIN.search(words):
            return GAIN
        if _LOSS.search(words):
            return LOSS
    for words in (after, before):
        if _MFU.search(words):
            return MFU
        if _RUN.search(words):
            return RUN
    return ""


def _last_digit(text: str) -> int:
    found = [m.end() for m in _DIGIT.finditer(text)]
    return found[-1] if found else 0


def bare_mfu(text: str, span: tuple[int, int], value: float, previous: str) -> bool:
    """A number with no unit told as MFU: after "MFU", or compared with one ("… vs 23.03";
    ``previous``: what the figure before it measures); not a figure of its own unit ("29% MFU
    约 0.5 EFLOPS")."""
    start, end = span
    before = _MFU_BEFORE.search(text[max(0, start - 18) : start])
    if not before or not 0 < value < 100 or _UNIT_AFTER.match(text[end : end + 12]):
        return False
    return before.group().startswith("mfu") or previous == MFU


_COUNTS = re.compile(r"\+?\s*(?:total\s+|个|個)?\s*(?:(tok)|(param|参数|參數))")


def counts(after: str) -> str:
    """What the scaled count before ``after`` (folded) counts, if its next word says: tokens
    or parameters ("500 billion+ total parameters"), or ""."""
    found = _COUNTS.match(after)
    return "" if not found else TOKENS if found[1] else PARAMS


# A count said to be the total: "總共 23B 參數", "23B total params" (then no active count)
_TOTAL = re.compile(
    r"\btotal\s*(?:of\s*)?$|(?:总共|總共|总计|總計|总参数?|總參數?)\s*(?:是|有)?\s*$"
)
_TOTAL_AFTER = re.compile(r"\s*(?:params?\s+|parameters\s+)?(?:in\s+)?total\b")


def said_total(text: str, start: int, end: int) -> bool:
    """Whether the count at ``text[start:end]`` is said to be a total (the words before it
    since the figure before: not "535B 总参 | 23B 激活")."""
    before = re.split(r"\d", text[max(0, start - 8) : start])[-1]
    return bool(_TOTAL.search(before) or _TOTAL_AFTER.match(text[end : end + 24]))
