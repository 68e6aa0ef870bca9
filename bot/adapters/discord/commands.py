"""The slash commands: each one a thin translation from an interaction to the conversation.

/ask question        a question (autocomplete offers the topics the bot knows)
/status /sources /watch
/digest [days]       what changed in the evidence, here (a summary in a server channel)
/digest-channel set|clear   which channel gets the daily digest (Manage Server only)
/why topic           how a confidence level was derived
Apps → "Check with marin-watch"   what the evidence says about any message
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.chat.args import DIGEST_DAYS, timezones_like

if TYPE_CHECKING:
    from bot.adapters.discord.client import MarinClient

    Interaction = discord.Interaction[MarinClient]

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 suggestions
# /digest [days]: the conversation's bounds (Discord refuses anything else, in the person's
# language, before the bot sees it).
DIGEST_DAYS_MAX = DIGEST_DAYS.stop - 1
LANGUAGES = [
    app_commands.Choice(name=_("English"), value="en"),
    app_commands.Choice(name=_("Chinese"), value="zh"),
]


@app_commands.command(
    name="ask", description=_("Ask a question about the Marin 535B-A23B training run")
)
@app_commands.describe(question=_("Your question, or a topic from the list"))
async def ask(interaction: Interaction, question: app_commands.Range[str, 1, 500]) -> None:
    client = interaction.client
    chat = client.chat_of(interaction)
    conversation = client.conversation
    if question in {key for key, _ in conversation.topics(chat)}:
        reply = conversation.topic(chat, question)  # picked from the autocomplete
    else:
        reply = conversation.ask(chat, question)
    await client.respond(interaction, reply)


@ask.autocomplete("question")
async def ask_topics(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    return topic_choices(interaction, typed)


def topic_choices(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    """The topics the bot can answer whose name holds what was typed."""
    client = interaction.client
    needle = typed.casefold().strip()
    return [
        app_commands.Choice(name=label[:100], value=key)
        for key, label in client.conversation.topics(client.chat_of(interaction))
        if needle in label.casefold() or needle in key.casefold()
    ][:AUTOCOMPLETE_LIMIT]


@app_commands.command(
    name="status", description=_("The overview: where the run stands and how sure we are")
)
async def status(interaction: Interaction) -> None:
    await interaction.client.run_command(interaction, "status")


@app_commands.command(name="sources", description=_("The records the knowledge base rests on"))
async def sources(interaction: Interaction) -> None:
    await interaction.client.run_command(interaction, "sources")


@app_commands.command(name="watch", description=_("What to watch next"))
async def watch(interaction: Interaction) -> None:
    await interaction.client.run_command(interaction, "watch")


@app_commands.command(name="chart", description=_("Progress against the plan, as a picture"))
async def chart(interaction: Interaction) -> None:
    await interaction.client.run_command(interaction, "chart")


@app_commands.command(name="digest", description=_("What changed in the evidence"))
@app_commands.describe(days=_("Only the last N days (default: since the last digest here)"))
async def digest(
    interaction: Interaction, days: app_commands.Range[int, 1, DIGEST_DAYS_MAX] | None = None
) -> None:
    words = [] if days is None else [str(days)]
    await interaction.client.run_command(interaction, "digest", words)


@app_commands.context_menu(name=_("Check with marin-watch"))
async def check_message(interaction: Interaction, message: discord.Message) -> None:
    """Apps → "Check with marin-watch" on any message: what the evidence says about it,
    shown to the person who asked, with a button to post it for everyone."""
    client = interaction.client
    # written when the message was: its "last Tuesday" is the Tuesday before it
    reply = client.conversation.check(
        client.chat_of(interaction), message.content, message.created_at
    )
    await client.respond(interaction, reply, ephemeral=True, public_button=True)


@app_commands.command(name="why", description=_("Why a confidence level: the records and rule"))
@app_commands.describe(topic=_("A topic from the list, or a claim id"))
async def why(interaction: Interaction, topic: app_commands.Range[str, 1, 100]) -> None:
    await interaction.client.run_command(interaction, "why", [topic])


@why.autocomplete("topic")
async def why_topics(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    return topic_choices(interaction, typed)


digest_channel_group = app_commands.Group(
    name="digest-channel",
    description=_("Where this server gets its daily digest"),
    guild_only=True,
    # hidden from members without Manage Server; the conversation refuses them anyway
    default_permissions=discord.Permissions(manage_guild=True),
)


@digest_channel_group.command(name="set", description=_("Post the daily digest in a channel"))
@app_commands.describe(
    channel=_("The channel that receives the digest"),
    time=_("Local time of day, HH:MM (default 09:00)"),
    timezone=_("IANA time zone, e.g. Asia/Shanghai (default UTC)"),
    language=_("Language of the digest"),
)
@app_commands.choices(language=LANGUAGES)
async def set_channel(
    interaction: Interaction,
    channel: discord.TextChannel,
    time: str = "09:00",
    timezone: str = "UTC",
    language: app_commands.Choice[str] | None = None,
) -> None:
    client = interaction.client
    chat = client.chat_of(interaction)
    if chat.may_manage and chat.server is not None and not can_post(interaction, channel):
        said = client.conversation.notice(chat, "not_text_channel", channel=channel.mention)
    else:
        said = client.conversation.set_digest_channel(
            chat,
            str(channel.id),
            time=time,
            zone=timezone,
            digest_language=language.value if language is not None else None,
        )
        if chat.server is not None:
            client.broken_servers.discard(chat.server)
    await client.tell(interaction, said)


def can_post(interaction: Interaction, channel: discord.TextChannel) -> bool:
    """Whether the bot may post the digest's embeds in ``channel`` (as far as it can tell)."""
    me = interaction.guild.me if interaction.guild is not None else None
    if me is None:  # not cached: let the first post find out (a 403 marks it broken)
        return True
    allowed = channel.permissions_for(me)
    return allowed.view_channel and allowed.send_messages and allowed.embed_links


@set_channel.autocomplete("timezone")
async def timezones(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=z, value=z) for z in timezones_like(typed)]


@digest_channel_group.command(name="clear", description=_("Stop the daily digest in this server"))
async def clear_channel(interaction: Interaction) -> None:
    client = interaction.client
    chat = client.chat_of(interaction)
    said = client.conversation.clear_digest_channel(chat)
    if chat.server is not None and chat.may_manage:
        client.broken_servers.discard(chat.server)
    await client.tell(interaction, said)


COMMANDS: tuple[
    app_commands.Command[Any, Any, None] | app_commands.Group | app_commands.ContextMenu, ...
] = (
    ask,
    status,
    sources,
    watch,
    digest,
    chart,
    why,
    check_message,
    digest_channel_group,
)


def register(tree: app_commands.CommandTree[MarinClient]) -> None:
    for command in COMMANDS:
        tree.add_command(command)
