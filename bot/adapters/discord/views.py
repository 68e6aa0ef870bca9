"""Choices as components: buttons for a few, a select menu for more, and "none of these".

Every component is a ``DynamicItem``: its ``custom_id`` carries the reply language and the
``Choice.key``, so a click is understood even after the bot restarted (no view state to lose).
What a click does is the client's business (``ChoiceHandler``); this module only draws.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from answers.reply import Choice, Reply
from bot.chat.texts import word as text

MAX_BUTTONS = 4  # more choices than this become a select menu (one row, up to 25 options)
MAX_OPTIONS = 24  # a select menu holds 25 options; one is "none of these"
LABEL_LIMIT = 80  # a button label; select labels allow 100
NONE = "mw:none"  # select value for "none of these"; no Choice.key starts with "mw:"


class ChoiceHandler(Protocol):
    """What the client does when someone picks a choice (``key`` None: none of these)."""

    async def choose(
        self, interaction: discord.Interaction[Any], lang: str, key: str | None
    ) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ChoiceHandler:
    return cast(ChoiceHandler, interaction.client)


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mw:choice:(?P<lang>en|zh):(?P<key>.+)",
):
    def __init__(self, lang: str, key: str, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:LABEL_LIMIT],
                style=discord.ButtonStyle.primary,
                custom_id=f"mw:choice:{lang}:{key}",
            )
        )
        self.lang, self.key = lang, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ChoiceButton:
        return cls(match["lang"], match["key"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).choose(interaction, self.lang, self.key)


class NoneButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mw:none:(?P<lang>en|zh)"
):
    def __init__(self, lang: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(lang, "none_of_these"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mw:none:{lang}",
            )
        )
        self.lang = lang

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> NoneButton:
        return cls(match["lang"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).choose(interaction, self.lang, None)


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mw:pick:(?P<lang>en|zh)"
):
    def __init__(self, lang: str, choices: tuple[Choice, ...] = ()) -> None:
        options = [discord.SelectOption(label=c.label[:100], value=c.key) for c in choices]
        options.append(discord.SelectOption(label=text(lang, "none_of_these"), value=NONE))
        super().__init__(
            discord.ui.Select(
                custom_id=f"mw:pick:{lang}", placeholder=text(lang, "choose"), options=options
            )
        )
        self.lang = lang

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ChoiceSelect:
        return cls(match["lang"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = self.item.values[0] if self.item.values else NONE
        await _handler(interaction).choose(
            interaction, self.lang, None if picked == NONE else picked
        )


class PostPubliclyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mw:public:(?P<lang>en|zh)"
):
    """Under a check answered only to the person who asked: post the same embeds for all."""

    def __init__(self, lang: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(lang, "post_publicly"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mw:public:{lang}",
            )
        )
        self.lang = lang

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PostPubliclyButton:
        return cls(match["lang"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        shown = interaction.message
        embeds = list(shown.embeds) if shown is not None else []
        if not embeds:
            await interaction.response.defer()
            return
        await interaction.response.send_message(embeds=embeds)


class WhyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mw:why:(?P<lang>en|zh):(?P<topic>[a-z0-9-]+)",
):
    """Under an answer: how its levels were derived, shown to whoever asks."""

    def __init__(self, lang: str, topic: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(lang, "why_button"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mw:why:{lang}:{topic}",
            )
        )
        self.lang, self.topic = lang, topic

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> WhyButton:
        return cls(match["lang"], match["topic"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await cast(WhyHandler, interaction.client).explain(interaction, self.lang, self.topic)


class WhyHandler(Protocol):
    async def explain(
        self, interaction: discord.Interaction[Any], lang: str, topic: str
    ) -> None: ...


def why_view(lang: str, topic: str | None) -> discord.ui.View | None:
    """A "Why?" button under an answer whose levels can be explained (``topic``)."""
    if (
        topic is None
        or len(f"mw:why:{lang}:{topic}") > 100
        or not re.fullmatch(r"[a-z0-9-]+", topic)
    ):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(WhyButton(lang if lang in ("en", "zh") else "en", topic))
    return view


def public_view(lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PostPubliclyButton(lang if lang in ("en", "zh") else "en"))
    return view


DYNAMIC_ITEMS = (ChoiceButton, NoneButton, ChoiceSelect, PostPubliclyButton, WhyButton)


def choice_view(reply: Reply) -> discord.ui.View | None:
    """The components offering ``reply.choices``, or None when there is nothing to choose."""
    choices = tuple(c for c in reply.choices if c.key and not c.key.startswith("mw:"))
    if not choices:
        return None
    lang = reply.language if reply.language in ("en", "zh") else "en"
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_BUTTONS:
        for choice in choices:
            view.add_item(ChoiceButton(lang, choice.key, choice.label))
        view.add_item(NoneButton(lang))
    else:
        view.add_item(ChoiceSelect(lang, choices[:MAX_OPTIONS]))
    return view
