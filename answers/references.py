"""A record named by its number ("#8506", "PR #8588") must be the record described (run ids
are checked in ``run_ids.py``).

People who follow the run closely name its issues and pull requests, and swap them: "#8435 is
the status log" (it is the plan; the log is #8506), "atomic_rename landed in #8588" (#8974).
Each number is known by the passages that name it: the sentence of a claim's statement, a
record's title or its quoted words. The words said beside a number are compared, as n-grams
weighted by rarity (as ``statements.py`` compares a clause with a claim), with every number's
passages. The number is misnamed when another number's passage is clearly nearer and shares
a telling word with the description that no passage of the number said has: "status log"
for #8435. Nearness alone would swap "#9615 is still just tests" for #8435's "still open".
"""

from __future__ import annotations

import re
from collections import Counter

from answers.assertions import ISSUE, Figure, figures, same
from answers.days import months
from answers.grams import features
from answers.text import fold
from answers.tfidf import Weights, cosine
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Stance, Strength

_NUMBER = re.compile(r"#\s?(\d{3,6})")
# A claim's sentence, or a part of it, is about the numbers it names ("the status log is #8506;
# the plan is issue #8435": two passages).
_SENTENCE = re.compile(r"[;；。]|\.\s|,\s(?:and|while|but)\s|，")
# What a number is said to be ends where another thing begins ("the MoE optimization stack
# and the py-spy fix (#9998)": only "the py-spy fix" describes #9998)…
_PARTS = re.compile(r"\s(?:and|while|but)\s|[;；]|\s[+&]\s?|以及|而且")
# …and where it is denied ("it comes from #9615, not the status log")
_DENIED = re.compile(r"\b(?:not|isn'?t|wasn'?t|rather than|instead of)\b|不是|而非|并非")
# Words that tell no record from another: a description must share a word that names something
_PLAIN = frozenset(
    "is was are were be been being still just the a an of on in at from to for by with it its"
    " this that thats comes come came as all now only also has have had they their there where"
    " which what who not no issue pr commit github one two said says say so".split()
)
_FUNCTION_CHARS = frozenset("是的了在里都就还也把被个这那说有")
# words any record of the run has, in a language some records are not written in
_PLAIN_ZH = frozenset("训练 主训 开始 运行 模型".split())
_NOT_A_NAME = re.compile(r"[\d.,%]+[kmbt]?|jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec")
NEARER_AT = 0.15  # another number's passage at least this near (cosine)…
MARGIN = 0.1  # …and this much nearer than the number's own nearest passage


