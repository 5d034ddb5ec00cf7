"""The headers an error reads (``x-request-id``, ``Retry-After-Ms``, ``Retry-After``) and HTTP dates."""

from __future__ import annotations

from ._generated.catalogue import RETRY_AFTER_MAX_MS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["http_date_ms", "retry_after_ms_from_headers"]

WANTED = {"x-request-id": 0, "retry-after-ms": 1, "retry-after": 2}
"""The names read, lower case, with their index in what :func:`pick_headers` returns."""
WANTED_BYTES = {name.encode(): index for name, index in WANTED.items()}
_WANTED_LENGTHS = frozenset(map(len, WANTED))

Picked = list[str | None]
"""``[x-request-id, retry-after-ms, retry-after]``, each ``None`` when absent."""

_Parts = list[list[str]]
"""The values of each wanted header as they are found, joined once at the end."""


def _joined(parts: _Parts | None) -> Picked | None:
    """The values of each header joined with ``", "`` in order (one join each: linear in the total)."""
    if parts is None:
        return None
    return [", ".join(values) if values else None for values in parts]


def _pick_raw(raw: list[tuple[bytes, bytes]]) -> _Parts | None:
    """The values of the wanted headers among raw byte pairs, as ``httpx.Headers.raw`` gives them."""
    parts: _Parts | None = None
    for raw_key, raw_value in raw:
        if len(raw_key) in _WANTED_LENGTHS:
            index = WANTED_BYTES.get(raw_key.lower())
            if index is not None:
                if parts is None:
                    parts = [[], [], []]
                parts[index].append(raw_value.decode("latin-1"))
    return parts


def _pick_pairs(pairs: Iterable[tuple[object, object]]) -> _Parts | None:
    """The values of the wanted headers among name-value pairs (``str`` or ``bytes``)."""
    parts: _Parts | None = None
    for raw_key, raw_value in pairs:
        key = raw_key.decode("latin-1") if isinstance(raw_key, bytes) else raw_key
        if not isinstance(key, str) or len(key) not in _WANTED_LENGTHS:
            continue
        index = WANTED.get(key.lower())
        if index is None:
            continue
        value = raw_value.decode("latin-1") if isinstance(raw_value, bytes) else raw_value
        if isinstance(value, str):
            if parts is None:
                parts = [[], [], []]
            parts[index].append(value)
    return parts


def pick_headers(headers: object) -> Picked | None:
    """``[x-request-id, retry-after-ms, retry-after]`` from any headers object, or ``None`` if none is there.

    Names are compared case-insensitively; a name given more than once (in
    any case) gets its values joined with ``", "`` in order, as ``fetch``'s
    ``Headers.get`` does, in time linear in the headers' size (the values
    are collected, then joined once). Accepts ``httpx.Headers`` (its raw
    byte pairs, decoded as Latin-1, as ``fetch`` does), any mapping, or
    pairs. Headers that fail to iterate give nothing.
    """
    try:
        raw = None if type(headers) is dict else getattr(headers, "raw", None)
        if type(raw) is list:
            return _joined(_pick_raw(raw))
        pairs: Iterable[tuple[object, object]]
        pairs = headers.items() if hasattr(headers, "items") else headers  # type: ignore[assignment]
        return _joined(_pick_pairs(pairs))
    except Exception:
        return None


