"""``marin-watch serve``: one process for every chat adapter whose token is configured.

Each adapter is an ``AdapterSpec`` in ``ADAPTERS``: its name, the variables that enable it,
and the import path of an ``async def run(ctx, stop)`` that serves until the ``stop`` event
is set and then returns after finishing (or recording) whatever it was sending. An adapter
owns its platform's digest schedule (it calls ``bot.digest.delivery.run_due`` from its own
loop), so the schedule runs exactly when its adapter does. Adapters are imported only when
configured: a Telegram-only deployment never imports discord.py.

SIGTERM or SIGINT sets ``stop``; a second signal cancels whatever has not stopped yet. An
adapter that fails stops the others too, and the exit code says so: a supervisor restarts
a process that exits, not one that limps. A network that is down at start-up is not a
failure: each adapter is built from the app's parts and started by ``bot.assembly`` through
``bot.startup.run_adapter``, which tries again with capped exponential backoff
(``StartBackoff``) until it is up or ``stop`` is set.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from pydantic import SecretStr

from bot.config import Settings
from knowledge.errors import MarinWatchError

if TYPE_CHECKING:
    from bot.context import AppContext

log = logging.getLogger(__name__)

RunAdapter = Callable[["AppContext", asyncio.Event], Awaitable[None]]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NOT_CONFIGURED = 2


@dataclass(frozen=True)
class AdapterSpec:
    name: str
    env: tuple[str, ...]  # the variables that enable it, preferred first
    configured: Callable[[Settings], bool]
    target: str  # "package.module:function", a RunAdapter
    # A companion (the watchers) runs beside the chat adapters, never alone, and is not
    # something to configure: it is left out of the "set a token" message.
    companion: bool = False

    def load(self) -> RunAdapter:
        module, _, attr = self.target.partition(":")
        run: RunAdapter = getattr(importlib.import_module(module), attr)
        return run


ADAPTERS: tuple[AdapterSpec, ...] = (
    AdapterSpec(
        "telegram",
        ("MARIN_WATCH_TELEGRAM_TOKEN", "TELEGRAM_BOT_TOKEN"),
        lambda s: s.telegram_token is not None,
        "bot.assembly:run_telegram",
    ),
    AdapterSpec(
        "discord",
        ("MARIN_WATCH_DISCORD_TOKEN", "DISCORD_BOT_TOKEN"),
        lambda s: s.discord_token is not None,
        "bot.assembly:run_discord",
    ),
    # The source watchers (issue 6) run beside whichever chat adapter runs, every
    # MARIN_WATCH_WATCH_INTERVAL_MINUTES (default 15); they never start serve on their own.
    AdapterSpec(
        "watchers",
        ("MARIN_WATCH_TELEGRAM_TOKEN", "MARIN_WATCH_DISCORD_TOKEN"),
        lambda s: s.telegram_token is not None or s.discord_token is not None,
        "bot.watchers.loop:serve_watchers",
        companion=True,
    ),
    # The status page (MARIN_WATCH_SITE_DIR), rebuilt whenever the knowledge files change.
    AdapterSpec(
        "site",
        ("MARIN_WATCH_SITE_DIR",),
        lambda s: s.site_dir is not None,
        "bot.assembly:run_site",
        companion=True,
    ),
)


def not_configured_message(adapters: Iterable[AdapterSpec]) -> str:
    lines = ["marin-watch serve: no chat adapter is configured. Set a bot token:"]
    lines += [f"  {spec.name}: {' or '.join(spec.env)}" for spec in adapters if not spec.companion]
    lines.append("(`marin-watch ask` works without any token.)")
    return "\n".join(lines)


def serve(
    ctx: AppContext, *, adapters: Sequence[AdapterSpec] = ADAPTERS, err: TextIO | None = None
) -> int:
    """Run every configured adapter until SIGTERM/SIGINT; the process exit code."""
    chosen = [spec for spec in adapters if spec.configured(ctx.settings)]
    if all(spec.companion for spec in chosen):
        print(not_configured_message(adapters), file=err or sys.stderr)
        return EXIT_NOT_CONFIGURED
    return asyncio.run(serve_async(ctx, chosen))


async def serve_async(
    ctx: AppContext, adapters: Sequence[AdapterSpec], stop: asyncio.Event | None = None
) -> int:
    stop = stop or asyncio.Event()
    with _secrets_redacted(_secrets(ctx.settings)), _signals(stop) as on_second_signal:
        tasks: dict[asyncio.Task[None], AdapterSpec] = {}
        for spec in adapters:
            try:
                run = spec.load()
            except (ImportError, AttributeError) as exc:
                log.error("the %s adapter cannot be loaded: %s", spec.name, exc)
                stop.set()
                break
            tasks[asyncio.create_task(_run(run, ctx, stop), name=spec.name)] = spec
        log.info("serving: %s", ", ".join(spec.name for spec in tasks.values()) or "nothing")
        waiter = asyncio.create_task(stop.wait())
        on_second_signal.append(lambda: [t.cancel() for t in tasks])
        await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
        stop.set()  # one adapter ended (or failed) on its own: stop the rest as well
        results = await asyncio.gather(*tasks, return_exceptions=True)
        waiter.cancel()
    code = EXIT_OK if len(tasks) == len(adapters) else EXIT_FAILED
    for result, spec in zip(results, tasks.values(), strict=True):
        if isinstance(result, asyncio.CancelledError):
            log.warning("the %s adapter was cancelled before it finished stopping", spec.name)
            code = EXIT_FAILED
        elif isinstance(result, MarinWatchError):  # deliberate: its message says it all
            log.error("the %s adapter stopped: %s", spec.name, result)
            code = EXIT_FAILED
        elif isinstance(result, BaseException):
            log.error("the %s adapter failed: %s", spec.name, result, exc_info=result)
            code = EXIT_FAILED
    log.info("stopped")
    return code


async def _run(run: RunAdapter, ctx: AppContext, stop: asyncio.Event) -> None:
    await run(ctx, stop)
    if not stop.is_set():
        raise RuntimeError("returned before it was asked to stop")


@contextmanager
def _signals(stop: asyncio.Event) -> Iterator[list[Callable[[], object]]]:
    """SIGTERM/SIGINT set ``stop``; a second one runs the callbacks (cancel what is left)."""
    loop = asyncio.get_running_loop()
    on_second: list[Callable[[], object]] = []

    def handle(signum: int) -> None:
        if stop.is_set():
            log.warning("second %s: cancelling", signal.Signals(signum).name)
            for callback in on_second:
                callback()
        else:
            log.info("%s: stopping", signal.Signals(signum).name)
            stop.set()

    installed = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, handle, signum)
            installed.append(signum)
        except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
            pass
    try:
        yield on_second
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)


def _secrets(settings: Settings) -> list[str]:
    values = []
    # Every SecretStr setting, whichever adapter added it.
    for name in type(settings).model_fields:
        secret = getattr(settings, name)
        if isinstance(secret, SecretStr) and secret.get_secret_value():
            values.append(secret.get_secret_value())
    return values


class RedactSecrets(logging.Filter):
    """Replace every secret in a log record (message, arguments, traceback) by ``***``."""

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


@contextmanager
def _secrets_redacted(secrets: Sequence[str]) -> Iterator[None]:
    """Tokens never reach a log: redact them in every handler, and keep httpx quiet.

    httpx logs each request URL at INFO, and the Bot API puts the token in the URL.
    """
    redact = RedactSecrets(secrets)
    handlers = list(logging.getLogger().handlers)
    for handler in handlers:
        handler.addFilter(redact)
    httpx_log = logging.getLogger("httpx")
    level = httpx_log.level
    httpx_log.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        httpx_log.setLevel(level)
        for handler in handlers:
            handler.removeFilter(redact)
