"""``marin-watch site build DIR``: write the static status page (``answers/site.py``)."""

from __future__ import annotations

import argparse

from answers.site import build_site
from bot.commands.arguments import file_path
from bot.context import AppContext


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    site = subparsers.add_parser("site", help="the static status page")
    site_sub = site.add_subparsers(dest="site_command", required=True)
    build = site_sub.add_parser(
        "build",
        help="write DIR/index.html, DIR/zh/index.html and their charts",
        description="Write the status page in English (DIR/index.html) and simplified Chinese "
        "(DIR/zh/index.html), each with its progress chart (chart.png): the overview with "
        "its levels, the progress and its age, the plan against the records, every claim "
        "with its records, and the caveat. No JavaScript and no external assets: host DIR "
        "anywhere (GitHub Pages) or open it from disk.",
    )
    build.add_argument("dir", metavar="DIR", type=file_path, help="the folder to write into")
    build.set_defaults(handler=run_build)


def run_build(args: argparse.Namespace, ctx: AppContext) -> int:
    for path in build_site(ctx.core, args.dir):
        print(f"wrote {path}")
    return 0
