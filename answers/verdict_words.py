"""The words that carry a verdict in a rumour: done, begun, released, scored, hedged, late.

``checking.py`` reads an assertion through these; they are kept apart so the rules stay
readable there. Each pattern runs over folded text (``answers.text.fold``: lower case,
simplified and traditional Chinese both listed where they differ).
"""

from __future__ import annotations

import re

from answers.phase_words import LATER_PHASE

NEGATION = re.compile(
    r"\b(?:not|isn'?t|hasn'?t|haven'?t|wasn'?t|aren'?t|never|yet to|nothing|nobody|no one|zero"
    r"|doesn'?t|don'?t|didn'?t|can'?t|cannot|won'?t|weren'?t|couldn'?t)\b"
    r"|\bno\b(?! (?:cap|kidding|joke|lie|doubt)\b)(?!,? (?:it|they|he|she|we|that|this)\b)"
    # ("no cap" denies nothing; "lol no it finished yesterday" answers someone, then asserts)
    # ("没有之一" is "bar none", "没错" "right": no denial)
    r"|没(?!有之一|错|錯)|沒(?!有之一|错|錯)|未|(?<![怕莫岂])不是|尚未"
    # ("怕不是已经停了" is "it has probably stopped": no denial either)
    r"|零(?=\s*(?:更新|次|个|個|事故|故障|进展|進展))"  # "快照是零更新"
    r"|(?:搜|找|查|看|下载|下載)不到"  # "HuggingFace 上搜不到": not found (not "不到 10%", under)
)
# What no record shows, whatever the wording: finished, a later phase begun, released, scored.
DONE = re.compile(
    r"\b(?:finish(?:ed|es)?|done|complete[ds]?|wrapped|ended|concluded|fully trained)\b"
    r"|训完|訓完|训练完|訓練完|完成了|已完成|已经完成|已經完成|完成预训练|完成預訓練|结束了|結束了"
    r"|已结束|跑完|做完|搞完|弄完|练完|炼完|收工了|收官|train ?完|正式完成(?![后後时時])"
    r"|(?:已经?|早就|都)\s*(?:全部|全都)?\s*(?:结束|完成|完工|完事)"
    r"|\bclosed out\b"
)
# All of it: "390,251/390,251 steps", "18T of 18T", "100% done" (not "will 100% hit 18T").
FULL = re.compile(  # (a day is no whole: "9/9" is September 9)
    r"(?<![\d.,])(\d[\d,.]*\s?[kmbt]|\d{3}[\d,.]*|\d+(?=\s*o))\s*(?:/|of|out of)\s*\1(?![\d.,])"
    r"|\b100\s?%\s*(?:done|complete|finished|trained|完成|训完|訓完)"
)
_MODEL_NOUN = r"(?:model|chat|weights|模型|聊天|权重|權重|后训练|後訓練|post-?train\w*)"
_WEAK_RELEASE = r"(?:\b(?:available|ships?|shipped|demo|api|playground|live|(?:is|are) out)\b"
_WEAK_RELEASE += r"|\bout (?:in|by|on|next)\b|上[线線]|上架|可以用)"
RELEASED = re.compile(
    r"\b(?:released?|releasing|weights?|download(?:able)?|open[- ]?sourced|dropping"
    r"|(?<!expert )(?<!\dx )(?<!token )drops?(?! fraction| rate|\s*\d)"  # (experts': "drops 4.5x")
    r"|open[- ]?source (?=了|now|already)|internal(?:ly)? (?:shared|testing|release)"
    r"|out now|hugging ?face|hf|chat version|gguf|quants?|quantiz(?:ed|ation)|model card|ollama"
    r"|openrouter|(?:will|gonna|to) host (?:it|the model|the weights)|on (?:their|its) (?:own )?api"
    r"|upload(?:s|ed|ing)? (?:the )?(?:\w+ )?(?:model|weights|checkpoints?)"
    r"|(?:model|moe|weights?|535b(?:-a23b)?|checkpoints?) (?:is|are) (?:finally )?out"
    r"|lm ?studio)\b|抱抱[脸臉]|vllm\s*(?:跑|上跑)"  # (served: "已经能用 vLLM 跑 535B 了")
    # 开源 the verb, not open development ("开源训练的新范式")
    r"|(?:发布|發布)(?!时|時|的时候|的時候|会|會|那天|帖|文|说明|說明)|(?:开源|開源)(?!训练|訓練|开发|開發|精神|社区|社區|科学|科學|范式|範式|项目|項目)"
    r"|[出发發]\s*(?:chat|base|instruct|模型|权重|權重)|放出|权重|權重|下载|下載|釋出|模型卡|量化|内部.{0,8}(?:发了|發了|在测|在測)|內部.{0,8}(?:發了|在測)"
    # a release only when the model is what went out: not "FA4 kernels 上线", not
    # "hero-mfu30-step231k went live"
    rf"|{_MODEL_NOUN}.{{0,16}}{_WEAK_RELEASE}|{_WEAK_RELEASE}.{{0,16}}{_MODEL_NOUN}"
)
SCORED = re.compile(
    r"\b(?:beats?|outperforms?|better than|sota|state of the art|mmlu|gsm8k|humaneval"
    r"|(?<!router-)(?<!router )scores?"  # (not the router's scores: "router-score RMS error")
    r"|scored|benchmarks?|elo|arena|eval(?:uation)?s? (?:results?|scores?|numbers))\b"
    r"|结果也?出来|結果也?出來"
    # (not "延误超过缓冲", a delay over the buffer, "配比会提高", "比 209,999 步的 2.13435 高")
    r"|吊打|(?<!延误)(?<!延誤)(?<!延迟)(?:超过|超越)|跑分|分数|打败|打敗|打赢|打贏|碾压|碾壓|榜"
    r"|(?:評測|评测)(?!\s*(?:[a-z]+\s*)?(?:损失|損失|loss))"  # (an eval loss: "评测 dropless loss")
    r"|(?<![配对對占佔例])比(?![^，。,]{0,20}\d{3}).{1,20}(?:好|强|強|高|(?:还|還|更)大)"
    # the model's quality judged: no evaluation record exists to support any judgment
    r"|\b(?:lmarena|leaderboard|ranked|top (?:\d+|ten|five))\b|排进|排進|排名|出结果|出結果"
    r"|\b(?:gpt|llama|claude|frontier)[- ]?[\w.]*[- ](?:class|level|tier)\b"  # "GPT-4 class"
    # lower or better than another model: no record compares them
    r"|比\s*(?:marin\s*)?(?:32b|deepseek|llama|qwen|gpt|kimi|mixtral|olmo|glm)[^，。,]{0,16}(?:低|高|差)"
    r"|\b(?:lower|higher) than (?:the )?(?:marin )?(?:32b|deepseek|llama|qwen|gpt|olmo)"
    r"|\b(?:best(?! case| recorded| measured| so far| on record)|worst(?! case)|beast|amazing"
    r"|impressive|fastest|slowest|biggest|largest"
    r"|gpt-\d\S* level|catch(?:es)? up with"
    r"|c-eval|results look)\b|能力|很强|很強|厉害|厲害|最强|最強|水平"
)
# A plan's figure or date stated as done or certain.
AS_DONE = re.compile(
    r"\b(?:was|were|been|got|has|have|had|already|took|finished in|trained|ran|over"
    r"|ends?|ending|will end|extended|switch(?:ed)?(?! points?)|hit|reached|delivered|locked"
    r"|burn(?:ed|t)?)\b"
    r"|已|训了|訓了|训练了|訓練了|train ?完|用了|用完|扩展到|擴展到|扩到|擴到|结束|結束|花了|烧了"
    r"|燒了|达到|達到|到了|肯定|切到|换到|用时|用時"
    r"|\b(?:happened|took place|changed to|moved to|went to|came in|landed at|final|deployed"
    r"|all in|cut|cutting|shortened|shortening|trimmed|trimming|reduced|spent"
    r"|used (?:its|their|the|up))\b|砍了|砍掉了|缩短了|縮短了"
    r"|切换了|切換了|改成|改为|改為|换成|換成|上了|改用|切过去|切過去|换过去|換過去|切了|落在"
    r"|加了|提高了|提升了|增加了|调高了|調高了|拉上去了|拉高了|命中|打中|达标|達標"
    r"|\b(?:did|done|kicked (?:in|off)|started|began|begun)\b|最终|最終"
    r"|\b(?:blew|chewed|got|went|ran) (?:through|past)\b|\bwent (?=[~\d]|from\b)"  # "went 4k→8k"
)
# Done words that an approximate figure does not soften: "happened at ~195k" is still done.
SURELY_DONE = re.compile(
    r"\b(?:already|happened|took place|all spent|all used|trained on|(?:the|its) (?:full|whole))\b"
    r"|已经|已經|完成了|切换了|切換了|训完|訓完|跑完|已在|已于|已於|已完成|\bkicked (?:in|off)\b"
    r"|\b(?:got|was|were|been) (?:extended|switched|moved|deployed|cut|shortened)\b|切过去|切過去"
    r"|用时|用時"
)
HEDGED = re.compile(
    r"\b(?:plan(?:s|ned|ning)?|projected|projection|expected|scheduled|target(?:ed)?|aims?"
    r"|supposed|estimate[ds]?|est|eta|predict(?:s|ed)?|forecast"
    r"|wants?|wanted|prefers?|preferred|lean(?:s|ing|ed)? towards?"  # a wish: "一直想要 16K"
    r"|if(?! anything)|unless|provided|imagine"  # nor a condition ("if anything ahead" is none)
    r"|(?:was|were) going to)\b|如果|假如|要是|前提"  # nor an intent ("were going to 8k")
    r"|计划|計劃|预计|預計|预期|預期|目标|目標|预定|預定|估计|估計|[还還]估|预估|預估|預測|预测|(?<![思理感回])想(?![法到起])|倾向|傾向|希望"
    r"|方案|提案|若(?!干)|(?<![说說讲講])的[话話]"  # a proposal ("8k的方案"), a condition (若…)
    r"|下一步|接下来|接下來|\bnext (?:up|steps?)\b"  # what comes next ("下一步：12月1日…")
)
# An intent not to: "they're clearly not releasing the weights", "不打算开源" (not "not yet").
NO_INTENT = re.compile(
    r"\b(?:won'?t|will not|not going to|never going to|not releasing|no plans? to|never)\b"
    r"|不会|不會|不打算|不准备|不準備|不可能|永远不|永遠不"
)
# A decision, a mistake in a record, a success: each needs a record saying so ("they've decided
# to stay at 4k for good", "推特上的2.7e24是写错了"); a success where the record of that step
# says it failed is contradicted ("the step-198000 save went through fine").
DECIDED = re.compile(
    r"\b(?:decided|decision|for good|never going to)\b|决定|決定|永远|永遠|不再"
    # (not a permanent checkpoint: "checkpoints are saved every 6,000 steps permanently")
    r"|^(?!.*\b(?:checkpoints?|ckpts?|saved?|saving|stored|kept)\b).*\bpermanently\b"
)
MISTAKE = re.compile(
    r"\b(?:typo|mistake|misprint|wrong number|was wrong|is wrong)\b"
    r"|写错|寫錯|搞错|搞錯|笔误|筆誤|弄错|弄錯"
)
SUCCESS = re.compile(
    r"\b(?:went (?:through|fine|ok)|succeeded|successful(?:ly)?|worked fine|no problem)\b"
    r"|成功|顺利|順利|没问题|沒問題"
)
# A technical report or paper: no record shows one.
REPORT = re.compile(r"\b(?:tech(?:nical)? report|paper|arxiv)\b|技术报告|技術報告|论文|論文")
# The plan told as still to come: "is expected to finish", "预计 12 月 1 日结束".
TO_COME = re.compile(
    r"\b(?:expected|scheduled|planned|set|due|supposed|going) to\b|\bwill\b"
    r"|预计|預計|将于|將於|计划于|計劃於"
)
# An end projected, a noun, not the run said to have ended: "projected a Nov 27 finish".
FORECAST_END = re.compile(
    r"\b(?:projected|predicted|estimated|expected|forecast|eta)\b.{0,24}\b(?:finish|end|completion)\b"
    r"|(?:预计|預計|预测|預測|估计|估計).{0,12}(?:结束|結束|完成)日"
    r"|\bm?tracker\b.{0,8}(?:估|预计|預計|预测|預測).{0,16}(?:跑完|训完|訓完|结束|結束|完成)"
    r"|\bm?tracker\b.{0,30}(?:'d|would|will) (?:be )?(?:done|end)"  # "mtracker said it'd be done"
)
# Done as the plan said: no hedge ("cooldown也按计划在80%切了", "came in at 2.04 exactly like")
AS_PLANNED = re.compile(
    r"\b(?:as planned|like (?:they )?planned|(?:like|as) the plan (?:said|says)|as scheduled"
    r"|on schedule|(?:exactly )?like the "
    r"forecast|right on time)\b|如期|符合预期|符合預期|如预期|如預期"
    r"|命中目标|命中目標|打中目标|达标|達標"  # a target met is no hedge
    # 按计划 is "per the plan" too: done only with a done particle after it ("…按计划在80%切了")
    r"|(?:按计划|按計劃|照计划|照計劃)(?=[^，。,]*(?:了|完|准时|準時))|准时|準時"
    r"|(?<=已)(?:按计划|按計劃|照计划|照計劃)|(?<=已经|已經)(?:按计划|按計劃|照计划|照計劃)"
)
# Someone's word for it: "the tracker said end date Nov 27" reports an estimate, but "Percy
# said it's trained on 18.75T" still states the plan as done.
SAID = re.compile(
    r"\b(?:says|said|saying|according to|per the)\b|写着|寫著|说的是|說的是|写的是|寫的是"
    r"|据说|據說|根据|根據|据称|據稱|据报|據報"  # never 据 alone: 数据 is "data"
)
# An approximate figure: a plan is usually told this way, so it hedges, unless a done word
# says otherwise (SURELY_DONE).
APPROXIMATE = re.compile(
    r"\b(?:roughly|about|around|approximately)\b|~|大约|大約|左右|约|大概|差不多"
)
# A run's length in months or days: something of this run's to check, whatever the reading.
DURATION = re.compile(
    r"\b(?:\d+|three|two|four|six)[\s-]*(?:months?|days?)\b|[一二三四五六\d]+\s*[个個]月|\d+\s*天"
    r"|半年|\bhalf an? year\b"
)
# Words that state a planned figure as reached, whatever hedge sits beside them ("已经达到
# 预注册的目标 loss": the target is the object, not a hedge).
REACHED = re.compile(r"\b(?:already|hit|reached|used up)\b|已经|已經|达到|達到|用完|到了")
STARTED = re.compile(r"\b(?:start|began|begun|kick|launch)|开训|開訓|开始|開始|启动|啟動|开跑|開跑")
RUN_ID = re.compile(r"(?<![/\w-])hero-[a-z0-9_.-]*[a-z0-9]")  # not a URL's "/hero-run-535b"
# Words that name one fact of the records, when no figure says more.
TERMS = (
    (re.compile(r"\bgb200\b|nvl72"), "hardware-gb200"),
    (re.compile(r"\bcoreweave\b"), "storage-coreweave"),
    (re.compile(r"\bhuang\b|黄仁勋|黃仁勳|黄氏|黃氏"), "hardware-gift"),
    # (half of the run: "完成一半了", "训到一半"; not half of something else, "一半是中文")
    (
        re.compile(r"\bhalf ?way\b|\bhalf done\b|[过過]半|(?:完成|到|[训訓过過跑]了?)一半|一半了"),
        "progress-halfway-post",
    ),
    (re.compile(r"\bmoe\b|mixture[- ]of[- ]experts|混合专家|混合專家"), "architecture"),
    (re.compile(r"current run\.py"), "run-current-run-py"),  # as folded: current_run.py
    (re.compile(r"\bhost ooms?\b|(?:主机|主機)\s?oom"), "incident-0824-ooms"),
    (re.compile(r"\btaint(?:ed)?\b|污点|汙點"), "incident-1006-taint"),
    (
        re.compile(r"\bexport[_ ]vllm\b|\bvllm export\b|\bexport tool|[导導匯]出工具"),
        "export-tooling",
    ),
)
# A reason given for something: "because", "caused by", "that's why", "是因为". A record that
# states the cause (a claim holding the figures with "because" in it) still supports it.
CAUSE = re.compile(
    r"\b(?:because|caused by|due to|that'?s why|which is why|the reason|came from|stemmed from"
    r"|traced (?:back )?to|blamed on|(?:was|were|is) from an? (?:bad|faulty|broken|dead|flaky))\b"
    # a cause named, not one said unknown ("root cause 到現在還 unconfirmed")
    r"|\b(?:root cause|(?:the )?cause (?:was|is))\b"
    r"(?!.{0,30}(?:unconfirmed|unknown|unclear|未确认|未確認|不明))"
    r"|是因为|是因為|因为|因為|由于|由於|导致|導致|的原因|原因在于|原因在於|是为了|是為了"
    r"|原因(?:已经?|已經)?(?:确认|確認|查明|查清楚?|官方[说說])?了?是"  # "原因已查明是硬件故障"
    r"|(?<![原基])因(?![此而为為素])"  # "因 NoExecute taint": because of
)
# A checkpoint said to be public: no record shows one (the status log names them in storage).
PUBLIC_CHECKPOINT = re.compile(
    r"(?:检查点|檢查點|checkpoint|ckpt|step-\d+).{0,24}(?:公开|公開|public|open)"
    r"|(?:公开|公開|public|open).{0,24}(?:检查点|檢查點|checkpoint|ckpt)"
    # or fetched by someone outside: "我昨晚拉了 step-180000", "downloaded the 180k ckpt"
    r"|(?:\b(?:download(?:ed)?|pulled|grabbed|grab)\b|下载|下載|拉了|拉下来|拉下來)"
    r".{0,24}(?:检查点|檢查點|checkpoint|ckpt|step-?\d+|权重|權重|weights)"
)
# A role or a rank: who leads, the first, the largest (a record must give it).
LEADS = re.compile(
    r"\b(?:lead(?:s|ing|er)?|led|in charge|runs it|runs the (?:run|project)|heads?|boss)\b"
    r"|负责|負責|主导|主導|带队|帶隊|在带|在帶|带的|帶的|拍板|牵头|牽頭|领导|領導|领军|領軍|挂帅|掛帥"
)
FIRST = re.compile(
    r"\b(?:first|only)\b(?! (?:line|comment|post|sentence|thing))"  # "first line is…": no rank
    r".{0,30}\b(?:model|run|lab|project|announcement)\b"
    r"|\b(?:largest|biggest|most open)\b.{0,40}\b(?:ever|in history|in the world)\b"
    r"|史上|首个|首個|唯一|全球最大|世界最大"  # not "阶梯最大一级": the ladder's own top rung
)
# The people the records name, by the names rumours use for them.
_NAMES = "percy|larry|classiclarry|david|dlwh|jensen|lori|will held|helw150|rjpower|yonromai"
PEOPLE = re.compile(rf"\b(?:{_NAMES}|mcwitt)\b")
SOURCE = re.compile(
    rf"(?:according to|per|据|據)\s*{PEOPLE.pattern}"
    rf"|{PEOPLE.pattern}(?:\s+\w+)?\s*(?:said|says|posted|tweeted|wrote|说|說|表示|称|稱|发|發)"
)
ANNOUNCED = re.compile(r"\b(?:announc\w*|posted|tweet(?:s|ed)?)\b|官宣|宣布|公布|发推|發推|推文")


