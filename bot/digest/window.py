"""A digest's window: the recorded dates it reports, and the bounds a person may ask for."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from knowledge.errors import InputRejected

ONE_DAY = dt.timedelta(days=1)
# What a person may ask for: ten years back at most, and nothing before the KB could hold
# anything. Window itself accepts any size (it clamps); the commands refuse beyond these.
MAX_DAYS = 3650
EARLIEST = dt.date(2000, 1, 1)


@dataclass(frozen=True)
class Window:
    """Recorded dates ``after < date <= through``; ``after=None`` means since the beginning.

    The constructors never overflow ``datetime.date``: a window reaching back past the first
    representable date starts at the beginning (``after=None``) instead.
    """

    after: dt.date | None
    through: dt.date

    @classmethod
    def between(cls, start: dt.datetime, end: dt.datetime) -> Window:
        """The dates a scheduled digest window ``(start, end]`` reports.

        A recorded date counts once its UTC day is over: the KB only knows dates, and an
        entry recorded "today" may still be deployed after this morning's digest. So the
        digest at ``end`` reports the complete days before it; consecutive windows share no
        date and leave none out.
        """
        return cls(
            after=_days_before(start.astimezone(dt.UTC).date(), 1),
            through=_days_before(end.astimezone(dt.UTC).date(), 1) or dt.date.min,
        )

    @classmethod
    def last_days(cls, days: int, today: dt.date) -> Window:
        """The last ``days`` days, ``today`` included; more days than the calendar holds
        means since the beginning."""
        if days < 1:
            raise InputRejected(f"a digest covers at least 1 day, not {days}")
        return cls(after=_days_before(today, days), through=today)

    @classmethod
    def since(cls, first: dt.date, today: dt.date) -> Window:
        """From ``first`` (inclusive) through ``today``."""
        return cls(after=_days_before(first, 1), through=today)

    @property
    def first(self) -> dt.date | None:
        """The first date reported, or None when the window starts at the beginning."""
        return None if self.after is None else self.after + ONE_DAY

    def __contains__(self, day: object) -> bool:
        if not isinstance(day, dt.date):
            return False
        return (self.after is None or day > self.after) and day <= self.through


def _days_before(day: dt.date, days: int) -> dt.date | None:
    """``day - days``, or None when that falls before the first representable date."""
    ordinal = day.toordinal() - days
    return dt.date.fromordinal(ordinal) if ordinal >= 1 else None
