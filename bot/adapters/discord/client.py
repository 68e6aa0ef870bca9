"""The Discord client: a ``discord.Client`` with an application-command tree, wired to the core.

It holds the core, the store and the digest builder by composition (``Services``) and does
only Discord's part: receive a slash command, a mention or a click; call the core; send the
reply as embeds. It asks for no privileged intent: a message that mentions the bot carries its
content without the message-content intent.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.utils import MISSING

from answers.reply import Reply
from answers.script import to_traditional, traditional_reply
from bot.adapters.discord import commands, digest_channel
from bot.adapters.discord.embeds import Outgoing, notice, render
from bot.adapters.discord.texts import DESCRIPTIONS, text
from bot.adapters.discord.views import DYNAMIC_ITEMS, choice_view
from bot.core import Core
from bot.digest.builder import DigestService
from bot.followups import Followups, ask_in
from bot.store.contract import Store
from knowledge.clock import Clock, system_clock

log = logging.getLogger(__name__)

TAIWAN = discord.Locale.taiwan_chinese
ZH_LOCALES = (discord.Locale.chinese, TAIWAN)


@dataclass
class Services:
    core: Core
    store: Store
    digests: DigestService
    clock: Clock = system_clock
    default_language: str = "en"
    # servers whose digest setting is broken: a fast hint kept in step with the store
    broken_scopes: set[str] = field(default_factory=set)
    followups: Followups = field(default_factory=Followups)


def intents() -> discord.Intents:
    """Servers, their messages and DMs: enough for commands and mentions, nothing privileged."""
    return discord.Intents(guilds=True, guild_messages=True, dm_messages=True)


class Translator(app_commands.Translator):
    """Chinese descriptions for the command menu (zh-CN and zh-TW clients)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        found = DESCRIPTIONS.get(string.message) if locale in ZH_LOCALES else None
        # zh-TW clients read traditional characters (the descriptions are written simplified)
        return to_traditional(found) if found and locale == TAIWAN else found


class Tree(app_commands.CommandTree["MarinClient"]):
    async def on_error(
        self, interaction: discord.Interaction[MarinClient], error: app_commands.AppCommandError
    ) -> None:
        """Log first, then tell the person something went wrong instead of leaving them hanging."""
        if isinstance(error, app_commands.CheckFailure):
            return  # the check has already told the person why
        log.error(
            "command %s failed", interaction.command and interaction.command.name, exc_info=error
        )
        message = text(interaction.client.language_of(interaction), "error")
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)


