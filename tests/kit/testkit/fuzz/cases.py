"""One fuzz case: a status, headers, a body tree, how the body is handed over, and a token.

A case is a JSON-ready dict ``{"status", "headers": [[name, value], ...],
"body": node, "as_text", "token"}``; :func:`generate` makes one from a
random source, :func:`wire` renders it as both SDKs receive it.
"""

from __future__ import annotations

import base64
import random
from typing import Any

from testkit.fuzz import bodies, texts
from testkit.fuzz.texts import Pool

Case = dict[str, Any]
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
LONG_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DIGIT_JUNK = ("+5", " 5", "5 ", "5.0", "-1", "５", "٣", "1e3", "0x10", "", " ", "5,6", "1_000")


def _year(rng: random.Random) -> int:
    return rng.choice(
        (
            0,
            1,
            99,
            100,
            1600,
            1900,
            1970,
            1994,
            2000,
            2024,
            2025,
            2026,
            2027,
            2076,
            2100,
            9999,
            rng.randint(0, 9999),
        )
    )


def _day(rng: random.Random, month: int) -> int:
    if rng.random() < 0.2:
        return rng.choice((0, 29, 30, 31, 32, 99))
    return rng.randint(1, 28) if month != 2 or rng.random() < 0.7 else 29


def _clock(rng: random.Random) -> str:
    if rng.random() < 0.15:
        return rng.choice(("23:59:60", "24:00:00", "00:60:00", "12:00:61", "1:00:00", "99:99:99"))
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def http_date(rng: random.Random) -> str:
    """An HTTP date in one of the three forms, mostly valid, sometimes broken in one way."""
    month = rng.randint(1, 12)
    day, year, clock = _day(rng, month), _year(rng), _clock(rng)
    mon = MONTHS[month - 1]
    form = rng.randint(0, 2)
    if form == 0:
        value = f"{rng.choice(DAYS)}, {day:02d} {mon} {year:04d} {clock} GMT"
    elif form == 1:
        value = f"{rng.choice(LONG_DAYS)}, {day:02d}-{mon}-{year % 100:02d} {clock} GMT"
    else:
        shown = f"{day:2d}" if rng.random() < 0.8 else f"{day:02d}"
        value = f"{rng.choice(DAYS)} {mon} {shown} {clock} {year:04d}"
    if rng.random() < 0.1:  # one small break: case, spacing, zone, a trailing character
        value = rng.choice(
            (
                value.lower(),
                value.upper(),
                value.replace(" ", "  ", 1),
                value.replace("GMT", "UTC"),
                value + " ",
                " " + value,
                value + "x",
            )
        )
    return value


def _retry_after(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        return str(rng.randint(0, 10 ** rng.randint(1, 16)))
    if kind < 0.45:
        return rng.choice(DIGIT_JUNK)
    if kind < 0.5:
        return "0" * rng.randint(1, 20) + "7"
    return http_date(rng)


def _name(rng: random.Random, name: str) -> str:
    return rng.choice((name, name.lower(), name.upper(), name.title()))


def headers(rng: random.Random, pool: Pool, token: str | None) -> list[list[str]]:
    """Response headers: request id, Retry-After-Ms and Retry-After in legal and illegal forms; names repeat in other cases."""
    out: list[list[str]] = []
    if rng.random() < 0.5:
        value = (
            texts.text(rng, pool, token, 2)
            if rng.random() < 0.7
            else rng.choice(("", " ", "\u200b", "req-1"))
        )
        out.append([_name(rng, "X-Request-Id"), value])
    if rng.random() < 0.25:
        out.append(
            [
                _name(rng, "Retry-After-Ms"),
                _retry_after(rng) if rng.random() < 0.5 else str(rng.randint(0, 99999)),
            ]
        )
    if rng.random() < 0.5:
        out.append([_name(rng, "Retry-After"), _retry_after(rng)])
    if out and rng.random() < 0.1:  # the same name again, in another case: the values are joined
        name, _ = rng.choice(out)
        out.append([name.swapcase(), _retry_after(rng)])
    if rng.random() < 0.1:
        out.append(["Content-Type", rng.choice(("application/json", "text/html; charset=utf-8"))])
    seen: set[str] = set()
    unique = []
    for name, value in out:
        if name not in seen:
            seen.add(name)
            unique.append([name, value])
    return unique


def generate(rng: random.Random, pool: Pool) -> Case:
    """One hostile error response, and the caller's token."""
    token = texts.token(rng, pool)
    return {
        "status": rng.choice(pool.statuses) if rng.random() < 0.8 else rng.randint(0, 999),
        "headers": headers(rng, pool, token),
        "body": bodies.body(rng, pool, token),
        "as_text": rng.random() < 0.2,
        "token": token,
    }


def body_of(case: Case) -> bytes | str:
    """The body as the SDKs get it."""
    return bodies.render(case["body"], case["as_text"])


def request(case: Case, body: bytes | str) -> dict[str, Any]:
    """The case as a testee request (bytes as base64; text as a JSON string, lone surrogates escaped)."""
    compact = (
        {"text": body}
        if isinstance(body, str)
        else {"base64": base64.b64encode(body).decode("ascii")}
    )
    return {
        "op": "body",
        "status": case["status"],
        "headers": case["headers"],
        "token": case["token"],
        "body": compact,
    }
