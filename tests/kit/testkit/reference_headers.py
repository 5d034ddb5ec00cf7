"""The reference's reading of response headers: lookup, ``Retry-After`` and HTTP dates.

docs/sdk-contract.md section 1 (step 6) and section 2b, written from the
contract alone; :class:`~testkit.reference.Reference` derives from it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from errcat.model.catalogue import Catalogue

DIGITS = re.compile(r"[0-9]{1,15}")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

Json = Any
Headers = Mapping[str, str] | Iterable[tuple[str, str]]
"""Response headers: a mapping, or ``(name, value)`` pairs (a name may repeat)."""


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


class HeaderReference:
    """The contract's header steps: a header's value, ``retry_after_ms``, HTTP dates."""

    cat: Catalogue

    @staticmethod
    def header(headers: Headers, name: str) -> str | None:
        """A header value, looked up case-insensitively.

        A name given more than once (in any case) gives its values joined with
        ``", "`` in the order given, as ``fetch``'s ``Headers`` does.
        """
        pairs = headers.items() if isinstance(headers, Mapping) else headers
        values = [value for key, value in pairs if key.lower() == name]
        return ", ".join(values) if values else None

    @staticmethod
    def days_since_epoch(year: int, month: int, day: int) -> int:
        """Days from 1970-01-01 to a proleptic Gregorian date (month 1 to 12), for any year >= 0."""

        def days_before(y: int) -> int:  # days of the years 0 .. y-1 (year 0 is a leap year)
            return 365 * y + (y + 3) // 4 - (y + 99) // 100 + (y + 399) // 400

        months = [31, 29 if _leap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return days_before(year) - days_before(1970) + sum(months[: month - 1]) + day - 1

    @classmethod
    def http_date_ms(cls, value: str, now: datetime) -> int | None:
        """Milliseconds from ``now`` to an HTTP date (0 if past), or ``None`` if not one (section 2b)."""
        day_name = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
        long_day = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
        month_name = "(" + "|".join(MONTHS) + ")"
        clock = "([0-9]{2}):([0-9]{2}):([0-9]{2})"
        year: int | None
        if m := re.fullmatch(
            f"{day_name}, ([0-9]{{2}}) {month_name} ([0-9]{{4}}) {clock} GMT", value
        ):
            day, month, year, clock_at = m[1], m[2], int(m[3]), 4
        elif m := re.fullmatch(
            f"{long_day}, ([0-9]{{2}})-{month_name}-([0-9]{{2}}) {clock} GMT", value
        ):
            day, month, year, clock_at = m[1], m[2], None, 4
        elif m := re.fullmatch(
            f"{day_name} {month_name} ([0-9]{{2}}| [0-9]) {clock} ([0-9]{{4}})", value
        ):
            day, month, year, clock_at = m[2], m[1], int(m[6]), 3
        else:
            return None
        d, mo = int(day.strip()), MONTHS.index(month) + 1
        h, mi, sec = (int(m[clock_at + i]) for i in range(3))
        if d < 1 or h > 23 or mi > 59 or sec > 60:
            return None
        now_ms = (now - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
        if year is None:
            # RFC 9110: the latest year ending in these digits not more than 50 years after now.
            n = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=now_ms)
            limit = (n.year + 50, n.month, n.day, n.hour, n.minute, n.second)
            year = n.year + 50
            while year % 100 != int(m[3]) or (year, mo, d, h, mi, sec) > limit:
                year -= 1
        if d > cls.days_in_month(year, mo):
            return None
        when = cls.days_since_epoch(year, mo, d) * 86_400_000 + ((h * 60 + mi) * 60 + sec) * 1000
        return max(0, when - now_ms)

    @staticmethod
    def days_in_month(year: int, month: int) -> int:
        """The number of days of a month (1 to 12) of a proleptic Gregorian year."""
        return [31, 29 if _leap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]

    def retry_after(self, context: dict[str, Json], headers: Headers, now: datetime) -> int | None:
        """``retry_after_ms``: context, then ``Retry-After-Ms``, then ``Retry-After``; at most the ceiling."""
        delay = self.uncapped_retry_after(context, headers, now)
        return None if delay is None else min(delay, self.cat.limits.retry_after_max_ms)

    def uncapped_retry_after(
        self, context: dict[str, Json], headers: Headers, now: datetime
    ) -> int | None:
        """The delay the context or the headers give, before the ceiling."""
        value = context.get("retry_after_ms")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        ms = self.header(headers, "retry-after-ms")
        if ms is not None and DIGITS.fullmatch(ms):
            return int(ms)
        seconds = self.header(headers, "retry-after")
        if seconds is None:
            return None
        if DIGITS.fullmatch(seconds):
            return int(seconds) * 1000
        return self.http_date_ms(seconds, now)
