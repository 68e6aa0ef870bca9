"""The protocol every adapter's digest sender follows, and the help it gets.

An adapter implements ``Sender`` (one method)::

    class TelegramSender:
        async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
            ...  # split reply.sections under 4,096 characters, post them from message skip+1
                 # on (``send_each``); translate errors:
                 # Forbidden → DestinationGone, ChatMigrated → DestinationMoved(new_id=...),
                 # RetryAfter / 5xx / network → DeliveryRetryable, anything else → DeliveryError
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeVar

from answers.reply import Reply
from bot.store.contract import Delivery, DeliveryState, Destination
from knowledge.errors import DeliveryError, DestinationGone, DestinationMoved


class Sender(Protocol):
    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        """Post ``reply`` (split at ``reply.sections`` as the platform needs), leaving out its
        first ``skip`` messages (already posted by an attempt that failed part-way), or raise
        one of ``DestinationGone``, ``DestinationMoved``, ``DeliveryRetryable``,
        ``DeliveryError``, or ``PartlyDelivered`` when some messages went out."""
        ...


class PartlyDelivered(DeliveryError):
    """The first ``delivered`` of a reply's ``total`` messages went out, then ``cause``."""

    def __init__(self, delivered: int, total: int, cause: DeliveryError) -> None:
        super().__init__(
            f"{delivered} of {total} messages sent; then {type(cause).__name__}: {cause}"
        )
        self.delivered, self.total, self.cause = delivered, total, cause


M = TypeVar("M")


async def send_each(
    messages: Sequence[M], post: Callable[[M], Awaitable[None]], *, skip: int = 0
) -> None:
    """Post ``messages[skip:]`` in order; a failure after the first message says how far it got.

    ``DestinationGone`` and ``DestinationMoved`` pass unchanged: the first ends the
    subscription, the second sends the whole digest to the new chat.
    """
    for index in range(skip, len(messages)):
        try:
            await post(messages[index])
        except (DestinationGone, DestinationMoved):
            raise
        except DeliveryError as exc:
            if index == 0:
                raise
            raise PartlyDelivered(index, len(messages), exc) from exc


def delivered_before(failed: Delivery | None) -> int:
    """How many messages a FAILED delivery got out before it failed (0 if none)."""
    if failed is None or failed.state is not DeliveryState.FAILED:
        return 0
    return failed.messages_sent