def _digits(value: str) -> bool:
    return 0 < len(value) <= 15 and value.isascii() and value.isdigit()


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_LONG_DAYS = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})"
_DATE_FORMS = (
    # IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    (f"{_DAYS}, ([0-9]{{2}}) {_MONTH} ([0-9]{{4}}) {_TIME} GMT", (0, 1, 2, 3, 4, 5)),
    # RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    (f"{_LONG_DAYS}, ([0-9]{{2}})-{_MONTH}-([0-9]{{2}}) {_TIME} GMT", (0, 1, 2, 3, 4, 5)),
    # asctime: Sun Nov  6 08:49:37 1994
    (f"{_DAYS} {_MONTH} ([0-9]{{2}}| [0-9]) {_TIME} ([0-9]{{4}})", (1, 0, 5, 2, 3, 4)),
)
_MS_PER_DAY = 86_400_000


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _month_days(year: int, month: int) -> int:
    return (31, 29 if _leap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (month 1 to 12), for any year >= 0."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_ms(ms: int) -> tuple[int, int, int, int, int, int]:
    """The UTC (year, month 1-12, day, hour, minute, second) of a time in ms since the epoch."""
    days, rest = divmod(ms, _MS_PER_DAY)
    rest //= 1000
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day, rest // 3600, rest // 60 % 60, rest % 60


def _two_digit_year(yy: int, rest: tuple[int, int, int, int, int], now_ms: int) -> int:
    """RFC 9110: the latest year ending in ``yy`` whose timestamp is not more than 50 years after now."""
    now = _civil_from_ms(now_ms)
    limit = (now[0] + 50, *now[1:])
    year = now[0] + 50 - (now[0] + 50 - yy) % 100
    while (year, *rest) > limit:
        year -= 100
    return year


def http_date_ms(value: str, now_ms: int) -> int | None:
    """Milliseconds since the epoch of an HTTP date (docs/sdk-contract.md section 2b), or ``None``.

    The three forms of RFC 9110 section 5.6.7 (IMF-fixdate, RFC 850, asctime)
    matched exactly, in the proleptic Gregorian calendar from year 0000; a
    leap second counts as 60 seconds; an RFC 850 two-digit year is read
    against ``now_ms`` (the latest such year not more than 50 years ahead).
    """
    import re

    for pattern, order in _DATE_FORMS:
        m = re.fullmatch(pattern, value)
        if m is None:
            continue
        groups = m.groups()
        day, month_name, year_text, hh, mm, ss = (groups[i] for i in order)
        month = _MONTHS.index(month_name) + 1
        day_n, hour, minute, second = int(day), int(hh), int(mm), int(ss)
        if day_n < 1 or hour > 23 or minute > 59 or second > 60:
            return None
        year = int(year_text)
        if len(year_text) == 2:
            year = _two_digit_year(year, (month, day_n, hour, minute, second), now_ms)
        if day_n > _month_days(year, month):
            return None
        return (
            _days_from_civil(year, month, day_n) * _MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000
        )
    return None


def bounded_delay(ms: int | None) -> int | None:
    """A delay the context or a header gave, cut to the catalogue's ``RETRY_AFTER_MAX_MS``."""
    return None if ms is None else min(ms, RETRY_AFTER_MAX_MS)


def header_delay(picked: Picked | None, now_ms: int | None = None) -> int | None:
    """The retry delay of the headers: ``Retry-After-Ms``, else ``Retry-After`` (seconds or an HTTP date).

    At most the catalogue's ``RETRY_AFTER_MAX_MS``.
    """
    if picked is None:
        return None
    _, ms_header, header = picked
    if ms_header is not None and _digits(ms_header):
        return bounded_delay(int(ms_header))
    if header is None:
        return None
    if _digits(header):
        return bounded_delay(int(header) * 1000)
    if now_ms is None:
        import time

        now_ms = time.time_ns() // 1_000_000
    when = http_date_ms(header, now_ms)
    return None if when is None else bounded_delay(max(0, when - now_ms))


def retry_after_ms_from_headers(headers: object, now_ms: int | None = None) -> int | None:
    """The retry delay the headers give: ``Retry-After-Ms``, else ``Retry-After`` (seconds or an HTTP date).

    Digits must be plain ASCII, at most 15 of them; a date in the past gives
    0; a delay longer than the catalogue's ``RETRY_AFTER_MAX_MS`` gives that.
    """
    return header_delay(pick_headers(headers), now_ms)
