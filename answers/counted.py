"""The noun a plain count counts, found within three words after it: "64 layers" is not 64
GPUs, "11 GB200 NVL72 racks" are racks, "384 个路由专家每个 token" are experts. Chinese nouns
map to the same stems as English ones; a figure compared with a record's keeps its noun
(``assertions.figures``).
"""

from __future__ import annotations

import re

# The stems of the nouns counted; Chinese nouns map to the same stems
COUNTED = ("laye", "gpu", "expe", "rung", "rack", "node", "head", "rank", "toke", "seq", "slic")
HARDWARE = ("gpu", "rack", "node")  # what the run runs on: counted exactly, even in thousands
GENERIC = ("toke", "seq")  # counted by any model ("20 tokens per param"), not this run's alone
_COUNTED_ZH = {
    "层": "laye",
    "層": "laye",
    "级": "rung",
    "級": "rung",
    "档": "rung",
    "檔": "rung",
    "机柜": "rack",
    "機櫃": "rack",
    "柜": "rack",
    "阶": "rung",  # (not 阶段, a phase: see noun)
    "专家": "expe",
    "專家": "expe",
    "张": "gpu",
    "張": "gpu",
    "卡": "gpu",
    "芯片": "gpu",
    "晶片": "gpu",
    "节点": "node",
    "節點": "node",
    "序列": "seq",
    "切片": "slic",  # Paloma's slices
    "子集": "slic",
    "token": "toke",
}
# A measure word before the noun ("4096条序列", "11264个token"): the noun is after it.
_MEASURE = re.compile(r"^[个個条條颗顆]")


def hardware(after: str) -> bool:
    """Whether the word right after a count (or after its measure word) is hardware: "16k
    GPUs", "1.6 万颗 GPU", "1.6万张卡" (not "16K on one rack": a length, tested there)."""
    words = after.split()
    head = words[:2] if words and _MEASURE.fullmatch(words[0]) else words[:1]
    return noun(" ".join(head)) in HARDWARE


def noun(after: str) -> str:
    """The counted noun within the words after a count, if any."""
    words = after.replace("-", " ").split()  # "a 4-rung ladder"
    for i, word in enumerate(words):
        if "每" in word[1:] or "各" in word[1:]:  # "384 个路由专家每个 token": experts, each
            head = re.split("[每各]", word)[0]
            return next((stem for zh, stem in _COUNTED_ZH.items() if zh in head), "")
        if word in ("per", "each", "every", "a", "an") or word.startswith(("每", "各")):
            return ""  # "4 per rack" counts what is in a rack, not racks
        if word[0].isdigit():
            return ""  # another figure's noun: "100 天计划 704 卡" is no 100 GPUs
        if word.startswith("seq") and words[i + 1 : i + 2] and words[i + 1].startswith("len"):
            return ""  # "4096 seq len" is a length, not 4,096 sequences
        if word.startswith("nvl72"):
            return "rack"  # an NVL72 is a rack: "10 个 NVL72"
        if word in ("tok", "toks"):  # chat's "20 tok per active param"
            return "toke"
        if word.startswith(("gb200", "b200", "h100", "gpu", "card")):
            return "gpu"
        for stem in COUNTED:
            if word.startswith(stem):
                return stem
        bare = _MEASURE.sub("", word)
        if bare.startswith("阶段"):
            continue
        for zh, stem in _COUNTED_ZH.items():
            if bare.startswith(zh) or (len(word) <= 3 and zh in word):
                return stem
    return ""
