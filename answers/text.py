"""Turn raw question text into what the matcher compares: one script, one case, stemmed words.

Traditional characters are folded to simplified with a table shipped in ``data/t2s.json``
(derived from OpenCC's t2s data), so 訓練開始了嗎 matches the same terms as 训练开始了吗.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).parent / "data"

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[a-zA-Z]{2,}")
MONTH_NAMES = (
    "january february march april may june july august september october november december"
)
# A month's name, or its first three letters, or four ("Sept")
MONTH_NAME = "|".join(f"{m[:3]}(?:{m[3:]}|{m[3:4]})?" for m in MONTH_NAMES.split())
# A day written before its month, "21 Aug", "2nd of October", as the month first: "aug 21" (not
# "the 13 may be wrong")
_DAY_FIRST = re.compile(
    rf"(?<![\w.,/:-])(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?((?!may\b)(?:{MONTH_NAME}))"
    r"\b(?!\.?\s*\d)"
)
_SUPERSCRIPT = re.compile(r"(?<=\d)(?=[⁰¹²³⁴⁵⁶⁷⁸⁹⁻])")
_TAG = re.compile(r"<[^>]{0,200}>")
_URL = re.compile(r"https?://\S+")
_WORD = re.compile(r"[a-z0-9&%][a-z0-9.&%/_'+-]*")
# markdown and quotes; kept for the checker: a tilde before a figure is "about" ("~18T"), a
# hash before one names an issue ("#9615")
_DECORATION = re.compile(r"[*_`|>\[\]{}()\"“”‘’]|~(?!\s?\d)|#(?!\d)")


# Cantonese words written in Hong Kong chats, read as their Mandarin ones, one character each:
# 冇 (have not), 咗 (the done 了), 唔 (not), 噚日 (yesterday), 嘅 (的), 喺 (at), 佢 (he, it)
_CANTONESE = {ord(k): v for k, v in zip("冇咗唔噚嘅喺佢", "没了不昨的在他", strict=True)}


@lru_cache(maxsize=1)
def t2s_table() -> dict[int, str]:
    """Traditional → simplified, by code point (keys are traditional-only characters)."""
    table: dict[str, str] = json.loads((DATA / "t2s.json").read_text(encoding="utf-8"))
    return {ord(k): v for k, v in table.items()} | _CANTONESE


def fold(text: str) -> str:
    """NFKC, casefold, traditional → simplified, markup and URLs removed, spaces collapsed."""
    text = _SUPERSCRIPT.sub("^", text)  # NFKC reads "10²⁴" as 1024: keep it a power, 10^24
    text = unicodedata.normalize("NFKC", text).casefold().translate(t2s_table())
    text = text.replace("计画", "计划")  # Taiwan's 計畫 is the mainland's 计划, a word apart
    text = _URL.sub(" ", _TAG.sub(" ", text))
    text = _DAY_FIRST.sub(r"\2 \1", _DECORATION.sub(" ", text))
    return " ".join(text.split())


_SCRIPT_CHANGE = re.compile(
    r"(?<=[\u3400-\u4dbf\u4e00-\u9fff])(?=[a-z0-9$~#])|(?<=[a-z0-9%])(?=[\u3400-\u4dbf\u4e00-\u9fff])"
)


def spaced(text: str) -> str:
    """Folded text with a space where Chinese meets Latin letters or digits ("都公开在hf上了" →
    "都公开在 hf 上了"), so a word boundary holds in mixed messages."""
    return _SCRIPT_CHANGE.sub(" ", text)


def detect_language(text: str, default: str = "en") -> str:
    """``zh`` when Chinese characters carry the question, ``en`` when Latin words do."""
    cjk = len(_CJK.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if cjk == 0 and words == 0:
        return default
    return "zh" if cjk * 2 >= words and cjk > 0 else "en"


# Chat shorthand read as the words it stands for (before typo correction and stemming).
SHORTHAND = {
    "u": "you",
    "r": "are",
    "ur": "your",
    "wen": "when",
    "wut": "what",
    "wat": "what",
    "wtf": "what",
    "pls": "please",
    "plz": "please",
    "rn": "right now",
    "bc": "because",
    "tho": "though",
    "whens": "when is",
    "hows": "how is",
    "whats": "what is",
    "thx": "thanks",
    "ty": "thanks",
    "sec": "second",
    "secs": "seconds",
    # the run's own shorthand (what people type in a research chat)
    "hw": "hardware",
    "bs": "batch size",
    "gbs": "global batch size",
    "ctx": "context",
    "seqlen": "sequence length",
    "ckpt": "checkpoint",
    "ckpts": "checkpoints",
    "tok": "tokens",
    "toks": "tokens",
    "pt": "pretraining",
    "mt": "midtraining",
    "arch": "architecture",
    "params": "parameters",
    "param": "parameters",
    "hf": "hugging face",
    "lr": "learning rate",
    "evals": "evaluations",
    "perf": "performance",
    "gpus": "gpus",
    "wandb": "wandb",
    "info": "information",
}


def stem(word: str) -> str:
    """A deliberately small English stemmer: enough to meet 'started'/'starts'/'starting'."""
    word = word.strip(".'-/")
    for clitic in ("'s", "'d", "'ll", "'re", "'ve", "'m"):
        if word.endswith(clitic):
            word = word[: -len(clitic)]
            break
    if not word.isalpha():
        return word
    for suffix, min_len in (("ing", 6), ("ed", 5), ("es", 5), ("s", 4)):
        if word.endswith(suffix) and len(word) >= min_len and not word.endswith("ss"):
            word = word[: -len(suffix)]
            # running → runn → run; but keep "stall", "pass"
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            return word
    return word


def tokens(folded: str) -> list[str]:
    """English-ish words of a folded text, unstemmed (numbers like 18.75t and 2.7e24 kept whole)."""
    raw = [t for t in (m.strip(".'-/") for m in _WORD.findall(folded)) if t]
    out: list[str] = []
    for i, t in enumerate(raw):
        following = raw[i + 1] if i + 1 < len(raw) else ""
        if t == "hw" and following in _HOW_WORDS:  # "hw many experts": a typo of "how"
            out.append("how")
            continue
        out.extend(SHORTHAND.get(t, t).split())
    return out


_HOW_WORDS = frozenset({"many", "much", "long", "far", "big", "fast", "often", "come"})


def words(folded: str) -> list[str]:
    """Stemmed words of a folded text."""
    return [w for w in map(stem, tokens(folded)) if w]
