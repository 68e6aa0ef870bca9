"""The console adapter: talk to the bot in a terminal, no tokens, no network.

Like errbot's text backend: a ``>>>`` prompt, one question a line. When the bot offers
choices, answering with their number picks one. The /commands are the conversation's, as in
the chat apps (``/status``, ``/digest 7``, ``/help``…); ``/quit`` (or end of input) leaves.
Replies follow the language of the last question.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import TextIO

from answers.inputs import count
from answers.reply import Choice, Outcome, Reply
from bot.chat.conversation import COMMANDS, Conversation, Said
from bot.chat.pictures import Picture
from bot.chat.texts import Notice
from bot.chat.where import Chat
from bot.core import Core
from bot.digest.builder import DigestService

PROMPT = ">>> "
QUIT = ("/quit", "/exit")


class Console:
    def __init__(
        self, core: Core, *, lang: str | None = None, digests: DigestService | None = None
    ) -> None:
        self.conversation = Conversation(core, digests or DigestService(core.kb, core.renderer))
        self.lang = lang  # forced with --lang; otherwise the last question's language
        self.last_lang = lang or core.default_language
        self.offered: tuple[Choice, ...] = ()

    @property
    def chat(self) -> Chat:
        return Chat(platform="console", id="console", user="you", locale=self.last_lang)

    def reply_to(self, line: str) -> Said | None:
        """The bot's reply to one line of input, or None to leave."""
        text = line.strip()
        if text in QUIT:
            return None
        picked = count(text)
        said: Said
        if picked is not None and self.offered and 1 <= picked <= len(self.offered):
            said = self.conversation.choose(self.chat, self.offered[picked - 1].key)
        elif text.startswith("/") and text[1:].split(" ", 1)[0] in COMMANDS:
            said = self._command(text)
        else:
            said = self.conversation.ask(self.chat, text, lang=self.lang)
            if self.lang is None:
                self.last_lang = said.language
        self.offered = (
            said.choices if isinstance(said, Reply) and said.outcome == Outcome.CHOICES else ()
        )
        return said

    def _command(self, text: str) -> Said:
        name, *words = text[1:].split()
        heard: list[Said] = []

        async def say(said: Said) -> None:
            heard.append(said)

        # a command may post a digest: the conversation's one asynchronous path
        asyncio.run(self.conversation.command(self.chat, name, words, say))
        if heard and isinstance(heard[0], Picture):  # a terminal shows no image: its words
            reply = heard[0].reply
            hint = "(the picture itself: marin-watch chart --output FILE.png)"
            return dataclasses.replace(reply, body=f"{reply.body}\n\n{hint}")
        return heard[-1] if len(heard) == 1 else _joined(heard)


def _joined(heard: list[Said]) -> Said:
    """Several things said (a digest and a note about it): the first, the notes after it."""
    first, *rest = heard
    if not isinstance(first, Reply):
        return first
    notes = "\n\n".join(shown(s) for s in rest)
    return dataclasses.replace(first, body=f"{first.body}\n\n{notes}".strip())


def shown(said: Said) -> str:
    if isinstance(said, Picture):
        return said.reply.text
    return said.plain() if isinstance(said, Notice) else said.text


def run(
    core: Core,
    src: TextIO,
    out: TextIO,
    *,
    lang: str | None = None,
    interactive: bool = True,
    digests: DigestService | None = None,
) -> int:
    console = Console(core, lang=lang, digests=digests)
    write: Callable[[str], object] = out.write
    if interactive:
        write(console.conversation.help(console.chat).text + "\n\n")
    while True:
        if interactive:
            write(PROMPT)
            out.flush()
        line = src.readline()
        if not line:
            return 0
        said = console.reply_to(line)
        if said is None:
            return 0
        write(shown(said) + "\n")
        if isinstance(said, Reply) and said.outcome == Outcome.CHOICES:
            write(Notice("choose_by_number", said.language).plain() + "\n")
        write("\n")
