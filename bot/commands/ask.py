"""``marin-watch ask``: ask the bot a question from the console, no tokens needed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from bot.commands.arguments import add_as_of, parse_date
from bot.context import AppContext
from knowledge.errors import MarinWatchError


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "ask",
        help="ask a question (English or 中文) and print the answer",
        description="Ask a question. With --json and no QUESTION, read one question per line "
        "from standard input and print one JSON object per line.",
    )
    p.add_argument("question", nargs="*", help="the question (quote it, or pass several words)")
    p.add_argument("--lang", choices=("en", "zh"), help="reply language (default: detected)")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    add_as_of(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, ctx: AppContext) -> int:
    as_of = parse_date(args.as_of)
    core = ctx.core
    if args.question:
        question = " ".join(args.question)
        reply = core.ask(question, lang=args.lang, as_of=as_of)
        if args.json:
            print(json.dumps(reply.to_json(question), ensure_ascii=False))
        else:
            print(reply.text)
        return 0
    if not args.json:
        print(
            "marin-watch ask: give a QUESTION, or use --json to read questions from stdin",
            file=sys.stderr,
        )
        return 2
    return _batch(ctx, args.lang, as_of, sys.stdin, sys.stdout)


def _batch(ctx: AppContext, lang: str | None, as_of: object, src: TextIO, out: TextIO) -> int:
    """One JSON object per input line; the process loads once."""
    core = ctx.core
    for raw in src:
        question = raw.rstrip("\r\n")
        try:
            row = core.ask(question, lang=lang, as_of=as_of).to_json(question)  # type: ignore[arg-type]
        except MarinWatchError as exc:
            # One line that cannot be answered (e.g. the store behind "what changed?" is
            # unreadable) must not cost the answers to the lines after it.
            row = {"question": question, "outcome": "error", "error": str(exc)}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
    out.flush()
    return 0
