"""A chat with the bot through the fake Discord, in the server of ``dc_server`` or in a DM.

Tests read like conversations:

    answer = await chat.slash("ask", question="has training started?")
    assert "started" in answer.embeds[0]["description"]

Every action is a real gateway event (``INTERACTION_CREATE``, ``MESSAGE_CREATE``) built the
way Discord builds it, with option types taken from the commands the bot *synced* to the
fake, so a test cannot use an option the bot did not declare.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import discord

from tests.discord.dc_fake import APP_ID, BOT_USER_ID, Call, FakeDiscord, bot_user
from tests.discord.dc_server import (
    ALICE,
    BOT_PERMISSIONS,
    DM_CHANNEL,
    GENERAL,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    Person,
    text_channel,
)


@dataclass
class Answer:
    """What the bot said back to one interaction: the callback and its follow-ups."""

    callback: Call
    followups: list[Call] = field(default_factory=list)

    @property
    def kind(self) -> int:
        return int(self.callback.body["type"])

    @property
    def message(self) -> dict[str, Any]:
        return self.callback.message

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.callback.embeds

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool((self.message.get("flags") or 0) & 64)

    @property
    def sent(self) -> dict[str, Any]:
        """The message object Discord created, as a later click refers to it."""
        return dict(self.callback.answer["resource"]["message"])

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete suggestions (callback type 8)."""
        return list(self.message.get("choices") or [])

    def text(self) -> str:
        """Everything a reader sees: content, titles, descriptions and fields, follow-ups too."""
        parts = [self.content]
        for call in [self.callback, *self.followups]:
            parts.append(str(call.message.get("content") or ""))
            for embed in call.embeds:
                parts += [embed.get("title") or "", embed.get("description") or ""]
                parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        return "\n".join(p for p in parts if p)


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button and select of a message, flattened out of its action rows."""
    return [c for row in message.get("components") or [] for c in row.get("components", [])]


class DiscordChat:
    """Someone in #general of the research server (or in a DM), talking to the bot."""

    def __init__(self, fake: FakeDiscord, client: Any = None, *, dm: bool = False) -> None:
        self.fake = fake
        self.client = client
        self.dm = dm
        self.channel_id = DM_CHANNEL if dm else GENERAL
        if client is None:  # a bot in another process: answers are not waited for to the end
            return
        # Observe the end of each command, failed or refused ones included, so that an
        # answer is complete (follow-ups too) when a test looks at it.
        original = client.tree.on_error

        async def on_error(interaction: Any, error: Exception) -> None:
            await original(interaction, error)
            client.dispatch("app_command_error", interaction, error)

        client.tree.on_error = on_error

    # ---- slash commands --------------------------------------------------------------------

    async def slash(self, command: str, *, by: Person = ALICE, **values: Any) -> Answer:
        """Run ``/command`` (``"digest-channel set"`` for a subcommand) and wait for the answer."""
        data = self._command_data(command, values, focused=None)
        return await self._interact(2, data, by, watch_completion=True)

    async def apps_menu(
        self,
        command: str,
        content: str,
        *,
        author: Person = ALICE,
        by: Person = ALICE,
        written: dt.datetime | None = None,
    ) -> Answer:
        """Pick ``command`` from the Apps menu of a message ``author`` posted (on ``written``,
        which its snowflake id carries; by default now): a message command (type 3) whose
        target Discord resolves in ``data.resolved.messages``."""
        synced = next((c for c in self.fake.commands if c["name"] == command), None)
        assert synced is not None and synced.get("type") == 3, f"{command!r} is no message command"
        target = discord.utils.time_snowflake(written) if written else self.fake.snowflake()
        data = {
            "id": synced["id"],
            "name": command,
            "type": 3,
            "target_id": str(target),
            "resolved": {"messages": {str(target): self.message(target, content, author)}},
        }
        return await self._interact(2, data, by, watch_completion=True)

    async def autocomplete(
        self, command: str, option: str, typed: str, *, by: Person = ALICE
    ) -> list[str]:
        """What the bot suggests while ``typed`` is in ``option``: (name, value) pairs' values."""
        data = self._command_data(command, {option: typed}, focused=option)
        answer = await self._interact(4, data, by)
        return [c["value"] for c in answer.choices]

    def _command_data(
        self, command: str, values: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        name, *path = command.split()
        synced = next((c for c in self.fake.commands if c["name"] == name), None)
        assert synced is not None, (
            f"/{name} was not synced: {[c['name'] for c in self.fake.commands]}"
        )
        data: dict[str, Any] = {"id": synced["id"], "name": name, "type": 1, "resolved": {}}
        container, declared = data, synced.get("options", [])
        for sub in path:
            option = next(o for o in declared if o["name"] == sub)
            inner: dict[str, Any] = {"name": sub, "type": option["type"], "options": []}
            container.setdefault("options", []).append(inner)
            container, declared = inner, option.get("options", [])
        for key, value in values.items():
            option = next((o for o in declared if o["name"] == key), None)
            assert option is not None, f"/{command} has no option {key!r}"
            entry: dict[str, Any] = {"name": key, "type": option["type"], "value": value}
            if option["type"] == 7:  # a channel: Discord sends its id and resolves it
                entry["value"] = str(value)
                channel = text_channel(int(value), f"channel-{value}", 9)
                channel["permissions"] = str(MEMBER_PERMISSIONS)
                data["resolved"].setdefault("channels", {})[str(value)] = channel
            if key == focused:
                entry["focused"] = True
            container.setdefault("options", []).append(entry)
        return data

    # ---- components ------------------------------------------------------------------------

    async def click(self, message: dict[str, Any], label: str, *, by: Person = ALICE) -> Answer:
        """Press the button labelled ``label`` under a message the bot sent."""
        button = next((c for c in components(message) if c.get("label") == label), None)
        assert button is not None, f"no button {label!r} in {components(message)}"
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._interact(3, data, by, message=message)

    async def pick(self, message: dict[str, Any], label: str, *, by: Person = ALICE) -> Answer:
        """Choose the option labelled ``label`` in the select menu under a message."""
        menu = next(c for c in components(message) if c["type"] == 3)
        option = next(o for o in menu["options"] if o["label"] == label)
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [option["value"]]}
        return await self._interact(3, data, by, message=message)

    # ---- mentions --------------------------------------------------------------------------

    async def mention(self, words: str, *, by: Person = ALICE) -> Call:
        """Say ``@marin-watch words`` in #general; the bot's reply."""
        message_id = self.fake.snowflake()
        mark = len(self.fake.calls)
        await self.fake.dispatch(
            "MESSAGE_CREATE",
            self.message(message_id, f"<@{BOT_USER_ID}> {words}", by, mentions=[bot_user()]),
        )
        return await self._reply_to(message_id, mark)

    async def _reply_to(self, message_id: int, mark: int) -> Call:
        return await self.fake.wait_for(
            "POST",
            rf"/channels/{self.channel_id}/messages",
            after=mark,
            where=lambda c: (
                str((c.body.get("message_reference") or {}).get("message_id")) == str(message_id)
            ),
        )

    async def say(self, words: str, *, by: Person = ALICE) -> None:
        """Say something without mentioning the bot."""
        await self.fake.dispatch("MESSAGE_CREATE", self.message(self.fake.snowflake(), words, by))

    async def say_and_wait(self, words: str, *, by: Person = ALICE) -> Call:
        """Say something without a mention (in a DM that is enough); the bot's reply."""
        message_id = self.fake.snowflake()
        mark = len(self.fake.calls)
        await self.fake.dispatch("MESSAGE_CREATE", self.message(message_id, words, by))
        return await self._reply_to(message_id, mark)

    def message(
        self,
        message_id: int,
        content: str,
        by: Person,
        *,
        mentions: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        member = {k: v for k, v in by.member().items() if k not in ("user", "permissions")}
        where = {} if self.dm else {"guild_id": str(GUILD_ID), "member": member}
        return {
            "id": str(message_id),
            "channel_id": str(self.channel_id),
            **where,
            "author": by.user(),
            "content": content,
            "timestamp": dt.datetime.now(dt.UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": mentions or [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
        }

    # ---- the interaction itself ------------------------------------------------------------

    async def _interact(
        self,
        kind: int,
        data: dict[str, Any],
        by: Person,
        *,
        message: dict[str, Any] | None = None,
        watch_completion: bool = False,
    ) -> Answer:
        interaction_id = self.fake.snowflake()
        token = f"token-{interaction_id}"
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(self.channel_id),
            "locale": by.locale,
            "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if self.dm:
            dm_channel = {"id": str(self.channel_id), "type": 1, "recipients": [by.user()]}
            payload |= {"user": by.user(), "channel": dm_channel, "context": 1}
        else:
            payload |= {
                "guild_id": str(GUILD_ID),
                "guild_locale": "en-US",
                "channel": text_channel(self.channel_id, "general", 0),
                "member": by.member(),
            }
        if message is not None:
            payload["message"] = {**message, "channel_id": str(self.channel_id)}
        ended = []
        if watch_completion and self.client is not None:
            ended = [
                asyncio.ensure_future(
                    self.client.wait_for(event, check=lambda i, _: i.id == interaction_id)
                )
                for event in ("app_command_completion", "app_command_error")
            ]
        mark = len(self.fake.calls)
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        callback = await self.fake.wait_for(
            "POST", rf"/interactions/{interaction_id}/{token}/callback", after=mark
        )
        if ended:
            done, pending = await asyncio.wait(
                ended, timeout=5, return_when=asyncio.FIRST_COMPLETED
            )
            assert done, "the bot never finished the command"
            for future in pending:
                future.cancel()
        followups = self.fake.made("POST", rf"/webhooks/{APP_ID}/{token}", after=mark)
        return Answer(callback, followups)
