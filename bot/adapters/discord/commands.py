"""The slash commands: each one a thin translation from an interaction to a core call.

/ask question        a question (autocomplete offers the topics the bot knows)
/status /sources /watch
/digest [days]       what changed in the evidence, here
/digest-channel set|clear   which channel gets the daily digest (Manage Server only)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from answers.reply import Reply
from bot.adapters.discord import digest_channel
from bot.adapters.discord.digest_channel import BadSetting
from bot.adapters.discord.texts import text
from bot.digest.changes import Window
from bot.digest.delivery import deliver_now
from bot.followups import ask_in
from bot.store.contract import Destination

if TYPE_CHECKING:
    from bot.adapters.discord.client import MarinClient

    Interaction = discord.Interaction[MarinClient]

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 suggestions
# /digest [days]: the last 1..3650 days, the bounds Telegram's /digest N has (Discord itself
# refuses anything else, in the person's language, before the bot sees it).
DIGEST_DAYS_MAX = 3650
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
    lang = client.language_of(interaction)
    if question in {c.key for c in client.core.topic_choices(lang)}:
        reply = client.core.answer_key(question, lang=lang)  # picked from the autocomplete
    else:
        # the reply follows the question's language; a follow-up reads the last question
        where = f"dc:{interaction.channel_id}:{interaction.user.id}"
        reply = ask_in(client.core, client.services.followups, where, question)
    await client.respond(interaction, reply)


@ask.autocomplete("question")
async def ask_topics(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    client = interaction.client
    needle = typed.casefold().strip()
    return [
        app_commands.Choice(name=choice.label[:100], value=choice.key)
        for choice in client.core.topic_choices(client.language_of(interaction))
        if needle in choice.label.casefold() or needle in choice.key.casefold()
    ][:AUTOCOMPLETE_LIMIT]


@app_commands.command(
    name="status", description=_("The overview: where the run stands and how sure we are")
)
async def status(interaction: Interaction) -> None:
    await _answer_key(interaction, "status")


@app_commands.command(name="sources", description=_("The records the knowledge base rests on"))
async def sources(interaction: Interaction) -> None:
    await _answer_key(interaction, "sources")


@app_commands.command(name="watch", description=_("What to watch next"))
async def watch(interaction: Interaction) -> None:
    await _answer_key(interaction, "watch")


async def _answer_key(interaction: Interaction, key: str) -> None:
    client = interaction.client
    await client.respond(
        interaction, client.core.answer_key(key, lang=client.language_of(interaction))
    )


@app_commands.command(name="digest", description=_("What changed in the evidence"))
@app_commands.describe(days=_("Only the last N days (default: since the last digest here)"))
async def digest(
    interaction: Interaction, days: app_commands.Range[int, 1, DIGEST_DAYS_MAX] | None = None
) -> None:
    client = interaction.client
    services = client.services
    window = None if days is None else Window.last_days(days, services.digests.today())
    here = digest_channel.destination(interaction.channel_id or interaction.user.id)
    # Recorded as a "manual" delivery, so the next plain /digest here starts after this one.
    await deliver_now(
        services.store,
        services.digests,
        InteractionReply(interaction),
        here,
        lang=client.language_of(interaction),
        window=window,
        clock=services.clock,
    )


class InteractionReply:
    """A ``Sender`` that answers the interaction instead of posting in the channel."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        # An answer to a command is never retried, so there is nothing to skip.
        await self.interaction.client.respond(self.interaction, reply)


class DigestChannel(app_commands.Group):
    """Managers only: Discord hides the group from others, and the bot checks again itself."""

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        lang = interaction.client.language_of(interaction)
        if interaction.guild_id is None:
            await interaction.client.tell(interaction, text(lang, "server_only"))
            return False
        permissions = interaction.permissions
        if not (permissions.manage_guild or permissions.administrator):
            await interaction.client.tell(interaction, text(lang, "manage_server_only"))
            return False
        return True


digest_channel_group = DigestChannel(
    name="digest-channel",
    description=_("Where this server gets its daily digest"),
    guild_only=True,
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
    lang = client.language_of(interaction)
    assert interaction.guild_id is not None  # interaction_check refused DMs
    try:
        at, zone = digest_channel.parse_time(time), digest_channel.parse_timezone(timezone)
    except BadSetting as bad:
        await client.tell(interaction, text(lang, bad.key, value=bad.value.replace("`", "'")))
        return
    if not can_post(interaction, channel):
        await client.tell(interaction, text(lang, "not_text_channel", channel=channel.mention))
        return
    digest_lang = language.value if language is not None else lang
    change = digest_channel.set_channel(
        client.services.store,
        guild_id=interaction.guild_id,
        channel_id=channel.id,
        at=at,
        timezone=zone,
        language=digest_lang,
    )
    client.services.broken_scopes.discard(str(interaction.guild_id))
    said = text(
        lang,
        "digest_set",
        channel=channel.mention,
        time=at.strftime("%H:%M"),
        tz=zone,
        language=text(lang, "english" if digest_lang == "en" else "chinese"),
    )
    for old in change.replaced:
        said += " " + text(lang, "digest_replaced", channel=f"<#{old.id}>")
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
    return [app_commands.Choice(name=z, value=z) for z in digest_channel.timezones_like(typed)]


@digest_channel_group.command(name="clear", description=_("Stop the daily digest in this server"))
async def clear_channel(interaction: Interaction) -> None:
    client = interaction.client
    lang = client.language_of(interaction)
    assert interaction.guild_id is not None  # interaction_check refused DMs
    stopped = digest_channel.clear_channel(
        client.services.store,
        guild_id=interaction.guild_id,
        reason=f"cleared by Discord user {interaction.user.id}",
    )
    client.services.broken_scopes.discard(str(interaction.guild_id))
    if not stopped:
        await client.tell(interaction, text(lang, "digest_none"))
        return
    channels = ", ".join(f"<#{d.id}>" for d in stopped)
    await client.tell(interaction, text(lang, "digest_cleared", channel=channels))


COMMANDS: tuple[app_commands.Command[Any, Any, None] | app_commands.Group, ...] = (
    ask,
    status,
    sources,
    watch,
    digest,
    digest_channel_group,
)


def register(tree: app_commands.CommandTree[MarinClient]) -> None:
    for command in COMMANDS:
        tree.add_command(command)
