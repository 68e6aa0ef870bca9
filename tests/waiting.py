"""Helpers for tests that wait on a running adapter."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait until ``condition()`` is true (the test fails after ``timeout`` seconds)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def retries(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The start-up retry lines ``serve`` logged."""
    return [r.getMessage() for r in caplog.records if "could not start" in r.getMessage()]