# The team's plan or word named, not an estimate: "官方计划", "scheduled", "the official end".
PLANNED = re.compile(
    r"\b(?:plan(?:s|ned)?|official(?:ly)?|scheduled|target(?:ed)?|budget(?:ed)?)\b"
    r"|官方|计划|計劃|预定|預定|目标|目標|预算|預算"
)
TESTED = re.compile(
    r"\b(?:tests?|tested|testing|trial|draft|measured|benchmark(?:ed)?)\b|\bon one rack\b"
    r"|测试|測試|试验|試驗|草稿|单机柜|單機櫃|一个 ?rack|一個 ?rack|测了|測了"
)


def hedged(
    text: str, *, tests_too: bool = False, said_too: bool = True, approximate_too: bool = True
) -> bool:
    """Told as a plan or an estimate, not as done; ``tests_too``: or as a test of a plan
    ("8K was tested on one rack" is no plan done; "the trial crashed twice" still a claim);
    ``said_too``: or as someone's word (not when a done word is weighed: see SAID);
    ``approximate_too``: or with an approximate figure (a plan's way, not a judgment's: "20
    万步左右爆掉了" is no hedge)."""
    text = AS_PLANNED.sub(" ", text)
    if HEDGED.search(text) or (tests_too and TESTED.search(text)):
        return True
    if said_too and SAID.search(text):
        return True
    return approximate_too and bool(APPROXIMATE.search(text)) and not SURELY_DONE.search(text)


