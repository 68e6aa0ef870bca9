"""The console adapter: talk to the bot in a terminal, no tokens, no network.

Like errbot's text backend: a ``>>>`` prompt, one question a line. When the bot offers
choices, answering with their number picks one. ``/status``, ``/sources``, ``/watch``,
``/digest`` and ``/help`` work as in the chat apps; ``/quit`` (or end of input) leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from answers.inputs import count
from answers.reply import Choice, Outcome, Reply
from bot.core import Core
from bot.followups import Followups, ask_in

PROMPT = ">>> "
COMMANDS = {
    "/status": "status",
    "/sources": "sources",
    "/watch": "watch",
    "/help": "help",
    "/digest": "changes",
    "/start": "help",
}


class Console:
    def __init__(self, core: Core, *, lang: str | None = None) -> None:
        self.core = core
        self.lang = lang
        self.offered: tuple[Choice, ...] = ()
        self.last_lang = lang or core.default_language
        self.followups = Followups()

    def reply_to(self, line: str) -> Reply | None:
        """The bot's reply to one line of input, or None to leave."""
        text = line.strip()
        if text in ("/quit", "/exit"):
            return None
        picked = count(text)
        if picked is not None and self.offered and 1 <= picked <= len(self.offered):
            key = self.offered[picked - 1].key
            reply = self.core.answer_key(key, lang=self.last_lang)
        elif text.split(" ", 1)[0] in COMMANDS:
            command, _, rest = text.partition(" ")
            days = count(rest) if command == "/digest" else None
            reply = self.core.answer_key(COMMANDS[command], lang=self.last_lang, days=days)
        else:
            reply = ask_in(self.core, self.followups, "console", text, lang=self.lang)
            self.last_lang = reply.language
        self.offered = reply.choices if reply.outcome == Outcome.CHOICES else ()
        return reply


def run(
    core: Core, src: TextIO, out: TextIO, *, lang: str | None = None, interactive: bool = True
) -> int:
    console = Console(core, lang=lang)
    write: Callable[[str], object] = out.write
    if interactive:
        write(core.answer_key("help", lang=lang or core.default_language).text + "\n\n")
    while True:
        if interactive:
            write(PROMPT)
            out.flush()
        line = src.readline()
        if not line:
            return 0
        reply = console.reply_to(line)
        if reply is None:
            return 0
        write(reply.text + "\n")
        if reply.outcome == Outcome.CHOICES:
            write("(answer with a number)\n" if reply.language == "en" else "（回复编号即可）\n")
        write("\n")
