"""A message's assertions, and the figures they state, for ``checking.py`` to judge.

A message is cut into clauses ("finished training, weights next week" is two assertions).
A figure is a value with its unit ("535B", "18.75T", "704 GPUs", "59.3%", "2.7e24"): a plain
count keeps the noun after it ("64 layers"), so 64 layers is never "found" in 64 GPUs.
The knowledge base's figures are indexed in ``figure_index.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from answers.counted import GENERIC as GENERIC
from answers.counted import hardware
from answers.counted import noun as counted_noun
from answers.days import DOTTED, MONTH, SPAN
from answers.measures import NEARLY, bare_mfu, counts, measure, said_total
from answers.questions import asks, told
from answers.text import fold

# A month and its day next ("Sep 9"), for the timeline's arrows below
_MONTH_DAY = r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.?\s*\d"
MAX_ASSERTIONS = 16  # a wall of text is checked in its first sixteen assertions
# Sentences, then clauses. An ASCII comma between digits is a thousands separator ("2,048"),
# never a full-width one; a comma after a figure still parts clauses ("…step121638, it's"), as
# a spaced dash does ("… — it's right there in current_run.py"). An abbreviation's full stop
# does not ("est. end Nov 27", "the total incl. post-training").
_SENTENCES = re.compile(
    r"(?<!\best\.)(?<!\bvs\.)(?<!approx\.)(?<!\bincl\.)(?<!\betc\.)(?<!e\.g\.)(?<!i\.e\.)"
    # (or a quote's end: "Token budget = 18.75T." the…; or a particle's: "…step121638 啦 …")
    r"(?<=[.!?])\s+|(?<=[.!?][\"”])\s+|(?<=[啦嘛喔囉咯])\s+"
    r"|(?:^|\s)[推噓→]\s+[\w.-]+\s*[:：]\s*"  # a PTT thread's pushes: "推 a123: …"
    r"|(?:^|(?<=\n)|(?<=\s/\s))[推噓→]\s+"  # (its pushes pasted without their names)
    r"|(?<![\d\s%])\s+/\s+(?!\d)|\s+/\s+(?=[▶►]\s)"  # a line break as " / " (not "20 / 40")
    r"|(?:^|\s)@[^\s:：@]{1,20}\s*[:：]\s*"  # a chat log's speakers: "@阿飞：…"
    r"|(?:^|\s)[甲乙丙丁]\s*[:：]\s*"  # (or "甲：…")
    r"|(?<=[说說])\s*[:：]\s*"  # (or a quote opened: "公开课上老师说：…")
    # "TL;DR:", a thread's "(2/5)", a source: "per #8506,", "我翻了 #8506："
    r"|(?i:\btl;\s?dr\b)[:：]?\s*|[(（]\d{1,2}/\d{1,2}[)）]\s*"
    r"|(?:(?i:\bper|\baccording to)\s+|(?:据|根据|翻了|看了|来自)\s*)#\s?\d+\s*[,:，：]?\s*"
    r"|(?:^|\s|(?<=[\u4e00-\u9fff]))\d{1,2}[)）]\s*"  # a numbered list: "1) NVLink … 2）MoE"
    r"|[。！？；;|｜·•▶►✅❌✔➡👉🚀🔥\n（）()，、」』]+"
    r"|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s*"  # an emoji ends a clause: "done 🎉 next"
    r"|(?:(?<!\d),|,(?!\d))\s*|\s[—–-]\s"
    # a timeline's arrows: "launch Aug 19 → mixture phase 2 at step 108k" (not a change of a
    # figure, "26.32% → 29.44%", nor a chain of run ids)
    rf"|\s(?:→|->|⇒)\s(?=[^\W\d_])(?!hero|{_MONTH_DAY})"
    # (a day after an event is the timeline's next, "launch → Sep 9", not a span, "Aug 19 → Dec 1")
    rf"|(?:(?<=[^\W\d_])|(?<=\d,\d\d\d))\s(?:→|->|⇒)\s(?={_MONTH_DAY}|\d{{1,2}}/\d{{1,2}}\b)"
)
# "X so Y" and "X which means Y" are two assertions: a figure, then a conclusion drawn from it
# ("…step121638 so that's the live run"), not "so far" or "not so fast".
_JOINS = re.compile(
    r"\s+(?:and(?! a half\b)(?!\s+\d[\d.,]*\s*[kKmMbBtT%]?\s*(?:$|[,.;](?:\s|$)))|but|plus"
    r"|also(?=\s+(?:it|it's|they|the|this|there|we|i)\b)|while"
    r"|which means)\s+"  # "a month and a half", "at 8K and 16K," "the 535B also had…": one
    r"|\s+so\s+(?=(?:that|this|it|its|it's|they|they're|they'll|they've|the|we|marin|maybe"
    r"|probably|i guess)\b|\d)"  # (or the working: "11 NVL72 racks so 11 x 72 = 792 GPUs")
    r"|而且|并且|还有(?!\s*[\d一])|但是|另外|(?<![反然])而"  # (not "还有 53 天": what is left)
    r"|\s*只是(?=\s*(?:还|還)?(?:没|沒))"  # "早就練完了 只是還沒公布": done, but not announced
)
_FIGURE = re.compile(
    r"(?<![A-Za-z0-9_.,])(\d+(?:[.,]\d+)*)(?!st\b|nd\b|rd\b|th\b)"  # "the 21st" is a day
    r"\s?(%|[kmbt](?![a-z])|e\d+|万亿|亿|万|兆(?!瓦)|trillion|billion|million"
    r"|[kmg]w\b|兆瓦|千瓦)?"  # (power: no record gives any, "1.3 MW" is no 1.3 of anything)
    # the words after it, looked at, not taken: "11,264 sequences of 4,096 tokens" is two
    r"(?=((?:\s*[\w-]+){0,3}))",
    re.IGNORECASE,
)
# A range whose unit is written once, at its end: "1.5–2%" is 1.5% to 2%, "14-15T" 14T to 15T
_RANGE = re.compile(
    r"(?<![\d.,])(\d+(?:\.\d+)?)\s*([-–~]|to|至|到)\s*(\d+(?:\.\d+)?)\s?(%|[kmbt](?![a-z])|万亿|亿)"
)
_CLOCK = re.compile(r"(?<!\w)t\d\d:\d\d(?::\d\d)?(?:\.\d+)?z?\b")
_DASH = re.compile(r"\s*[-–~]\s*")  # (its two ends, written out: "26% - 27%")
# A share worked out from two figures said beside it: "231k/390k is ~59%" says only the two
_RATIO = re.compile(
    r"(\d[\d,.]*\s?[kmbt]?)\s*/\s*(\d[\d,.]*\s?[kmbt]?)(?![\d.])[^\d%]{0,12}?(\d+(?:\.\d+)?)\s?%"
)
ISSUE = re.compile(r"#\s?(\d+)|\b(?:pr|issue)\s?#?\s?(\d{3,})\b", re.IGNORECASE)
# The run's name is no figure of it ("Marin 535B is behind"; "535B 总参" is the figure again)
_NAME = re.compile(
    r"\b(?:marin[ -]?)?535b(?:-a23b)?\b(?!\s*(?:total|param|参数|參數|总|總))|\ba23b\b"
)
_OF = re.compile(
    r"\d[\d,.]*\s*(?:[kmbt%]|steps?|tokens?|trillion|billion|million|万亿|亿|万)?\s*"
    r"(?:/|\bof(?: the)?)\s*$"
    # or out of a total, after the part: "125.4 GiB（共 143.75）" (not "共 704 张卡")
    r"|(?:^|\d[\d,.]*\s*[^\d\s]{0,6}\s*[(（]?)\s*(?:共|总共|總共|\bout of)\s*$"
    # (or at the clause's start, after a part told before it: "到了第 215,756 步，总共 390,251 步")
)  # "4.65T of 18T", "100,845 / 390,251", not "loss of 2.04"
_STEP = re.compile(r"\bstep[-\s]*$|步\s*$|第\s*$")
# A model named by its total and active counts: "27.7B-A1.2B" is 27.7B and 1.2B.
_ACTIVE_OF = re.compile(r"(?<=[\dbm])-a(?=\d)")
# (said of a count after it: "32B active" is no dense 32B model's)
_ACTIVE = re.compile(r"\s*(?:active|activated|激活|啟用|启用|活跃|活躍)(?!\s*\d)")  # "535B激活23B"
_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12, "万": 1e4, "亿": 1e8, "万亿": 1e12, "兆": 1e12}
_SCALE |= {"million": 1e6, "billion": 1e9, "trillion": 1e12}  # 兆: Taiwan's ("18.75兆個token")
# A day, a step or a share in brackets after the words it places ("step-180000 (Sep 30)",
# "planned at ~80% (step 312,192)", "计划在第 312,192 步（约 80%）进入冷却")
_DATED = re.compile(
    r"(?:(?<=[^.!?\s])|(?<=[^.!?\s]\s))"  # (not a thread's "(2/5)" opening a sentence)
    rf"\s*[(（]\s*(?:{MONTH.pattern}|(?:step[- ]?|第\s*)[\d,]+\s*步?"
    r"|(?:约|約|~|≈|about |approx\.? )?\s*[\d.]+\s*%"  # or a share: "（约 80%）"
    r"|(?:共|总共|總共|out of)\s*[\d.,]+\s*[a-z]{0,3})\s*[)）]",  # or a whole: "（共 143.75）"
    re.IGNORECASE,
)
_YEARS_TO = 2040  # a bare count below this is a year ("2027 年 3 月"); 2048 is a length
_HIDE = str.maketrans("()（）、,", "\ue000\ue001\ue002\ue003\ue004\ue005")
_SHOW = str.maketrans("\ue000\ue001\ue002\ue003\ue004\ue005", "()（）、,")
# A list denied as one: "没有任何公开的 535B 权重、检查点或模型卡", "no 535B checkpoint, model
# card or weights" (its commas kept from the split)
_DENIED_LIST = re.compile(
    r"(?:没有|沒有|并无|並無)[^，。,.!?！？；;、]{0,30}、[^，。,.!?！？；;]*"
    r"|\bno\b[^，。,.!?！？；;、]{0,30},[^，。.!?！？；;]*\bor\b[^，。,.!?！？；;]*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str  # "exact" (a plain count, compared digit for digit), "n" (scaled), "%", "flops"
    noun: str = ""  # the word after a plain count: "layers", "gpus", "rungs"
    # half a unit of the last digit written: "9.26T" is 9.255T to 9.265T, "18T" 17.5T to 18.5T
    # (0: not written by anyone, e.g. the progress series' own arithmetic)
    spread: float = 0.0
    of: bool = False  # a whole a share is of: "4.65T of 18T", "step 100,845 / 390,251"
    active: bool = False  # an active parameter count: "22.76B active", "27.7B-A1.2B"
    # what a per cent measures ("MFU 26.47%", "10% faster"), or what a scaled count counts
    # ("500B tokens", "535B params"): measures.py
    measure: str = ""
    total: bool = False  # said to be the total: "總共 23B 參數" is no active count


def assertions_in(message: str) -> list[str]:
    """The message cut into the assertions it makes (clauses of a few words or more), its
    first ``MAX_ASSERTIONS``."""
    return every_assertion(message)[:MAX_ASSERTIONS]


def every_assertion(message: str) -> list[str]:
    """All the assertions the message makes: the reply says how many were left unchecked."""
    pieces = [told(_trimmed(p)) for p in _clauses(message)]  # (a question's told kept)
    return [p for p in pieces if substantial(p) and not asks(p)]


def asks_only(message: str) -> bool:
    """Whether a message asks and asserts nothing ("has it started?", "训练完了吗")."""
    return any(asks(p) for p in _clauses(message)) and not assertions_in(message)


def _trimmed(piece: str) -> str:
    """The clause without the quotes, dashes and brackets around it, keeping a bracket it
    closes itself ("… step-180000 (Sep 30)")."""
    trimmed = piece.strip(" -–—:\"'“”()[]/")
    if trimmed.count("(") > trimmed.count(")") and piece.rstrip().endswith(")"):
        trimmed += ")"
    return trimmed


def _clauses(message: str) -> list[str]:
    found: list[str] = []
    # a day in brackets dates the words before it: "newest checkpoint is step-180000 (Sep 30)"
    # is one clause (its brackets kept from the split, then given back)
    message = _DATED.sub(lambda m: m[0].translate(_HIDE), message)
    message = _DENIED_LIST.sub(lambda m: m[0].translate(_HIDE), message)
    for sentence in _SENTENCES.split(message):
        for clause in _JOINS.split(sentence):
            # a colon parts two assertions ("Marin 535B is done: 18T tokens"), not a heading
            # from what it heads ("Oct 13: the save failed", "tracker: 25.8%", "status: DONE")
            head, colon, tail = clause.partition(": " if ": " in clause else "：")
            parts = len(head.split()) >= 3 and substantial(tail)
            parts = parts and (colon == ": " or not _HEADS.search(fold(head)))
            found += [head, tail] if colon and parts else [clause]
    return [clause.translate(_SHOW) for clause in found]


def substantial(piece: str) -> bool:
    words = re.findall(r"[A-Za-z0-9][\w.+%-]*", piece)
    cjk = re.findall(r"[\u4e00-\u9fff]", piece)
    scaled = re.search(r"\d\s?(?:%|[kmbt]\b)", piece, re.IGNORECASE)  # "25.8%" after "tracker:"
    return len(words) + len(cjk) // 2 >= 2 or bool(re.search(r"\d", piece) and cjk or scaled)


_ORDINAL = re.compile(r"第\s*$|\btop-?\s*$")  # (or a routing's: "top-8 专家" is no 8 experts)
# A full-width colon after a day or a plan heads what follows ("11 月 20 日更新：…", "#8435 里有个
# plan：…"): no assertion of its own
_HEADS = re.compile(rf"{MONTH.pattern}|\d\s*[日号號]|(?:plan|schedule|计划|計劃|方案)\s*$")
_NAMED_BEFORE = re.compile(  # "层数 64", "共享專家是 4 個": what a count counts, named before it
    r"(?:(?:(层|層)(?:数|數)|\b(layer) count|\bnum[_ ](layer)s)\s*(?:是|有|为|為|=|:|：)?"
    r"|(专家|專家|\bexperts?)(?:数|數|数量|數量)?\s*(?:是|有|为|為|=|:|：))\s*$"
)
# A figure said to be about so much is that much give or take a little more than its digits
_ABOUT = re.compile(r"(?:~|≈|\babout|\baround|\broughly|约|約|大概|大约|大約|差不多)\s*$")
_ABOUT_SHARE = 0.005


def _worked_out(ratio: re.Match[str]) -> str:
    """The ratio without its share, if the share is the ratio's (to a point either way)."""
    over, under = figures(ratio[1]), figures(ratio[2])
    if len(over) != 1 or len(under) != 1 or not under[0].value:
        return ratio[0]
    if abs(100 * over[0].value / under[0].value - float(ratio[3])) > 1:
        return ratio[0]  # "231k/390k is 70%": the share is a figure of its own, and wrong
    return ratio[0][: ratio.start(3) - ratio.start()]


