"""How a reply reads in Discord: embeds within every limit, the caveat whole and in the body."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.reply import Choice, ClaimUse, Outcome, Reply, SourceRef
from bot.adapters.discord.embeds import LEVEL_COLOUR, Outgoing, render, size
from bot.adapters.discord.views import choice_view

CAVEAT = "⚠ Single source: this rests on one record — the team's status log #8506 (2026-08-20)."


def reply(body: str = "🟩 placeholder", **fields: Any) -> Reply:
    values: dict[str, Any] = {
        "outcome": Outcome.ANSWER,
        "language": "en",
        "title": "Has training started?",
        "body": body,
        "caveat": CAVEAT,
        "as_of": dt.date(2026, 9, 9),
        "sections": tuple(s for s in body.split("\n\n") if s.strip()),
    }
    values.update(fields)
    return Reply(**values)


def claim(level: str, statement: str = "The hero run has started training.") -> ClaimUse:
    label = level.replace("-", " ")
    return ClaimUse(
        id=f"c-{level}", kind="status", level=level, level_label=label, statement=statement
    )


def source(
    n: int, url: str | None = "https://github.com/marin-community/marin/issues/8506"
) -> SourceRef:
    return SourceRef(
        id=f"s{n}",
        title=f"Status log entry {n}",
        url=url,
        kind="status-log",
        publisher="Marin team",
        published=dt.date(2026, 8, 20),
        seen_via_relay=n % 2 == 0,
    )


def within_limits(messages: list[Outgoing]) -> None:
    for message in messages:
        assert len(message.embeds) <= 10
        assert size(message.content) <= 2000
        assert sum(len(e) for e in message.embeds) <= 6000
        for embed in message.embeds:
            assert size(embed.title) <= 256 and size(embed.description) <= 4096
            assert len(embed.fields) <= 25
            for f in embed.fields:
                assert 0 < size(f.name) <= 256 and 0 < size(f.value) <= 1024


def descriptions(messages: list[Outgoing]) -> list[str]:
    return [e.description for m in messages for e in m.embeds if e.description]


def test_claim_lines_get_their_levels_colour_and_the_embed_the_weakest() -> None:
    body = "• It started. [confirmed]\n• It started on 19 August. [single source]"
    claims = (claim("confirmed"), claim("single-source"))
    (message,) = render(reply(body, claims=claims))

    (embed,) = message.embeds
    assert str(embed.description).startswith("🟩 It started. [confirmed]\n")
    assert "🟨 It started on 19 August." in str(embed.description)
    assert embed.colour == LEVEL_COLOUR["single-source"]
    assert embed.fields == []  # the answer lists its claims itself: no repetition


def test_claims_the_body_does_not_list_are_shown_as_fields() -> None:
    (message,) = render(reply("Mostly yes.", claims=(claim("disputed"),)))
    (field,) = message.embeds[0].fields
    assert field.name == "🟥 disputed"
    assert message.embeds[0].colour == LEVEL_COLOUR["disputed"]


def test_the_caveat_is_a_quote_at_the_end_of_the_body_never_only_a_footer() -> None:
    (message,) = render(reply("Yes."))
    embed = message.embeds[0]
    assert embed.description == f"Yes.\n\n>>> {CAVEAT}"
    assert CAVEAT not in (embed.footer.text or "")
    assert embed.footer.text == "evidence as of 2026-09-09"


def test_sources_are_links_and_relays_are_marked() -> None:
    (message,) = render(reply("Yes.", sources=(source(1), source(2), source(3, url=None))))
    (field,) = message.embeds[0].fields
    lines = str(field.value).splitlines()
    assert field.name == "Sources"
    assert lines[0] == (
        "[Status log entry 1](https://github.com/marin-community/marin/issues/8506)"
        " — Marin team, 2026-08-20"
    )
    assert lines[1].endswith("(seen via a relay, not verified by us)")
    assert lines[2].startswith("Status log entry 3 — ")  # no URL: no link


def test_markdown_and_mentions_from_sources_are_shown_as_text() -> None:
    hostile = "**bold** @everyone [click](https://evil.example) `code` ||spoiler||"
    (message,) = render(reply(hostile, title="*Title*"))
    description = str(message.embeds[0].description)
    assert "\\*\\*bold\\*\\*" in description and "\\`code\\`" in description
    assert "\\|\\|spoiler\\|\\|" in description
    assert "\\[click](https://evil.example)" in description  # no masked link from a source
    assert message.embeds[0].title == "\\*Title\\*"


def test_a_chinese_reply_reads_in_chinese() -> None:
    (message,) = render(reply("训练已开始。", language="zh", sources=(source(2),)))
    embed = message.embeds[0]
    assert embed.fields[0].name == "来源"
    assert "经转述看到" in str(embed.fields[0].value)
    assert embed.footer.text == "证据截至 2026年9月9日"


def test_a_huge_reply_is_split_and_every_part_fits() -> None:
    sections = tuple(f"■ Claim {n}\n" + "changed " * 400 for n in range(40))
    many = reply(
        "\n\n".join(sections), sections=sections, sources=tuple(source(n) for n in range(80))
    )
    messages = render(many)

    within_limits(messages)
    assert len(messages) > 5
    text = "\n".join(descriptions(messages))
    assert all(f"Claim {n}\n" in text for n in range(40))
    assert descriptions(messages)[-1].endswith(CAVEAT)
    footers = [m.embeds[-1].footer.text for m in messages]
    assert footers[0] == f"1/{len(messages)}"
    assert footers[-1] == f"{len(messages)}/{len(messages)} · evidence as of 2026-09-09"


def test_choices_are_buttons_or_a_menu_always_with_none_of_these() -> None:
    few = choice_view(reply(outcome=Outcome.CHOICES, choices=(Choice("a", "A"), Choice("b", "B"))))
    many = choice_view(reply(choices=tuple(Choice(f"k{n}", f"Topic {n}") for n in range(30))))

    assert few is not None and many is not None
    assert [c.to_component_dict()["label"] for c in few.children] == ["A", "B", "None of these"]
    (menu,) = many.children
    options = menu.to_component_dict()["options"]
    assert len(options) == 25 and options[-1]["label"] == "None of these"
    assert choice_view(reply()) is None


@settings(max_examples=60, deadline=None)
@given(
    title=st.text(max_size=400),
    sections=st.lists(st.text(min_size=1, max_size=6000), max_size=8),
    caveat=st.text(min_size=1, max_size=3000),
    emoji=st.sampled_from(["", "🟩", "训练", "\\*", "`"]),
)
def test_any_reply_fits_discord_and_keeps_its_caveat(
    title: str, sections: list[str], caveat: str, emoji: str
) -> None:
    sections = [emoji * 50 + s for s in sections]
    messages = render(
        reply("\n\n".join(sections), title=title, caveat=caveat, sections=tuple(sections))
    )
    within_limits(messages)
    assert messages and messages[0].embeds


@pytest.mark.parametrize(
    "level", ["confirmed", "corroborated", "single-source", "indirect", "no-record", "disputed"]
)
def test_every_level_has_its_own_colour(level: str) -> None:
    (message,) = render(reply("Yes.", claims=(claim(level),)))
    assert message.embeds[0].colour == LEVEL_COLOUR[level]
    assert len(set(LEVEL_COLOUR.values())) == 6