class References:
    def __init__(self, kb: KnowledgeBase, days: dict[str, set[tuple[int, int | None]]]) -> None:
        self._days_of = days  # each claim's days (``Records.days``)
        passages: list[tuple[int, str | None, str]] = []  # (number, its claim, the words)
        for claim in kb.claims.values():
            for statement in (claim.statement.en, claim.statement.zh):
                for sentence in _SENTENCE.split(statement):
                    for number in set(_NUMBER.findall(sentence)):
                        passages.append((int(number), claim.id, sentence))
        said_by: dict[str, list[str]] = {}  # the claims each record says directly
        for link in kb.links:
            if link.strength is Strength.DIRECT and link.stance is Stance.SUPPORTS:
                said_by.setdefault(link.source, []).append(link.claim)
        # every claim a number's record says, or whose statement names the number
        self._claims: dict[int, set[str]] = {}
        for number, claim_id, _ in passages:
            self._claims.setdefault(number, set()).update([claim_id] if claim_id else [])
        for source in kb.sources.values():
            claims = said_by.get(source.id, [])
            for words in (f"{source.title} {source.publisher}", *source.excerpts):
                for number in set(_NUMBER.findall(words)):
                    passages.append((int(number), next(iter(claims), None), words))
                    self._claims.setdefault(int(number), set()).update(claims)
        counted = [(number, claim, _grams(words)) for number, claim, words in passages]
        self._weights = Weights((grams for _, _, grams in counted), unseen_counts=False)
        self._passages = [
            (number, claim, self._weights.vector(grams)) for number, claim, grams in counted
        ]
        self._said: dict[int, set[str]] = {}  # every gram any passage of a number has
        for number, _, grams in counted:
            self._said.setdefault(number, set()).update(grams)
        # a statement naming several numbers gives each the figures after it, up to the next:
        # "#9832 cut the step time from 13.732 to 13.541 s, #9833 from 13.541 to 13.005 s"
        self._segments: dict[tuple[str, int], list[Figure]] = {}
        for claim in kb.claims.values():
            at = [(m.start(), int(m[1])) for m in _NUMBER.finditer(claim.statement.en)]
            if len({number for _, number in at}) < 2:
                continue
            for (start, number), (end, _) in zip(at, [*at[1:], (None, 0)], strict=True):
                piece = _NUMBER.sub(" ", claim.statement.en[start:end])
                self._segments.setdefault((claim.id, number), []).extend(figures(piece))

    def misnamed(self, text: str, said: list[Figure], held: list[list[str]]) -> Verdict | None:
        """Contradicted, if a number ``text`` names is not the record its words describe
        ("#8435 is the status log"), naming what the number is and the record described.
        ``held``: the claims holding each figure ``said``; a figure (not a number) of the
        number's own records says it is the right one ("#8506 记录交接检查点是 231464 步")."""
        pairs = [(f, h) for f, h in zip(said, held, strict=True) if f.noun != "issue"]
        described = _described(text)
        # ("#9832/#9833/#9834 were measured on one rack": what several numbers share)
        alone = len({number for number, _ in described}) == 1
        for number, description in described:
            if number not in self._said:
                continue  # a number no record names: nothing to hold it against
            for figure, holders in pairs if alone else []:
                for claim_id in self._claims[number] & set(holders):
                    if self._elsewhere(claim_id, number, figure):
                        return CONTRADICTED, (claim_id,)  # "#9834 got it to 13.005" (#9833's)
            if any(self._claims[number] & set(h) for _, h in pairs):
                continue
            # so does a day its records give ("PR #8588 merged on 8月22日")
            days = {d for d in months(description) if d[1] is not None}
            if days and days <= self._days(number):
                continue
            query = self._weights.vector(_grams(description))
            nearest: dict[int, tuple[float, str | None]] = {}
            for other, claim, vector in self._passages:
                near = cosine(query, vector)
                if near > nearest.get(other, (0.0, None))[0]:
                    nearest[other] = (near, claim)
            if not nearest:
                continue
            own, own_claim = nearest.get(number, (0.0, None))
            other, (near, claim) = max(nearest.items(), key=lambda item: item[1][0])
            telling = _names(description) & self._said[other] - self._said[number]
            if other != number and near >= NEARER_AT and near - own >= MARGIN and telling:
                return CONTRADICTED, tuple(dict.fromkeys(c for c in (own_claim, claim) if c))
        return None

    def _days(self, number: int) -> set[tuple[int, int | None]]:
        """The days the number's records are dated or name."""
        return set().union(*(self._days_of[c] for c in self._claims.get(number, ())))

    def _elsewhere(self, claim_id: str, number: int, figure: Figure) -> bool:
        """Whether the claim gives ``figure`` after another number it names, never after
        ``number``."""
        own = self._segments.get((claim_id, number))
        if own is None:
            return False  # the claim names one number, or not this one
        if any(same(figure, f) for f in own):
            return False
        return any(
            same(figure, f)
            for (claim, other), found in self._segments.items()
            if claim == claim_id and other != number
            for f in found
        )


def _described(text: str) -> list[tuple[int, str]]:
    """Each number the text names, with the words around it that describe it: its part of
    the text, cut where a denial begins, shared with another number in that part at the
    midpoint between the two ("#8974's bucket policy | the atomic_rename from #8588")."""
    found: list[tuple[int, str]] = []
    for part in _PARTS.split(text):
        denial = _DENIED.search(part)
        part = part[: denial.start()] if denial and denial.start() > 0 else part
        named = [(m.start(), int(m.group(1) or m.group(2))) for m in ISSUE.finditer(part)]
        for i, (at, number) in enumerate(named):
            start = 0 if i == 0 else (named[i - 1][0] + at) // 2
            end = len(part) if i == len(named) - 1 else (at + named[i + 1][0]) // 2
            found.append((number, part[start:end]))
    return found


def _grams(text: str) -> Counter[str]:
    return features(ISSUE.sub(" ", fold(text)))


def _names(text: str) -> set[str]:
    """The grams of a description that can tell one record from another: whole words that
    are not function words, dates or figures, and Chinese pairs of content characters."""
    found = set()
    for gram in _grams(text):
        if gram.startswith("w:"):
            word = gram[2:]
            if len(word) >= 3 and word not in _PLAIN and not _NOT_A_NAME.fullmatch(word):
                found.add(gram)
        elif len(gram) == 2 and not set(gram) & _FUNCTION_CHARS and gram.isalpha():
            if gram in _PLAIN_ZH:
                continue
            found.add(gram)
    return found
