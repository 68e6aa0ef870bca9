"""The command tree: its Chinese descriptions, and what a failed command tells the person."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from answers.script import to_traditional
from bot.adapters.discord.descriptions import DESCRIPTIONS
from bot.chat.texts import MARKDOWN

if TYPE_CHECKING:
    from bot.adapters.discord.client import MarinClient

log = logging.getLogger("bot.adapters.discord.client")
TAIWAN = discord.Locale.taiwan_chinese
ZH_LOCALES = (discord.Locale.chinese, TAIWAN)


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
        client = interaction.client
        message = client.conversation.error(client.chat_of(interaction)).render(MARKDOWN)
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
