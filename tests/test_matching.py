"""The dev set: questions in both languages, with paraphrases, typos and overstatement bait.

Each line of ``tests/data/dev_questions.tsv`` says which reading a careful human would give
the question. The other sets measure generalization, and their history matters:

- ``heldout_questions.tsv`` was written after the first round of tuning and scored 48/60
  before the matcher saw it; it was tuned on afterwards, so it is now a regression set.
- ``blind_questions.tsv`` was written by someone who never saw the vocabulary and scored
  106/120 before tuning; also tuned on since.
- ``blind2_questions.tsv`` was written the same way later, and is never tuned on: its score
  is the honest figure for questions the bot has never seen.

Unseen sets must stay above a floor; wrong readings should at least be safe ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Conversation

DATA = Path(__file__).parent / "data"


def _questions(name: str) -> list[tuple[str, str, str]]:
    path = DATA / name
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, expected, lang = line.split("\t")
            rows.append((question, expected, lang))
    return rows


def _reading(bot: Conversation, question: str) -> str:
    reply = bot.ask(question)
    if reply.outcome == "answer":
        return str(reply.extra["topic"])
    return str(reply.outcome)


DEV = _questions("dev_questions.tsv")


def test_the_dev_set_is_large_and_bilingual() -> None:
    assert len(DEV) >= 150
    assert sum(1 for _, _, lang in DEV if lang == "zh") >= 60
    assert sum(1 for _, _, lang in DEV if lang == "en") >= 60


@pytest.mark.parametrize(("question", "expected", "lang"), DEV, ids=[q for q, _, _ in DEV])
def test_dev_question_is_read_as_a_human_would(
    bot: Conversation, question: str, expected: str, lang: str
) -> None:
    reply = bot.ask(question)
    assert reply.language == lang
    assert _reading(bot, question) in expected.split("|")


@pytest.mark.parametrize(
    "name", ["heldout_questions.tsv", "blind_questions.tsv", "blind2_questions.tsv"]
)
def test_unseen_questions_are_mostly_read_right(bot: Conversation, name: str) -> None:
    rows = _questions(name)
    if not rows:
        pytest.skip(f"{name} not present")
    right = sum(1 for q, expected, _ in rows if _reading(bot, q) in expected.split("|"))
    # Wrong readings must at least be safe ones: choices, or the overall status.
    assert right / len(rows) >= 0.8, f"{right}/{len(rows)}"
