"""Read a question with two signals: the lexicon and a classifier trained on example questions.

The lexicon (``matcher.py``) knows the run's vocabulary and splits two-part questions; the
classifier (``classifier.py``) generalizes to words the lexicon never saw. They fail on
different questions, so they are combined, not averaged:

- both agree, or one is decisive and the other has nothing to say → answer;
- they disagree and both are confident → offer both readings as choices;
- neither is confident → "I don't know", with what the bot can answer. The overview ("where
  the evidence stands") is given only when the question asks for the overall status, never
  as a fallback that looks like an answer.

A general machine-learning question ("how do I pick a learning rate for MoE?") is declined
even when it contains run words, unless it names the run itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from answers.classifier import Classifier, Ranking, load_classifier
from answers.lexicon import DECLINING, INTENTS, load_lexicon
from answers.matcher import MIN_SCORE, OTHER, Match, Matcher
from answers.progress_view import READINGS as PROGRESS_READINGS
from answers.text import fold
from knowledge.knowledge_base import KnowledgeBase

# The thresholds are on the classifier's probability of a reading, measured on question sets
# written blind (tests/test_matching.py). Its best reading is answered on its own from this
# probability, when this far ahead of the next reading.
ANSWER_AT = 0.25
AHEAD_BY = 0.0
# Below this the classifier is guessing; between the two, its readings become choices.
CHOICES_AT = 0.30
# A confident classifier reading that contradicts a lexicon reading this weak becomes a choice.
DECISIVE_LEXICON = 6.0
DISAGREE_AT = 0.75
# A reading this probable, this far ahead of the next, settles a lexicon reading of
# ordinary strength.
SETTLES_AT = 0.5
SETTLES_BY = 0.25
SETTLES_LEXICON_BELOW = 16.0
# A reading this probable overrules the lexicon, even one word of it: "when will it finish
# training?" asks for the end date, though "finish" is the lexicon's word for "is it done?".
SURE_AT = 0.9
# ... and settles a tie of the lexicon when at least this probable, with the other tied
# reading less probable than this.
TIE_SETTLES_AT = 0.5
TIE_OTHER_BELOW = 0.05
MAX_CHOICES = 3
STATUS = "status"
TOKENS = "tokens"
SO_FAR = "tokens-so-far"
# Tokens asked about with "now", "yet", "so far", "已经"…: the tokens trained, not the budget.
_SO_FAR = re.compile(
    r"\b(?:now|rn|yet|so far|already|currently|at this point|to date|left|through|chewed)\b"
    r"|现在|目前|已经|已經|跑了|训了|训到|到了|那相当于|已训"
)
GENERAL = "general-ml"
# A general-ML reading this confident declines even against a strong lexicon reading: "how
# do I resume training from a checkpoint in pytorch" is not about this run's checkpoints.
DECLINE_AT = 0.3
# ... and this probable is enough when asking for oneself ("can someone look over my resume").
ONESELF_AT = 0.15
OTHER_AT = 0.6
# "my loss spiked, how do I fix it": asking for oneself, about one's own training.
_FOR_ONESELF = re.compile(
    r"\b(?:my|mine|i'?m|i am|i have|i've|should i|can i|do i|how do i|how can i|how should i)\b"
    r"|我的|我该|我想|我要|我在|我们的"
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# Asking for advice in general ("what's a good number of experts for a small MoE?", "怎么节省
# 存储"), with nothing pointing at this run ("they", "it", "这次"): a general ML question.
_ADVICE = re.compile(
    r"\b(?:what'?s a good|what is a good|good number of|how (?:do|should|can) (?:i|you|we|one)"
    r"|how to|best way|best practice|rule of thumb|in general|typically|what does \w[\w -]* do)\b"
    r"|\bfor (?:a|my) (?:small|tiny|\d+b)\b"
    r"|(?<!是)(?:怎么|如何|怎样)\s*(?:训|估|选|设|调|节省|省|部署|serve|跑|做|算|配|加速|解决|处理|避免|"
    r"防止|减少|提高|优化|fine-?tune|微调|在自己|计|去重|实现|写|搭)|怎么用\s*[0-9一二两三四五六七八九十几]+\s*张"
    r"|能训多大|一般来说|通常|最佳实践|有什么技巧|怎么办|自己的电脑|自己的显卡"
    r"|\blike i'?m (?:5|five)\b|\beli5\b"
    # comparing other hardware with this run's: "GB200 NVL72 跟 H100 集群有什么区别"
    r"|(?:h100|a100|4090|3090|tpu).{0,30}(?:区别|差在哪|difference)"
)
_THIS_RUN = re.compile(
    r"\b(?:they|their|them|it|its|this run|the run|hero|bot)\b"
    r"|他们|他們|这次|這次|这个 ?run|这个模型|bot|机器人"
)
# The separators tried, in order, before a question is read as one part.
MAX_CUTS = 4
# Where a two-part question splits: a question mark with more after it, "and", "+", a comma or
# semicolon, and their Chinese counterparts.
_PARTS = re.compile(
    r"\?\s+(?=\S)|？(?=\S)|\s+(?:and|also|plus|or|vs\.?|versus|&)\s+|\s*\+\s*|[,;，；、]\s*"
    r"|以及|还有|另外|并且|而且|同时|还是|或者|也"
    # "现在训到哪了 还要多久": Chinese clauses are often parted by a space alone
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])"
)


@dataclass(frozen=True)
class Reading:
    """What a question asks, and why (both signals, for debugging and the benchmarks)."""

    match: Match
    lexicon: Match
    ranking: Ranking
    followed: bool = False  # read against the previous question (a follow-up)


def reader_for(kb: KnowledgeBase) -> Reader:
    """The reader of questions about this knowledge base: the intents, its topics and the
    progress readings are what can be answered (one definition: the core answers with it, and
    the message checker's second opinion is trained with it)."""
    answerable = {*INTENTS, *kb.topics, *PROGRESS_READINGS}
    return Reader(Matcher(load_lexicon(), answerable=answerable), load_classifier(), answerable)


class Reader:
    def __init__(self, matcher: Matcher, classifier: Classifier, answerable: set[str]) -> None:
        self.matcher = matcher
        self.classifier = classifier
        self.answerable = answerable

    def read(self, question: str, previous: str | None = None) -> Reading:
        """What ``question`` asks. ``previous`` is the same person's last answered question:
        a follow-up too vague to read alone ("ok when then?") is read as being about it, and
        "how many tokens is that?" after a step asks for the tokens trained so far."""
        found = self._followed(question, previous)
        m = found.match
        tokens_asked = m.topics == (TOKENS,) or (m.outcome == "choices" and TOKENS in m.topics)
        if m.outcome in ("answer", "choices") and tokens_asked:
            if _SO_FAR.search(fold(question)):  # "how many tokens is it at now?"
                return replace(found, match=Match("answer", (SO_FAR,), m.scores))
        return found

    def _followed(self, question: str, previous: str | None) -> Reading:
        found = self._read(question)
        m = found.match
        # In a conversation, a question with no word of the run's vocabulary ("ok when
        # then?") is about the last one, whatever the classifier guesses from "when" alone.
        vague = m.outcome != "answer" or (
            found.lexicon.outcome == "unknown" and not set(m.topics) & set(DECLINING)
        )
        if previous and (vague or m.topics == (TOKENS,)):
            before = self._read(previous).match
            if before.outcome != "answer" or set(before.topics) & set(DECLINING):
                return found
            if vague:
                return replace(found, match=before, followed=True)
            if before.topics[0] in PROGRESS_READINGS:
                return replace(found, match=Match("answer", (SO_FAR,), m.scores))
        return found

    def _read(self, question: str) -> Reading:
        whole = self._read_one(question)
        both = self._two_parts(question)
        if both is not None and (
            whole.match.outcome != "answer" or set(whole.match.topics) & set(both)
        ):
            return Reading(Match("answer", both, whole.match.scores), whole.lexicon, whole.ranking)
        return whole

    def _read_one(self, question: str) -> Reading:
        lex = self.matcher.match(question)
        raw = self.classifier.rank(question)
        ranked = Ranking(tuple((r, s) for r, s in raw.ranked if r in self.answerable))
        return Reading(self._decide(question, lex, ranked), lex, ranked)

    def _two_parts(self, question: str) -> tuple[str, str] | None:
        """ "when did it start and when does it end?": each part read on its own; both
        answered when each is a clear reading of its own, and the two differ."""
        text = question.strip()
        for found in list(_PARTS.finditer(text))[:MAX_CUTS]:
            first, second = text[: found.start()], text[found.end() :]
            if len(first.strip()) < 3 or len(second.strip()) < 3:
                continue
            ra, rb = self._read_one(first), self._read_one(second)
            a, b = ra.match, rb.match
            if a.outcome != "answer" or b.outcome != "answer" or not (_sure(ra) and _sure(rb)):
                continue
            ta, tb = a.topics[0], b.topics[0]
            if ta != tb and not {ta, tb} & set(INTENTS):
                return (ta, tb)
        return None

    def _decide(self, question: str, lex: Match, ranked: Ranking) -> Match:
        top, score = ranked.best
        confident = score >= ANSWER_AT and ranked.margin >= AHEAD_BY
        names_run = self.matcher.names_run(question)
        lex_best = lex.scores[0][1] if lex.scores else 0.0
        fallback = lex.outcome == "answer" and lex.topics == (STATUS,) and lex_best < MIN_SCORE

        if lex.outcome == "answer" and lex.topics == (OTHER,):
            return lex  # names another model: declined
        folded = fold(question)
        if GENERAL in self.answerable and not names_run and _ADVICE.search(folded):
            if not _THIS_RUN.search(folded):
                return Match("answer", (GENERAL,), lex.scores)
        # Another model is the lexicon's call (it knows the names, and that "better than
        # Llama?" is about this run); the classifier declines one only when the lexicon is silent.
        lexicon_silent = lex.outcome == "unknown" or fallback
        declines = top in DECLINING and not names_run and (top != OTHER or lexicon_silent)
        if declines and confident and (lex_best < DECISIVE_LEXICON or score >= DECLINE_AT):
            return Match("answer", (top,), lex.scores)
        # ... and it declines a model the lexicon has no name for ("what hardware did xAI use
        # for colossus?") when sure of it, and nothing names this run.
        other_model = top == OTHER and score >= OTHER_AT and not names_run
        if other_model and lex_best < DECISIVE_LEXICON:
            return Match("answer", (top,), lex.scores)
        if declines and score >= ONESELF_AT and _FOR_ONESELF.search(question.casefold()):
            return Match("answer", (top,), lex.scores)
        if lex.outcome == "answer" and len(lex.topics) > 1:
            return lex  # "how far along and when does it end?": both parts
        # A word or two the vocabulary knows ("tokens?", "hw"): the lexicon's reading.
        settles = score >= SETTLES_AT and ranked.margin >= SETTLES_BY and top not in DECLINING
        sure = score >= SURE_AT and top not in DECLINING
        if lex.outcome == "answer" and not fallback and len(question.split()) <= 2 and not sure:
            if not _CJK.search(question) or len(question.strip()) <= 6:
                return lex
        if settles and lex.outcome == "answer" and (lex_best < SETTLES_LEXICON_BELOW or sure):
            return Match("answer", (top,), lex.scores)
        if lex.outcome == "answer" and not fallback:
            reading = lex.topics[0]
            if reading == top or not confident or top in DECLINING:
                return lex
            if score >= DISAGREE_AT and lex_best < DECISIVE_LEXICON:
                return Match("choices", (reading, top), lex.scores)
            return lex
        if lex.outcome == "choices":
            # The classifier settles a close call only when it sees next to nothing of the other
            # readings: "loss gpus" names two things, and both are offered.
            others = [ranked.score(t) for t in lex.topics if t != top]
            other = max(others, default=0.0)
            clear = other < TIE_OTHER_BELOW and score >= TIE_SETTLES_AT
            if top in lex.topics and clear:
                return Match("answer", (top,), lex.scores)
            return lex
        # The lexicon has nothing specific (unknown, or only the run's name).
        if confident:
            return Match("answer", (top,), lex.scores)
        if fallback and (top == STATUS or self.matcher.only_subject(question)):
            return lex
        if top in DECLINING:
            return Match("unknown", (), lex.scores)  # not confident enough to decline: unknown
        if score >= CHOICES_AT:
            readings = tuple(
                r for r, s in ranked.ranked[:MAX_CHOICES] if s >= CHOICES_AT and r not in DECLINING
            )
            if len(readings) > 1:
                return Match("choices", readings, lex.scores)
            if readings:
                return Match("answer", readings, lex.scores)
        return Match("unknown", (), lex.scores)


def _sure(reading: Reading) -> bool:
    """A part of a two-part question counts only when a word of the vocabulary or a very close
    classifier reading says what it asks ("是真的吧" alone asks nothing)."""
    lexicon = reading.lexicon.scores[0][1] if reading.lexicon.scores else 0.0
    return lexicon >= MIN_SCORE or reading.ranking.best[1] >= SETTLES_AT
