"""Compact bodies (``{"text"}``, ``{"base64"}``, ``{"parts": [...]}``) expanded, by the vectors, the server and the testee.

A 50 MB body is a few bytes on disk (``{"repeat": unit, "times": n}`` parts)
and is streamed in chunks; a string part of a bytes body is encoded as UTF-8
with each lone surrogate as U+FFFD, as the contract's bounding step does with
a string.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

STREAM_CHUNK = 64 * 1024

Json = Any


def well_formed(text: str) -> str:
    """``text`` as JavaScript would encode it: surrogate pairs joined, lone surrogates U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def part_text(part: Json) -> str:
    if isinstance(part, str):
        return part
    if "repeat" in part:
        unit: str = part["repeat"]
        return unit * int(part["times"])
    raise ValueError(f"a text body cannot hold the part {part!r}")


def _part_chunks(part: Json) -> Iterator[bytes]:
    if isinstance(part, str):
        yield well_formed(part).encode("utf-8")
    elif "base64" in part:
        yield base64.b64decode(part["base64"], validate=True)
    else:
        unit = well_formed(part["repeat"]).encode("utf-8")
        times = int(part["times"])
        per_chunk = max(1, STREAM_CHUNK // max(1, len(unit)))
        while times > 0:
            count = min(times, per_chunk)
            yield unit * count
            times -= count


def _part_length(part: Json) -> int:
    if isinstance(part, str):
        return len(well_formed(part).encode("utf-8"))
    if "base64" in part:
        return len(base64.b64decode(part["base64"], validate=True))
    return len(well_formed(part["repeat"]).encode("utf-8")) * int(part["times"])


def body_text(body: dict[str, Json]) -> str:
    """The body of a text case, as the string handed to the SDK (lone surrogates kept)."""
    if "text" in body:
        text: str = body["text"]
        return text
    return "".join(part_text(part) for part in body["parts"])


def body_chunks(body: dict[str, Json]) -> Iterator[bytes]:
    """The body's bytes on the wire, lazily, in chunks of at most about 64 KiB.

    A text body is encoded as UTF-8 with each lone surrogate as U+FFFD, which is
    what the contract's bounding step does with a string.
    """
    if "text" in body:
        yield well_formed(body["text"]).encode("utf-8")
    elif "base64" in body:
        yield base64.b64decode(body["base64"], validate=True)
    else:
        for part in body["parts"]:
            yield from _part_chunks(part)


def body_length(body: dict[str, Json]) -> int:
    """How many bytes :func:`body_chunks` yields, without building them."""
    if "text" in body:
        return len(well_formed(body["text"]).encode("utf-8"))
    if "base64" in body:
        return len(base64.b64decode(body["base64"], validate=True))
    return sum(_part_length(part) for part in body["parts"])


def expand(body: dict[str, Json] | None) -> bytes | str:
    """A body as the SDK is handed it: a string for ``text`` (and ``"as": "text"``), else bytes."""
    if not body:
        return ""
    if "text" in body or ("parts" in body and body.get("as", "bytes") == "text"):
        return body_text(body)
    return b"".join(body_chunks(body))
