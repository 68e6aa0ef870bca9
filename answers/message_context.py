"""What a message said before a clause, that the clause leans on.

"it is done: 18T tokens, 100 days" states the figures after the colon as done; "10月6日重试，
同一天晚上存储配额爆了" puts the second clause on October 6. The checker reads each clause with
the context of the clauses before it (``checking.py``), and the context moves on after it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from answers.days import MONTH
from answers.documents import document_named
from answers.numerals import in_digits
from answers.plans import PER_PLAN
from answers.relative_dates import absolute
from answers.text import fold, spaced
from answers.verdict_words import AS_DONE, PLANNED, REACHED, states_done

# A day named by an earlier clause: "that day", "the same night", 同一天, 当晚 (not 那天 of a
# clause with its own date: "10月3號存檔失敗那天" is read from its own words).
SAME_DAY = re.compile(
    r"\b(?:(?:that|the same) (?:day|night|evening)|same day|later that day)\b"
    r"|同一天|同一日|同天|当天|當天|当晚|當晚|那天|那晚|同日"
    r"|^which(?= (?:is|was) (?:the|also|actually)\b)"  # "…end Nov 27, which is the official end"
)

# A day of the month alone ("21号", "the 27th"), in the month an earlier clause named
_BARE_DAY = re.compile(
    r"(?<![\d./月-])\s*(\d{1,2})\s*[号號](?!\d)|\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s*step)"
)
_LAST_NUMBER = re.compile(r"\d{1,2}(?=\D*$)")

# The plan told as the plan: "the plan was 4k→8k at ~50%", "计划是在约 50% 时…"
_PLAN_WAS = re.compile(
    r"(?:\bthe\s+)?\b(?:plan|target|schedule)\s+(?:was|were|is|says)\b|(?:原)?计划(?:是|为|要)"
)
# A clause that carries on the one before: "then", "followed by", 然后, 再.
_GOES_ON = re.compile(
    r"(?:and )?then\b|followed by\b|after that\b|finally\b|然后|然後|再|接着|接著|最后|最後"
)
# A condition: the clause after it is what would follow ("如果延误超出缓冲，最多砍掉约 25%")
_CONDITION = re.compile(
    r"^.{0,16}?(?:如果|假如|要是|若(?!干)|万一|萬一|\bif\b|\bunless\b|\bin case\b)"
)
_PLAN_HEADER = re.compile(
    r"\b(?:plan|schedule|next(?: steps?| up)?)\s*:|(?:计划|計劃|方案|下一步|接下来|接下來)\s*[:：]"
)


# A clause whose subject is the one before's document: "Percy's tweet went out Aug 21 and
# said 18T tokens" (the tweet said it), "推文 8 月 21 日发的，写的是 18T"
_SAYS = re.compile(r"(?:and\s+)?(?:said|says|wrote|writes|lists?|listed)\b|(?:说|写|寫)的?是")

# A model's active count in its name, said alone: "A32B 那个 MoE" is 32B active (not the run's
# own A23B, nor a rung's "27.7B-A1.2B")
_ACTIVE_NAMED = re.compile(r"(?<![\w.-])a(?!23b)(\d+(?:\.\d+)?)b\b")


@dataclass(frozen=True)
class MessageContext:
    about_run: bool = False  # the message names the run
    ladder: bool = False  # it names the scaling ladder: its figures may be a rung's
    written: dt.date | None = None  # the day it was written, for "last Tuesday"
    done: bool = False  # an earlier clause stated something as done
    day: str = ""  # the last day an earlier clause named ("oct 6"), as folded
    planned: bool = False  # a plan told before, no done since ("context plan is 4k->8k …")
    listed: bool = False  # the clauses before list a plan ("plan: …, …")
    before: str = ""  # the clause before, as read
    before_claims: tuple[str, ...] = ()  # the records it named, unless it was found wrong
    condition: bool = False  # the clause before is a condition ("if delays eat the buffer")
    other: bool = False  # the clause before is about another model ("DeepSeek V3 671B 總參數")
    told: tuple[str, ...] = ()  # the clauses before, as read, but those found wrong
    document: str = ""  # the last document a clause before named ("tweet"), if one

    @property
    def earlier(self) -> str:
        """The clauses before, as read, the last one even if found wrong: "the 32B's
        retrospective | the optimizer swap | the QK-Norm switch" is the 32B's recipe."""
        return " ".join((*self.told, self.before))

    @property
    def before_wrong(self) -> bool:
        """Whether the clause before was found wrong (so not told on)."""
        return bool(self.before) and (not self.told or self.told[-1] != self.before)

    def folded(self, words: str) -> str:
        """The clause as the rules read it: folded, its numbers in digits ("eighteen
        trillion"), its dates absolute ("last tuesday" → "nov 24", "同一天" → the day an
        earlier clause named)."""
        text = _ACTIVE_NAMED.sub(r"\1b active", in_digits(spaced(fold(words))))
        text = self.dated(absolute(text, self.written) if self.written else text)
        if self.document and _SAYS.match(text.lstrip()):
            text = f"{self.document} {text}"  # "…tweet went out aug 21 | and said 18t tokens"
        # the plan goes on: "…, then a 262k phase near the end" is the plan's last phase
        # (until a clause says it is already so: "原计划：…，现在中期训练已经在跑了")
        listed = self.listed and not REACHED.search(text)
        goes_on = listed or self.condition or (self.planned and _GOES_ON.match(text))
        return f"{text} (planned)" if goes_on else text

    def dated(self, text: str) -> str:
        """The folded clause with "the same day", or a day of the month alone ("21号"), put on
        the day (the month) named before, if it names none of its own."""
        if not self.day or MONTH.search(text):
            return text
        if bare := _BARE_DAY.search(text):  # "8月19号开训，21号官宣": August 21
            day = _LAST_NUMBER.sub(bare[1] or bare[2], self.day)
            return f"{text[: bare.start()]} {day} {text[bare.end() :]}"
        return SAME_DAY.sub(f" {self.day} ", text, count=1) if SAME_DAY.search(text) else text

    def after(
        self,
        text: str,
        *,
        off_topic: bool,
        flagged: bool = False,
        claims: tuple[str, ...] = (),
        other: bool = False,
    ) -> MessageContext:
        """The context for the next clause, after this one (as ``folded`` reads it);
        ``flagged``: this one was found wrong, so the next cannot lean on it; ``claims``: the
        records its verdict named; ``other``: it was about another model."""
        named = [m[0] for m in MONTH.finditer(text)]
        planned = self.planned or bool(PLANNED.search(text))  # until a clause says done
        # ("the plan was 4k→8k at ~50%" tells the plan, in the past tense)
        # (and "按计划 50% 时从 4k 扩到 8k" tells it with the change it plans)
        planned = planned and not AS_DONE.search(PLANNED.sub(" ", _PLAN_WAS.sub(" ", text)))
        # ("计划是在约 50% 时…扩到 8k": a clause opening on the plan tells the plan in its verbs)
        opens = PER_PLAN.match(text.lstrip()) or _PLAN_WAS.match(text.lstrip())
        planned = planned or bool(opens and not REACHED.search(text))
        # a plan's list ("上下文计划：…扩到 8k，95% 左右扩到 65k，最后…") goes on until "already"
        listed = bool(_PLAN_HEADER.search(text)) or (self.listed and not REACHED.search(text))
        # (a clause about another model, or of a plan's list, states nothing done)
        # (nor a plan told: "按计划 50% 时从 4k 扩到 8k" is not done, "已经按计划结束" is)
        as_plan = (PLANNED.search(text) or self.planned) and not REACHED.search(text)
        done = self.done or (states_done(text) and not off_topic and not listed and not as_plan)
        day = named[-1].strip() if named else self.day
        return replace(
            self,
            done=done,
            day=day,
            planned=planned or listed,
            listed=listed,
            before=text,
            before_claims=() if flagged else claims,
            condition=bool(_CONDITION.search(text)),
            other=other,
            told=self.told if flagged else (*self.told, text),
            document=document_named(text) or self.document,
        )
