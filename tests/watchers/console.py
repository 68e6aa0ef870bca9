"""Run the curator's console commands in-process, as ``marin-watch`` would, on a given context.

The watch command gets its HTTP client injected (the fake internet); everything else runs
exactly as ``bot.cli.main`` dispatches it: parse, then ``handler(args, ctx)``.
"""

from __future__ import annotations

import argparse

import httpx

from bot.commands import digest, kb, signals, watch
from bot.context import AppContext


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="marin-watch")
    sub = p.add_subparsers(dest="command", required=True)
    for module in (signals, watch, digest, kb):
        module.add_parser(sub)
    return p


def marin_watch(ctx: AppContext, *argv: str, client: httpx.AsyncClient | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "watch":
        return watch.run(args, ctx, client=client)
    return int(args.handler(args, ctx))