def figures(text: str) -> list[Figure]:
    """The figures of ``text``; the numbers of its dates ("Oct 3", "8 月 19 日") are not."""
    # "#9615" is an issue or pull request, not 9615 of anything that follows it
    found = [Figure(float(a or b), "exact", "issue", 0.5) for a, b in ISSUE.findall(text)]
    text = DOTTED.sub(" ", fold(ISSUE.sub(" ", text)))
    text = _ACTIVE_OF.sub(" actv_of ", _NAME.sub(" ", MONTH.sub(" ", SPAN.sub(" ", text))))
    text = _CLOCK.sub(" ", text)  # an ISO time of day, "2026-08-20t02:04:58z", is no figure
    text = _RANGE.sub(r"\1\4 \2 \3\4", _RATIO.sub(_worked_out, text))
    previous, end = "", 0  # what the figure before measures, and where it ends
    for match in _FIGURE.finditer(text):
        digits, unit, after = match.groups()
        try:
            value = float(digits.replace(",", ""))
        except ValueError:
            continue
        unit = (unit or "").lower()
        # a step is cut, not rounded, to thousands: the run id "step231k" is step 231,464
        step = _STEP.search(text[max(0, match.start() - 8) : match.start()])
        truncated = unit == "k" and bool(step)  # ("step 2.3k" is step 2,359 cut, too)
        places = len(digits.rpartition(".")[2]) if "." in digits else 0
        scale = 1.0
        if unit.startswith("e"):  # "2.7e24" FLOPs; "1.875e13" is a count (of tokens)
            scale = 10.0 ** int(unit[1:])
            flops = value * scale >= 1e20 or "flop" in text  # ("the rung FLOPs go 5.5e19")
            unit = "flops" if flops else "n"  # (a small rung's "5.5e19 FLOPs" too)
        elif unit.endswith(("w", "瓦")):
            unit = "power"
        elif unit in _SCALE:  # ("1.6万张卡", "16k GPUs": hardware, counted digit for digit)
            scale, unit = _SCALE[unit], "exact" if hardware(after) else "n"
        elif unit != "%" and bare_mfu(text, match.span(), value, previous):
            unit = "%"
        elif unit != "%":
            unit = "n" if "." in digits else "exact"
        value *= scale
        # (a step counts steps: "step 219,518 的时候 nominal tokens" is no count of tokens)
        stepped = step and step[0].startswith("step")  # ("第 12 个机柜" is a twelfth rack)
        noun = counted_noun(after) if unit == "exact" and not stepped else ""
        named = _NAMED_BEFORE.search(text[: match.start()]) if unit == "exact" else None
        if named and not noun:
            noun = counted_noun(next(g for g in named.groups() if g))
        if noun and _ORDINAL.search(text[max(0, match.start() - 4) : match.start()]):
            continue  # "第二级": the second rung, not two of them ("第 180,000 步" is a step)
        if unit == "exact" and not noun and (value < 10 or 1990 < value < _YEARS_TO):
            continue  # "3 months", a year: said better by other rules (not "seq len 2048")
        if unit == "flops":  # "5e24" is one significant figure: 4.95e24 to 5.05e24
            places += 1
        # (a scaled count's trailing zeros are not significant: "5350 亿" is 535B, to 0.5B)
        zeros = len(digits) - len(digits.rstrip("0")) if scale >= 1e8 and "." not in digits else 0
        spread = 0.5 * scale * 10.0 ** (zeros - places)
        if truncated:  # 215k: 214.5k (rounded) to 215.99k (cut), never the next 216k
            value, spread = value + 0.25 * scale / 10**places, 0.745 * scale / 10**places
        if unit == "%":  # "50.7%" of a share the records give as 50.64%
            spread = max(spread, 0.1)
        if NEARLY.search(text[max(0, match.start() - 10) : match.start()]):
            spread = 0.02 * value
        if _ABOUT.search(text[max(0, match.start() - 10) : match.start()]):
            spread = max(spread, _ABOUT_SHARE * value)  # "每步大概4600万 token": 46.1M
        of = bool(_OF.search(text[max(0, match.start() - 24) : match.start()]))
        active = bool(_ACTIVE.match(after) or text[: match.start()].endswith("actv_of "))
        what = measure(text, match.start(), match.end()) if unit == "%" else ""
        what = counts(text[match.end() : match.end() + 24]) if unit == "n" else what
        spread = spread if truncated else min(spread, 0.02 * abs(value))  # (a cut step's own)
        total = unit == "n" and not active and said_total(text, match.start(), match.end())
        figure = Figure(value, unit, noun, spread, of, active, what, total)
        joined = bool(found) and found[-1].measure == what == "mfu"  # (a change's: each end)
        if joined and _DASH.fullmatch(text[end : match.start()]):
            low = found.pop()  # an MFU range is one figure: "MFU ~26-27%" holds Sep 30's 26.47%
            half = abs(value - low.value) / 2
            figure = replace(figure, value=(low.value + value) / 2, spread=half + figure.spread)
        found.append(figure)
        previous, end = what, match.end()
    return found


def same(a: Figure, b: Figure) -> bool:
    """The same figure: digit for digit for a plain count (with the same counted noun, or
    neither with one); a scaled figure to the precision it was written in ("535B" is the
    spec's 535.3B, "23B" its 22.76B, but "9.26T" is not 9.11T)."""
    counts = {"n", "exact"}
    if a.unit != b.unit and not (a.unit in counts and b.unit in counts):
        return False
    if b.unit == "exact":  # a: the knowledge base's, b: the assertion's
        return a.value == b.value and (not b.noun or a.noun == b.noun)
    if a.unit == "exact" and a.noun and a.noun != b.noun:
        return False  # "704 GPUs" is not "704B" of anything
    if b.active and not a.active or b.total and a.active:
        return False  # "A32B", "32B active": the Marin 32B is dense; "總共 23B": 535B
    if a.measure and b.measure and a.measure != b.measure:
        return False  # "MFU 只有 10%" is not "about 10% faster"
    spread = b.spread or 0.02 * max(abs(a.value), abs(b.value), 1.0)
    return abs(a.value - b.value) <= spread * 1.001  # 1.001: "18.75" read back as float