class MarinClient(discord.Client):
    def __init__(self, services: Services, **options: Any) -> None:
        super().__init__(
            intents=intents(), allowed_mentions=discord.AllowedMentions.none(), **options
        )
        self.services = services
        self.tree = Tree(self)
        commands.register(self.tree)

    @property
    def core(self) -> Core:
        return self.services.core

    async def setup_hook(self) -> None:
        """Persistent choice components, Chinese descriptions, and the commands synced."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.services.broken_scopes.update(
            s.scope
            for s in self.services.store.subscriptions(platform=digest_channel.PLATFORM)
            if s.broken_reason and s.scope
        )
        await self.tree.set_translator(Translator())
        try:
            synced = await self.tree.sync()
        except discord.HTTPException as exc:  # the commands synced last time stay in place
            log.warning("could not sync the slash commands: %s", exc)
        else:
            log.info("synced %d slash commands", len(synced))

    def language_of(self, interaction: discord.Interaction[Any]) -> str:
        """The person's Discord language: Chinese clients get Chinese, others English."""
        if interaction.locale in ZH_LOCALES:
            return "zh"
        if str(interaction.locale).startswith("en"):
            return "en"
        return self.services.default_language

    # ---- sending replies -------------------------------------------------------------------

    async def respond(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        *,
        ephemeral: bool = False,
        edit: bool = False,
    ) -> None:
        """Answer an interaction with ``reply``; more messages follow when it is long."""
        if interaction.locale == TAIWAN and reply.language == "zh":
            reply = traditional_reply(reply)  # idempotent on a reply already traditional
        messages = render(reply)
        view = choice_view(reply)
        last = len(messages) - 1
        for index, message in enumerate(messages):
            embeds = list(message.embeds)
            # the choices go under the last message; an edit without them removes the old ones
            components = view if index == last and view is not None else MISSING
            if index == 0 and edit:
                await interaction.response.edit_message(
                    content=None, embeds=embeds, view=components or None
                )
            elif index == 0:
                await interaction.response.send_message(
                    embeds=embeds, ephemeral=ephemeral, view=components
                )
            else:
                await interaction.followup.send(embeds=embeds, ephemeral=ephemeral, view=components)
        await self.tell_broken(interaction)

    async def tell(self, interaction: discord.Interaction[Any], message: str) -> None:
        """A short ephemeral answer only the person who asked sees."""
        await interaction.response.send_message(notice(message).content, ephemeral=True)

    async def tell_broken(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the person in a server whose digest channel broke (once per breakage)."""
        scope = str(interaction.guild_id) if interaction.guild_id else None
        if scope is None or scope not in self.services.broken_scopes:
            return
        self.services.broken_scopes.discard(scope)
        lang = self.language_of(interaction)
        for subscription in digest_channel.take_broken(self.services.store, scope):
            channel = f"<#{subscription.destination.id}>"
            reason = subscription.broken_reason or digest_channel.MISSING_PERMISSIONS
            if reason == digest_channel.MISSING_PERMISSIONS:
                reason = text(lang, "missing_access")
            await interaction.followup.send(
                text(lang, "broken", channel=channel, reason=reason), ephemeral=True
            )

    async def choose(
        self, interaction: discord.Interaction[Any], lang: str, key: str | None
    ) -> None:
        """Someone picked a choice: the message becomes the answer. "None of these": it
        becomes a short suggestion to ask in other words, as in Telegram."""
        if key is None:
            await interaction.response.edit_message(
                content=notice(text(lang, "none_chosen")).content, embeds=[], view=None
            )
            await self.tell_broken(interaction)
            return
        await self.respond(interaction, self.core.answer_key(key, lang=lang), edit=True)

    # ---- mentions --------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        """A message that mentions the bot is a question, and so is any message in a DM; it
        is answered in a reply."""
        me = self.user
        if me is None or message.author.bot:
            return
        if message.guild is not None and not any(u.id == me.id for u in message.mentions):
            return
        question = strip_mentions(message.content, me.id)
        if question:
            where = f"dc:{message.channel.id}:{message.author.id}"
            reply = ask_in(self.core, self.services.followups, where, question)
        else:
            reply = self.core.answer_key("help", lang=self.services.default_language)
        await self.post(message.channel, render(reply), choice_view(reply), reply_to=message)

    async def post(
        self,
        channel: discord.abc.Messageable,
        messages: Sequence[Outgoing],
        view: discord.ui.View | None = None,
        *,
        reply_to: discord.Message | None = None,
    ) -> None:
        """Post ``messages`` in a channel, the first as a reply, the choices under the last."""
        last = len(messages) - 1
        try:
            for index, message in enumerate(messages):
                first_reply = index == 0 and reply_to is not None
                # Only what applies is passed: Messageable.send takes no MISSING for "no
                # reference", and passing it made every message after the first raise
                # TypeError, so a two-message reply lost the message with the caveat.
                extra: dict[str, Any] = {}
                if index == last and view is not None:
                    extra["view"] = view
                if first_reply and reply_to is not None:
                    # still answer if the question was deleted meanwhile
                    extra["reference"] = reply_to.to_reference(fail_if_not_exists=False)
                await channel.send(
                    content=message.content,
                    embeds=list(message.embeds),
                    mention_author=False,  # do not ping the asker
                    **extra,
                )
        except discord.Forbidden:
            log.warning("not allowed to answer in channel %s", getattr(channel, "id", "?"))
        except discord.NotFound:  # the channel went away meanwhile: nothing to answer in
            log.info("channel %s is gone; the answer was not sent", getattr(channel, "id", "?"))


def strip_mentions(content: str, user_id: int) -> str:
    """The question left once the bot's own mention (``<@id>`` or ``<@!id>``) is taken out."""
    return re.sub(rf"<@!?{user_id}>", " ", content).strip()
