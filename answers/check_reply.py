"""The reply to "check this message": each assertion's verdict, quoted in its own words, and
the caveat covering every claim a verdict names."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from answers.assertions import MAX_ASSERTIONS, every_assertion
from answers.checking import Checker
from answers.render import Renderer
from answers.reply import Reply
from answers.verdicts import Assertion


def cited(assertions: Iterable[Assertion]) -> list[str]:
    """Every claim the verdicts rest on, once, in order: the reply's caveat covers them."""
    return list(dict.fromkeys(c for a in assertions for c in a.claims))


def check_reply(
    renderer: Renderer, checker: Checker, message: str, *, lang: str, written: dt.date
) -> Reply:
    """The verdict on each assertion of ``message`` (written on ``written``), quoted in its own
    words, with the caveat covering every claim a verdict names."""
    found = checker.check(message, written)
    # a wall of text is checked in its first assertions, and the reply says so, never silently
    left = max(0, len(every_assertion(message)) - MAX_ASSERTIONS)
    return renderer.reply(
        kind="check",
        lang=lang,
        claims=cited(found),
        context={"assertions": found, "left": left, "most": MAX_ASSERTIONS},
        extra={
            "topic": "check",
            "verdicts": [(a.words, a.verdict, a.doubted) for a in found],
            "left": left,
        },
    )
