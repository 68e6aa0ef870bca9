"""When each source of a cycle is polled: hosts in parallel, one after another on a host, and
all of it within the cycle's deadline.

Every request already has its own timeouts and its own deadline (``FetchPolicy.deadline``,
the **per-source budget**: a source that cannot answer in time fails alone, and backs off).
That does not bound a cycle: four slow sources on one host, each just inside its budget, add
up. So the cycle as a whole has a deadline too (``CYCLE_DEADLINE``). At the deadline every
poll still running, or still waiting for its turn, is cancelled: its response is closed (the
fetcher closes it on the way out), nothing of it is stored, and the source is polled again
next cycle. What was fetched before the deadline is recorded: a poll stores its result
without yielding to the event loop, so a cancellation lands between sources, never inside
one's bookkeeping.

The deadline is wall time (the event loop's clock), not the injected ``Clock``: it bounds
how long ``serve`` waits, whatever time the story says it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

import httpx

from bot.watchers.fetch import origin

T = TypeVar("T")

CYCLE_DEADLINE = 60.0  # seconds: a whole cycle, however slow the hosts
# The end of the deadline kept for closing what was cut (a socket close, no network wait):
# a tenth of it, at most this.
CLOSING_GRACE = 1.0


def by_origin(urls: Iterable[tuple[str, T]]) -> list[list[T]]:
    """The items grouped by the origin of their URL, each group in the order given."""
    groups: dict[str, list[T]] = {}
    for url, item in urls:
        groups.setdefault(origin(httpx.URL(url)), []).append(item)
    return list(groups.values())


async def poll_within(
    queues: Sequence[Sequence[T]],
    poll: Callable[[T], Awaitable[None]],
    *,
    deadline: float = CYCLE_DEADLINE,
) -> None:
    """Run each queue in order, the queues side by side, until all are done or ``deadline``
    seconds have passed; then cancel what is left, and let it close.

    ``poll`` records its own result: an item it did not finish was not polled. An error that
    is not a source's own (the store is gone, a bug) is raised once the others are stopped.
    """

    async def run(queue: Sequence[T]) -> None:
        for item in queue:
            await poll(item)

    tasks = [asyncio.create_task(run(q)) for q in queues if q]
    if not tasks:
        return
    grace = min(CLOSING_GRACE, deadline / 10)
    try:
        done, _ = await asyncio.wait(
            tasks, timeout=max(deadline - grace, 0.0), return_when=asyncio.FIRST_EXCEPTION
        )
    finally:  # the deadline passed, or the cycle itself was cancelled (``serve`` stopping)
        cut = [t for t in tasks if not t.done()]
        for task in cut:
            task.cancel()
        if cut:
            await asyncio.wait(cut, timeout=grace)
    for task in done:
        error = task.exception()
        if error is not None:
            raise error
