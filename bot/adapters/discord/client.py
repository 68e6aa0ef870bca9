"""The Discord client: a ``discord.Client`` with an application-command tree, wired to the core.

It holds the conversation (``bot.chat``) by composition (``Services``) and does only Discord's
part: receive a slash command, a mention or a click; supply the facts only Discord knows
(the person's locale, Manage Server); call the conversation; send what it says as embeds.
It asks for no privileged intent: a message that mentions the bot carries its content
without the message-content intent.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import discord
from discord.utils import MISSING

from answers.reply import Reply
from bot.adapters.discord import commands
from bot.adapters.discord.embeds import Outgoing, notice, render
from bot.adapters.discord.menu import Translator, Tree
from bot.adapters.discord.views import DYNAMIC_ITEMS, choice_view, public_view, why_view
from bot.chat.conversation import Conversation, Said
from bot.chat.pictures import Picture
from bot.chat.texts import MARKDOWN, Notice
from bot.chat.where import Chat
from bot.core import Core
from bot.digest.builder import DigestService
from bot.followups import Followups
from bot.store.contract import Store
from knowledge.clock import Clock, system_clock

log = logging.getLogger(__name__)

PLATFORM = "discord"


@dataclass
class Services:
    core: Core
    store: Store
    digests: DigestService
    clock: Clock = system_clock  # the reply language's default is the core's
    # servers whose digest setting is broken: a fast hint kept in step with the store
    broken_scopes: set[str] = field(default_factory=set)
    followups: Followups = field(default_factory=Followups)

    @cached_property
    def conversation(self) -> Conversation:
        return Conversation(
            self.core, self.digests, store=self.store, clock=self.clock, followups=self.followups
        )


def intents() -> discord.Intents:
    """Servers, their messages and DMs: enough for commands and mentions, nothing privileged."""
    return discord.Intents(guilds=True, guild_messages=True, dm_messages=True)


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

    @property
    def conversation(self) -> Conversation:
        return self.services.conversation

    @property
    def broken_servers(self) -> set[str]:
        """Servers whose digest setting is broken: a fast hint kept in step with the store."""
        return self.services.broken_scopes

    async def setup_hook(self) -> None:
        """Persistent choice components, Chinese descriptions, and the commands synced."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.broken_servers.update(self.conversation.subscriptions.broken_servers(PLATFORM))
        await self.tree.set_translator(Translator())
        try:
            synced = await self.tree.sync()
        except discord.HTTPException as exc:  # the commands synced last time stay in place
            log.warning("could not sync the slash commands: %s", exc)
        else:
            log.info("synced %d slash commands", len(synced))

    def chat_of(self, interaction: discord.Interaction[Any]) -> Chat:
        """The platform-free facts of an interaction: where, who, which language, what rights."""
        permissions = interaction.permissions
        guild = interaction.guild_id
        return Chat(
            platform=PLATFORM,
            id=str(interaction.channel_id or interaction.user.id),
            user=str(interaction.user.id),
            private=guild is None,
            locale=str(interaction.locale),
            manager=guild is not None and (permissions.manage_guild or permissions.administrator),
            server=str(guild) if guild is not None else None,
        )

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, words: Sequence[str] = ()
    ) -> None:
        """A slash command the conversation runs by name; what it says answers the interaction."""

        async def say(said: Said) -> None:
            if isinstance(said, Notice):
                await self.tell(interaction, said)
            elif isinstance(said, Picture):
                await self.show(interaction, said)
            elif isinstance(said.extra.get("picture"), bytes):  # a digest where progress moved
                await self.show(interaction, Picture(said.extra["picture"], said))
            else:
                await self.respond(interaction, said)

        await self.conversation.command(self.chat_of(interaction), name, words, say)

    # ---- sending replies -------------------------------------------------------------------

    async def respond(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        *,
        ephemeral: bool = False,
        edit: bool = False,
        public_button: bool = False,
    ) -> None:
        """Answer an interaction with ``reply``; more messages follow when it is long.
        ``public_button``: an answer only the asker sees offers to post it for everyone."""
        messages = render(reply)
        view = public_view(reply.language) if public_button else self.view_for(reply)
        last = len(messages) - 1
        for index, message in enumerate(messages):
            embeds = list(message.embeds)
            # the choices go under the last message; an edit without them removes the old ones
            components = view if index == last and view is not None else MISSING
            if index == 0 and edit:
                await interaction.response.edit_message(
                    content=None, embeds=embeds, view=components or None
                )
            elif index == 0 and not interaction.response.is_done():
                await interaction.response.send_message(
                    embeds=embeds, ephemeral=ephemeral, view=components
                )
            else:
                await interaction.followup.send(embeds=embeds, ephemeral=ephemeral, view=components)
        await self.tell_broken(interaction)

    async def show(self, interaction: discord.Interaction[Any], picture: Picture) -> None:
        """A picture as an embed with the image attached, its caption and caveat in the body;
        a caption too long for one message continues in the next ones."""
        first, *rest = render(picture.reply)
        embeds = list(first.embeds)
        embeds[0].set_image(url=f"attachment://{picture.name}")
        image = discord.File(io.BytesIO(picture.png), filename=picture.name)
        await interaction.response.send_message(embeds=embeds, file=image)
        for message in rest:
            await interaction.followup.send(embeds=list(message.embeds))

    async def tell(self, interaction: discord.Interaction[Any], said: Notice) -> None:
        """A short ephemeral answer only the person who asked sees."""
        content = notice(said.render(MARKDOWN)).content or ""
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, ephemeral=True)

    async def tell_broken(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the person in a server whose digest channel broke (once per breakage)."""
        chat = self.chat_of(interaction)
        if chat.server is None or chat.server not in self.broken_servers:
            return
        self.broken_servers.discard(chat.server)
        for said in self.conversation.broken_notices(chat):
            await interaction.followup.send(said.render(MARKDOWN), ephemeral=True)

    async def choose(
        self, interaction: discord.Interaction[Any], lang: str, key: str | None
    ) -> None:
        """Someone picked a choice: the message becomes the answer. "None of these": it
        becomes a short suggestion to ask in other words, as in Telegram."""
        said = self.conversation.choose(self.chat_of(interaction), key, lang=lang)
        if isinstance(said, Notice):
            await interaction.response.edit_message(
                content=notice(said.render(MARKDOWN)).content, embeds=[], view=None
            )
            await self.tell_broken(interaction)
            return
        await self.respond(interaction, said, edit=True)

    # ---- mentions --------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        """A message that mentions the bot is a question, and so is any message in a DM; it
        is answered in a reply."""
        me = self.user
        if me is None or message.author.bot:
            return
        if message.guild is not None and not any(u.id == me.id for u in message.mentions):
            return
        chat = Chat(
            platform=PLATFORM,
            id=str(message.channel.id),
            user=str(message.author.id),
            private=message.guild is None,
            server=str(message.guild.id) if message.guild is not None else None,
        )
        reply = self.conversation.said(chat, strip_mentions(message.content, me.id))
        await self.post(message.channel, render(reply), self.view_for(reply), reply_to=message)

    def view_for(self, reply: Reply) -> discord.ui.View | None:
        """The choices under a "which one?" reply, or "Why?" under an answer with levels."""
        return choice_view(reply) or why_view(reply.language, self.conversation.explainable(reply))

    async def explain(self, interaction: discord.Interaction[Any], lang: str, topic: str) -> None:
        """Someone pressed "Why?": the derivation, shown to them only."""
        why = self.conversation.why(self.chat_of(interaction), [topic], lang)
        await self.respond(interaction, why, ephemeral=True)

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
