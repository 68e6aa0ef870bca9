"""The Discord bot's own CPU cost per answered slash command, against the fake Discord.

The fake (REST API + gateway, ``tests/discord/dc_fake.py``) runs in a child process and
drives the conversation: it sends each slash command as a real ``INTERACTION_CREATE`` and
waits for the bot's callback before sending the next. The bot runs alone in this process, so
this process's CPU time over the run is the bot's own cost: discord.py parsing the event,
the command tree, the core answering, the embeds, the HTTP request back.

Target (issue 5): <= 5 ms CPU per answered slash command.
Run: `.venv/bin/python benchmarks/bench_discord.py [commands]`.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
import warnings
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: E402

import yarl  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.adapters.discord.client import Services  # noqa: E402
from bot.adapters.discord.embeds import render  # noqa: E402
from bot.adapters.discord.lifecycle import DiscordBot  # noqa: E402
from bot.core import Core  # noqa: E402
from bot.digest.builder import DigestService  # noqa: E402
from bot.startup import run_adapter  # noqa: E402
from bot.store.sqlite import SQLiteStore  # noqa: E402
from knowledge.clock import fixed_clock  # noqa: E402
from knowledge.loader import load  # noqa: E402
from tests.conftest import TODAY  # noqa: E402
from tests.discord.dc_chat import DiscordChat  # noqa: E402
from tests.discord.dc_fake import FakeDiscord  # noqa: E402
from tests.discord.dc_server import ALICE, LI, guild  # noqa: E402

TARGET_MS = 5.0
WARMUP = 30
# What people ask in a research server: questions, a Chinese one, and the fixed commands.
CONVERSATION: list[tuple[str, dict[str, str]]] = [
    ("ask", {"question": "has training started?"}),
    ("ask", {"question": "how far along is the run?"}),
    ("ask", {"question": "when will pretraining finish?"}),
    ("ask", {"question": "what hardware does it run on?"}),
    ("ask", {"question": "训练开始了吗？"}),
    ("ask", {"question": "release and hardware"}),  # close readings: buttons
    ("status", {}),
    ("watch", {}),
]


# ---- the fake, in its own process ------------------------------------------------------------


def fake_process(control: Connection, commands: int) -> None:
    asyncio.run(drive(control, commands))


async def drive(control: Connection, commands: int) -> None:
    fake = FakeDiscord(guilds=[guild()])
    await fake.start()
    control.send(fake.port)
    await asyncio.wait_for(fake.identified.wait(), 30)
    chat = DiscordChat(fake)
    await talk(chat, WARMUP)
    control.send("measure")
    control.recv()  # the bot has read its CPU clock
    started = time.perf_counter()
    await talk(chat, commands)
    control.send(time.perf_counter() - started)
    control.recv()
    await fake.stop()


async def talk(chat: DiscordChat, count: int) -> None:
    for n in range(count):
        command, options = CONVERSATION[n % len(CONVERSATION)]
        by = LI if "训练" in options.get("question", "") else ALICE
        answer = await chat.slash(command, by=by, **options)
        assert answer.embeds, f"/{command} got no embed"
        chat.fake.calls.clear()  # keep the fake's memory flat over long runs


# ---- the bot, in this process ----------------------------------------------------------------


async def bot_side(control: Connection, services: Services) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    port = await loop.run_in_executor(None, control.recv)
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    bot = DiscordBot(
        services,
        SecretStr("bench-token"),
        check_every=3600,
        client_options={"guild_ready_timeout": 0.01},
    )
    stop = asyncio.Event()
    running = asyncio.create_task(run_adapter(bot, stop))
    assert await loop.run_in_executor(None, control.recv) == "measure"
    cpu_start = time.process_time()
    control.send("go")
    wall = await loop.run_in_executor(None, control.recv)
    cpu = time.process_time() - cpu_start
    control.send("bye")
    stop.set()
    await running
    return cpu, wall


def core_only(services: Services, rounds: int) -> float:
    """CPU per command for the core's answer and the embeds alone (no Discord at all)."""
    core = services.core
    start = time.process_time()
    for n in range(rounds):
        command, options = CONVERSATION[n % len(CONVERSATION)]
        reply = (
            core.ask(options["question"])
            if command == "ask"
            else core.answer_key(command, lang="en")
        )
        render(reply)
    return (time.process_time() - start) / rounds * 1000


def main() -> int:
    commands = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    logging.basicConfig(level=logging.WARNING)
    clock = fixed_clock(TODAY)
    kb = load(today=TODAY.date())
    core = Core(kb, clock=clock)
    with (
        tempfile.TemporaryDirectory() as tmp,
        SQLiteStore(Path(tmp) / "bench.sqlite3", clock=clock) as store,
    ):
        services = Services(
            core=core, store=store, digests=DigestService(kb, core.renderer), clock=clock
        )
        core_only(services, WARMUP)
        core_ms = statistics.median(core_only(services, 200) for _ in range(5))
        parent, child = mp.Pipe()
        fake = mp.get_context("spawn").Process(target=fake_process, args=(child, commands))
        fake.start()
        cpu, wall = asyncio.run(bot_side(parent, services))
        fake.join(30)
    per_command = cpu / commands * 1000
    print(f"slash commands answered:       {commands}")
    print(f"bot CPU per slash command:     {per_command:.2f} ms (target <= {TARGET_MS} ms)")
    print(f"  of which core + embeds:      {core_ms:.2f} ms")
    print(f"  discord.py + HTTP + wiring:  {per_command - core_ms:.2f} ms")
    print(f"wall time per command (round trip with the fake): {wall / commands * 1000:.2f} ms")
    return 0 if per_command <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
