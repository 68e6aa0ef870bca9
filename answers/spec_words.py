"""Words that misstate what the run is, what it runs on, or who pays for it: a dense model, other
hardware, another backer, money or a licence, active parameters other than the A23B.

``checking.py`` holds an assertion against the spec's records through these. Each pattern
runs over folded text (``answers.text.fold``).
"""

from __future__ import annotations

import re

# NVIDIA named as the donor: the records name the Huang Foundation's gift.
DONOR = re.compile(
    r"\b(?:nvidia|jensen)\b.{0,30}\b(?:donat|gift|sponsor|gave)|(?:英伟达|輝達|nvidia).{0,10}(?:捐|赞助|贊助|送)"
    r"|\b(?:donated|gifted|sponsored|given|a gift)\s+(?:by|from)\s+(?:nvidia|jensen)\b"  # passive
    # the cloud the run is on is no donor either: "全是 CoreWeave 免费赞助的", "CoreWeave paid"
    r"|\bcoreweave\b.{0,20}(?:\b(?:donat|gift|sponsor|gave|paid|pays|fund)|免费|免費|赞助|贊助|捐|出钱|出錢|买单|買單|包了|赔|賠)"
    r"|(?:电费|電費).{0,12}\bcoreweave\b"
)
# The donor the records name: the Jen-Hsun and Lori Huang Foundation.
FOUNDATION = re.compile(r"huang|黄|黃|foundation|基金")
DENSE = re.compile(r"\bdense\b|稠密|密集模型")
# Closed, or built on another model: Marin trains in the open, and pretrains from scratch
CLOSED = re.compile(
    r"\bclosed[- ]?(?:source|weights)\b|\bapi[- ]only\b|闭源|閉源|只(?:会|會)?(?:给|給|提供)\s*api"
)
# The router's arithmetic said changed to the BF16/FP32 variant: the decision kept it as it was
ROUTER_SWITCHED = re.compile(
    r"\b(?:switch\w*|swapp?\w*|moved|changed|went)\b.{0,30}\b(?:bf16|fp32)\b"
    r"|(?:改用|换成|換成|改成|切到|换到|換到|换上|換上).{0,12}(?:bf16|fp32)"
    # (or the router said to run on it now: "hero 现在用的是 BF16+FP32 accumulation router")
    r"|(?:现在用的是|現在用的是|\bnow (?:uses?|on|runs?)\b)"
    r".{0,12}(?:bf16|fp32).{0,30}(?:router|路由)"
)
_BASES = r"(?:llama|qwen|deepseek|mixtral|mistral|gpt-?oss)"
FROM_ANOTHER = re.compile(
    rf"\bcontinued?[- ]pre-?train\w*|\b(?:fine-?tuned?|built|based) (?:on|from) {_BASES}"
    rf"|(?:在|基于|基於|拿)\s*{_BASES}\s*(?:上|的|之上)"
)
# Accelerators the run does not use: it runs on GB200s.
OTHER_HARDWARE = re.compile(
    r"\b(?:h100|h200|h800|a100|a800|v100|mi300x?|mi250|tpu|tpuv\d|4090|gaudi|ascend|trainium"
    r"|gb300|b300|gb100)s?\b"
    r"|昇腾|昇騰|华为的?卡|華為的?卡"
)
# The run's own spec denied: "根本沒有用 GB200", "it's not even MoE" (the denial reaching the word
# itself, not "不是 dense 是 MoE": an "is" between them turns it round)
_TURN = r"(?:(?!是|\bis\b|\bbut\b|\bit's\b|而|就)[^,.;，。；])"
OWN_DENIED = re.compile(
    rf"(?:\bnot\b|n't\b|\bnever\b|没|不是|并非|不用){_TURN}{{0,12}}?"
    r"(?:(gb200s?|nvl72|blackwell)|moe\b|mixture[- ]of[- ]experts|混合专家)"
)