def denial(text: str) -> bool:
    """Whether the text says "not"/"no"/没 anywhere."""
    return bool(NEGATION.search(text))


# A figure put in its document, nothing done: "the 18.75T number was from the tweet"
SOURCED = re.compile(r"\b(?:number|figure)s? (?:was|is|were|are|came|comes) from\b|(?:来自|來自)")


def states_done(text: str) -> bool:
    """Whether the clause states something as done, so the figures after it are stated done
    too ("it is done: 18T tokens, 100 days")."""
    # (not the run's own start: "started training this week!! 18.75T tokens planned"; a later
    # phase's does: "cooldown 已经开始了，phase 3 mixture 上线了")
    past = AS_DONE.search(text) and not (STARTED.search(text) and not LATER_PHASE.search(text))
    # (a forecast states nothing done: "預計十二月一日結束預訓練，大概一百天")
    forecast = hedged(text, said_too=False, approximate_too=False) or SOURCED.search(text)
    return bool(DONE.search(text) or past) and not denial(text) and not forecast


# A cost or a gain in speed: "1.5–2% slower per step" is no share of the run done
SPEED = re.compile(
    r"\b(?:slower|faster|speed-?ups?|throughput)\b|慢了|变慢|更慢|慢\s*\d|提速|加速|吞吐"
)

# A measured loss held against its forecast ("tracking the 2.04 target", "lands near it", "会比
# 2.04 低"): no record measures the one against the other
AGAINST_FORECAST = re.compile(
    r"\b(?:track(?:s|ing)|lands?|landing|on track for|on pace for|below|under|above)\b"
    r"|会比|會比|低于|低於|高于|高於|跑赢|跑贏"
)

# The run, or its team, named without its name: in a message that names it, these are its
THIS_RUN = re.compile(
    r"\b(?:the|this|their) (?:run|hero(?: run)?|model|team)\b|\bthey(?:'ve|'re|'d)?\b"
    r"|他们|他們|这次|這次|团队|團隊|这个 ?run|這個 ?run"
    # pretraining, and its end, in a message about the run ("今天正好跑完收工", "预训练已收官")
    r"|预训练|預訓練|\bpre-?training\b|跑完|收工|收官|训完|訓完"
)
