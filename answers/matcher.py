"""Match a question to the topics it asks about, Cofacts-style.

Every topic scores the weighted terms the question contains (English on stemmed words after
typo correction, Chinese as substrings after folding). Then:

- one reading clearly wins → ``answer`` it;
- several are close → ``choices`` (the top few, so an adapter can offer them);
- nothing matches → ``unknown``, unless the question only names the run ("what about Marin
  535B?"), which gets the overall status.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from answers.lexicon import INTENTS, Lexicon
from answers.text import fold, stem, tokens

# A reading must score at least this to be answered (one specific term, or two weak ones).
MIN_SCORE = 3.0
# The runner-up within this fraction of the winner makes the question ambiguous.
CLOSE = 0.85
MAX_CHOICES = 3
# A second topic joined by "and" is answered too when it scores at least this share of the first.
SECOND_PART = 0.4
OTHER = "other-models"
EVALUATION = "evaluation"
BACKGROUND = "about"
# Another model's name is set aside only when a topic of this run outscores it this much.
OTHER_OUTWEIGHED = 1.5
_AND_EN = frozenset({"and", "&", "plus", "also"})
_AND_ZH = ("和", "以及", "还有", "跟", "与", "、", "及")
# Chinese sentence particles: "marin 535b 呢？" still only names the run.
_PARTICLES = frozenset("吗呢了啊吧的呀么嘛")
# Typo correction: similarity (0-100) needed to read an unknown word as a vocabulary word.
TYPO_CUTOFF = 80.0
_COMMON = frozenset(
    "the and for are was were has have had its it's this that what when where which who why how "
    "does did done can could will would should about with from into than then there their they "
    "you your yet any some much many more most also just only still been being very really out "
    "over some dont doesnt didnt isnt wasnt wont cant match lol yeah nope like know think "
    "said says tell place places good best nice".split()
)


@dataclass(frozen=True)
class Match:
    outcome: str  # "answer" | "choices" | "unknown"
    topics: tuple[str, ...]  # best first: the answer, or the choices
    scores: tuple[tuple[str, float], ...]  # every topic that scored, best first


@dataclass(frozen=True)
class _Hit:
    topic: str
    weight: float
    span: tuple[str, int, int]  # (script, start, end) in stems (en) or characters (zh)

    def within(self, other: _Hit) -> bool:
        (s1, a1, b1), (s2, a2, b2) = self.span, other.span
        return s1 == s2 and a2 <= a1 and b1 <= b2 and (b1 - a1) < (b2 - a2)


def _resolve(hits: list[_Hit]) -> list[tuple[str, float]]:
    """Drop a hit lying inside a longer hit of another topic: "open source" is not "source"."""
    return [
        (h.topic, h.weight)
        for h in hits
        if not any(h.within(o) and o.topic != h.topic for o in hits)
    ]


class Matcher:
    def __init__(self, lexicon: Lexicon, answerable: set[str]) -> None:
        self.lexicon = lexicon
        # topics with something to say (intents, plus KB topics that have claims)
        self.topics = {n: t for n, t in lexicon.topics.items() if n in answerable}
        self._spellings = sorted(lexicon.spellings)
        self._en_index: dict[str, list[tuple[str, float]]] = {}
        self._zh_index: dict[str, list[tuple[str, float]]] = {}
        for name, topic in self.topics.items():
            for term, weight in topic.en.items():
                self._en_index.setdefault(term, []).append((name, weight))
            for term, weight in topic.zh.items():
                self._zh_index.setdefault(term, []).append((name, weight))

    def match(self, question: str) -> Match:
        folded = fold(question)
        stems = [self._correct(t) for t in tokens(folded)]
        hits = self._en_hits(stems)
        if any("\u4e00" <= ch <= "\u9fff" for ch in folded):
            hits += self._zh_hits(folded)
        scores: dict[str, float] = {}
        for topic, weight in _resolve(hits):
            scores[topic] = scores.get(topic, 0.0) + weight
        if OTHER in scores:
            # "how many tokens was llama 3 trained on?" is not about this run; but "is it
            # better than llama?", "535B vs Marin 32B" and "the 32B retrospective" are.
            others = {t: w for t, w in scores.items() if t != OTHER}
            compares = self._compares(stems, folded) and not self._two_models(hits)
            if compares and max(others.values(), default=0.0) < MIN_SCORE:
                # "how does it compare with Llama 4?": a comparison is an evaluation question
                scores = {EVALUATION: scores[OTHER]}
            elif (
                compares
                or self._names_own(stems)
                # "the Marin 32B retrospective" is this run's background; "how many experts
                # does DeepSeek V3 have" is not about this run, however well "experts" scores
                or others.get(BACKGROUND, 0.0) > scores[OTHER] * OTHER_OUTWEIGHED
            ):
                del scores[OTHER]
            else:
                return Match("answer", (OTHER,), tuple(scores.items()))
        ranked = tuple(sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])))
        if not ranked or ranked[0][1] < MIN_SCORE:
            if self._names_subject(stems, folded):
                return Match("answer", ("status",), ranked)
            return Match("unknown", (), ranked)
        best = ranked[0][1]
        close = [name for name, s in ranked if s >= best * CLOSE and s >= MIN_SCORE]
        first: dict[str, int] = {}
        for h in sorted(hits, key=lambda h: h.span[1]):
            first.setdefault(h.topic, h.span[1])
        both = self._two_parts(stems, folded, ranked, first)
        if both:
            return Match("answer", both, ranked)
        if len(close) > 1:
            return Match("choices", tuple(close[:MAX_CHOICES]), ranked)
        return Match("answer", (ranked[0][0],), ranked)

    def _two_parts(
        self,
        stems: list[str],
        folded: str,
        ranked: tuple[tuple[str, float], ...],
        first: dict[str, int],
    ) -> tuple[str, ...]:
        """ "tokens and hardware?": two topics joined by "and" are both answered."""
        if len(ranked) < 2 or ranked[1][1] < max(MIN_SCORE, ranked[0][1] * SECOND_PART):
            return ()
        if not (set(stems) & _AND_EN or any(w in folded for w in _AND_ZH)):
            return ()
        pair = sorted((ranked[0][0], ranked[1][0]), key=lambda t: first.get(t, 0))
        return tuple(pair) if not set(pair) & set(INTENTS) else ()

    @staticmethod
    def _two_models(hits: list[_Hit]) -> bool:
        """ "is qwen3 better than llama 4?" compares two other models, not this run. A name
        is counted once per script (a mixed question matches it in both)."""
        spans = {h.span for h in hits if h.topic == OTHER}

        def outer(script: str) -> int:
            mine = [s for s in spans if s[0] == script]
            return sum(
                1 for s in mine if not any(o != s and o[1] <= s[1] and s[2] <= o[2] for o in mine)
            )

        return max(outer("en"), outer("zh")) >= 2

    def _compares(self, stems: list[str], folded: str) -> bool:
        return bool(set(stems) & self.lexicon.compare_en) or any(
            w in folded for w in self.lexicon.compare_zh
        )

    def _names_own(self, stems: list[str]) -> bool:
        text = f" {' '.join(stems)} "
        return any(f" {t} " in text for t in self.lexicon.own)

    def _en_hits(self, stems: list[str]) -> list[_Hit]:
        hits: list[_Hit] = []
        for n in range(min(self.lexicon.longest_phrase, len(stems)), 0, -1):
            for i in range(len(stems) - n + 1):
                for topic, weight in self._en_index.get(" ".join(stems[i : i + n]), ()):
                    hits.append(_Hit(topic, weight, ("en", i, i + n)))
        # "qwen3-235b-a22b's context length": a hyphenated name is read by its parts too
        for i, word in enumerate(stems):
            if "-" in word and word not in self._en_index:
                for part in {stem(p) for p in word.split("-") if p}:
                    for topic, weight in self._en_index.get(part, ()):
                        hits.append(_Hit(topic, weight, ("en", i, i + 1)))
        return hits

    def _zh_hits(self, folded: str) -> list[_Hit]:
        hits: list[_Hit] = []
        for term, owners in self._zh_index.items():
            start = folded.find(term)
            if start >= 0:
                hits.extend(_Hit(t, w, ("zh", start, start + len(term))) for t, w in owners)
        return hits

    def _correct(self, token: str) -> str:
        """The token's stem, or the vocabulary word it is most likely a typo of."""
        word = stem(token)
        # Four letters or fewer are too short to correct safely ("dont" is not "donat").
        if len(token) < 5 or not token.isalpha() or word in self.lexicon.vocabulary:
            return word
        if token in _COMMON:
            return word
        hit = process.extractOne(
            token, self._spellings, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF
        )
        return stem(str(hit[0])) if hit else word

    def names_run(self, question: str) -> bool:
        """Whether the question names this run (535B, A23B, hero, Marin), not just a topic."""
        folded = fold(question)
        stems = [stem(t) for t in tokens(folded)]
        return self._names_own(stems) or "marin" in folded

    def only_subject(self, question: str) -> bool:
        """Whether the question says nothing beyond naming the run ("marin 535b?")."""
        folded = fold(question)
        text = f" {' '.join(stem(t) for t in tokens(folded))} "
        for term in sorted(self.lexicon.subject_en, key=len, reverse=True):
            text = text.replace(f" {term} ", " ")
        rest = [w for w in text.split() if w not in _COMMON and len(w) > 2]
        zh = folded
        for term in self.lexicon.subject_zh:
            zh = zh.replace(term, "")
        return not rest and not any(
            "\u4e00" <= ch <= "\u9fff" and ch not in _PARTICLES for ch in zh
        )

    def _names_subject(self, stems: list[str], folded: str) -> bool:
        text = " ".join(stems)
        return any(f" {t} " in f" {text} " for t in self.lexicon.subject_en) or any(
            term in folded for term in self.lexicon.subject_zh
        )
