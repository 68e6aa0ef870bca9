"""The dev set: questions in both languages, with paraphrases, typos and overstatement bait.

Each line of ``tests/data/dev_questions.tsv`` says which reading a careful human would give
the question. The other sets measure generalization, and their history matters:

- ``heldout_questions.tsv`` was written after the first round of tuning and scored 48/60
  before the matcher saw it; it was tuned on afterwards, so it is now a regression set.
- ``blind_questions.tsv`` was written by someone who never saw the vocabulary and scored
  106/120 before tuning; also tuned on since.
- ``blind2_questions.tsv`` was written the same way later, and is never tuned on: its score
  is the honest figure for questions the bot has never seen.
- ``blind3_questions.tsv`` (240 questions, 2026-11-30) was written from the research notes only
  and labelled with the fact keys of ``fact_keys.toml``. Before any change it scored 160/240
  (fact questions 138/197): the measure that led to the second matching signal. It was tuned
  on, and is now a regression set scored by ``benchmarks/score_questions.py``.
- ``blind4_questions.tsv`` (270) was written the same way, sealed, and scored 229/270 (fact
  188/221) the first time the bot saw it; it was tuned on afterwards.
- ``blind5_questions.tsv`` (353), sealed the same way: 305/353 (fact 257/293) on first sight,
  311/353 after tuning on blind4 only (its failures unread), then tuned on itself.
- ``blind6_questions.tsv`` (336), sealed the same way after all of that: 310/336 (fact 260/283
  = 91.9%) on first sight, then tuned on.
- ``blind7_questions.tsv`` (395), sealed after all of that: 368/395 (fact 310/333 = 93.1%) on
  first sight, then tuned on.
- ``blind8_questions.tsv`` (442), sealed after all of that: 387/442 (fact 331/375 = 88.3%) on
  first sight. ``blind9_questions.tsv`` (435), sealed after 1,997 more examples were added:
  392/435 (fact 328/367 = 89.4%) on first sight. Both then chose between the nearest-example
  signal and the classifier that replaced it (``answers/classifier.py``), and its thresholds:
  fact 93.1% and 92.6% with the classifier.
- ``blind10_questions.tsv`` (301), sealed before the classifier existed: fact 229/246 = 93.1%
  with the nearest examples; with the classifier, before its failures were read, 292/301
  right and fact 237/246 = 96.3%, all 55 declines and unknowns right. Then tuned on (with
  blind8 and blind9 in the classifier's training, thresholds chosen on a model trained
  without the three).
- ``blind11_questions.tsv`` (326), sealed until all of that was done: 314/326 right and fact
  257/268 = 95.9% on first sight, 57/58 declines and unknowns right ("can someone look over
  my resume" was read as the run resuming). Then tuned on.

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


# (set, share right at least, at most this many wrong: "wrong" is a neighbouring fact, the
# overview instead of a fact, or a fact where a decline was due)
SCORED_SETS = {
    "blind3_questions.tsv": (0.96, 5),
    "blind4_questions.tsv": (0.96, 7),
    "blind5_questions.tsv": (0.97, 9),
    "blind6_questions.tsv": (0.97, 5),
    "blind7_questions.tsv": (0.97, 8),
    "blind8_questions.tsv": (0.92, 28),
    "blind9_questions.tsv": (0.91, 30),
    "blind10_questions.tsv": (0.96, 8),
    "blind11_questions.tsv": (0.95, 10),
}


def _verdicts(name: str) -> list[tuple[str, str, str]]:
    from benchmarks.score_questions import TODAY, fact_keys, read_set, verdict
    from bot.config import Settings
    from bot.context import AppContext
    from knowledge.clock import fixed_clock

    core = AppContext(
        Settings(db_path=Path("/nonexistent/marin-watch.sqlite3")), clock=fixed_clock(TODAY)
    ).core
    keys = fact_keys(DATA / "fact_keys.toml")
    return [
        (
            row.question,
            row.expected,
            verdict(core.ask(row.question, previous=row.previous or None), row.expected, keys),
        )
        for row in read_set(DATA / name)
    ]


@pytest.mark.parametrize("name", SCORED_SETS)
def test_blind_sets_get_the_fact_that_was_asked(name: str) -> None:
    floor, most_wrong = SCORED_SETS[name]
    verdicts = _verdicts(name)
    right = sum(v == "right" for _, _, v in verdicts)
    wrong = [(q, e) for q, e, v in verdicts if v == "wrong"]
    assert right / len(verdicts) >= floor, f"{right}/{len(verdicts)}; wrong: {wrong}"
    assert len(wrong) <= most_wrong, wrong


@pytest.mark.parametrize(
    "name",
    [
        "blind3_questions.tsv",
        "blind4_questions.tsv",
        "blind5_questions.tsv",
        "blind6_questions.tsv",
        "blind7_questions.tsv",
        "blind8_questions.tsv",
        "blind9_questions.tsv",
        "blind10_questions.tsv",
        "blind11_questions.tsv",
    ],
)
def test_other_models_and_off_topic_questions_are_all_declined(name: str) -> None:
    refused = [
        (q, v) for q, e, v in _verdicts(name) if e in ("other-model", "off-topic") and v != "right"
    ]
    assert refused == []


@pytest.mark.parametrize("name", ["blind10_questions.tsv", "blind11_questions.tsv"])
def test_every_reply_to_a_blind_set_has_the_caveat_its_date_and_the_askers_language(
    name: str,
) -> None:
    from benchmarks.score_questions import TODAY, read_set
    from bot.config import Settings
    from bot.context import AppContext
    from knowledge.clock import fixed_clock

    core = AppContext(
        Settings(db_path=Path("/nonexistent/marin-watch.sqlite3")), clock=fixed_clock(TODAY)
    ).core
    for row in read_set(DATA / name):
        reply = core.ask(row.question, previous=row.previous or None)
        assert reply.caveat, row.question
        if reply.claims:
            day = reply.as_of
            assert day is not None, row
            written = (
                f"{day.year}年{day.month}月{day.day}日" if reply.language == "zh" else str(day)
            )
            assert written in reply.caveat, row
        if row.language in ("en", "zh"):
            assert reply.language == row.language, row.question
        if row.language == "zh-TW":
            assert reply.language == "zh", row.question
        released = [c.id for c in reply.claims if "release" in c.id]
        assert released in ([], ["model-not-released"]), (row.question, released)
