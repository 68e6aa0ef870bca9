"""Numbers written in words, as figures the checker can hold against the records:
"eighteen trillion tokens" → "18 trillion tokens", "seven hundred ninety-two GPUs" → "792
GPUs", "一万八千亿个token" → "1800000000000个token", "每六千步" → "每6000步", "三成五" → "35%".

English words are read by text2num, Chinese numerals by cn2an: both maintained parsers of
the whole grammar (hundreds, thousands, 万/亿, 零, "point"), where a pattern list would only
grow. Around them, the few forms they leave: "one point six billion", "two point seven times
ten to the twenty-fourth", "half a trillion", 成 for tenths.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

# A run of Chinese numerals that is a number, not a word with one in it: it holds a unit
# (十 百 千 万 亿) or a decimal point ("一万八千亿", "六千", "一点八"), or a counter follows it
# ("三号", "四级"). A lone digit is left alone otherwise ("一半", "一开始", "一直" are words),
# and so are idioms that hold a unit.
_ZH_RUN = re.compile(r"[零〇一二两兩三四五六七八九十百千万萬亿億点點]+")
_COUNTER = re.compile(r"[号號日月步台张張层層级級档檔阶階倍]")
_ABOUT = set("几幾多余餘来來")
_ZH_UNIT = re.compile(r"[十百千万萬亿億点點]")
_ZH_IDIOMS = re.compile(r"^(?:万一|萬一|千万|千萬|一一|十分|百分)$")
# Tenths: "三成五" is 35%, "八成预训练" 80% (not "八成是…", "probably").
_TENTHS = re.compile(r"([一二两兩三四五六七八九])成([一二三四五六七八九])?(?![是会會要就])")
_DIGIT_ZH = dict(zip("一二两兩三四五六七八九", (1, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_PERCENT_ZH = re.compile(r"百分之([\d.]+)")
# What text2num leaves: "1.6 1000000000" (from "one point six billion"), "2.7 times 10 to the
# 24th", "half a trillion"; and a power of ten written out.
_SPLIT_SCALE = re.compile(r"\b(\d+\.\d+) (1(?:000)+)\b")
_POWER = re.compile(
    r"\b(\d+(?:\.\d+)?)(?: times |\s*[×x*]\s*)10(?: to the |\s*\^\s*)(\d+)(?:st|nd|rd|th)?\b"
)  # (or "2.7×10^24", "2.7 x 10²⁴")
_LARGE = re.compile(r"(?<![\d.,])\d{7,}(?![\d.,])")  # text2num's 46000000, with its scale
_ODD = re.compile(r"\b\d+ (hundred|thousand)-odd\b")  # "seven hundred-odd": "hundreds"
_HALF = re.compile(r"\bhalf an? (trillion|billion|million)\b")
_PERCENT = re.compile(r"(?<=\d)\s?(?:percent|per cent)\b")
# A share of the run in words: "passed the two-thirds mark", "三分之二", "three quarters in".
_FRACTION = re.compile(
    r"\b(a|one|two|three)[- ](thirds?|quarters?)\b(?![-\w])"
    r"(?! of (?:the )?(?:gpus?|racks?|chips?|tokens?))"
    r"|([一二三])分之([一二三])(?=[^一二三四五六七八九十]|$)"
)
_FRACTIONS = {"a": 1, "one": 1, "two": 2, "three": 3, "third": 3, "thirds": 3, "quarter": 4}
_WORDS = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundred|thousand)"
)


@lru_cache(maxsize=256)  # a clause is read again as the context of the next one
def in_digits(text: str) -> str:
    """``text`` (folded) with its numbers written in words written in digits."""
    text = _TENTHS.sub(_tenths, text)
    if _ZH_UNIT.search(text) or _COUNTER.search(text):
        text = _ZH_RUN.sub(_chinese, text)
        text = _PERCENT_ZH.sub(r"\1%", text)
    text = _PERCENT.sub("%", _HALF.sub(r"0.5 \1", text))
    text = _FRACTION.sub(_fraction, text)
    if _WORDS.search(text):
        from text_to_num import alpha2digit  # imported on first use: ask never pays for it

        text = _ODD.sub(r"\1s", alpha2digit(text, "en"))  # about so many: no figure
        text = _SPLIT_SCALE.sub(lambda m: _plain(float(m[1]) * int(m[2])), text)
        text = _LARGE.sub(lambda m: _plain(float(m[0])), text)
    return _PERCENT.sub("%", _POWER.sub(r"\1e\2", text))


def _fraction(match: re.Match[str]) -> str:
    if match[3]:  # 三分之二: two of three
        parts, whole = _DIGIT_ZH[match[4]], _DIGIT_ZH[match[3]]
    else:
        parts, whole = _FRACTIONS[match[1]], _FRACTIONS.get(match[2], 4)
    return f"{100 * parts / whole:.1f}%" if parts < whole else match[0]


def _tenths(match: re.Match[str]) -> str:
    tens, units = _DIGIT_ZH[match[1]], _DIGIT_ZH[match[2]] if match[2] else 0
    return f"{tens * 10 + units}%"


def _chinese(match: re.Match[str]) -> str:
    run, after = match[0], match.string[match.end() : match.end() + 1]
    # (not "一级", "每一档": a rung, not one of them; nor "十几", "五千多": about so many;
    # but "十二月一日" is December 1)
    day = after in "日号號" and match.string[match.start() - 1 : match.start()] == "月"
    counted = _COUNTER.match(after) and (run != "一" or day)
    if not (_ZH_UNIT.search(run) or counted) or _ZH_IDIOMS.match(run) or after in _ABOUT:
        return run
    import cn2an  # imported on first use: ask never pays for it (about 0.1 s)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cn2an warns of what it cannot read: we keep it
        try:
            value = cn2an.cn2an(run.replace("兩", "两").replace("點", "点"), "smart")
        except (ValueError, KeyError, IndexError):
            return run
    return _plain(float(value))


_SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def _plain(value: float) -> str:
    """A number as a figure is written, a large one with its scale word, to the digit it was
    said to: "forty-six million" is 46 million (46.1M within it), not 46,000,000 exactly."""
    for scale, word in _SCALES:
        if value >= scale:
            return f"{value / scale:.6g} {word}"
    return str(int(value)) if value == int(value) else str(value)
