"""What the run is, what it runs on and who pays for it, said otherwise than its spec's
records: a dense model, other accelerators, another backer or donor, active parameters other
than the A23B ("Marin 535B is dense", "trained on TPU v5p", "NVIDIA donated the GPUs", "32B
active", "ctx is 32k natively from step 0"). ``checking.py`` asks here before it weighs
figures.
"""

from __future__ import annotations

import re

from answers.assertions import Figure
from answers.records import Records
from answers.spec_words import (
    A23B_MISREAD,
    CLOSED,
    DENSE,
    DONOR,
    FOUNDATION,
    FROM_ANOTHER,
    OTHER_BACKER,
    OTHER_HARDWARE,
    OTHER_RECIPE,
    OWN_DENIED,
    RETROSPECTIVE,
    ROUTER_SWITCHED,
    SHARED,
    SHARED_COUNT,
    active_misstated,
    routing_misstated,
)
from answers.time_words import FROM_START, FUTURE, WILL
from answers.verdict_words import NEGATION, TESTED, hedged
from answers.verdicts import CONTRADICTED, SUPPORTED, UNSUPPORTED, Verdict

_THIS_RUN = re.compile(r"535b|\bhero\b|\bthis run\b|这次|這次")  # the run named, not the 32B

# The run's context length named as its spec: "seq len 8192", "序列長度 8K", "context window"
_LENGTH_NAMED = re.compile(
    r"\bseq(?:uence)?[ _]?len(?:gth)?\b|\bcontext (?:length|window)\b|\bctx len\b"
    r"|\d\s?k\s+context\b|序列长度|上下文长度|上下文窗口"
)
_TO_COME = re.compile(rf"{FUTURE.pattern}|{WILL.pattern}|\bphase\b|阶段|\bwaiting\b|等")


def misstated_spec(
    records: Records,
    text: str,
    denied: bool,
    about_run: bool,
    topic: str | None = None,
    before: str = "",
) -> Verdict | None:
    """The verdict on a spec said otherwise, and the claims it names; None if the text says
    none (a denial, "not dense", is consistent with the records). ``about_run``: the message
    names the run, so an active count in it is the run's; ``topic``: the clause's, so a
    routing of another model's is not checked here; ``before``: the clauses before, which may
    name the 32B whose recipe changes the text tells."""
    ours = about_run or topic != "other-models"  # (routing is this run's unless another's)
    if A23B_MISREAD.search(text) or (about_run and active_misstated(text) and not denied):
        return CONTRADICTED, ("architecture",)
    shared = [int(n) for n in SHARED.findall(text)]  # "4 个共享专家": 2 shared experts
    if ROUTER_SWITCHED.search(text) and not denied:  # "9月22号决定改用 BF16 乘 + FP32 累加"
        return CONTRADICTED, records.known("router-decision")
    if ours and not denied and routing_misstated(text):
        return CONTRADICTED, ("architecture",)  # "每个 token 激活 16 个": top-8
    if ours and not denied and any(n != SHARED_COUNT for n in shared):
        return CONTRADICTED, ("architecture",)
    if OTHER_BACKER.search(text) and not denied:  # no record names another backer
        return UNSUPPORTED, records.known("hardware-gift", "hardware-gb200")
    # (the 32B's recipe told before, unless the clause names this run: "Marin 535B 也用 Muon")
    told_of_32b = RETROSPECTIVE.search(before) and not _THIS_RUN.search(text)
    recipe = OTHER_RECIPE.search(text) and not (told_of_32b or RETROSPECTIVE.search(text))
    if recipe and not denied and ours:  # "Marin 535B 也用 Muon"
        return UNSUPPORTED, ("architecture",)
    if DONOR.search(text) and not FOUNDATION.search(text):
        return CONTRADICTED, records.known("hardware-gift")
    # (its own "not", before or just after it: "它是 dense model 吧 ← 不是"; not another's:
    # "a dense model anyway so not comparable")
    dense = DENSE.search(text)
    after = (
        re.split(r"\bso\b|所以|anyway", text[dense.end() : dense.end() + 15])[0] if dense else ""
    )
    if dense and not NEGATION.search(text[max(0, dense.start() - 25) : dense.end()] + after):
        return CONTRADICTED, ("architecture",)
    if CLOSED.search(text) and not denied:  # "Marin 這次是閉源，只會給 API": trained in the open
        later = FUTURE.search(text) or WILL.search(text)  # ("之後會 closed source": no record)
        return UNSUPPORTED if later else CONTRADICTED, records.known("marin-project")
    if FROM_ANOTHER.search(text) and not denied:  # "在 Llama 上 continue-pretrain": from scratch
        return CONTRADICTED, records.known("flops-readme-5e24")
    if OTHER_HARDWARE.search(text) and not denied:
        return CONTRADICTED, ("hardware-gb200",)
    own = OWN_DENIED.search(text) if denied and ours else None
    if own is not None:  # "根本沒有用 GB200", "不是 MoE": the spec's own records say it is
        return CONTRADICTED, ("hardware-gb200",) if own[1] else ("architecture",)
    return None


def context_from_start(
    records: Records, text: str, said: list[Figure], topic: str | None
) -> Verdict | None:
    """The context length said of the run from its start ("it launched at 8k context"): it
    trained at 4K throughout the records. None if the text says no such length."""
    if topic != "context-length" or not FROM_START.search(text) or not said:
        return None
    return _at_4k(records, said)


def context_stated(
    records: Records, text: str, said: list[Figure], topic: str | None
) -> Verdict | None:
    """The context length named as the run's, neither planned, done nor tested ("seq len
    8192", "序列長度 8K"; ``checking.py`` asks after the plan's rules): the records have it at
    4K. None if the text names no length."""
    if topic != "context-length" or not _LENGTH_NAMED.search(text) or TESTED.search(text):
        return None  # (nor denied: "hero 的 seq len 没改过" is the records' own)
    if NEGATION.search(text) or _TO_COME.search(text) or hedged(text, approximate_too=False):
        return None  # (nor a plan: "a 262k phase planned near the end")
    if any(f.unit == "%" for f in said):
        return None  # a cost measured: "8K context 只慢 1.6% tokens/s"
    # a length is written in thousands or as a power of two: "8K", "4096" (not "11,264 条")
    lengths = [f for f in said if f.value >= 1000 and (f.unit == "n" or _power_of_two(f.value))]
    return _at_4k(records, lengths) if lengths else None


def _power_of_two(value: float) -> bool:
    return value == int(value) and int(value) & (int(value) - 1) == 0


def _at_4k(records: Records, lengths: list[Figure]) -> Verdict:
    at_4k = all(3500 <= f.value <= 4200 for f in lengths)
    return (SUPPORTED if at_4k else CONTRADICTED), records.known("context-not-extended")
