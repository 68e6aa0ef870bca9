"""Fuzzing the console: any line, any /command with any words, any number picked from any
offer, gets something to print (a ``Reply`` with its caveat, or a ``Notice``), never an
exception. A session of a few lines is one example, so the choices a line offers are picked
from by the next; the counts are printed after the module (``fuzz_counts``).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answers.reply import Reply
from bot.adapters.console import QUIT, Console, shown
from bot.chat.conversation import COMMANDS
from bot.chat.texts import Notice
from tests.conftest import Conversation
from tests.test_fuzz_args import fuzz_counts, word

__all__ = ["fuzz_counts"]  # the module fixture that prints COUNTS

COUNTS: Counter[str] = Counter()

QUESTIONS = [
    "has it started?",
    "is it on schedule",
    "when will it finish",
    "训练开始了吗",
    "is the model out",
    "why is that confirmed?",
    "what changed this week?",
    "status",
]
number = st.one_of(
    st.integers(-5, 12).map(str),
    st.integers(-(10**20), 10**20).map(str),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=3),
)
command = st.builds(
    lambda name, args: " ".join([f"/{name}", *args]),
    st.sampled_from([*COMMANDS, "lang", "quit", "", "digest@marin_bot", "ünknown"]),
    st.lists(word, max_size=3),
)
line = st.one_of(
    command,
    number,
    st.sampled_from(QUESTIONS),
    st.text(max_size=200),
    word,
)


@settings(max_examples=150, deadline=None)
@given(session=st.lists(line, min_size=1, max_size=3), lang=st.sampled_from([None, "en", "zh"]))
@example(["has it started?", "1"], None)
@example(["/digest 99999999999999999999"], None)
@example(["/digest since 0001-01-01", "/why " + "x" * 5000, "/check \x00"], "zh")
@example(["/subscribe 09:00 Asia", "/settings tz US"], None)
@example(["/quit"], None)
def test_every_line_gets_a_reply(bot: Conversation, session: list[str], lang: str | None) -> None:
    COUNTS["console session"] += 1
    console = Console(bot.core, lang=lang)
    for text in session:
        COUNTS["console line"] += 1
        said = console.reply_to(text)
        if said is None:  # only /quit and /exit leave
            assert text.strip() in QUIT
            continue
        assert isinstance(said, Reply | Notice)
        if isinstance(said, Reply):
            assert said.caveat.strip() and said.text.endswith(said.caveat)
        assert shown(said).strip()
