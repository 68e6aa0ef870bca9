"""The architecture holds: the core never imports a chat SDK."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_core_does_not_import_discord_or_telegram() -> None:
    code = (
        "import sys\n"
        "import bot.core, bot.context, bot.cli, answers.render, knowledge.loader\n"
        "from bot.cli import build_parser; build_parser()\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'telegram'))\n"
        "print(','.join(leaked))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