# Compute or money from anyone but the Huang Foundation: no record says so.
# Another recipe's features said of this run: FP8 training, Muon, MLA, multi-token prediction,
# an optimizer swap or QK-Norm switch (the 32B's retrospective has those two): no record gives
# any ("Marin 535B 也用 Muon", "整个 run 用的是 FP8 训练"); a use said, not "Blackwell 的 FP8 算力"
OTHER_RECIPE = re.compile(
    r"^(?=.*(?:\b(?:use[sd]?|using|trained|training|switch\w*|swap\w*|had|has)\b|用|训|訓|换|換|上))"
    r".*(?:\bfp8\b|\bmuon\b|\bmla\b|latent attention|\bmtp\b|multi-?token"
    r"|optimi[sz]er (?:swap|switch|change)|(?:swap|switch|chang)\w* (?:the |its )?optimi[sz]er"
    r"|(?:换|換|改)\w{0,2}(?:优化器|優化器|optimizer)|\bqk-?norm\b)"
)
RETROSPECTIVE = re.compile(r"\b32b\b|retrospective|复盘|復盤")  # (the 32B's, told before)
OTHER_BACKER = re.compile(
    r"\b(?:aws|amazon|azure|gcp|google|microsoft|oracle|tsmc|meta|openai)\b|阿里云|阿里雲|腾讯云|騰訊雲"
    r"|台积电|台積電|谷歌|微软|微軟|斯坦福|stanford(?!\s*(?:cs|hai|talk|lecture|class|course|seminar|课|講|讲))"
    # NVIDIA's hardware is on record, NVIDIA's people or money are not
    r"|\bnvidia\b.{0,20}\b(?:engineers?|on call|fund\w*|paid|pay\w*|help\w*)\b"
    r"|(?:英伟达|英偉達|輝達|nvidia).{0,10}(?:工程师|工程師|帮忙|幫忙|出资|出資|出钱|出錢)"
    # nor anyone's own pocket: a foundation's gift ("整个训练都是黄仁勋个人出钱的")
    r"|[个個]人\s*(?:出钱|出錢|出资|出資|掏钱|掏錢|掏腰包)|自掏腰包"
    r"|\bpersonally (?:paid|pay|pays|paying|funded|bankrolled|footed)\b"
)
# Money the run cost or raised, a licence: the records hold none of it.
MONEY = re.compile(
    r"[$¥]\s?\d|\b(?:usd|dollars?|funding|raising|raised|license|licence|apache|mit)\b"
    r"|美元|美金|融资|融資|许可证|許可證"  # not 预算 alone: the token budget
)
# Active parameters other than the spec's 23B ("32B active", "激活 37B"): the A23B of the name.
ACTIVE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?b\s*(?:active|activated|激活|活跃|活躍)"
    r"(?!\s*(?:~|≈|约|約|大约|大約|大概|about|around)?\s*\d)"  # "535B激活约23B": 23B active
    r"|(?:active|activated|激活|活跃|活躍)\D{0,12}?(?<![\w.])(\d+(?:\.\d+)?)\s?b\b"
)


# A rung named by its counts, as the ladder's configuration names them ("11.5B-A481M @500B"):
# a rung is active in millions, the top one in 1.2B; the run and other models in billions
_NAMED_RUNG = r"(?<![\w.-])\d+(?:\.\d+)?b-a(?:\d+m|1\.\d+b)\b"  # (not "qwen3 235b-a22b")
NAMED_RUNG = re.compile(_NAMED_RUNG)
# The scaling ladder's rungs have active counts of their own ("最大一档 27.7B / 1.2B active").
_ONE_RUNG = (
    r"\b(?:rungs?|smallest|largest|biggest|d768|d1024|d1536|d2048)\b|最大|最小"
    r"|(?:[一二三四那这這]|第\s*[一二三四1-4])\s*(?:档|级|檔|級)"
    rf"|{_NAMED_RUNG}"
)
LADDER = re.compile(r"\bladder\b|阶梯|階梯|梯子")
RUNGS = re.compile(rf"{LADDER.pattern}|{_ONE_RUNG}")
ONE_RUNG = re.compile(_ONE_RUNG)  # a rung picked out: "阶梯最大一级是 32B" is a rung's size
# the hero run named in a message about the ladder: its figures are the run's, not a rung's
# ("ladder 顶层 27.7B-A1.2B 跑 926B tokens，hero 用了 5.5e19 FLOPs": the smallest rung's)
HERO = re.compile(r"\bhero\b(?![-_])|主训练|主訓練")


