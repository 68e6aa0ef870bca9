"""The matcher's vocabulary: ``data/lexicon.toml`` parsed into weighted terms per topic."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from answers.text import fold, tokens, words
from knowledge.errors import Problem
from knowledge.knowledge_base import KnowledgeBase

LEXICON = Path(__file__).parent / "data" / "lexicon.toml"
DEFAULT_WEIGHT = 2.0
INTENTS = (
    "status",
    "sources",
    "watch",
    "changes",
    "help",
    "other-models",
    "general-ml",
    "outside",
)
# Intents that decline: the question is about something the knowledge base does not cover.
DECLINING = ("other-models", "general-ml", "outside")


@dataclass(frozen=True)
class Topic:
    name: str
    label: dict[str, str]
    en: dict[str, float]  # stemmed phrase ("how far") → weight
    zh: dict[str, float]  # folded substring → weight


@dataclass(frozen=True)
class Lexicon:
    topics: dict[str, Topic]
    subject_en: frozenset[str]
    subject_zh: tuple[str, ...]
    own: frozenset[str]  # the run's own names (stemmed)
    compare_en: frozenset[str]
    compare_zh: tuple[str, ...]
    vocabulary: frozenset[str]  # every single English stem a term uses
    spellings: frozenset[str]  # those words as written in the lexicon (typo-correction targets)
    longest_phrase: int


def _parse(term: str) -> tuple[str, float]:
    text, _, weight = term.partition("^")
    return text, float(weight) if weight else DEFAULT_WEIGHT


def _en_key(phrase: str) -> str:
    return " ".join(words(fold(phrase)))


@lru_cache(maxsize=4)  # parsed once per process: the core and the kb checks share it
def load_lexicon(path: Path = LEXICON) -> Lexicon:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    topics: dict[str, Topic] = {}
    vocabulary: set[str] = set()
    spellings: set[str] = set()
    longest = 1
    for name, spec in data["topic"].items():
        en: dict[str, float] = {}
        for term in spec.get("en", []):
            text, weight = _parse(term)
            key = _en_key(text)
            if key:
                en[key] = max(weight, en.get(key, 0.0))
                parts = key.split()
                vocabulary.update(parts)
                spellings.update(w for w in tokens(fold(text)) if w.isalpha())
                longest = max(longest, len(parts))
        zh = {fold(text): weight for text, weight in map(_parse, spec.get("zh", []))}
        topics[name] = Topic(name=name, label=dict(spec["label"]), en=en, zh=zh)
    subject = data["subject"]
    return Lexicon(
        topics=topics,
        subject_en=frozenset(_en_key(t) for t in subject["en"]),
        subject_zh=tuple(fold(t) for t in subject["zh"]),
        own=frozenset(_en_key(t) for t in subject["own"]),
        compare_en=frozenset(_en_key(t) for t in subject["compare_en"]),
        compare_zh=tuple(fold(t) for t in subject["compare_zh"]),
        vocabulary=frozenset(vocabulary),
        spellings=frozenset(spellings | vocabulary),
        longest_phrase=longest,
    )


def uncovered_topics(kb: KnowledgeBase, lexicon: Lexicon) -> list[Problem]:
    """Claims whose topic has no vocabulary: the bot could never be asked about them."""
    return [
        Problem(
            "claims.toml",
            f"claim '{claim.id}' → topic",
            f"no vocabulary for topic '{claim.topic}' in answers/data/lexicon.toml "
            "(add a [topic.NAME] there, or use an existing topic)",
        )
        for claim in kb.claims.values()
        if claim.topic not in lexicon.topics
    ]
