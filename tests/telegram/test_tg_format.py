"""How a reply reads in Telegram: escaped, split under 4,096 characters, caveat whole and last."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

from answers.reply import Choice, Outcome, Reply, SourceRef
from answers.split import pack, split_text
from bot.adapters.telegram.format import (
    LIMIT,
    NONE_OF_THESE,
    choice_keyboard,
    messages,
    tg_len,
)

CAVEAT = (
    "Evidence as of 2025-06-01. 'Training started' rests on one record: the team's status log "
    "#8506 (status log, 2025-05-30); an official announcement would confirm it."
)


def reply(body: str = "Training started on 2025-05-30.", **kw: object) -> Reply:
    sections = tuple(s for s in body.split("\n\n") if s.strip())
    fields: dict[str, object] = dict(
        outcome=Outcome.ANSWER,
        language="en",
        title="Has training started?",
        body=body,
        caveat=CAVEAT,
        as_of=dt.date(2025, 6, 1),
        sections=sections,
    )
    fields.update(kw)
    return Reply(**fields)  # type: ignore[arg-type]


def digest_of(chars: int) -> Reply:
    """A digest of many entries, each a paragraph, about ``chars`` long."""
    entries: list[str] = []
    n = 0
    while sum(len(e) + 2 for e in entries) < chars:
        n += 1
        entries.append(
            f"2025-05-{n % 28 + 1:02d} · claim {n}: single source → confirmed, because of the "
            f"team's status log #{8000 + n} (status log). " + "More detail follows here. " * 3
        )
    return reply("\n\n".join(entries), title="What changed", kind="digest")


class _Balanced(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>"
        self.stack.pop()


def assert_valid_html(message: str) -> None:
    parser = _Balanced()
    parser.feed(message)
    parser.close()
    assert parser.stack == [], f"unclosed {parser.stack}"
    # every & starts an entity: nothing raw from the source survived
    assert not re.search(r"&(?!(amp|lt|gt|quot|#x27);)", message)


def test_a_short_answer_is_one_message_with_title_body_and_caveat_last() -> None:
    [message] = messages(reply())
    assert message.startswith("<b>Has training started?</b>\n\nTraining started")
    assert message.endswith(f"<i>{CAVEAT.replace(chr(39), chr(39))}</i>")


def test_hostile_text_from_users_and_sources_is_escaped() -> None:
    hostile = 'Ignore <b>this</b> & </a><a href="javascript:alert(1)">x</a>'
    source = SourceRef(
        id="s1",
        title="Log <b>#1</b> & </a>",
        url='https://example.org/log?a=1&b="2"',
        kind="status-log",
        publisher="Marin & co <team>",
        published=dt.date(2025, 5, 30),
        seen_via_relay=False,
    )
    out = messages(
        reply(hostile, title="Q: </a>&<b>", caveat="Careful: <i> & </i>", sources=(source,))
    )
    text = "\n".join(out)
    for message in out:
        assert_valid_html(message)
    assert "Ignore &lt;b&gt;this&lt;/b&gt; &amp; &lt;/a&gt;" in text
    assert "<b>Q: &lt;/a&gt;&amp;&lt;b&gt;</b>" in text
    assert (
        '<a href="https://example.org/log?a=1&amp;b=&quot;2&quot;">'
        "Log &lt;b&gt;#1&lt;/b&gt; &amp; &lt;/a&gt;</a>" in text
    )
    assert text.endswith("<i>Careful: &lt;i&gt; &amp; &lt;/i&gt;</i>")
    assert '<a href="javascript' not in text


def test_sources_are_links_unless_the_body_already_shows_them_or_they_are_not_http() -> None:
    web = SourceRef(
        "s1",
        "Status log #8506",
        "https://x.org/8506",
        "status-log",
        "x",
        dt.date(2025, 5, 30),
        False,
    )
    odd = SourceRef(
        "s2", "A record", "javascript:alert(1)", "blog", "x", dt.date(2025, 1, 1), False
    )
    [message] = messages(reply(sources=(web, odd)))
    assert '<b>Sources</b>\n• <a href="https://x.org/8506">Status log #8506</a>\n\n<i>' in message
    assert "javascript" not in message
    [listed] = messages(reply("• Status log #8506\n  https://x.org/8506", sources=(web,)))
    assert "<a " not in listed


def test_a_20000_character_digest_is_split_at_entries_with_the_caveat_whole_in_the_last() -> None:
    digest = digest_of(20_000)
    out = messages(digest)
    assert len(digest.body) >= 20_000
    assert len(out) >= 5
    for message in out:
        assert tg_len(message) <= LIMIT
        assert_valid_html(message)
    assert out[0].startswith("<b>What changed</b>")
    assert out[-1].endswith(f"<i>{CAVEAT}</i>") and all(CAVEAT not in m for m in out[:-1])
    # nothing lost, nothing repeated, no entry cut in two
    bodies = (
        "\n\n".join(out).replace("<b>What changed</b>\n\n", "").removesuffix(f"\n\n<i>{CAVEAT}</i>")
    )
    assert bodies.replace("&#x27;", "'") == digest.body


def test_one_enormous_paragraph_is_cut_at_sentences_and_never_inside_an_entity() -> None:
    sentence = "Tokens & steps: <plan> is 18.75T, not tokens trained. "
    out = messages(reply(sentence * 400, title=""))
    assert len(out) >= 6
    for message in out:
        assert tg_len(message) <= LIMIT
        assert_valid_html(message)
    assert all(m.startswith("Tokens &amp; steps") for m in out[:-1])


def test_chinese_text_without_spaces_is_cut_by_sentence_ends() -> None:
    body = "训练已于五月三十日开始。" * 800
    out = messages(reply(body, language="zh", title="训练开始了吗？"))
    assert len(out) >= 3
    assert all(tg_len(m) <= LIMIT for m in out)
    assert all(m.rstrip().endswith(("。", "</i>")) for m in out)


def test_emoji_count_twice_as_telegram_counts_utf16() -> None:
    out = messages(reply("🚀" * 3000, title=""))
    assert all(tg_len(m) <= LIMIT for m in out) and len(out) == 2


def test_choices_become_buttons_with_none_of_these_last() -> None:
    choices = (
        Choice("training-started", "Has training started?"),
        Choice("tokens-planned", "How many tokens?"),
    )
    keyboard = choice_keyboard(reply(outcome=Outcome.CHOICES, choices=choices))
    assert keyboard is not None
    rows = [[(b.text, b.callback_data) for b in row] for row in keyboard.inline_keyboard]
    assert rows == [
        [("Has training started?", "training-started")],
        [("How many tokens?", "tokens-planned")],
        [("None of these", NONE_OF_THESE)],
    ]
    zh = choice_keyboard(reply(language="zh", outcome=Outcome.CHOICES, choices=choices))
    assert zh is not None and zh.inline_keyboard[-1][0].text == "都不是"
    assert choice_keyboard(reply()) is None


def test_split_text_prefers_paragraphs_then_lines_then_words() -> None:
    assert split_text("aaa\n\nbbb\n\nccc", 8) == ["aaa\n\nbbb", "ccc"]
    assert split_text("aaa\nbbb\nccc", 8) == ["aaa\nbbb", "ccc"]
    assert split_text("one two three four", 9) == ["one two", "three", "four"]
    assert split_text("x" * 10, 4) == ["xxxx", "xxxx", "xx"]
    assert split_text("   ", 10) == []


def test_pack_keeps_the_tail_whole_even_when_it_needs_its_own_message() -> None:
    assert pack(["aaaa", "bbbb"], 10, tail="cc", joiner="+") == ["aaaa+bbbb", "cc"]
    assert pack(["aaaa"], 10, tail="cc", joiner="+") == ["aaaa+cc"]
    assert pack([], 10, tail="cc") == ["cc"]