_RUNG_SIZE = re.compile(r"\b(?:biggest|largest|smallest)\b|最大|最小")


def rung_free(text: str) -> str:
    """The text without the words that pick a rung by size: "the biggest (rung) 9.2e21" ranks
    no model."""
    return _RUNG_SIZE.sub(" ", text)


# Experts each token is routed to: top-8 (and 2 shared, so 10 in all): "每个 token 激活 16 个"
ROUTED = re.compile(
    r"\btop[- ]?(\d+)(?! \w+ (?:models?|labs?))"
    r"|(?:每个|每個|each|every|per) ?token\s*(?:只)?(?:激活|启用|啟用|选|選|路由到?|activates?"
    r"|uses?|goes to|routes? to)\s*(?:了)?\s*(\d+)"
    r"(?![\d.]|\s*(?:亿|億|万|萬|billion|b\b|参数|參數|param))"  # (not "激活 230 亿参数": 23B)
    r"|(\d+)\s*(?:routed |active )?experts? (?:per|each) token"
)
ROUTED_TO = (8, 10)


def routing_misstated(text: str) -> bool:
    """Whether the text routes each token to another number of experts than top-8 (or ten
    with the two shared)."""
    # (or its router's arithmetic said switched: the decision kept it)
    routed = any(int(n) not in ROUTED_TO for found in ROUTED.findall(text) for n in found if n)
    return routed or bool(ROUTER_SWITCHED.search(text))


SHARED = re.compile(r"(?<![\d.])(\d+)\s*(?:个|個)?\s*(?:共享专家|共享專家|shared\b)")
SHARED_COUNT = 2


def active_misstated(text: str) -> bool:
    """Whether the text gives a count of active parameters the spec does not (22.76B)."""
    if RUNGS.search(text):
        return False
    return any(not 22.5 <= float(a or b) <= 23.5 for a, b in ACTIVE.findall(text))


# "A23B is just a version tag": what the name stands for, said to be something else ("hence
# the A23B in the name" explains it)
A23B_MISREAD = re.compile(
    r"a23b\W*(?:thing\s+)?(?:is|was|=|just|only|只是|就是|是).{0,30}"
    r"(?:version|tag|name|code ?name|版本|代号|代號|名字)"
)

# A figure measured on one rack ("still on one rack", "one GB200 NVL72 rack"), said of the
# whole run: the eleven racks, all of them, the cluster.
ONE_RACK = re.compile(
    r"\b(?:one|single|1)[- ](?:[\w-]+ ){0,3}?rack\b|one-rack|单机柜|單機櫃|一个机柜|一個機櫃"
)
ALL_RACKS = re.compile(
    r"\b(?:11|eleven|all|full|whole|entire|every)(?: the)? (?:[\w-]+ ){0,2}?(?:racks|cluster)\b"
    r"|(?:11|十一)\s*[个個]?\s*(?:机柜|機櫃|柜|櫃)|(?:所有|全部|整个|整個)\s*(?:机柜|機櫃|集群|叢集)"
    r"|\bfull(?:[- ]scale)? run\b|\bin prod(?:uction)?\b"  # "full run 的 trial 是 30.9%"
    r"|\b(?:11|eleven)[- ]rack\b|\bwhole run\b"  # "across the whole 11-rack run"
)
# What the FLOPs figure covers: no record says (the gap between 2.7e24 and 5e24 is unexplained)
SCOPE = re.compile(
    r"\b(?:includ\w*|incl\b|counts?|counting|covers?|covering|accounts? for|plus)\b|加上"
    r"|算上|算进|算進|包括|包含|涵盖|涵蓋|含了"
)
