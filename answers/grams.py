"""A question as counted character n-grams and words: the features the classifier reads.

Latin words are padded and cut into 3- and 4-grams, so a typo or an abbreviation still shares
most grams with the word it stands for ("trainig", "hw"); Chinese is cut into character
unigrams and bigrams, so no word segmentation is needed. Whole stemmed words are kept too.
"""

from __future__ import annotations

import re
from collections import Counter

from answers.text import fold, stem, tokens

_LATIN = re.compile(r"[a-z0-9][a-z0-9.+-]*")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")


def features(text: str) -> Counter[str]:
    """The n-grams and words of a question, counted."""
    folded = fold(text)
    found: Counter[str] = Counter()
    for word in tokens(folded):
        for piece in _LATIN.findall(word):
            found["w:" + stem(piece)] += 1
            padded = f"<{piece}>"
            for n in (3, 4):
                for i in range(len(padded) - n + 1):
                    found[padded[i : i + n]] += 1
    for run in _CJK_RUN.findall(folded):
        for i, ch in enumerate(run):
            found[ch] += 1
            if i + 1 < len(run):
                found[run[i : i + 2]] += 1
    return found
