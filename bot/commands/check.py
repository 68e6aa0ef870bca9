"""``marin-watch check TEXT`` and ``marin-watch why CLAIM``: the conversation's checks, here."""

from __future__ import annotations

import argparse
import json

from bot.chat.conversation import Conversation
from bot.chat.where import Chat
from bot.context import AppContext


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "check",
        help="what the evidence says about each assertion of a message",
        description='Check a message someone posted, e.g. "Marin 535B finished training!"',
    )
    p.add_argument("text", nargs="+", help="the message (quote it)")
    p.add_argument("--lang", choices=("en", "zh"), help="reply language (default: detected)")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    p.set_defaults(handler=run_check)
    w = subparsers.add_parser(
        "why",
        help="why a claim (or a topic's answer) has its confidence level",
        description="The records that count, the relays collapsed into them, the records "
        "left out and why, and the rule that gave the level.",
    )
    w.add_argument("claim", nargs="+", help="claim ids (see `marin-watch claims`) or topics")
    w.add_argument("--lang", choices=("en", "zh"), help="reply language (default: en)")
    w.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    w.set_defaults(handler=run_why)


def _chat(lang: str | None) -> Chat:
    return Chat(platform="console", id="console", user="you", locale=lang)


def run_check(args: argparse.Namespace, ctx: AppContext) -> int:
    text = " ".join(args.text)
    lang = args.lang or ctx.core.detect_language(text)
    reply = Conversation(ctx.core, ctx.digests).check(_chat(lang), text)
    print(json.dumps(reply.to_json(text), ensure_ascii=False) if args.json else reply.text)
    return 0


def run_why(args: argparse.Namespace, ctx: AppContext) -> int:
    reply = Conversation(ctx.core, ctx.digests).why(_chat(args.lang), args.claim, args.lang)
    asked = "why " + " ".join(args.claim)
    print(json.dumps(reply.to_json(asked), ensure_ascii=False) if args.json else reply.text)
    return 0
